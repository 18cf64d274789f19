"""`Optimizer`: the update machinery shared by every optimizer.

`apply(grads, variables)` runs Keras 3's pipeline in Keras's order: build
the slots on first use, drop `None` gradients (warning), assign the
gradient to `overwrite_with_gradient` variables, unscale
`loss_scale_factor`, then either accumulate (`gradient_accumulation_steps`)
or clip (`clipnorm` / `clipvalue` / `global_clipnorm`), decay weights and
call `update_step` per variable; then update the EMA, project with
constraints and count `iterations`. Slot variables are created per
trainable variable in its order (`m_0, v_0, m_1, v_1, ...`, as Keras saves
them). Updates happen in place on numpy arrays. Embedding gradients arrive
as `IndexedSlices` rows; optimizers whose rule allows it apply them as row
updates (`_supports_sparse`), the others see a dense gradient.
"""
import warnings

import numpy as np

from kerasish.backend import config
from kerasish.backend.indexed_slices import (IndexedSlices,
                                             shared_row_groups)
from kerasish.backend.tensor import Tensor
from kerasish.backend.common import naming
from kerasish.backend.common.variable import Variable, make_variable
from kerasish.optimizers import gradients as G
from kerasish.optimizers.optimizer_extras import OptimizerExtras
from kerasish.optimizers.optimizer_state import OptimizerState
from kerasish.optimizers.schedules import LearningRateSchedule
from kerasish import initializers

_BASE_ARGS = ("weight_decay", "clipnorm", "clipvalue", "global_clipnorm",
              "use_ema", "ema_momentum", "ema_overwrite_frequency",
              "loss_scale_factor", "gradient_accumulation_steps", "name")


def base_kwargs(arguments):
    """The common optimizer arguments among a constructor's `locals()`."""
    return {key: arguments[key] for key in _BASE_ARGS if key in arguments}


