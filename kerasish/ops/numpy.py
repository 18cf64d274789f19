"""numpy-style ops (`keras.ops.numpy`), differentiable where Keras's are.

Each function converts its inputs, applies Keras's type promotion (an int
operand meeting a float one becomes that float type; ints going into a
function with float results become `floatx()`) and calls backend
primitives; composite ops get their gradients from the primitives they
use. The functions live in modules by concept:

* `numpy_base`: arithmetic, comparisons, exp/log, sin/cos/tanh, clip,
  where;
* `numpy_trig`: other bases, trigonometry and inverses, sinc, i0;
* `numpy_math`: float helpers (trunc, fmax, fmod, ldexp, ...);
* `numpy_bits`: integer, bitwise and complex-number functions;
* `numpy_reduce`: sums, extrema, moments, cumulative ops;
* `numpy_stats`: quantiles and NaN-ignoring reductions;
* `numpy_series`: diff, trapezoid, corrcoef, correlate, histogram;
* `numpy_shape`: reshape, transpose, axes, flips, rotations, grids;
* `numpy_join`: joins, splits, tiling and padding;
* `numpy_index`: indexing, gathers, triangles, diagonals, select;
* `numpy_linear`: matmul, dot, tensordot, kron, cross, vander;
* `numpy_create`: constants and ranges; `numpy_windows`: windows;
* `numpy_misc`: sorting, searching, sets, counting, vectorize, view.
"""
from kerasish.ops import (numpy_base, numpy_bits, numpy_create,
                          numpy_index, numpy_join, numpy_linear, numpy_math,
                          numpy_misc, numpy_reduce, numpy_series,
                          numpy_shape, numpy_stats, numpy_trig,
                          numpy_windows)
from kerasish.ops.numpy_base import *  # noqa: F401,F403
from kerasish.ops.numpy_base import (_binary, _float, _kind,  # noqa: F401
                                     _promote, _tensors, _unary, abs, round)
from kerasish.ops.numpy_bits import *  # noqa: F401,F403
from kerasish.ops.numpy_create import *  # noqa: F401,F403
from kerasish.ops.numpy_index import *  # noqa: F401,F403
from kerasish.ops.numpy_index import (_normalize_key, _place,  # noqa: F401
                                      _scatter_like)
from kerasish.ops.numpy_join import *  # noqa: F401,F403
from kerasish.ops.numpy_linear import *  # noqa: F401,F403
from kerasish.ops.numpy_math import *  # noqa: F401,F403
from kerasish.ops.numpy_misc import *  # noqa: F401,F403
from kerasish.ops.numpy_reduce import *  # noqa: F401,F403
from kerasish.ops.numpy_reduce import (_axis, all, any, max,  # noqa: F401
                                       min, sum)
from kerasish.ops.numpy_series import *  # noqa: F401,F403
from kerasish.ops.numpy_shape import *  # noqa: F401,F403
from kerasish.ops.numpy_stats import *  # noqa: F401,F403
from kerasish.ops.numpy_trig import *  # noqa: F401,F403
from kerasish.ops.numpy_windows import *  # noqa: F401,F403

__all__ = sorted(set(
    numpy_base.__all__ + numpy_bits.__all__ + numpy_create.__all__
    + numpy_index.__all__ + numpy_join.__all__ + numpy_linear.__all__
    + numpy_math.__all__ + numpy_misc.__all__ + numpy_reduce.__all__
    + numpy_series.__all__ + numpy_shape.__all__ + numpy_stats.__all__
    + numpy_trig.__all__ + numpy_windows.__all__
    + ["einsum", "slogdet", "ndim", "size"]))


# Keras lists these four in `keras.ops.numpy` too; they live in modules that
# import this one, so they are bound once everything above is defined.
from kerasish.ops.core import ndim, size  # noqa: E402
from kerasish.ops.einsum import einsum  # noqa: E402
from kerasish.ops.linalg import slogdet  # noqa: E402
