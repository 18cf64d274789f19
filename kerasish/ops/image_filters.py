"""Image filters and patches: Gaussian blur, Sobel edges, SSIM, and patch
extraction in 2-D and 3-D.

The filters are separable depthwise correlations computed as weighted
sums of shifted slices (one pass per axis, no kernel-sized matrices);
patches are one strided gather. All are differentiable.
"""
import builtins

import numpy as np

from kerasish.backend import config
from kerasish.backend.dtypes import is_float  # bfloat16 too
from kerasish.ops import numpy as knp
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.image import check_images
from kerasish.ops.symbolic import keras_op


def _correlate_axis(x, kernel, axis, padding):
    """`sum_k kernel[k] * x[i + k - before]` along `axis` (zero padding for
    `"same"`, as a SAME convolution pads; no padding for `"valid"`)."""
    k = len(kernel)
    if padding == "same":
        before = (k - 1) // 2
        widths = [(0, 0)] * x.ndim
        widths[axis] = (before, k - 1 - before)
        x = knp.pad(x, widths)
    n = x.shape[axis] - k + 1
    out = None
    for offset, weight in enumerate(kernel):
        if weight == 0:
            continue
        key = [builtins.slice(None)] * x.ndim
        key[axis] = builtins.slice(offset, offset + n)
        term = knp.multiply(x[tuple(key)], float(weight))
        out = term if out is None else knp.add(out, term)
    return out


def _gaussian_1d(size, sigma, dtype):
    x = np.arange(size, dtype=dtype) - np.asarray((size - 1) / 2, dtype)
    kernel = np.exp(-0.5 * (x / np.asarray(sigma, dtype)) ** 2)
    return kernel / kernel.sum()


def _nhwc(images, data_format):
    images = convert_to_tensor(images)
    check_images(images)
    data_format = config.standardize_data_format(data_format)
    unbatched = images.ndim == 3
    if unbatched:
        images = knp.expand_dims(images, 0)
    if data_format == "channels_first":
        images = knp.transpose(images, (0, 2, 3, 1))
    return images, (unbatched, data_format)


def _restore(images, how):
    unbatched, data_format = how
    if data_format == "channels_first":
        images = knp.moveaxis(images, 3, 1)
    return knp.squeeze(images, 0) if unbatched else images


def _pair(value, name):
    values = (value, value) if np.ndim(value) == 0 else tuple(value)
    if len(values) != 2:
        raise ValueError(f"`{name}` must be a number or a pair. Received: "
                         f"{name}={value}")
    return values


@keras_op
def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0),
                  data_format=None):
    """Blur images with a Gaussian kernel (zero padding, same size).

    As in Keras, `kernel_size[0]` and `sigma[0]` apply along the width and
    `kernel_size[1]`, `sigma[1]` along the height. The default
    `data_format=None` means `keras.config.image_data_format()` (Keras's
    JAX backend reads `None` as channels_first here; kerasish follows the
    documented default).

    Args:
        images: Rank 3 or 4 float images.
        kernel_size: Pair of kernel sizes. Defaults to `(3, 3)`.
        sigma: Pair of standard deviations. Defaults to `(1.0, 1.0)`.
        data_format: Image data format; defaults to the global setting.

    Returns:
        The blurred images.

    Example:

    >>> image = np.zeros((3, 3, 1), "float32")
    >>> image[1, 1] = 1.0
    >>> round(float(gaussian_blur(image).numpy()[1, 1, 0]), 4)
    0.2042
    """
    images, how = _nhwc(images, data_format)
    dtype = images.dtype
    work = images if is_float(dtype) else cast(images, config.floatx())
    (size_w, size_h), (sigma_w, sigma_h) = (_pair(kernel_size, "kernel_size"),
                                            _pair(sigma, "sigma"))
    kind = work.dtype
    out = _correlate_axis(work, _gaussian_1d(int(size_h), sigma_h, kind), 1,
                          "same")
    out = _correlate_axis(out, _gaussian_1d(int(size_w), sigma_w, kind), 2,
                          "same")
    return _restore(cast(out, dtype), how)


