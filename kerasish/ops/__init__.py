"""`kerasish.ops`: the `keras.ops` namespace on the numpy backend.

Every op accepts tensors, variables, numpy arrays and Python numbers, returns
a `Tensor`, is differentiable under `GradientTape` where Keras's is, and,
called on symbolic `KerasTensor`s, records a node of a functional graph.
"""
from kerasish.ops import operators  # noqa: F401  (binds Tensor's operators)
from kerasish.ops.core import *  # noqa: F401,F403
from kerasish.ops.core import map, slice  # noqa: F401  (shadow builtins)
from kerasish.ops.numpy import *  # noqa: F401,F403
from kerasish.ops.numpy import (abs, all, any, max, min, round,  # noqa: F401
                                sum)
from kerasish.ops.nn import *  # noqa: F401,F403
from kerasish.ops.math import *  # noqa: F401,F403
from kerasish.ops.einsum import einsum  # noqa: F401
from kerasish.ops.conv import (average_pool, conv, conv_transpose,  # noqa: F401
                               depthwise_conv, max_pool, separable_conv,
                               adaptive_average_pool, adaptive_max_pool)
from kerasish.ops import numpy, nn, math, core  # noqa: F401,E402
from kerasish.ops.linalg import *  # noqa: F401,F403
from kerasish.ops import linalg, image  # noqa: F401,E402
from kerasish.ops.nn_extra import *  # noqa: F401,F403,E402
from kerasish.ops.candidate_sampling import *  # noqa: F401,F403,E402
from kerasish.ops.sampled_losses import *  # noqa: F401,F403,E402
from kerasish.ops.nn_tf import *  # noqa: F401,F403,E402
