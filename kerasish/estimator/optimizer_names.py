"""TF's names for the variables of a premade Estimator's optimizer.

TF 2.15's canned estimators build a (legacy) Keras optimizer in the
`training` name scope with its iteration counter replaced by the global
step. Their checkpoints hold, per optimizer class:

* `training/<Class>/<hyperparameter>` for each hyperparameter TF keeps in
  a variable (`learning_rate`, `decay`, SGD's `momentum`, Adam's
  `beta_1`/`beta_2`, ...);
* `training/<Class>/<variable>/<slot>` per slot, in TF's slot names
  (Adam's `m`/`v`/`vhat`, RMSprop's `rms`/`momentum`/`mg`, ...);
* no iteration counter (the global step is it), except for the second
  optimizer of a wide-and-deep model: `training/<Class>/iter`.

`tf_named_optimizer` builds a kerasish optimizer of the same class and
config under those names. Its update rule is unchanged: Keras 3 reads
the hyperparameters other than `learning_rate` from Python floats, so
their variables record the values (as TF's checkpoint does) but
assigning them changes nothing.
"""
import functools

from kerasish import initializers
from kerasish.backend import config
from kerasish.backend.common import naming
from kerasish.backend.common.variable import Variable
from kerasish.saving.serialization_lib import deserialize_keras_object

# Per Keras class: TF's slot names, the hyperparameters TF keeps in
# variables besides `learning_rate` and `decay`, and other renames (all
# read from TF 2.15's checkpoints, tests/fixtures/make_tf1_reference.py).
_TF_NAMES = {
    "SGD": ({"momentum": "momentum"}, ("momentum",), {}),
    "Adagrad": ({"accumulator": "accumulator"}, (), {}),
    "Adam": ({"momentum": "m", "velocity": "v", "velocity_hat": "vhat"},
             ("beta_1", "beta_2"), {}),
    "Adamax": ({"momentum": "m", "norm": "v"}, ("beta_1", "beta_2"), {}),
    "Nadam": ({"momentum": "m", "velocity": "v"}, ("beta_1", "beta_2"),
              {"variable": "momentum_cache"}),
    "Adadelta": ({"accumulated_grad": "accum_grad",
                  "accumulated_delta_var": "accum_var"}, ("rho",), {}),
    "Ftrl": ({"accumulator": "accumulator", "linear": "linear"},
             ("beta", "l1_regularization_strength",
              "l2_regularization_strength", "learning_rate_power"), {}),
    "RMSprop": ({"velocity": "rms", "momentum": "momentum",
                 "average_gradient": "mg"}, ("momentum", "rho"), {}),
}


def _names(optimizer_class):
    return _TF_NAMES.get(optimizer_class.__name__, ({}, (), {}))


class _Absolute:
    """A name-scope entry replacing the scopes opened before it."""

    override_parent = ""

    def __init__(self, name):
        self.name = name


class _TFNamed:
    """Mixin: an optimizer whose variables carry TF's Estimator names."""

    def __init__(self, *args, tf_global_step=None, **kwargs):
        self._tf_global_step = tf_global_step
        super().__init__(*args, **kwargs)
        for hyper in ("decay",) + _names(self._keras_class())[1]:
            self.add_variable((), dtype=config.floatx(), name=hyper,
                              value=float(getattr(self, hyper, 0.0)))

    @classmethod
    def _keras_class(cls):
        return cls.__mro__[2]

    def add_variable(self, shape, initializer="zeros", dtype=None,
                     aggregation="none", name=None, value=None):
        if name == "iteration":
            if self._tf_global_step is not None:
                return self._tf_global_step
            name = "iter"
        name = _names(self._keras_class())[2].get(name, name)
        return super().add_variable(shape, initializer, dtype, aggregation,
                                    name, value)

    def add_variable_from_reference(self, reference_variable, name=None,
                                    initializer="zeros"):
        slot = _names(self._keras_class())[0].get(name, name or "var")
        # Exactly `<optimizer>/<variable path>/<slot>` whatever scopes are
        # open (a Variable's own name cannot hold "/").
        with naming.name_scope(_Absolute(
                f"{self.name}/{reference_variable.path}")):
            variable = Variable(initializers.get(initializer),
                                shape=reference_variable.shape,
                                dtype=reference_variable.dtype,
                                trainable=False, name=slot)
        self._variables.append(variable)
        return variable


@functools.lru_cache(maxsize=None)
def _named_class(cls):
    return type(cls.__name__, (_TFNamed, cls), {
        "__module__": cls.__module__, "__qualname__": cls.__qualname__})


def tf_named_optimizer(optimizer, global_step=None):
    """A new optimizer of `optimizer`'s class and config whose variables
    have TF's Estimator names (see module docstring).

    Args:
        optimizer: A kerasish `Optimizer` (its config is copied).
        global_step: The global step `Variable` to count this optimizer's
            iterations (TF's `optimizer.iterations = global_step`); None
            gives it its own `iter` variable.

    Returns:
        An optimizer named `training/<Class>`.

    Example:

    >>> import kerasish
    >>> opt = tf_named_optimizer(kerasish.optimizers.SGD(0.1, momentum=0.9))
    >>> for path in sorted(v.path for v in opt.variables):
    ...     print(path)
    training/SGD/decay
    training/SGD/iter
    training/SGD/learning_rate
    training/SGD/momentum
    """
    cls = type(optimizer)
    if isinstance(optimizer, _TFNamed):
        cls = optimizer._keras_class()
    return tf_named_class_instance(cls, optimizer.get_config(), global_step)


def tf_named_class_instance(cls, config_, global_step=None):
    """`cls(**config_)` under TF's names (see `tf_named_optimizer`)."""
    config_ = dict(config_, name=f"training/{cls.__name__}")
    if isinstance(config_.get("learning_rate"), dict):
        config_["learning_rate"] = deserialize_keras_object(
            config_["learning_rate"])
    return _named_class(cls)(tf_global_step=global_step, **config_)
