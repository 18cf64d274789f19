"""Normalization ops of `keras.ops.nn` (re-exported by `kerasish.ops.nn`).

`batch_normalization` uses given statistics; `layer_normalization` computes
its own with the fused `standardize` primitive, so its backward pass is one
hand-written VJP rather than a dozen composite records.
"""
import warnings

import numpy as np

from kerasish.backend import config
from kerasish.backend import math as M
from kerasish.backend import normalization as BN
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops import numpy as knp
from kerasish.ops.symbolic import keras_op

# `standardize` (the fused primitive behind the normalization layers) stays
# importable from here but is not part of `keras.ops.nn`.
__all__ = ["batch_normalization", "layer_normalization", "rms_normalization",
           "psnr"]


# Ints and bools become floatx; float16/32/64 and bfloat16 stay as they are.
from kerasish.ops.numpy_base import _float, _kept_bfloat16  # noqa: E402


def _axes_list(axis, ndim, what="axis"):
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(
                f"Argument `{what}` is out of bounds for an input of rank "
                f"{ndim}. Received: {what}={axis}")
    return sorted(a % ndim for a in axes)


def _vector(v, like, shape):
    """`v` as a tensor of `like`'s dtype reshaped to broadcast `shape`."""
    v = cast(convert_to_tensor(v), like.dtype)
    if v.ndim and tuple(v.shape) != tuple(shape):
        # One value broadcasts over the axis, as Keras's does.
        v = knp.reshape(v, [1] * len(shape) if v.size == 1 else shape)
    return v


@keras_op
def batch_normalization(x, mean, variance, axis, offset=None, scale=None,
                        epsilon=1e-3):
    """Normalize `x` by given `mean` and `variance` along `axis`.

    Computes `(x - mean) / sqrt(variance + epsilon) * scale + offset`, with
    the vectors laid along `axis`. Differentiable in every argument.

    Args:
        x: Input tensor.
        mean, variance: Vectors of length `x.shape[axis]`.
        axis: Integer, the axis of the vectors.
        offset: Optional vector added after scaling. Defaults to None.
        scale: Optional vector multiplied in. Defaults to None.
        epsilon: Added to the variance. Defaults to 1e-3.

    Example:

    >>> x = np.array([[0.1, 0.2], [0.5, 0.6]], "float32")
    >>> batch_normalization(x, [0.3, 0.4], [0.04, 0.04], axis=-1,
    ...                     epsilon=0.0).numpy()
    array([[-1., -1.],
           [ 1.,  1.]], dtype=float32)
    """
    x = _float(x)
    axis = _axes_list(axis, x.ndim)[0]
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    mean = _vector(mean, x, shape)
    variance = _vector(variance, x, shape)
    scale = 1.0 if scale is None else _vector(scale, x, shape)
    offset = 0.0 if offset is None else _vector(offset, x, shape)
    return _kept_bfloat16(BN.batch_norm(x, mean, variance, scale, offset,
                                        epsilon=float(epsilon)), x)


def standardize(x, axes, scale=None, offset=None, epsilon=1e-3):
    """Normalize `x` by its own statistics over `axes` (fused primitive).

    `scale`/`offset` must already broadcast against `x`. Returns the output
    and the (keepdims) mean and variance; the statistics carry no gradient
    of their own (the primitive's VJP differentiates through them).
    """
    stats = BN.stacked_moments(x, axes=tuple(axes))
    mean, variance = stats[0], stats[1]
    out = BN.standardize(x, mean, variance,
                         1.0 if scale is None else scale,
                         0.0 if offset is None else offset,
                         axes=tuple(axes), epsilon=float(epsilon))
    return out, mean, variance


