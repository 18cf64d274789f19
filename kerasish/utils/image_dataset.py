"""`image_dataset_from_directory`: a labelled image `Dataset` from folders.

Images are decoded with Pillow (`pip install kerasish[image]`) and resized
with `kerasish.ops.image.resize`. With `format="tf"` (the default) the
numbers are those of Keras's TensorFlow pipeline: grayscale as libpng
converts it, `pad_to_aspect_ratio` as `tf.image.resize_with_pad` (resize,
then pad), and "nearest" images kept as uint8; `format="grain"` follows
Keras's backend-agnostic pipeline (Pillow's grayscale, pad then resize,
float32 throughout).
"""
import numpy as np

from kerasish.backend import config
from kerasish.utils import directory_utils
from kerasish.utils.image_utils import convert_mode, pil_image
from kerasish import ops
from kerasish.backend.tape import stop_recording

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3",
                  "lanczos5", "gaussian", "mitchellcubic")
_COLOR_CHANNELS = {"grayscale": 1, "rgb": 3, "rgba": 4}


def image_dataset_from_directory(
        directory, labels="inferred", label_mode="int", class_names=None,
        color_mode="rgb", batch_size=32, image_size=(256, 256), shuffle=True,
        seed=None, validation_split=None, subset=None,
        interpolation="bilinear", follow_links=False,
        crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
        data_format=None, format="tf", verbose=True):
    """Generates a `Dataset` from image files in a directory.

    With `main_directory/class_a/*.jpg` and `main_directory/class_b/*.jpg`,
    `image_dataset_from_directory(main_directory)` yields batches of images
    with labels 0 (`class_a`) and 1 (`class_b`). Supported formats: `.jpeg`,
    `.jpg`, `.png`, `.bmp`, `.gif` (animated gifs give their first frame).

    Args:
        directory: Folder of the data. With `labels="inferred"`, it holds
            one subfolder of images per class; otherwise its structure is
            ignored.
        labels: `"inferred"` (from the subfolder names, the default),
            `None` (no labels), or a list/tuple of integer labels, one per
            image file, in the alphanumeric order of the file paths.
        label_mode: `"int"` (int32 labels, the default), `"categorical"`
            (one-hot float32 vectors), `"binary"` (float32 0/1 of shape
            `(batch_size, 1)`, for exactly 2 classes) or `None` (no labels).
        class_names: With `labels="inferred"`, the explicit list (and order)
            of the class subfolders to use. Defaults to all, sorted.
        color_mode: `"grayscale"`, `"rgb"` (default) or `"rgba"`: 1, 3 or
            4 channels.
        batch_size: Size of the batches. Defaults to 32. `None` yields
            single images.
        image_size: `(height, width)` to resize images to (an int means a
            square). Defaults to `(256, 256)`.
        shuffle: Whether to shuffle the data. Defaults to `True`; `False`
            keeps the alphanumeric order.
        seed: Optional random seed for shuffling.
        validation_split: Optional float between 0 and 1, the fraction of
            the data reserved for validation.
        subset: `"training"`, `"validation"` or `"both"` (returns the two
            datasets). Only used with `validation_split`.
        interpolation: Resizing method: `"bilinear"` (default), `"nearest"`,
            `"bicubic"`, `"area"`, `"lanczos3"`, `"lanczos5"`, `"gaussian"`
            or `"mitchellcubic"`.
        follow_links: Whether to visit subfolders pointed to by symlinks.
            Defaults to `False`.
        crop_to_aspect_ratio: If `True`, resize without distortion by
            cropping the largest centred window of the target aspect ratio.
        pad_to_aspect_ratio: If `True`, resize without distortion by
            padding (with zeros) to the target aspect ratio.
        data_format: `"channels_last"` or `"channels_first"`. Defaults to
            the global `keras.config.image_data_format()`.
        format: `"tf"` (default) or `"grain"`: the numbers of Keras's
            tf.data pipeline or of its TensorFlow-free one (see the module
            docstring); both give a `kerasish.data.Dataset`.
        verbose: Whether to print the number of files and classes found.
            Defaults to `True`.

    Returns:
        A `kerasish.data.Dataset` yielding float32 images of shape
        `(batch_size, height, width, channels)` (or channels first), paired
        with labels unless `label_mode` is `None`; with `subset="both"`, a
        `(train, validation)` pair. The datasets carry `class_names` and
        `file_paths` attributes.

    Example:

    >>> import os
    >>> for i, name in enumerate(["cat", "cat", "dog"]):
    ...     os.makedirs(f"pets/{name}", exist_ok=True)
    ...     kerasish.utils.save_img(f"pets/{name}/{i}.png",
    ...                             np.random.random((20, 30, 3)))
    >>> ds = image_dataset_from_directory("pets", image_size=(8, 8),
    ...                                   batch_size=2, seed=1)
    Found 3 files belonging to 2 classes.
    >>> ds.class_names
    ['cat', 'dog']
    >>> [tuple(images.shape) for images, labels in ds]
    [(2, 8, 8, 3), (1, 8, 8, 3)]
    """
    directory_utils.check_labels_args(labels, label_mode, class_names,
                                    "image")
    if labels is None or label_mode is None:
        labels = label_mode = None
    num_channels = _num_channels(color_mode)
    image_size = _image_size(image_size)
    interpolation = _interpolation(interpolation)
    _check_format(format)
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio`, "
                         "`crop_to_aspect_ratio` can be set to `True`.")
    directory_utils.check_validation_split_arg(validation_split, subset,
                                             shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = directory_utils.index_directory(
        directory, labels, formats=ALLOWLIST_FORMATS,
        class_names=class_names, shuffle=shuffle, seed=seed,
        follow_links=follow_links, verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be '
                         "exactly 2 class_names. Received: "
                         f"class_names={class_names}")
    loader = _Loader(image_size, num_channels, interpolation,
                     config.standardize_data_format(data_format),
                     crop_to_aspect_ratio, pad_to_aspect_ratio, format)

    def make(split_paths, split_labels, shuffled):
        ds = directory_utils.folder_dataset(
            split_paths, split_labels, label_mode,
            len(class_names) if class_names else 0, loader, shuffle=shuffled,
            shuffle_buffer_size=batch_size * 8 if batch_size else 1024,
            seed=seed)
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(2)
        ds.class_names = class_names
        ds.file_paths = list(split_paths)
        return ds

    return directory_utils.folder_splits(
        paths, labels, validation_split, subset, shuffle, make,
        f"images found in directory {directory}. Allowed formats: "
        f"{ALLOWLIST_FORMATS}")


def _num_channels(color_mode):
    if color_mode not in _COLOR_CHANNELS:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", '
                         f'"grayscale"}}. Received: color_mode={color_mode}')
    return _COLOR_CHANNELS[color_mode]


def _image_size(image_size):
    if isinstance(image_size, int):
        return (image_size, image_size)
    if not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError("Invalid `image_size` value. Expected a tuple of 2 "
                         f"integers. Received: image_size={image_size}")
    return tuple(int(s) for s in image_size)


def _interpolation(interpolation):
    interpolation = str(interpolation).lower()
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of "
                         f"{INTERPOLATIONS}. Received: "
                         f"interpolation={interpolation}")
    return interpolation


def _check_format(format):
    if format not in ("tf", "grain"):
        raise ValueError('`format` should be either "tf" or "grain". '
                         f"Received: format={format}")


class _Loader:
    """Reads one image file into an array of the target size."""

    def __init__(self, image_size, num_channels, interpolation, data_format,
                 crop_to_aspect_ratio, pad_to_aspect_ratio, format="tf"):
        self.image_size, self.num_channels = image_size, num_channels
        self.interpolation, self.data_format = interpolation, data_format
        self.crop, self.pad = crop_to_aspect_ratio, pad_to_aspect_ratio
        self.tf = format == "tf"

    def __call__(self, path):
        with pil_image().open(path) as img:
            img.seek(0)          # animated images: the first frame
            eight_bit = img.mode in _EIGHT_BIT
            if self.tf and self.num_channels == 1 and img.mode not in \
                    ("L", "I;16", "I"):
                pixels = _libpng_gray(img)
            else:
                pixels = np.asarray(
                    convert_mode(img, _MODES[self.num_channels]),
                    dtype="float32")
        if pixels.ndim == 2:
            pixels = pixels[:, :, None]
        if self.tf and self.pad:
            out = _resize_with_pad(pixels, self.image_size,
                                   self.interpolation)
            if self.data_format == "channels_first":
                out = out.transpose(2, 0, 1)
        else:
            if self.data_format == "channels_first":
                pixels = pixels.transpose(2, 0, 1)
            out = resize_image(pixels, self.image_size, self.interpolation,
                               self.data_format, self.crop, self.pad)
        if self.tf and self.interpolation == "nearest" and eight_bit:
            # tf.image.resize keeps the decoded uint8 for "nearest".
            return out.astype("uint8")
        return out


_MODES = {1: "grayscale", 3: "rgb", 4: "rgba"}
_EIGHT_BIT = ("1", "L", "P", "RGB", "RGBA", "LA", "PA", "CMYK", "YCbCr")


def _libpng_gray(img):
    """Gray levels as TensorFlow's PNG decoder (libpng) makes them:
    `floor(0.299 R + 0.587 G + 0.114 B)` in 15-bit fixed point (Pillow's
    "L" rounds instead, one level off about half the time)."""
    rgb = np.asarray(img.convert("RGB"), dtype=np.uint32)
    weights = np.array([9798, 19235, 3735], np.uint32)
    return ((rgb @ weights) >> 15).astype("float32")


def _resize_with_pad(pixels, size, interpolation):
    """`tf.image.resize_with_pad` of a channels-last image: scale to fit
    inside `size` keeping the aspect ratio, then pad with zeros, the
    image starting at the (floored) half of each margin."""
    height, width = pixels.shape[:2]
    target_h, target_w = size
    ratio = max(width / target_w, height / target_h)
    fit_h, fit_w = height / ratio, width / ratio
    resized = resize_image(pixels, (int(fit_h), int(fit_w)), interpolation,
                           "channels_last", False, False)
    top = max(0, int((target_h - fit_h) / 2))
    left = max(0, int((target_w - fit_w) / 2))
    out = np.zeros((target_h, target_w, pixels.shape[2]), "float32")
    out[top:top + resized.shape[0], left:left + resized.shape[1]] = resized
    return out


_MODES = {1: "grayscale", 3: "rgb", 4: "rgba"}


def resize_image(pixels, size, interpolation, data_format, crop, pad):
    """One float32 image resized as `ops.image.resize` (plus TensorFlow's
    "gaussian" and "mitchellcubic" kernels)."""
    if interpolation in _EXTRA_KERNELS:
        return _resize_extra(pixels, size, interpolation, data_format, crop,
                             pad)
    with stop_recording():
        out = ops.image.resize(pixels, size, interpolation=interpolation,
                               crop_to_aspect_ratio=crop,
                               pad_to_aspect_ratio=pad,
                               data_format=data_format)
    return np.asarray(out, dtype="float32")


def _gaussian(x):
    # TensorFlow's sampling kernel: sigma 0.5, support radius 1.5.
    return np.where(np.abs(x) < 1.5, np.exp(-2.0 * x * x), 0.0)


def _mitchell_cubic(x):
    # Mitchell-Netravali with B = C = 1/3 (TensorFlow's "mitchellcubic").
    x = np.abs(x)
    near = (7.0 * x ** 3 - 12.0 * x ** 2 + 16.0 / 3.0) / 6.0
    far = (-7.0 / 3.0 * x ** 3 + 12.0 * x ** 2 - 20.0 * x + 32.0 / 3.0) / 6.0
    return np.where(x < 1.0, near, np.where(x < 2.0, far, 0.0))


_EXTRA_KERNELS = {"gaussian": _gaussian, "mitchellcubic": _mitchell_cubic}


def _weights(n_in, n_out, kernel):
    """`(n_out, n_in)` resampling matrix: kernel weights at the distances
    between each output sample (mapped to the input, pixel centres at
    half-integers) and the input pixels, normalised per output pixel."""
    centres = (np.arange(n_out) + 0.5) * (n_in / n_out)
    weights = kernel(np.arange(n_in)[None, :] + 0.5 - centres[:, None])
    return weights / weights.sum(axis=1, keepdims=True)


def _aspect_window(pixels, size, crop, pad):
    """Keras's centred crop to (or zero padding up to) the aspect ratio of
    `size`, on a channels-last image."""
    height, width = pixels.shape[:2]
    target_h, target_w = size
    if crop:
        crop_h = max(min(height, int(width * target_h / target_w)), 1)
        crop_w = max(min(width, int(height * target_w / target_h)), 1)
        top, left = int((height - crop_h) / 2), int((width - crop_w) / 2)
        return pixels[top:top + crop_h, left:left + crop_w]
    if pad:
        top = int((max(height, int(width * target_h / target_w)) - height)
                  / 2)
        left = int((max(width, int(height * target_w / target_h)) - width)
                   / 2)
        # The same margin on both sides, along one axis only (as Keras).
        if top > 0:
            return np.pad(pixels, ((top, top), (0, 0), (0, 0)))
        if left > 0:
            return np.pad(pixels, ((0, 0), (left, left), (0, 0)))
    return pixels


def _resize_extra(pixels, size, interpolation, data_format, crop, pad):
    kernel = _EXTRA_KERNELS[interpolation]
    if data_format == "channels_first":
        pixels = pixels.transpose(1, 2, 0)
    pixels = _aspect_window(pixels, size, crop, pad)
    rows = _weights(pixels.shape[0], size[0], kernel)
    cols = _weights(pixels.shape[1], size[1], kernel)
    out = np.einsum("ih,hwc,jw->ijc", rows, pixels, cols).astype("float32")
    return out.transpose(2, 0, 1) if data_format == "channels_first" else out
