"""kerasish: the Keras 3 API on a pure-numpy runtime with its own autodiff.

    import kerasish as keras
"""
from kerasish.version import __version__  # noqa: F401
from kerasish import backend, ops, tree  # noqa: F401
from kerasish.backend.tape import GradientTape  # noqa: F401
from kerasish.backend.tensor import Tensor  # noqa: F401
from kerasish.backend.common.variable import Variable  # noqa: F401
from kerasish.backend.common.keras_tensor import KerasTensor  # noqa: F401
from kerasish.engine.dtype_policy import DTypePolicy  # noqa: F401
from kerasish import (activations, initializers, regularizers,  # noqa: F401
                      constraints, losses, metrics, optimizers, layers,
                      callbacks, saving, models, utils, random, config,
                      distribute, datasets)
from kerasish.layers import Layer, Input, InputSpec  # noqa: F401
from kerasish.models import Model, Sequential  # noqa: F401
from kerasish.losses import Loss  # noqa: F401
from kerasish.metrics import Metric  # noqa: F401
from kerasish.optimizers import Optimizer  # noqa: F401
from kerasish.callbacks import Callback  # noqa: F401
from kerasish.backend.random import SeedGenerator  # noqa: F401
from kerasish import data  # noqa: F401,E402
from kerasish import feature_column  # noqa: F401,E402
import importlib

# Namespaces and names loaded on first use (keeps `import kerasish` fast).
_LAZY_MODULES = ("dtype_policies", "mixed_precision", "quantizers",
                 "applications", "preprocessing", "visualization")
_LAZY_NAMES = {"FloatDTypePolicy": "kerasish.dtype_policies",
               "Quantizer": "kerasish.quantizers"}
_LAZY_MODULES += ("legacy", "distribution", "distillation",
                  "wrappers", "train", "estimator")
_LAZY_NAMES.update({
    "Function": "kerasish.engine.function",
    "Operation": "kerasish.ops.operation",
    "Initializer": "kerasish.initializers",
    "Regularizer": "kerasish.regularizers",
    "name_scope": "kerasish.backend.common.scopes",
    "device": "kerasish.backend.common.scopes",
    "RematScope": "kerasish.backend.common.scopes",
    "remat": "kerasish.backend.common.scopes",
    "StatelessScope": "kerasish.backend.common.scopes",
    "SymbolicScope": "kerasish.backend.common.scopes"})


def __getattr__(name):
    if name in _LAZY_MODULES:
        return importlib.import_module(f"kerasish.{name}")
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(_LAZY_NAMES[name]), name)
    raise AttributeError(f"module 'kerasish' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_MODULES) | set(_LAZY_NAMES))
