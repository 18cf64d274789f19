"""Image files <-> arrays: `load_img`, `save_img`, `img_to_array`,
`array_to_img`, and `smart_resize` (resize without distortion).

Files are read and written with Pillow, an optional dependency
(`pip install kerasish[image]`), imported on first use.
"""
import io
import pathlib
import warnings

import numpy as np

from kerasish.backend import config
from kerasish import ops

_PIL_METHODS = ("nearest", "bilinear", "bicubic", "hamming", "box",
                "lanczos")


def pil_image():
    """The `PIL.Image` module; a clear ImportError naming the extra."""
    try:
        from PIL import Image  # lazy: optional dependency
    except ImportError as e:
        raise ImportError(
            "Reading and writing images requires Pillow. Install it with "
            "`pip install kerasish[image]` (or `pip install pillow`)."
        ) from e
    return Image


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """Converts a 3D NumPy array to a PIL Image instance.

    Args:
        x: Input data, in any form that can be converted to a NumPy array.
        data_format: `"channels_first"` or `"channels_last"`. Defaults to
            `None`, the global `keras.config.image_data_format()`.
        scale: Whether to rescale the values so that the minimum and maximum
            are 0 and 255. Defaults to `True`.
        dtype: Dtype used to read `x`. Defaults to `None`, the global
            `keras.config.floatx()` (`"float32"`).

    Returns:
        A PIL Image: mode "RGBA", "RGB" or "L" for 4, 3 or 1 channels ("I",
        32-bit integers, for one channel with values above 255).

    Example:

    >>> img = array_to_img(np.random.random((100, 80, 3)))
    >>> img.size, img.mode
    ((80, 100), 'RGB')
    """
    data_format = config.standardize_data_format(data_format)
    Image = pil_image()
    x = np.asarray(x, dtype=dtype or config.floatx())
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single "
                         f"image). Got array with shape: {x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        peak = np.max(x)
        if peak != 0:
            x /= peak
        x *= 255
    channels = x.shape[2]
    if channels in (3, 4):
        # Truncation, not rounding, as Keras does.
        return Image.fromarray(x.astype("uint8"),
                               "RGBA" if channels == 4 else "RGB")
    if channels == 1:
        if np.max(x) > 255:
            return Image.fromarray(x[:, :, 0].astype("int32"), "I")
        return Image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}. Expected 1, "
                     f"3 or 4 channels; got an array of shape {x.shape}.")


def img_to_array(img, data_format=None, dtype=None):
    """Converts a PIL Image instance to a 3D NumPy array.

    Args:
        img: A PIL Image (or anything `np.asarray` reads as 2D or 3D).
        data_format: `"channels_first"` or `"channels_last"`. Defaults to
            `None`, the global `keras.config.image_data_format()`.
        dtype: Dtype of the result. Defaults to `None`, the global
            `keras.config.floatx()` (`"float32"`).

    Returns:
        A 3D array: `(height, width, channels)` (or channels first).

    Example:

    >>> img = array_to_img(np.random.random((10, 12, 3)))
    >>> img_to_array(img).shape
    (10, 12, 3)
    >>> img_to_array(img.convert("L"), data_format="channels_first").shape
    (1, 10, 12)
    """
    data_format = config.standardize_data_format(data_format)
    x = np.asarray(img, dtype=dtype or config.floatx())
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        shape = (1,) + x.shape if data_format == "channels_first" \
            else x.shape + (1,)
        return x.reshape(shape)
    raise ValueError(f"Unsupported image shape: {x.shape}. Expected a 2D "
                     "(grayscale) or 3D image.")


def save_img(path, x, data_format=None, file_format=None, scale=True,
             **kwargs):
    """Saves an image stored as a NumPy array to a path or file object.

    Args:
        path: Path or file object.
        x: NumPy array of one image (3D).
        data_format: `"channels_first"` or `"channels_last"`. Defaults to
            the global setting.
        file_format: Optional file format override. If omitted, the format
            comes from the file name's extension; required for file objects.
        scale: Whether to rescale the values to `[0, 255]`. Defaults to
            `True`.
        **kwargs: Additional keyword arguments passed to `PIL.Image.save()`.

    Example:

    >>> save_img("out.png", np.random.random((8, 8, 3)))
    >>> load_img("out.png").size
    (8, 8)
    """
    data_format = config.standardize_data_format(data_format)
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, "
                      "converting to RGB.", stacklevel=2)
        img = img.convert("RGB")
    img.save(path, format=file_format or None, **kwargs)


def _open(path):
    Image = pil_image()
    if isinstance(path, io.BytesIO):
        return Image.open(path)
    if isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        # Read the bytes first so no file handle stays open behind the
        # lazily-decoding PIL image.
        with open(path, "rb") as f:
            return Image.open(io.BytesIO(f.read()))
    raise TypeError(f"path should be path-like or io.BytesIO, not "
                    f"{type(path)}")


