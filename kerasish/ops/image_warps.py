"""Image warps: affine, perspective and elastic transforms.

Each computes, for every output pixel, where to read in the input image
and samples there with `image_geometry.interpolate` (nearest or bilinear).
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend.dtypes import is_float  # bfloat16 too
from kerasish.backend import random as random_backend
from kerasish.backend.tensor import Tensor
from kerasish.ops import numpy as knp
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.image import check_images
from kerasish.ops.image_geometry import FILL_MODES, INTERPOLATIONS, interpolate
from kerasish.ops.linalg import solve
from kerasish.ops.symbolic import keras_op


def _check_interpolation(interpolation):
    if interpolation not in INTERPOLATIONS:
        raise ValueError(
            "Invalid value for argument `interpolation`. Expected of one "
            f"{set(INTERPOLATIONS)}. Received: interpolation={interpolation}")


def _check_fill_mode(fill_mode):
    if fill_mode not in FILL_MODES:
        raise ValueError(
            "Invalid value for argument `fill_mode`. Expected of one "
            f"{set(FILL_MODES)}. Received: fill_mode={fill_mode}")


def _to_nhwc(images, data_format):
    """Batched channels-last images, plus how to undo the conversion."""
    images = convert_to_tensor(images)
    check_images(images)
    data_format = config.standardize_data_format(data_format)
    unbatched = images.ndim == 3
    if unbatched:
        images = knp.expand_dims(images, 0)
    if data_format == "channels_first":
        images = knp.transpose(images, (0, 2, 3, 1))
    return images, (unbatched, data_format)


def _from_nhwc(images, how):
    unbatched, data_format = how
    if data_format == "channels_first":
        images = knp.transpose(images, (0, 3, 1, 2))
    return knp.squeeze(images, 0) if unbatched else images


def warp(images, ys, xs, order, fill_mode, fill_value, dtype):
    """Sample float NHWC `images` at `(ys, xs)`, each `(B, H', W')`; an
    integer `dtype` result is rounded half away from zero, as in JAX."""
    b, h, w, c = images.shape
    flat = knp.reshape(images, (b * h * w, c))
    batch = np.broadcast_to(np.arange(b)[:, None, None], ys.shape)
    out = interpolate(flat, (b, h, w), [batch, ys, xs], order, fill_mode,
                      fill_value)
    if not is_float(dtype):
        out = knp.multiply(knp.sign(out), knp.floor(knp.abs(out) + 0.5))
    return cast(out, dtype)


def _grid(h, w, dtype):
    ys, xs = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    return ys.astype(dtype), xs.astype(dtype)


def _float_work(images):
    return images if is_float(images.dtype) else cast(images, "float32")


@keras_op
def affine_transform(images, transform, interpolation="bilinear",
                     fill_mode="constant", fill_value=0, data_format=None):
    """Apply projective transforms `[a0, a1, a2, b0, b1, b2, c0, c1]`.

    An output pixel `(x, y)` reads the input at
    `((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)` with
    `k = c0 x + c1 y + 1` (Keras's documented mapping; its JAX backend
    ignores `c0`, `c1`, so results agree whenever they are 0).

    Args:
        images: Rank 3 or 4 images.
        transform: Shape `(8,)` or `(batch, 8)`.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_mode: `"constant"` (default), `"nearest"`, `"wrap"`,
            `"mirror"` or `"reflect"`: how to read outside the image.
        fill_value: Value for `"constant"`. Defaults to 0.
        data_format: Image data format; defaults to the global setting.

    Returns:
        The transformed images (differentiable in images and transform).

    Example:

    >>> image = np.arange(9.0).reshape(3, 3, 1)
    >>> shift = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    >>> affine_transform(image, shift)[:, :, 0].numpy()
    array([[1., 2., 0.],
           [4., 5., 0.],
           [7., 8., 0.]])
    """
    _check_interpolation(interpolation)
    _check_fill_mode(fill_mode)
    transform = convert_to_tensor(transform)
    if transform.ndim not in (1, 2):
        raise ValueError("Invalid transform rank: expected rank 1 (single "
                         "transform) or rank 2 (batch of transforms). "
                         "Received input with shape: "
                         f"transform.shape={transform.shape}")
    if transform.shape[-1] != 8:
        raise ValueError("Invalid transform: expected 8 values per transform "
                         "[a0, a1, a2, b0, b1, b2, c0, c1]. Received input "
                         f"with shape: transform.shape={transform.shape}")
    images, how = _to_nhwc(images, data_format)
    work = _float_work(images)
    if transform.ndim == 1:
        transform = knp.expand_dims(transform, 0)
    transform = cast(transform, work.dtype)
    gy, gx = _grid(images.shape[1], images.shape[2], work.dtype)
    t = [knp.reshape(transform[:, i], (-1, 1, 1)) for i in range(8)]
    k = knp.add(knp.add(knp.multiply(t[6], gx), knp.multiply(t[7], gy)), 1.0)
    xs = knp.divide(knp.add(knp.add(knp.multiply(t[0], gx),
                                    knp.multiply(t[1], gy)), t[2]), k)
    ys = knp.divide(knp.add(knp.add(knp.multiply(t[3], gx),
                                    knp.multiply(t[4], gy)), t[5]), k)
    shape = (images.shape[0],) + gy.shape
    out = warp(work, knp.broadcast_to(ys, shape), knp.broadcast_to(xs, shape),
               INTERPOLATIONS[interpolation], fill_mode, fill_value,
               images.dtype)
    return _from_nhwc(out, how)


def homography(start_points, end_points):
    """The 8 coefficients mapping end points to start points (batched)."""
    sx, sy = start_points[..., 0], start_points[..., 1]
    ex, ey = end_points[..., 0], end_points[..., 1]
    zeros, ones = knp.zeros_like(ex), knp.ones_like(ex)
    x_rows = knp.stack([ex, ey, ones, zeros, zeros, zeros,
                        -sx * ex, -sx * ey], axis=-1)
    y_rows = knp.stack([zeros, zeros, zeros, ex, ey, ones,
                        -sy * ex, -sy * ey], axis=-1)
    matrix = knp.concatenate([x_rows, y_rows], axis=1)
    target = knp.expand_dims(knp.concatenate([sx, sy], axis=-1), -1)
    return knp.squeeze(solve(matrix, target), -1)


def _check_points(points, name):
    if tuple(points.shape[-2:]) != (4, 2) or points.ndim not in (2, 3):
        raise ValueError(f"Invalid {name} shape: expected (4,2) for a "
                         f"single image or (N,4,2) for a batch. Received "
                         f"shape: {points.shape}")


@keras_op
def perspective_transform(images, start_points, end_points,
                          interpolation="bilinear", fill_value=0,
                          data_format=None):
    """Warp images so that `start_points` move to `end_points`.

    Args:
        images: Rank 3 or 4 images.
        start_points: Four `(x, y)` corners, shape `(4, 2)` or `(N, 4, 2)`.
        end_points: Where they go, same shape.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_value: Value outside the source image. Defaults to 0.
        data_format: Image data format; defaults to the global setting.

    Returns:
        The warped images (differentiable in images and points).

    Example:

    >>> corners = np.array([[0, 0], [3, 0], [0, 3], [3, 3]], "float32")
    >>> out = perspective_transform(np.ones((4, 4, 1)), corners, corners)
    >>> float(out.numpy().min())
    1.0
    """
    _check_interpolation(interpolation)
    start, end = convert_to_tensor(start_points), convert_to_tensor(end_points)
    # Keras solves for the homography in float32; float64 points (e.g. in
    # a gradient check) keep their precision.
    dtype = "float64" if "float64" in (start.dtype, end.dtype) else "float32"
    start, end = cast(start, dtype), cast(end, dtype)
    _check_points(start, "start_points")
    _check_points(end, "end_points")
    if start.shape != end.shape:
        raise ValueError("start_points and end_points must have the same "
                         f"shape. Received start_points.shape={start.shape}"
                         f", end_points.shape={end.shape}")
    images, how = _to_nhwc(images, data_format)
    work = _float_work(images)
    if start.ndim == 2:
        start, end = knp.expand_dims(start, 0), knp.expand_dims(end, 0)
    t = homography(start, end)
    t = [knp.reshape(cast(t[:, i], work.dtype), (-1, 1, 1)) for i in range(8)]
    gy, gx = _grid(images.shape[1], images.shape[2], work.dtype)
    denom = knp.add(knp.add(knp.multiply(t[6], gx), knp.multiply(t[7], gy)),
                    1.0)
    xs = knp.divide(knp.add(knp.add(knp.multiply(t[0], gx),
                                    knp.multiply(t[1], gy)), t[2]), denom)
    ys = knp.divide(knp.add(knp.add(knp.multiply(t[3], gx),
                                    knp.multiply(t[4], gy)), t[5]), denom)
    shape = (images.shape[0],) + gy.shape
    out = warp(work, knp.broadcast_to(ys, shape), knp.broadcast_to(xs, shape),
               INTERPOLATIONS[interpolation], "constant", fill_value,
               images.dtype)
    return _from_nhwc(out, how)


@keras_op
def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear",
                      fill_mode="reflect", fill_value=0.0, seed=None,
                      data_format=None):
    """Random elastic deformation (Simard et al., 2003).

    Random displacement fields are smoothed with a Gaussian of width
    `sigma`, scaled by `alpha` and used to resample the images. Unlike
    Keras's JAX backend, which draws the same field for both axes (so
    pixels only move diagonally), the x and y fields are independent.

    Args:
        images: Rank 3 or 4 images.
        alpha: Displacement scale. Defaults to 20.0.
        sigma: Smoothing standard deviation. Defaults to 5.0.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        fill_mode: As in `affine_transform`. Defaults to `"reflect"`.
        fill_value: Value for `"constant"`. Defaults to 0.0.
        seed: Int, `SeedGenerator` or `None` (global generator).
        data_format: Image data format; defaults to the global setting.

    Returns:
        The deformed images, in the input dtype.

    Example:

    >>> out = elastic_transform(np.ones((8, 8, 1)), seed=1)
    >>> out.shape
    (8, 8, 1)
    """
    # lazy: a top-level import would close an import circle
    from kerasish.ops.image_filters import gaussian_blur
    _check_interpolation(interpolation)
    _check_fill_mode(fill_mode)
    images, how = _to_nhwc(images, data_format)
    work = _float_work(images)
    b, h, w, _ = images.shape
    sigma = float(sigma)
    size = int(6 * sigma) | 1
    rng = random_backend.make_rng(seed)
    fields = rng.standard_normal((2, b, h, w, 1)) * sigma
    dy, dx = (gaussian_blur(Tensor(f.astype(work.dtype)), (size, size),
                            (sigma, sigma), data_format="channels_last")
              for f in fields)
    gy, gx = _grid(h, w, work.dtype)
    ys = knp.add(gy, knp.multiply(dy[..., 0], float(alpha)))
    xs = knp.add(gx, knp.multiply(dx[..., 0], float(alpha)))
    out = warp(work, ys, xs, INTERPOLATIONS[interpolation], fill_mode,
               fill_value, images.dtype)
    return _from_nhwc(out, how)
