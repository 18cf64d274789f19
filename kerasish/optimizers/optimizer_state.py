"""Reading and restoring an optimizer: variables and config.

`variables` are saved by index (`"0"`, `"1"`, ...) in Keras's order:
`iteration`, `learning_rate` (when it is a float), then the slots
interleaved per trainable variable, so Keras weight files load here and
the other way round.
"""
import warnings

import numpy as np
from kerasish.backend.common.variable import Variable
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import \
    deserialize_keras_object


class OptimizerState:
    """`save_own_variables` / `load_own_variables`, weights and config."""

    def save_own_variables(self, store):
        """Write every variable into `store` under its index."""
        for i, variable in enumerate(self.variables):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        """Restore every variable from `store` (skipped, with a warning, if
        the counts differ, e.g. before the optimizer is built)."""
        if len(store.keys()) != len(self.variables):
            msg = (f"Skipping variable loading for optimizer '{self.name}', "
                   f"because it has {len(self.variables)} variables whereas "
                   f"the saved optimizer has {len(store.keys())} variables. ")
            if not self.variables:
                msg += ("This is likely because the optimizer has not been "
                        "called/built yet.")
            warnings.warn(msg, stacklevel=2)
            return
        for i, variable in enumerate(self.variables):
            variable.assign(np.asarray(store[str(i)]).astype(variable.dtype))

    def get_weights(self):
        """Copies of all variables, in `variables` order."""
        return [np.array(v.numpy()) for v in self.variables]

    def set_weights(self, weights):
        """Restore all variables from `get_weights()` output."""
        if not self.built:
            raise ValueError(
                "You are calling `set_weights()` on an optimizer that has "
                "not yet been built. Please call "
                "`optimizer.build(trainable_variables)` to create the "
                "optimizer weights before calling `set_weights()`.")
        if len(weights) != len(self.variables):
            raise ValueError(
                f"Optimizer '{self.name}' has {len(self.variables)} "
                f"variables, but {len(weights)} weights were given.")
        for variable, value in zip(self.variables, weights):
            if tuple(np.shape(value)) != tuple(variable.shape):
                raise ValueError(
                    f"Optimizer variable {variable.path} has shape "
                    f"{variable.shape}, received weight shape "
                    f"{np.shape(value)}.")
            variable.assign(value)

    def get_config(self):
        lr = self._learning_rate
        lr = float(lr._value) if isinstance(lr, Variable) else \
            serialize_keras_object(lr)
        return {"name": self.name, "learning_rate": lr,
                "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps":
                    self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuild from `get_config()` (a schedule config is deserialized)."""
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = deserialize_keras_object(
                config["learning_rate"], custom_objects=custom_objects)
        return cls(**config)