@keras_op
def sobel_edges(images, data_format=None):
    """Vertical and horizontal Sobel gradients of each channel.

    Args:
        images: Rank 3 or 4 images.
        data_format: Image data format; defaults to the global setting.

    Returns:
        Tensor with a trailing axis of size 2, `[dy, dx]`: shape
        `(batch, height, width, channels, 2)` (channels_last) or
        `(batch, channels, height, width, 2)` (channels_first).

    Example:

    >>> image = np.zeros((1, 4, 4, 1), "float32")
    >>> image[0, :, 2:, 0] = 1.0
    >>> sobel_edges(image).shape
    (1, 4, 4, 1, 2)
    """
    images, how = _nhwc(images, data_format)
    smooth, diff = (1.0, 2.0, 1.0), (-1.0, 0.0, 1.0)
    dy = _correlate_axis(_correlate_axis(images, diff, 1, "same"), smooth, 2,
                         "same")
    dx = _correlate_axis(_correlate_axis(images, smooth, 1, "same"), diff, 2,
                         "same")
    return knp.stack([_restore(dy, how), _restore(dx, how)], axis=-1)


@keras_op
def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5,
         k1=0.01, k2=0.03, data_format=None):
    """Structural similarity index between two images (Keras's formula).

    Local means, variances and covariance use a `filter_size` Gaussian
    window (valid positions only); the SSIM map is averaged over space and
    channels.

    Args:
        image1: Rank 3 or 4 images.
        image2: Images of the same shape.
        max_val: Dynamic range of the pixel values. Defaults to 1.0.
        filter_size: Gaussian window size. Defaults to 11.
        filter_sigma: Gaussian window width. Defaults to 1.5.
        k1: Stability constant of the means. Defaults to 0.01.
        k2: Stability constant of the variances. Defaults to 0.03.
        data_format: Image data format; defaults to the global setting.

    Returns:
        One SSIM value per image (a scalar for unbatched input).

    Example:

    >>> image = np.random.default_rng(0).random((16, 16, 1))
    >>> float(ssim(image, image))
    1.0
    """
    a, how = _nhwc(image1, data_format)
    b, _ = _nhwc(image2, data_format)
    if a.shape != b.shape:
        raise ValueError("`image1` and `image2` must have the same shape. "
                         f"Received: {a.shape} and {b.shape}")
    dtype = a.dtype
    if not is_float(dtype):
        a, b = cast(a, config.floatx()), cast(b, config.floatx())
    if min(a.shape[1:3]) < int(filter_size):
        raise ValueError("The images must be at least `filter_size` pixels "
                         f"high and wide. Received: images of shape "
                         f"{a.shape}, filter_size={filter_size}")
    window = _gaussian_1d(int(filter_size), float(filter_sigma), a.dtype)

    def local_mean(x):
        return _correlate_axis(_correlate_axis(x, window, 1, "valid"),
                               window, 2, "valid")
    mu1, mu2 = local_mean(a), local_mean(b)
    var1 = knp.subtract(local_mean(knp.square(a)), knp.square(mu1))
    var2 = knp.subtract(local_mean(knp.square(b)), knp.square(mu2))
    cov = knp.subtract(local_mean(knp.multiply(a, b)),
                       knp.multiply(mu1, mu2))
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    num = knp.multiply(knp.add(knp.multiply(knp.multiply(mu1, mu2), 2.0), c1),
                       knp.add(knp.multiply(cov, 2.0), c2))
    den = knp.multiply(knp.add(knp.add(knp.square(mu1), knp.square(mu2)), c1),
                       knp.add(knp.add(var1, var2), c2))
    score = knp.mean(knp.divide(num, den), axis=(1, 2, 3))
    score = knp.squeeze(score, 0) if how[0] else score
    return cast(score, dtype)


def _tuple(value, n, name):
    values = (value,) * n if isinstance(value, (int, np.integer)) \
        else tuple(value)
    if len(values) != n:
        raise ValueError(f"Invalid `{name}` argument. Expected an int or a "
                         f"tuple of length {n}. Received: {name}={value}")
    return tuple(int(v) for v in values)


