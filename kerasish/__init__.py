"""kerasish: the Keras 3 API on a pure-numpy runtime with its own autodiff.

    import kerasish as keras
"""
from kerasish.version import __version__  # noqa: F401
from kerasish import backend, ops, tree  # noqa: F401
from kerasish.backend.tape import GradientTape  # noqa: F401
from kerasish.backend.tensor import Tensor  # noqa: F401
from kerasish.engine.variable import Variable  # noqa: F401
from kerasish.engine.keras_tensor import KerasTensor  # noqa: F401
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
from kerasish import train  # noqa: F401,E402
from kerasish import feature_column, estimator  # noqa: F401,E402
