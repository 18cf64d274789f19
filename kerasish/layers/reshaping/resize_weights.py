"""Interpolation matrices of `jax.image.resize` (Keras's image resizing).

Resizing an axis from `n_in` to `n_out` entries is a matrix product with a
`(n_in, n_out)` weight matrix: output `j` samples the input at
`(j + 0.5) * n_in / n_out - 0.5` and weighs input `i` by a kernel of the
distance. Like JAX (without antialiasing, as Keras's `UpSampling2D` calls
it), each column is renormalised to sum to 1, so near the borders only the
inputs that exist count.
"""
import numpy as np

_TINY = 1000 * float(np.finfo(np.float32).eps)


def _triangle(x):
    return np.maximum(0.0, 1.0 - x)


def _keys_cubic(x):
    # Keys' cubic convolution kernel with A = -0.5 (JAX's "cubic").
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    return np.where(x >= 2.0, 0.0, np.where(x >= 1.0, far, near))


def _lanczos(radius):
    def kernel(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            y = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / \
                (np.pi ** 2 * x ** 2)
        return np.where(x > radius, 0.0, np.where(x > 1e-3, y, 1.0))
    return kernel


KERNELS = {"bilinear": _triangle, "bicubic": _keys_cubic,
           "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0)}


def resize_matrix(n_in, n_out, method, dtype="float32"):
    """The `(n_in, n_out)` matrix resizing one axis with `method`."""
    sample = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
    distance = np.abs(sample[None, :] - np.arange(n_in)[:, None])
    weights = KERNELS[method](distance)
    total = weights.sum(axis=0, keepdims=True)
    safe = np.where(total != 0, total, 1.0)
    weights = np.where(np.abs(total) > _TINY, weights / safe, 0.0)
    inside = (sample >= -0.5) & (sample <= n_in - 0.5)
    return np.where(inside[None, :], weights, 0.0).astype(dtype)