def _patches(x, size, strides, dilation, padding):
    """Patches of channels-last `x` (batch, *spatial, channels)."""
    n = len(size)
    spatial = x.shape[1:1 + n]
    if padding == "same":
        outs = [-(-s // st) for s, st in zip(spatial, strides)]
        totals = [max((o - 1) * st + (k - 1) * d + 1 - s, 0) for o, st, k, d,
                  s in zip(outs, strides, size, dilation, spatial)]
        x = knp.pad(x, [(0, 0)] + [(t // 2, t - t // 2) for t in totals]
                    + [(0, 0)])
        spatial = x.shape[1:1 + n]
    outs = [(s - (k - 1) * d - 1) // st + 1 for s, k, d, st in
            zip(spatial, size, dilation, strides)]
    if min(outs) <= 0:
        raise ValueError(f"The patches of size {size} (dilation {dilation}) "
                         f"do not fit in the spatial shape {spatial}.")
    index = []
    for i, (o, k, d, st) in enumerate(zip(outs, size, dilation, strides)):
        grid = np.arange(o)[:, None] * st + np.arange(k)[None, :] * d
        shape = [1] * (2 * n)
        shape[i], shape[n + i] = o, k
        index.append(grid.reshape(shape))
    gathered = x[(builtins.slice(None),) + tuple(index)]
    return knp.reshape(gathered, (x.shape[0],) + tuple(outs) + (-1,))


def _extract(images, size, strides, dilation_rate, padding, data_format, n):
    if padding not in ("valid", "same"):
        raise ValueError("`padding` must be 'valid' or 'same'. Received: "
                         f"padding={padding}")
    images = convert_to_tensor(images)
    if images.ndim not in (n + 1, n + 2):
        raise ValueError(f"Invalid images rank: expected rank {n + 1} or "
                         f"{n + 2}. Received input with shape: "
                         f"images.shape={images.shape}")
    size = _tuple(size, n, "size")
    strides = size if strides is None else _tuple(strides, n, "strides")
    dilation = _tuple(dilation_rate, n, "dilation_rate")
    data_format = config.standardize_data_format(data_format)
    unbatched = images.ndim == n + 1
    x = knp.expand_dims(images, 0) if unbatched else images
    if data_format == "channels_first":
        x = knp.moveaxis(x, 1, -1)
    out = _patches(x, size, strides, dilation, padding)
    if data_format == "channels_first":
        out = knp.moveaxis(out, -1, 1)
    return knp.squeeze(out, 0) if unbatched else out


@keras_op
def extract_patches(images, size, strides=None, dilation_rate=1,
                    padding="valid", data_format=None):
    """Patches of images, flattened into the channel axis.

    Args:
        images: Rank 3 or 4 images (a 3-element `size` extracts 3-D
            patches from volumes, as `extract_patches_3d`).
        size: Patch size, int or `(height, width)`.
        strides: Step between patches. Defaults to `size`.
        dilation_rate: Spacing of the sampled pixels. Defaults to 1.
        padding: `"valid"` (default) or `"same"`.
        data_format: Image data format; defaults to the global setting.

    Returns:
        Tensor `(..., out_height, out_width, size_h * size_w * channels)`
        (channels first for `"channels_first"`), patch entries ordered by
        row, column, channel.

    Example:

    >>> extract_patches(np.zeros((1, 4, 4, 3)), 2).shape
    (1, 2, 2, 12)
    """
    if not isinstance(size, (int, np.integer)):
        if not isinstance(size, (tuple, list)):
            raise TypeError("Invalid `size` argument. Expected an int or a "
                            f"tuple. Received: size={size} of type "
                            f"{type(size).__name__}")
        if len(size) not in (2, 3):
            raise ValueError("Invalid `size` argument. Expected a tuple of "
                             f"length 2 or 3. Received: size={size} with "
                             f"length {len(size)}")
        if len(size) == 3:
            return extract_patches_3d(images, size, strides, dilation_rate,
                                      padding, data_format)
    check_images(convert_to_tensor(images))
    return _extract(images, size, strides, dilation_rate, padding,
                    data_format, 2)


@keras_op
def extract_patches_3d(volumes, size, strides=None, dilation_rate=1,
                       padding="valid", data_format=None):
    """3-D patches of volumes, flattened into the channel axis.

    Args:
        volumes: Rank 4 `(depth, height, width, channels)` or rank 5
            (batched) volumes.
        size: Patch size, int or a 3-tuple.
        strides: Step between patches. Defaults to `size`.
        dilation_rate: Spacing of the sampled voxels. Defaults to 1.
        padding: `"valid"` (default) or `"same"`.
        data_format: Data format; defaults to the global setting.

    Returns:
        Tensor `(..., d, h, w, size_d * size_h * size_w * channels)`.

    Example:

    >>> extract_patches_3d(np.zeros((4, 4, 4, 2)), 2).shape
    (2, 2, 2, 16)
    """
    return _extract(volumes, size, strides, dilation_rate, padding,
                    data_format, 3)