def convert_mode(img, color_mode):
    """`img` converted for `color_mode` ("grayscale" keeps 16/32-bit
    grayscale images as they are)."""
    if color_mode == "grayscale":
        return img if img.mode in ("L", "I;16", "I") else img.convert("L")
    if color_mode in ("rgb", "rgba"):
        mode = color_mode.upper()
        return img if img.mode == mode else img.convert(mode)
    raise ValueError('color_mode must be "grayscale", "rgb", or "rgba". '
                     f"Received: color_mode={color_mode!r}")


def _aspect_crop_box(width, height, target_width, target_height):
    crop_height = min(height, width * target_height // target_width)
    crop_width = min(width, height * target_width // target_height)
    top = (height - crop_height) // 2
    left = (width - crop_width) // 2
    return [left, top, left + crop_width, top + crop_height]


def load_img(path, color_mode="rgb", target_size=None,
             interpolation="nearest", keep_aspect_ratio=False):
    """Loads an image into PIL format.

    Args:
        path: Path to the image file (str, `pathlib.Path`, bytes) or an
            `io.BytesIO`.
        color_mode: One of `"grayscale"`, `"rgb"`, `"rgba"`. Defaults to
            `"rgb"`.
        target_size: `None` (default: the original size) or
            `(img_height, img_width)`.
        interpolation: Resampling used when `target_size` differs from the
            image size: `"nearest"` (default), `"bilinear"`, `"bicubic"`,
            `"lanczos"`, `"box"` or `"hamming"` (Pillow's filters).
        keep_aspect_ratio: Whether to resize without aspect ratio
            distortion: the image is first cropped in the center to the
            target aspect ratio. Defaults to `False`.

    Returns:
        A PIL Image instance.

    Example:

    >>> save_img("photo.png", np.random.random((30, 40, 3)))
    >>> img = load_img("photo.png", target_size=(10, 10),
    ...                keep_aspect_ratio=True)
    >>> img_to_array(img).shape
    (10, 10, 3)
    """
    img = convert_mode(_open(path), color_mode)
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])
    if img.size == size:
        return img
    if interpolation not in _PIL_METHODS:
        raise ValueError(
            f"Invalid interpolation method {interpolation} specified. "
            f"Supported methods are {', '.join(_PIL_METHODS)}")
    resample = getattr(pil_image().Resampling, interpolation.upper())
    box = _aspect_crop_box(*img.size, *size) if keep_aspect_ratio else None
    return img.resize(size, resample, box=box)


def _smart_crop(height, width, size):
    target_height, target_width = size
    crop_height = max(min(height, int(width * target_height /
                                      target_width)), 1)
    crop_width = max(min(width, int(height * target_width /
                                    target_height)), 1)
    top = int((height - crop_height) / 2)
    left = int((width - crop_width) / 2)
    return slice(top, top + crop_height), slice(left, left + crop_width)


def smart_resize(x, size, interpolation="bilinear",
                 data_format="channels_last", **kwargs):
    """Resize images to a target size without aspect ratio distortion.

    The largest centered crop of the image with the aspect ratio of `size`
    is taken (an image of `(340, 500)` resized to `(200, 200)` keeps the
    centered `(340, 340)` window), then resized to `size`.

    Args:
        x: Image `(height, width, channels)` or batch of images
            `(batch_size, height, width, channels)` (channels first with
            `data_format="channels_first"`), as an array or tensor.
        size: `(height, width)` of the output.
        interpolation: `"bilinear"` (default), `"nearest"`, `"bicubic"`,
            `"lanczos3"`, `"lanczos5"` or `"area"`.
        data_format: `"channels_last"` (default) or `"channels_first"`;
            `None` means the global `keras.config.image_data_format()`.

    Returns:
        The resized image(s): a NumPy array for NumPy input, else a tensor.

    Example:

    >>> img = np.random.random((340, 500, 3)).astype("float32")
    >>> smart_resize(img, (200, 200)).shape
    (200, 200, 3)
    """
    kwargs.pop("backend_module", None)
    if kwargs:
        raise TypeError("smart_resize() got unexpected keyword arguments: "
                        f"{list(kwargs.keys())}")
    if len(size) != 2:
        raise ValueError("Expected `size` to be a tuple of 2 integers, but "
                         f"got: {size}.")
    data_format = config.standardize_data_format(data_format)
    img = ops.convert_to_tensor(x)
    if img.ndim not in (3, 4):
        raise ValueError(
            "Expected an image array with shape `(height, width, "
            "channels)`, or `(batch_size, height, width, channels)`, but "
            f"got input with incorrect rank, of shape {tuple(img.shape)}.")
    h_axis = img.ndim - 3 if data_format == "channels_last" else img.ndim - 2
    rows, cols = _smart_crop(img.shape[h_axis], img.shape[h_axis + 1], size)
    index = [slice(None)] * img.ndim
    index[h_axis], index[h_axis + 1] = rows, cols
    img = ops.image.resize(img[tuple(index)], size=size,
                           interpolation=interpolation,
                           data_format=data_format)
    return np.asarray(img) if isinstance(x, np.ndarray) else img
