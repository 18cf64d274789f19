"""Clipping, weight decay and the weights' moving average (EMA): the
optional parts of an optimizer step, shared by every optimizer; and
`minimize`, the one-call step of TF2-era scripts."""
import re

import numpy as np

from kerasish.optimizers import gradients as G
from kerasish.backend import tape as tape_module


class OptimizerExtras:
    """`clipnorm` / `clipvalue` / `global_clipnorm`, decoupled weight decay
    (with exclusions), `use_ema`, as Keras 3 applies them, and TF2's
    `minimize`."""

    def minimize(self, loss, var_list, tape=None):
        """Minimize `loss` by updating `var_list` (TF2 Keras's `minimize`).

        Args:
            loss: A scalar tensor recorded on `tape`, or a callable taking
                no arguments and returning the loss (run under a new tape).
            var_list: Variables to update, or a callable returning them
                (called after `loss()`, so variables it creates count).
            tape: The `GradientTape` that recorded a tensor `loss`. If
                `None`, the innermost recording tape is used (kerasish: an
                Estimator runs `model_fn` under one).

        Returns:
            `iterations` (the train op of an Estimator's `EstimatorSpec`).

        Example:

        >>> import kerasish
        >>> w = kerasish.Variable([1.0])
        >>> step = kerasish.optimizers.SGD(0.1).minimize(lambda: w * w, [w])
        >>> w.numpy(), int(step.numpy())
        (array([0.8], dtype=float32), 1)
        """
        if callable(loss):
            tape = tape_module.GradientTape()
            with tape:
                if not callable(var_list):
                    tape.watch(var_list)
                loss = loss()
        elif tape is None:
            tapes = tape_module.active_tapes()
            if not tapes:
                raise ValueError(
                    "`tape` is required when a `Tensor` loss is passed. "
                    f"Received: loss={loss}, tape={tape}.")
            tape = tapes[-1]
        var_list = list(var_list() if callable(var_list) else var_list)
        grads = tape.gradient(loss, var_list)
        return self.apply_gradients(zip(grads, var_list))

    # -- clipping and decay ---------------------------------------------------
    def _clip(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [G.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            return G.clip_by_global_norm(grads, self.global_clipnorm)
        if self.clipvalue and self.clipvalue > 0:
            return [G.clip_by_value(g, self.clipvalue) for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Skip weight decay for these variables, or for variables whose
        name matches any of the regular expressions `var_names` (as Keras:
        `re.search` on `variable.name`).

        Meant to be called before the optimizer is built; as Keras, a later
        call still takes effect from the next step.
        """
        self._exclude_ids = {id(v) for v in var_list or []}
        self._exclude_names = re.compile("|".join(sorted(set(var_names)))) \
            if var_names else None

    def _use_weight_decay(self, variable):
        if id(variable) in self._exclude_ids:
            return False
        if self._exclude_names is not None:
            return self._exclude_names.search(variable.name) is None
        return True

    def _apply_weight_decay(self, variables):
        if self.weight_decay is None:
            return
        for v in variables:
            if self._use_weight_decay(v):
                lr = self._lr(self.learning_rate, v.dtype)
                wd = np.asarray(self.weight_decay, v.dtype)
                v._value -= v._value * wd * lr

    # -- EMA ----------------------------------------------------------------
    def _update_ema(self):
        not_first = int(self.iterations._value) != 0
        for v, avg in zip(self._trainable_variables, self._average):
            if avg is not None:
                momentum = np.asarray(self.ema_momentum if not_first else 0.0,
                                      v.dtype)
                avg._value[...] = momentum * avg._value + \
                    (1 - momentum) * v._value
        freq = self.ema_overwrite_frequency
        if freq and (int(self.iterations._value) + 1) % freq == 0:
            self._overwrite_with_average(self._trainable_variables)

    def _overwrite_with_average(self, variables):
        for v in variables:
            avg = self._average[self._get_variable_index(v)]
            if avg is not None:
                v.assign(avg._value)

    def finalize_variable_values(self, var_list):
        """At the end of `fit`: replace the weights by their EMA, if used."""
        if self.use_ema:
            self._overwrite_with_average(var_list)

    def scale_loss(self, loss):
        """The loss times `loss_scale_factor` (unchanged if None)."""
        if self.loss_scale_factor is not None:
            return loss * self.loss_scale_factor
        return loss