class Optimizer(OptimizerExtras, OptimizerState):
    """Base class of optimizers.

    Subclasses create their slots in `build(var_list)` with
    `add_optimizer_variables` and implement
    `update_step(gradient, variable, learning_rate)`.

    Args:
        learning_rate: Float, a `LearningRateSchedule`, or a callable
            returning the rate.
        weight_decay: Decoupled weight decay factor, or None (default).
        clipnorm: Clip each gradient to this L2 norm.
        clipvalue: Clip each gradient entry to `[-clipvalue, clipvalue]`.
        global_clipnorm: Clip all gradients to this joint L2 norm.
        use_ema: Keep an exponential moving average of the weights
            (default False); `fit` swaps it in at the end of training.
        ema_momentum: EMA momentum. Defaults to 0.99.
        ema_overwrite_frequency: Overwrite weights with the EMA every N
            steps (default None: only at the end of `fit`).
        loss_scale_factor: Multiply the loss and divide the gradients by
            this factor (mixed-precision underflow guard).
        gradient_accumulation_steps: Apply the averaged gradients every N
            steps (N >= 2); None (default) applies every step.
        name: Optimizer name (default: the snake_case class name).

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> class HalfStep(Optimizer):
    ...     def update_step(self, gradient, variable, learning_rate):
    ...         variable.assign_sub(0.5 * learning_rate * gradient)
    >>> w = kerasish.Variable([1.0])
    >>> _ = HalfStep(learning_rate=0.2).apply([np.array([1.0], "float32")],
    ...                                       [w])
    >>> w.numpy()
    array([0.9], dtype=float32)
    """

    # Subclasses whose update_step handles IndexedSlices rows set this.
    _supports_sparse = False

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn(
                "Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        self.name = name or naming.auto_name(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue = clipnorm, clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema, self.ema_momentum = use_ema, ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._validate()
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index_by_path = {}
        self._exclude_ids, self._exclude_names = set(), None
        self._iterations = self.add_variable((), "zeros", dtype="int32",
                                             name="iteration")
        self._learning_rate = self._make_learning_rate(learning_rate)

    def _validate(self):
        steps = self.gradient_accumulation_steps
        if steps and not steps >= 2:
            raise ValueError(
                "`gradient_accumulation_steps` must be an integer >= 2. "
                f"Received: gradient_accumulation_steps={steps}")
        if self.use_ema:
            if not 0 <= self.ema_momentum <= 1:
                raise ValueError(
                    "`ema_momentum` must be in the range [0, 1]. "
                    f"Received: ema_momentum={self.ema_momentum}")
            freq = self.ema_overwrite_frequency
            if freq and (not isinstance(freq, int) or freq < 1):
                raise ValueError(
                    "`ema_overwrite_frequency` must be an integer >= 1 or "
                    f"None. Received: ema_overwrite_frequency={freq}")
        clips = [self.clipnorm, self.clipvalue, self.global_clipnorm]
        if sum(c is not None for c in clips) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` "
                f"can be set. Received: clipnorm={self.clipnorm}, "
                f"clipvalue={self.clipvalue}, "
                f"global_clipnorm={self.global_clipnorm}")

    def _make_learning_rate(self, learning_rate):
        if isinstance(learning_rate, LearningRateSchedule) or \
                callable(learning_rate):
            return learning_rate
        if isinstance(learning_rate, (int, np.integer)) and \
                not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
        if not isinstance(learning_rate, (float, np.floating)):
            raise ValueError(
                "Argument `learning_rate` should be float, or an instance of "
                "LearningRateSchedule, or a callable (that takes in the "
                "current iteration value and returns the corresponding "
                f"learning rate value). Received instead: "
                f"learning_rate={learning_rate}")
        return self.add_variable((), "zeros", dtype=config.floatx(),
                                 name="learning_rate",
                                 value=float(learning_rate))

    # -- variables -----------------------------------------------------------
    @property
    def variables(self):
        return list(self._variables)

    @property
    def iterations(self):
        """Number of applied updates (with gradient accumulation, the raw
        step count divided by `gradient_accumulation_steps`)."""
        if self.gradient_accumulation_steps:
            return Tensor(self._iterations._value //
                          self.gradient_accumulation_steps)
        return self._iterations

    def _local_step(self, dtype):
        """`iterations + 1` as a scalar of `dtype` (Keras's `local_step`)."""
        return np.asarray(int(self.iterations._value) + 1, dtype=dtype)

    def add_variable(self, shape, initializer="zeros", dtype=None,
                     aggregation="none", name=None, value=None):
        """Create an optimizer state variable (non-trainable)."""
        init = initializers.get(initializer) if value is None else \
            np.full(shape, value, dtype=dtype or config.floatx())
        with naming.name_scope(self.name):
            variable = make_variable("optimizer", init, shape=shape,
                                     dtype=dtype, trainable=False,
                                     name=name, aggregation=aggregation)
        self._variables.append(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None,
                                    initializer="zeros"):
        """A slot shaped like `reference_variable`, named after its path."""
        name = f"{reference_variable.path.replace('/', '_')}_{name or 'var'}"
        return self.add_variable(reference_variable.shape, initializer,
                                 dtype=reference_variable.dtype, name=name)

    def add_optimizer_variables(self, trainable_variables, name,
                                initializer="zeros"):
        """Slots for each variable: one list per name, interleaved."""
        names = [name] if isinstance(name, str) else list(name)
        inits = list(initializer) if isinstance(initializer, (list, tuple)) \
            else [initializer] * len(names)
        slots = tuple([] for _ in names)
        for variable in trainable_variables:
            for i, (slot_name, init) in enumerate(zip(names, inits)):
                slots[i].append(
                    None if variable.overwrite_with_gradient else
                    self.add_variable_from_reference(variable, slot_name,
                                                     init))
        return slots[0] if isinstance(name, str) else slots

    def build(self, variables):
        """Create the slot variables for `variables` (once)."""
        if self.use_ema:
            self._average = self.add_optimizer_variables(variables,
                                                         "average")
        if self.gradient_accumulation_steps:
            self._accumulated = self.add_optimizer_variables(
                variables, "gradient_accumulator")
        for i, variable in enumerate(variables):
            self._index_by_path[self._key(variable)] = i
        self._trainable_variables = list(variables)
        self.built = True

    @staticmethod
    def _key(variable):
        return id(variable)

    def _get_variable_index(self, variable):
        return self._index_by_path[self._key(variable)]

    def _scratch(self, variable, count=2):
        """Reusable temporaries shaped like `variable` (no fresh pages per
        step: allocating multi-MB temporaries costs page faults)."""
        cache = self.__dict__.setdefault("_scratch_buffers", {})
        buffers = cache.get(id(variable))
        if buffers is None or len(buffers) < count:
            buffers = cache[id(variable)] = [
                np.empty(variable.shape, variable.dtype)
                for _ in range(count)]
        return buffers

    def assign(self, variable, value):
        variable.assign(value)

    def assign_add(self, variable, value):
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        variable.assign_sub(value)

    # -- learning rate --------------------------------------------------------
    @property
    def learning_rate(self):
        """The current rate: the variable, or the schedule's value now."""
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            return Tensor(np.asarray(lr(self._iterations._value),
                                     dtype=config.floatx()))
        if isinstance(lr, Variable):
            return lr
        return Tensor(np.asarray(lr(), dtype=config.floatx()))

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, LearningRateSchedule) or callable(value):
            if isinstance(self._learning_rate, Variable):
                self._variables.remove(self._learning_rate)
            self._learning_rate = value
            return
        if not isinstance(self._learning_rate, Variable):
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` "
                "object as its `learning_rate` constructor argument, hence "
                "its learning rate is not settable. If you need the learning "
                "rate to be settable, you should instantiate the optimizer "
                "with a float `learning_rate` argument.")
        self._learning_rate.assign(np.asarray(getattr(value, "_value",
                                                      value)))

    @staticmethod
    def _lr(learning_rate, dtype):
        """The rate passed to `update_step` as a numpy scalar of `dtype`."""
        return np.asarray(getattr(learning_rate, "_value", learning_rate),
                          dtype=dtype)

    # -- applying gradients ---------------------------------------------------
    def apply_gradients(self, grads_and_vars):
        """Apply `[(gradient, variable), ...]`; returns `iterations`."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            return self._iterations
        grads, variables = zip(*grads_and_vars)
        self.apply(list(grads), list(variables))
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Apply `grads` to `trainable_variables` (one optimizer step)."""
        if len(grads) == 0:
            return
        variables = self._resolve_variables(grads, trainable_variables)
        grads, variables = self._filter_empty(grads, variables)
        grads, variables = self._overwrite_with_gradients(grads, variables)
        if grads:
            sorted_ids = {}     # per id vector, shared by its tables
            grads = [self._prepare(g, v, sorted_ids)
                     for g, v in zip(grads, variables)]
            if self.loss_scale_factor is not None:
                grads = [G.scale(g, 1.0 / self.loss_scale_factor)
                         for g in grads]
            self._apply_gradients(grads, variables)
            for v in variables:
                if v.constraint is not None:
                    v.assign(v.constraint(v))
        self._iterations._value += 1

    def stateless_apply(self, optimizer_variables, grads,
                        trainable_variables):
        """`apply` on the given values, changing no variable.

        Args:
            optimizer_variables: Values for `optimizer.variables`, 1:1.
            grads: Gradients, 1:1 with the variables the optimizer was
                built with.
            trainable_variables: Values for those variables, 1:1.

        Returns:
            `(trainable_variables, optimizer_variables)`: the new values.

        Example:

        >>> import kerasish
        >>> w = kerasish.Variable([1.0])
        >>> opt = kerasish.optimizers.SGD(0.1)
        >>> opt.build([w])
        >>> new_w, new_state = opt.stateless_apply(
        ...     [v.numpy() for v in opt.variables], [np.array([2.0])],
        ...     [np.array([3.0])])
        >>> new_w[0].numpy(), w.numpy(), int(new_state[0].numpy())
        (array([2.8], dtype=float32), array([1.], dtype=float32), 1)
        """
        # lazy: kept out of `import kerasish`
        from kerasish.backend.common.scopes import StatelessScope
        name = type(self).__name__
        if not self.built:
            raise ValueError(
                f"To call `stateless_apply`, {name} must be built (i.e. its "
                "variables must have been created). You can build it via "
                "`optimizer.build(trainable_variables)`.")
        own = self.variables
        if len(optimizer_variables) != len(own):
            raise ValueError(
                "Argument `optimizer_variables` must be a list of tensors "
                f"corresponding 1:1 to {name}().variables. Received list "
                f"with length {len(optimizer_variables)}, but expected "
                f"{len(own)} variables.")
        built_with = self._trainable_variables
        if len(trainable_variables) != len(built_with):
            raise ValueError(
                "Argument `trainable_variables` must be a list of tensors "
                "corresponding 1:1 to the trainable variables list that the "
                "optimizer was built with. Received len(trainable_variables) "
                f"== {len(trainable_variables)} whereas the optimizer was "
                f"built with {len(built_with)} variables.")
        mapping = list(zip(built_with, trainable_variables)) + \
            list(zip(own, optimizer_variables))
        with StatelessScope(mapping) as scope:
            self.apply(grads)
        return ([scope.get_current_value(v) for v in built_with],
                [scope.get_current_value(v) for v in own])

    def _resolve_variables(self, grads, variables):
        if variables is None:
            if not self.built:
                raise ValueError(
                    "When passing `grads` without `variables`, the optimizer "
                    "must already be built on a list of variables. Call "
                    "`optimizer.build(trainable_variables)` first.")
            if len(grads) != len(self._trainable_variables):
                raise ValueError(
                    "When passing `grads` as a list of gradient tensors, the "
                    "gradients must match `optimizer.variables` one-to-one. "
                    f"Received a list of {len(grads)} gradients, but the "
                    f"optimizer is tracking {len(self._trainable_variables)} "
                    "trainable variables.")
            return list(self._trainable_variables)
        variables = list(variables)
        if not self.built:
            with naming.name_scope(self.name):
                self.build(variables)
        for v in variables:
            if self._key(v) not in self._index_by_path:
                raise ValueError(
                    f"Unknown variable: {v.path}. This optimizer can only be "
                    "called for the variables it was originally built with. "
                    "When working with a new set of variables, you should "
                    "recreate a new optimizer instance.")
        return variables

    def _filter_empty(self, grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError("No gradients provided for any variable.")
        if len(kept) < len(grads):
            missing = [v.path for g, v in zip(grads, variables) if g is None]
            warnings.warn(
                f"Gradients do not exist for variables {missing} when "
                "minimizing the loss. If using `model.compile()`, did you "
                "forget to provide a `loss` argument?")
        return [g for g, _ in kept], [v for _, v in kept]

    def _overwrite_with_gradients(self, grads, variables):
        """Variables flagged `overwrite_with_gradient` take the gradient
        itself (with accumulation: the running maximum), as in Keras."""
        kept_grads, kept_vars = [], []
        steps = self.gradient_accumulation_steps
        for g, v in zip(grads, variables):
            if not v.overwrite_with_gradient:
                kept_grads.append(g)
                kept_vars.append(v)
                continue
            g = G.densify(G.as_array(g), v.dtype)
            if not steps:
                v.assign(g)
                continue
            acc = self._accumulated[self._get_variable_index(v)]
            if (int(self._iterations._value) + 1) % steps == 0:
                v.assign(np.maximum(g, acc._value))
                acc._value[...] = 0
            else:
                acc._value[...] = np.maximum(g, acc._value)
        return kept_grads, kept_vars

    def _prepare(self, g, variable, sorted_ids):
        g = G.as_array(g)
        if isinstance(g, IndexedSlices):
            if not self._supports_sparse or self.gradient_accumulation_steps:
                return G.densify(g, variable.dtype)
            rows, values = g.deduplicate(
                shared_row_groups(sorted_ids, g.indices))
            return IndexedSlices(rows, values.astype(variable.dtype,
                                                     copy=False),
                                 g.dense_shape)
        if g.shape != variable.shape:
            raise ValueError(
                f"Gradient for variable {variable.path} has shape {g.shape}, "
                f"but the variable has shape {variable.shape}.")
        return g.astype(variable.dtype, copy=False)

    def _apply_gradients(self, grads, variables):
        steps = self.gradient_accumulation_steps
        if not steps:
            self._update(grads, variables)
        else:
            accs = [self._accumulated[self._get_variable_index(v)]
                    for v in variables]
            if (int(self._iterations._value) + 1) % steps == 0:
                averaged = [(g + acc._value) / np.asarray(steps, g.dtype)
                            for g, acc in zip(grads, accs)]
                self._update(averaged, variables)
                for acc in accs:
                    acc._value[...] = 0
            else:
                for g, acc in zip(grads, accs):
                    acc._value += g
        if self.use_ema:
            self._update_ema()

    def _update(self, grads, variables):
        grads = self._clip(grads)
        self._apply_weight_decay(variables)
        self._update_all(grads, variables, self.learning_rate)

    def _update_all(self, grads, variables, learning_rate):
        """One `update_step` per variable (Keras's `_backend_update_step`)."""
        for g, v in zip(grads, variables):
            self.update_step(g, v, learning_rate)

    def update_step(self, gradient, variable, learning_rate):
        """Apply one gradient to one variable (implemented by subclasses)."""
        raise NotImplementedError(
            f"Optimizer {type(self).__name__} must implement update_step().")

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"
