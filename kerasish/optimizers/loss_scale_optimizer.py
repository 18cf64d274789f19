"""`LossScaleOptimizer`: dynamic loss scaling around another optimizer.

Mixed-precision training multiplies the loss by a large scale so small
float16 gradients do not underflow, then divides the gradients by it. The
scale adapts: a step with non-finite gradients is skipped and halves the
scale; `dynamic_growth_steps` finite steps in a row double it.
"""
import numpy as np

from kerasish.optimizers.base_optimizer import Optimizer
from kerasish.optimizers import gradients as G
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import \
    deserialize_keras_object

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None,
                  "global_clipnorm": None, "clipvalue": None,
                  "use_ema": False, "ema_momentum": 0.99,
                  "ema_overwrite_frequency": None, "loss_scale_factor": None,
                  "gradient_accumulation_steps": None}


def _check_kwargs(kwargs):
    if not kwargs.pop("dynamic", True):
        raise ValueError(
            "LossScaleOptimizer no longer supports `dynamic=False`. Instead, "
            "simply set `loss_scale_factor` directly on the "
            "`inner_optimizer`.")
    for name, default in _BASE_DEFAULTS.items():
        if name in kwargs and kwargs.pop(name) != default:
            raise ValueError(
                f"LossScaleOptimizer does not support `{name}`. Instead, set "
                f"`{name}` on the `inner_optimizer`.")
    if kwargs:
        raise ValueError("LossScaleOptimizer does not support arguments: "
                         f"`{'`, `'.join(kwargs)}`.")


@builtin("keras.optimizers")
class LossScaleOptimizer(Optimizer):
    """Dynamically scale the loss, skipping steps whose gradients overflow.

    `fit` multiplies the loss by `scale_loss`; `apply` divides the
    gradients by the current scale before handing them to the inner
    optimizer, or skips the step and halves the scale when any gradient is
    inf or NaN. After `dynamic_growth_steps` good steps the scale doubles.
    `compile(auto_scale_loss=True)` wraps the optimizer in one when the
    model's dtype policy is `"mixed_float16"`, as Keras does.

    Args:
        inner_optimizer: The `Optimizer` doing the updates.
        initial_scale: Starting loss scale. Defaults to `2 ** 15`.
        dynamic_growth_steps: Good steps before the scale doubles.
            Defaults to 2000.
        name: Optimizer name.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0])
    >>> opt = LossScaleOptimizer(kerasish.optimizers.SGD(0.1),
    ...                          initial_scale=4.0)
    >>> opt.apply([np.array([np.inf], "float32")], [w])   # skipped
    >>> float(opt.dynamic_scale.numpy()), w.numpy().tolist()
    (2.0, [1.0])
    >>> opt.apply([np.array([2.0], "float32")], [w])      # 2 / 2 = 1
    >>> w.numpy().tolist()
    [0.8999999761581421]
    """

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15,
                 dynamic_growth_steps=2000, name=None, **kwargs):
        _check_kwargs(kwargs)
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.inner_optimizer.loss_scale_factor = None

    def build(self, var_list):
        self.step_counter = self.add_variable((), "zeros", dtype="int32",
                                              name="step_counter")
        self.dynamic_scale = self.add_variable(
            (), dtype="float32", name="dynamic_scale",
            value=float(self.initial_scale))
        self.inner_optimizer.build(var_list)
        super().build(var_list)

    @property
    def variables(self):
        return list(self._variables) + self.inner_optimizer.variables

    def apply(self, grads, trainable_variables=None):
        """Unscale and apply `grads`, or skip the step if any overflowed."""
        if not self.built:
            self.build(list(trainable_variables))
        variables = trainable_variables or self._trainable_variables
        if not self.check_finite(grads):
            self.step_counter.assign(0)
            self.dynamic_scale.assign(self.dynamic_scale._value * 0.5)
            return
        scale = self.dynamic_scale._value
        unscaled = [g if g is None or v.overwrite_with_gradient else
                    G.scale(G.as_array(g), 1.0 / scale)
                    for g, v in zip(grads, variables)]
        self.inner_optimizer.apply(unscaled, trainable_variables)
        if int(self.step_counter._value) == self.dynamic_growth_steps - 1:
            self.step_counter.assign(0)
            self.dynamic_scale.assign(scale * 2.0)
        else:
            self.step_counter._value += 1

    @staticmethod
    def check_finite(grads):
        """Whether every gradient value is finite."""
        return all(np.all(np.isfinite(G.values_of(G.as_array(g))))
                   for g in grads if g is not None)

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        """The loss times the current scale."""
        scale = self.dynamic_scale._value if self.built else \
            np.asarray(self.initial_scale, "float32")
        return loss * scale

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self):
        return {"name": self.name,
                "inner_optimizer": serialize_keras_object(
                    self.inner_optimizer),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        inner = deserialize_keras_object(config.pop("inner_optimizer"),
                                         custom_objects=custom_objects)
        return cls(inner, **config)
