"""The numpy backend: tensors, reverse-mode autodiff and primitives.

`kerasish.backend` also answers the `keras.backend` queries scripts use
(`backend()`, `floatx()`, `epsilon()`, `image_data_format()`, ...).
"""
from kerasish.backend import allocator  # noqa: F401  (tunes glibc once)
from kerasish.backend.config import (backend, floatx, set_floatx,  # noqa: F401
                                     epsilon, set_epsilon, image_data_format,
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
from kerasish.backend.common import naming
from kerasish.backend.common import global_state as config_utils
from kerasish.backend.common.keras_tensor import KerasTensor


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
    """Reset the global state: automatic names, name scopes, switches.

    As in Keras, this restarts layer naming (`dense`, `dense_1`, ...) and
    `get_uid` counters, empties the name scope stack, and resets the
    global dtype policy and the interactive-logging, traceback-filtering
    and flash-attention switches to their defaults. `floatx`, `epsilon`
    and the epoch/step caps are module settings and are kept.

    Args:
        free_memory: Whether to run Python's garbage collector, freeing the
            memory of deleted models right away. Defaults to `True`.

    Example:

    >>> kerasish.backend.clear_session()
    >>> [kerasish.layers.Dense(1).name for _ in range(2)]
    ['dense', 'dense_1']
    >>> kerasish.backend.clear_session()
    >>> kerasish.layers.Dense(1).name
    'dense'
    """
    import gc  # lazy: kept out of `import kerasish`
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.engine import dtype_policy
    naming.reset_uids()
    naming.reset_name_scopes()
    dtype_policy.set_dtype_policy(None)
    config_utils.reset_switches()
    if free_memory:
        gc.collect()


def get_uid(prefix=""):
    """A per-prefix counter: 1 on the first call, then 2, 3, ...

    `clear_session()` resets the counters.

    Args:
        prefix: The counter's name. Defaults to `""`.

    Example:

    >>> kerasish.backend.clear_session()
    >>> kerasish.backend.get_uid("x"), kerasish.backend.get_uid("x")
    (1, 2)
    """
    return naming.get_uid(prefix)


def is_keras_tensor(x):
    """Whether `x` is a symbolic `KerasTensor` (from `Input` or a layer).

    Example:

    >>> kerasish.backend.is_keras_tensor(kerasish.Input((3,)))
    True
    >>> kerasish.backend.is_keras_tensor(np.ones(3))
    False
    """
    return isinstance(x, KerasTensor)
