"""Two int4 values per byte: `pack_int4` and `unpack_int4`.

Along the packed axis, element `2i` goes to the low nibble and element
`2i + 1` to the high nibble of byte `i` (Keras's layout, so packed
kernels in Keras files read back unchanged).
"""
import numpy as np

from kerasish.backend.dtypes import standardize_dtype
from kerasish.backend.tensor import Tensor
from kerasish.quantizers.quantizers import to_array


def _check_dtype(dtype):
    if dtype not in ("int8", "uint8"):
        raise ValueError(
            f"Expected dtype to be 'int8' or 'uint8', but got '{dtype}'.")


def pack_int4(arr, axis=0, dtype="int8"):
    """Pack int4 values (stored one per int8) two per byte along `axis`.

    An odd length is padded with a zero.

    Args:
        arr: `int8` (values in `[-8, 7]`) or `uint8` (values in `[0, 15]`)
            tensor, matching `dtype`.
        axis: The axis to pack. Defaults to 0.
        dtype: `"int8"` or `"uint8"`. Defaults to `"int8"`.

    Returns:
        `(packed, packed_shape, orig_len)`: the packed tensor, its shape
        and the unpadded length of `axis`.

    Example:

    >>> values = np.array([[-3, 7], [2, -8], [1, 0]], dtype="int8")
    >>> packed, shape, length = pack_int4(values)
    >>> packed.numpy().tolist(), shape, length
    ([[45, -121], [1, 0]], (2, 2), 3)
    """
    _check_dtype(dtype)
    x = to_array(arr)
    if standardize_dtype(x.dtype) != dtype:
        raise TypeError(f"Expected {dtype} tensor for packing, got "
                        f"{standardize_dtype(x.dtype)}.")
    x = np.moveaxis(x, axis, 0)
    length = x.shape[0]
    if length % 2:
        x = np.concatenate([x, np.zeros((1,) + x.shape[1:], x.dtype)])
    nibbles = x.astype(np.int16) & 0x0F
    packed = (nibbles[::2] | (nibbles[1::2] << 4)).astype(np.uint8)
    packed = np.moveaxis(packed.view(dtype), 0, axis)
    return Tensor(np.ascontiguousarray(packed)), tuple(packed.shape), length


def unpack_int4(packed, orig_len, axis=0, dtype="int8"):
    """Undo `pack_int4`: split each byte into two int4 values.

    Args:
        packed: int8 or uint8 tensor from `pack_int4`.
        orig_len: The unpadded length of the packed axis.
        axis: The packed axis. Defaults to 0.
        dtype: `"int8"` (values in `[-8, 7]`) or `"uint8"` (`[0, 15]`).

    Returns:
        The unpacked tensor of dtype `dtype`.

    Example:

    >>> packed = np.array([[45, -121], [1, 0]], dtype="int8")
    >>> unpack_int4(packed, 3).numpy().tolist()
    [[-3, 7], [2, -8], [1, 0]]
    """
    _check_dtype(dtype)
    x = to_array(packed)
    if standardize_dtype(x.dtype) not in ("int8", "uint8"):
        raise TypeError(
            f"Expected int8 or uint8 tensor for unpacking, got {x.dtype}")
    return Tensor(unpack_array(x, orig_len, axis, dtype))


def unpack_array(x, orig_len, axis=-1, dtype="int8"):
    """`unpack_int4` on a numpy array, returning a numpy array."""
    x = np.moveaxis(x, axis, 0).view(np.uint8)
    low = (x & 0x0F).astype(np.int8)
    high = (x >> 4).astype(np.int8)
    if dtype == "int8":
        low, high = (low ^ 8) - 8, (high ^ 8) - 8
    out = np.empty((2 * x.shape[0],) + x.shape[1:], np.int8)
    out[0::2], out[1::2] = low, high
    return np.moveaxis(out[:orig_len].astype(dtype, copy=False), 0, axis)
