"""`OptimizerMap` and `MultiOptimizer`: different optimizers per variable.

An `OptimizerMap` maps variable paths (exact, else regex full matches) to
optimizers, with a default; `MultiOptimizer` splits each step's gradients
among its inner optimizers, which keep their own slots, learning rates
and iteration counters. Its `variables` are its own (`iteration`,
`learning_rate`) followed by each inner optimizer's, and weights files
also hold every inner optimizer under `optimizer/optimizers/<class>`,
the layout Keras 3.15 writes.
"""
import re
from collections.abc import MutableMapping

from kerasish.optimizers.base_optimizer import Optimizer
from kerasish.optimizers.loss_scale_optimizer import LossScaleOptimizer
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import \
    deserialize_keras_object


@builtin("keras.optimizers")
class OptimizerMap(MutableMapping):
    """Map variable paths (or path regexes) to optimizers.

    A lookup tries the exact key first, then every key as a regular
    expression that must match the whole path (`re.fullmatch`); no match
    gives the default optimizer, two regex matches are an error.

    Args:
        default_optimizer: `Optimizer` for variables no key matches.
        optimizer_map: Optional dict of path or regex -> `Optimizer`.

    Example:

    >>> opt_map = OptimizerMap(kerasish.optimizers.RMSprop())
    >>> opt_map["encoder/layer_0/dense"] = kerasish.optimizers.Adam()
    >>> opt_map["encoder/.*"] = kerasish.optimizers.SGD()
    >>> [type(opt_map[p]).__name__ for p in ("encoder/layer_0/dense",
    ...                                      "encoder/layer_1/kernel",
    ...                                      "decoder")]
    ['Adam', 'SGD', 'RMSprop']
    """

    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(
                "default_optimizer must be a Keras Optimizer instance. "
                f"Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError("optimizer_map must be a dictionary. "
                            f"Received: {optimizer_map}")
        self._default_optimizer = default_optimizer
        self._optimizer_map = optimizer_map or {}

    @property
    def default_optimizer(self):
        return self._default_optimizer

    def __getitem__(self, key):
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matches = [p for p in self._optimizer_map if re.fullmatch(p, key)]
        if len(matches) > 1:
            raise ValueError(
                f"Multiple optimizers assigned to variable {key}.")
        if matches:
            return self._optimizer_map[matches[0]]
        return self._default_optimizer

    def __setitem__(self, key, optimizer):
        if key in self._optimizer_map:
            raise ValueError(
                f"'{key}' already exists in the OptimizerMap with value "
                f"{self._optimizer_map[key]}. Please make sure to not use "
                "duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        _check_inner(optimizer, "optimizer")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        """The optimizer of `variable` (looked up by its path)."""
        return self[variable.path]

    def get_config(self):
        return {"default_optimizer":
                serialize_keras_object(self._default_optimizer),
                "optimizer_map": serialize_keras_object(self._optimizer_map)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(*[deserialize_keras_object(config[key],
                                              custom_objects=custom_objects)
                     for key in ("default_optimizer", "optimizer_map")])


def _check_inner(optimizer, what):
    if not isinstance(optimizer, Optimizer):
        raise ValueError(f"{what} must be a Keras Optimizer instance. "
                         f"Received: {optimizer}")
    if isinstance(optimizer, LossScaleOptimizer):
        raise ValueError(f"{what} cannot be LossScaleOptimizer.")
    if isinstance(optimizer, MultiOptimizer):
        raise ValueError(f"{what} cannot be MultiOptimizer.")


@builtin("keras.optimizers")
class MultiOptimizer(Optimizer):
    """Delegate each variable to its own optimizer.

    Each step, the gradients are split by optimizer and every inner
    optimizer applies its share (so each keeps its own learning rate,
    slots and `iterations`); the `MultiOptimizer` counts steps too. It has
    no learning rate of its own: reading or setting `learning_rate` raises
    an `AttributeError` -- use the inner optimizers (`optimizers`).

    Args:
        optimizer_map: An `OptimizerMap`, or a callable returning the
            optimizer of a variable.
        loss_scale_factor: Loss scale factor, set on every inner optimizer
            (overriding theirs). Defaults to `None`.
        name: Optional name. Defaults to `"multi_optimizer"`.

    Example:

    >>> model = kerasish.Sequential([
    ...     kerasish.Input((3,)), kerasish.layers.Dense(4, name="enc"),
    ...     kerasish.layers.Dense(1, name="head")])
    >>> [v.path for v in model.layers[0].weights]
    ['sequential/enc/kernel', 'sequential/enc/bias']
    >>> adam = kerasish.optimizers.Adam(0.01)
    >>> opt = MultiOptimizer(OptimizerMap(kerasish.optimizers.SGD(0.1),
    ...                                   {".*/enc/.*": adam}))
    >>> model.compile(optimizer=opt, loss="mse")
    >>> _ = model.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
    >>> [type(o).__name__ for o in opt.optimizers]
    ['Adam', 'SGD']
    >>> int(adam.iterations.numpy()), int(opt.optimizers[1].iterations.numpy())
    (1, 1)
    """

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        super().__init__(learning_rate=0.0,
                         loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        self._inner_optimizers = []
        inner = list(optimizer_map.values()) \
            if hasattr(optimizer_map, "values") else []
        default = getattr(optimizer_map, "default_optimizer", None)
        for opt in inner + ([default] if default is not None else []):
            self._adopt(opt)

    def _adopt(self, optimizer):
        if all(optimizer is not o for o in self._inner_optimizers):
            optimizer.loss_scale_factor = self.loss_scale_factor
            self._inner_optimizers.append(optimizer)

    @property
    def optimizers(self):
        """The inner optimizers (map values first, then the default)."""
        return self._inner_optimizers

    @property
    def variables(self):
        own = list(self._variables)
        for opt in self._inner_optimizers:
            own.extend(opt.variables)
        return own

    @property
    def learning_rate(self):
        raise AttributeError(
            "Learning rate cannot be accessed on a MultiOptimizer. Access "
            "the learning rate on the individual sub-optimizers instead.")

    @learning_rate.setter
    def learning_rate(self, value):
        raise AttributeError(
            "Learning rate cannot be set on a MultiOptimizer. Set the "
            "learning rate on the individual sub-optimizers instead.")

    @property
    def loss_scale_factor(self):
        return self.__dict__.get("_loss_scale_factor")

    @loss_scale_factor.setter
    def loss_scale_factor(self, value):
        self._loss_scale_factor = value
        for opt in self.__dict__.get("_inner_optimizers", ()):
            opt.loss_scale_factor = value

    @property
    def iterations(self):
        return self._iterations

    def build(self, variables):
        """Assign each variable to its optimizer and build them all."""
        if self.built:
            return
        self._owner = {}
        for variable in variables:
            opt = self._optimizer_map(variable)
            _check_built_inner(opt, variable)
            self._adopt(opt)
            self._owner[id(variable)] = opt
        for opt in self._inner_optimizers:
            mine = [v for v in variables if self._owner[id(v)] is opt]
            if mine:
                opt.build(mine)
        super().build(variables)

    def apply(self, grads, trainable_variables=None):
        """Split `grads` by optimizer and let each apply its share."""
        if len(grads) == 0:
            return
        variables = self._resolve_variables(grads, trainable_variables)
        if len(grads) != len(self._trainable_variables):
            raise ValueError(
                "Gradients must match trainable variables one-to-one. "
                f"Received {len(grads)} gradients and "
                f"{len(self._trainable_variables)} variables.")
        for opt in self._inner_optimizers:
            pairs = [(g, v) for g, v in zip(grads, variables)
                     if self._owner[id(v)] is opt]
            if pairs:
                opt.apply([g for g, _ in pairs], [v for _, v in pairs])
        self._iterations._value += 1

    def finalize_variable_values(self, var_list):
        """Let each inner optimizer finalize its variables (EMA swap)."""
        owner = self.__dict__.get("_owner", {})     # empty until built
        for opt in self._inner_optimizers:
            mine = [v for v in var_list if owner.get(id(v)) is opt]
            if mine:
                opt.finalize_variable_values(mine)

    def get_config(self):
        return {"optimizer_map": serialize_keras_object(self._optimizer_map),
                "loss_scale_factor": self.loss_scale_factor,
                "name": self.name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["optimizer_map"] = deserialize_keras_object(
            config["optimizer_map"], custom_objects=custom_objects)
        return cls(**config)


def _check_built_inner(optimizer, variable):
    if not isinstance(optimizer, Optimizer):
        raise ValueError(f"Optimizer for variable {variable} is not an "
                         "Optimizer instance.")
    if isinstance(optimizer, LossScaleOptimizer):
        raise ValueError(
            "LossScaleOptimizer cannot be used inside an MultiOptimizer.")
    if isinstance(optimizer, MultiOptimizer):
        raise ValueError(
            "MultiOptimizer cannot be used inside an MultiOptimizer.")
