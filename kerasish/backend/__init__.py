"""The numpy backend: tensors, reverse-mode autodiff and primitives.

`kerasish.backend` also answers the `keras.backend` queries scripts use
(`backend()`, `floatx()`, `epsilon()`, `image_data_format()`, ...).
"""
from kerasish.backend import allocator  # noqa: F401  (tunes glibc once)
from kerasish.backend.config import (backend, floatx, set_floatx, epsilon,  # noqa: F401
                                     set_epsilon, image_data_format,
                                     set_image_data_format,
                                     standardize_data_format)
from kerasish.backend.dtypes import standardize_dtype, result_type  # noqa: F401
from kerasish.backend.tensor import Tensor  # noqa: F401
from kerasish.backend.indexed_slices import IndexedSlices  # noqa: F401
from kerasish.backend.tape import GradientTape, stop_recording  # noqa: F401
from kerasish.backend.primitive import (primitive, Primitive,  # noqa: F401
                                        unbroadcast, nondiff)
from kerasish.backend import math, reduction, shape, linalg, nn  # noqa: F401
from kerasish.backend import random  # noqa: F401


def is_float_dtype(dtype):
    """Whether `dtype` (a name or numpy dtype) is a floating-point type.

    Example:

    >>> kerasish.backend.is_float_dtype("float16")
    True
    >>> kerasish.backend.is_float_dtype("int32")
    False
    """
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype):
    """Whether `dtype` (a name or numpy dtype) is a signed or unsigned int.

    Example:

    >>> kerasish.backend.is_int_dtype("uint8")
    True
    >>> kerasish.backend.is_int_dtype("float32")
    False
    """
    return standardize_dtype(dtype).startswith(("int", "uint"))


def clear_session(free_memory=True):
    """Reset automatic layer naming (and the global name scope).

    Example:

    >>> kerasish.backend.clear_session()
    >>> [kerasish.layers.Dense(1).name for _ in range(2)]
    ['dense', 'dense_1']
    >>> kerasish.backend.clear_session()
    >>> kerasish.layers.Dense(1).name
    'dense'
    """
    from kerasish.engine import naming
    naming.reset_uids()