@keras_op
def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None,
                        **kwargs):
    """Normalize each example over `axis`, then scale by `gamma` and shift
    by `beta`.

    Args:
        x: Input tensor.
        gamma: Optional scale, shaped like the normalized axes.
        beta: Optional offset, shaped like the normalized axes.
        axis: Int or list of ints. Defaults to -1.
        epsilon: Added to the variance. Defaults to `backend.epsilon()`.

    Example:

    >>> layer_normalization(np.arange(5, dtype="float32")).numpy()
    array([-1.4142135 , -0.70710677,  0.        ,  0.70710677,  1.4142135 ],
          dtype=float32)
    """
    rms_scaling = kwargs.pop("rms_scaling", False)
    if kwargs:
        raise ValueError(
            f"Unrecognized keyword arguments: {sorted(kwargs)}")
    if rms_scaling:
        warnings.warn(
            "You passed `rms_scaling=True`, which is deprecated. This "
            "argument scales the input by the variance, not the root mean "
            "square. Use `ops.rms_normalization` for RMS normalization.")
    x = _float(x)
    eps = config.epsilon() if epsilon is None else epsilon
    axes = _axes_list(axis, x.ndim)
    shape = [x.shape[i] if i in axes else 1 for i in range(x.ndim)]
    gamma = None if gamma is None else _vector(gamma, x, shape)
    beta = None if beta is None else _vector(beta, x, shape)
    if rms_scaling:
        variance = knp.var(x, axis=tuple(axes), keepdims=True)
        out = knp.multiply(x, M.rsqrt(knp.add(variance, eps)))
        return out if gamma is None else knp.multiply(out, gamma)
    return _kept_bfloat16(standardize(x, axes, gamma, beta, eps)[0], x)


@keras_op
def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """`x * rsqrt(mean(x**2, axis) + epsilon) * scale`.

    Args:
        x: Input tensor.
        scale: Optional scale, shaped like the normalized axes.
        axis: Int or list of ints. Defaults to -1.
        epsilon: Defaults to `backend.epsilon()`.

    Example:

    >>> rms_normalization(np.array([3.0, 4.0], "float32"),
    ...                   epsilon=0.0).numpy().round(4)
    array([0.8485, 1.1314], dtype=float32)
    """
    x = _float(x)
    if str(x.dtype) in ("float16", "bfloat16"):
        # As Keras: computed in float32 (x**2 overflows float16).
        return cast(rms_normalization(cast(x, "float32"), scale,
                                          axis, epsilon), x.dtype)
    if x.ndim == 0:
        x = knp.expand_dims(x, 0)
    eps = config.epsilon() if epsilon is None else epsilon
    axes = tuple(_axes_list(axis, x.ndim))
    mean_square = knp.mean(knp.square(x), axis=axes, keepdims=True)
    out = knp.multiply(x, M.rsqrt(knp.add(mean_square, eps)))
    if scale is not None:
        shape = [x.shape[i] if i in axes else 1 for i in range(x.ndim)]
        out = knp.multiply(out, _vector(scale, x, shape))
    return out


@keras_op
def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio: `20 log10(max_val) - 10 log10(mse)`.

    Args:
        x1: First image tensor.
        x2: Second image tensor, of the shape of `x1`.
        max_val: Largest possible pixel value (e.g. `1.0` or `255.0`).

    Returns:
        A scalar in the float dtype of the images (float32 for float32 or
        integer images).

    Example:

    >>> round(float(psnr(np.zeros(4), np.full(4, 0.1), 1.0)), 4)
    20.0
    """
    x1, x2 = _float(x1), _float(x2)
    if tuple(x1.shape) != tuple(x2.shape):
        raise ValueError(
            "Input shapes must be the same. Received shapes: "
            f"x1.shape={x1.shape}, x2.shape={x2.shape}")
    mse = knp.mean(knp.square(knp.subtract(x1, x2)))
    # `max_val` in the images' dtype, so a float32 pair gives float32.
    peak = knp.log(convert_to_tensor(max_val, dtype=mse.dtype))
    to_db = float(10.0 / np.log(10.0))
    return knp.subtract(knp.multiply(peak, 2.0 * to_db),
                        knp.multiply(knp.log(mse), to_db))
