"""ImageNet helpers shared by the applications, as `keras.applications`.

`preprocess_input` converts pixels in [0, 255] to what a family of
pretrained weights was trained on; `decode_predictions` turns a batch of
1000-way scores into `(wordnet id, class name, score)` tuples, reading
Keras's `imagenet_class_index.json` (downloaded once into
`~/.keras/models`, or found there offline). The rest are the input-shape
and padding rules every architecture builder uses.
"""
import json
import warnings

import numpy as np

from kerasish import activations, backend, ops

CLASS_INDEX = None
CLASS_INDEX_PATH = ("https://storage.googleapis.com/download.tensorflow.org/"
                    "data/imagenet_class_index.json")
CLASS_INDEX_HASH = "c2c37ea517e94d9795004a39431a14cb"

_CAFFE_MEAN = (103.939, 116.779, 123.68)     # BGR order
_TORCH_MEAN = (0.485, 0.456, 0.406)
_TORCH_STD = (0.229, 0.224, 0.225)


def preprocess_input(x, data_format=None, mode="caffe"):
    """Preprocesses a tensor or numpy array encoding a batch of images.

    A float numpy array is modified in place (as in Keras); pass
    `np.copy(x)` to keep the original.

    Args:
        x: Float or integer numpy array or tensor, 3D or 4D, with 3 color
            channels in the range [0, 255].
        data_format: `"channels_last"` or `"channels_first"`. Defaults to
            `None`: `kerasish.backend.image_data_format()`.
        mode: One of `"caffe"` (RGB to BGR, then zero-center each channel
            on the ImageNet means, no scaling), `"tf"` (scale to [-1, 1])
            or `"torch"` (scale to [0, 1], then normalize each channel with
            the ImageNet mean and standard deviation). Defaults to
            `"caffe"`.

    Returns:
        The preprocessed array (float32) or tensor.

    Raises:
        ValueError: for an unknown `mode` or `data_format`.

    Example:

    >>> from kerasish.applications import imagenet_utils
    >>> x = np.full((1, 2, 2, 3), 255.0)
    >>> imagenet_utils.preprocess_input(x, mode="tf")[0, 0, 0]
    array([1., 1., 1.])
    """
    if mode not in {"caffe", "tf", "torch"}:
        raise ValueError("Expected mode to be one of `caffe`, `tf` or "
                         f"`torch`. Received: mode={mode}")
    if data_format is None:
        data_format = backend.image_data_format()
    elif data_format not in {"channels_first", "channels_last"}:
        raise ValueError(
            "Expected data_format to be one of `channels_first` or "
            f"`channels_last`. Received: data_format={data_format}")
    if isinstance(x, np.ndarray):
        return _preprocess_numpy(x, data_format, mode)
    return _preprocess_tensor(x, data_format, mode)


def _channel_index(x, data_format, channel):
    if data_format == "channels_last":
        return (Ellipsis, channel)
    return (channel,) if x.ndim == 3 else (slice(None), channel)


def _preprocess_numpy(x, data_format, mode):
    if not issubclass(x.dtype.type, np.floating):
        x = x.astype(backend.floatx(), copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    if mode == "torch":
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        # RGB -> BGR as a reversed view: the in-place centering below then
        # writes through to the caller's array, exactly as Keras does.
        channel_axis = -1 if data_format == "channels_last" else \
            (0 if x.ndim == 3 else 1)
        x = np.flip(x, axis=channel_axis)
        mean, std = _CAFFE_MEAN, None
    for c in range(3):
        index = _channel_index(x, data_format, c)
        x[index] -= mean[c]
        if std is not None:
            x[index] /= std[c]
    return x


def _stats_shape(ndim, data_format):
    if data_format == "channels_last":
        return (1,) * (ndim - 1) + (3,)
    return (3, 1, 1) if ndim == 3 else (1, 3) + (1,) * (ndim - 2)


def _preprocess_tensor(x, data_format, mode):
    ndim = len(x.shape)
    if mode == "tf":
        return x / 127.5 - 1.0
    if mode == "torch":
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        axis = -1 if data_format == "channels_last" else \
            (0 if ndim == 3 else 1)
        x = ops.flip(x, axis=axis)
        mean, std = _CAFFE_MEAN, None
    shape = _stats_shape(ndim, data_format)
    x = x + ops.convert_to_tensor(
        -np.reshape(mean, shape), dtype=x.dtype)
    if std is not None:
        x = x / ops.convert_to_tensor(np.reshape(std, shape), dtype=x.dtype)
    return x


def decode_predictions(preds, top=5):
    """Decodes the predictions of an ImageNet model.

    The class names come from Keras's `imagenet_class_index.json`, fetched
    once with `kerasish.utils.get_file` into `~/.keras/models` (a copy
    already cached there by Keras is used offline).

    Args:
        preds: Array of shape `(samples, 1000)`.
        top: Integer, how many top guesses to return. Defaults to `5`.

    Returns:
        One list per sample of `(class_name, class_description, score)`
        tuples, best first.

    Raises:
        ValueError: if `preds` is not of shape `(samples, 1000)`.

    Example:

    >>> from kerasish.applications import imagenet_utils
    >>> imagenet_utils.decode_predictions(np.zeros((1, 10)))
    Traceback (most recent call last):
    ...
    ValueError: `decode_predictions` expects a batch of predictions (i.e. \
a 2D array of shape (samples, 1000)). Received array with shape: (1, 10)
    """
    shape = tuple(np.shape(preds))
    if len(shape) != 2 or shape[1] != 1000:
        raise ValueError(
            "`decode_predictions` expects a batch of predictions (i.e. a 2D "
            "array of shape (samples, 1000)). Received array with shape: "
            f"{shape}")
    index = _class_index()
    results = []
    for pred in ops.convert_to_numpy(preds):
        best = pred.argsort()[-top:][::-1]
        result = [tuple(index[str(i)]) + (pred[i],) for i in best]
        result.sort(key=lambda entry: entry[2], reverse=True)
        results.append(result)
    return results


def _class_index():
    global CLASS_INDEX
    if CLASS_INDEX is None:
        # lazy: read at call time: tests patch it
        from kerasish.utils.file_utils import get_file
        path = get_file("imagenet_class_index.json", CLASS_INDEX_PATH,
                        cache_subdir="models", file_hash=CLASS_INDEX_HASH)
        with open(path) as f:
            CLASS_INDEX = json.load(f)
    return CLASS_INDEX


def obtain_input_shape(input_shape, default_size, min_size, data_format,
                       require_flatten, weights=None):
    """The model input shape: the default, or `input_shape` validated.

    Args:
        input_shape: `None` or a user shape (without the batch axis).
        default_size: Default input height and width.
        min_size: Smallest accepted height and width.
        data_format: `"channels_last"` or `"channels_first"`.
        require_flatten: Whether the top needs a static shape
            (`include_top=True`).
        weights: `None`, `"imagenet"` or a weights path.

    Returns:
        A shape tuple, possibly with `None` entries.

    Example:

    >>> from kerasish.applications import imagenet_utils
    >>> imagenet_utils.obtain_input_shape(None, 224, 32, "channels_last",
    ...                                   require_flatten=False)
    (None, None, 3)
    """
    default_shape = _default_shape(input_shape, default_size, data_format,
                                   weights)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and input_shape != default_shape:
            raise ValueError(
                "When setting `include_top=True` and loading `imagenet` "
                f"weights, `input_shape` should be {default_shape}.  "
                f"Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        _check_input_shape(input_shape, min_size, data_format, weights)
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (None, None, 3) if data_format == "channels_last" \
            else (3, None, None)
    if require_flatten and None in input_shape:
        raise ValueError(
            "If `include_top` is True, you should specify a static "
            f"`input_shape`. Received: input_shape={input_shape}")
    return input_shape


def _default_shape(input_shape, size, data_format, weights):
    channels_last = data_format != "channels_first"
    if weights == "imagenet" or not input_shape or len(input_shape) != 3:
        return (size, size, 3) if channels_last else (3, size, size)
    channels = input_shape[-1] if channels_last else input_shape[0]
    if channels not in {1, 3}:
        warnings.warn(
            "This model usually expects 1 or 3 input channels. However, it "
            f"was passed an input_shape with {channels} input channels.",
            stacklevel=4)
    return (size, size, channels) if channels_last else \
        (channels, size, size)


def _check_input_shape(input_shape, min_size, data_format, weights):
    if len(input_shape) != 3:
        raise ValueError("`input_shape` must be a tuple of three integers.")
    if data_format == "channels_last":
        channels, spatial = input_shape[-1], input_shape[:2]
    else:
        channels, spatial = input_shape[0], input_shape[1:]
    if channels != 3 and weights == "imagenet":
        raise ValueError("The input must have 3 channels; Received "
                         f"`input_shape={input_shape}`")
    if any(d is not None and d < min_size for d in spatial):
        raise ValueError(
            f"Input size must be at least {min_size}x{min_size}; "
            f"Received: input_shape={input_shape}")


def correct_pad(inputs, kernel_size):
    """Zero padding that makes a stride-2 "valid" convolution line up.

    Args:
        inputs: Input tensor (its static height and width are used).
        kernel_size: An integer or a pair of integers.

    Returns:
        `((top, bottom), (left, right))` for `ZeroPadding2D`.

    Example:

    >>> from kerasish.applications import imagenet_utils
    >>> x = kerasish.Input((32, 32, 3))
    >>> imagenet_utils.correct_pad(x, 3)
    ((0, 1), (0, 1))
    """
    axis = 2 if backend.image_data_format() == "channels_first" else 1
    size = inputs.shape[axis:axis + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else \
        (1 - size[0] % 2, 1 - size[1] % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation, weights):
    """Only `None` or `"softmax"` may top pretrained weights.

    Args:
        classifier_activation: Activation name or callable.
        weights: `None`, `"imagenet"` or a weights path.

    Example:

    >>> from kerasish.applications import imagenet_utils
    >>> imagenet_utils.validate_activation("relu", weights=None)
    """
    if weights is None:
        return
    activation = activations.get(classifier_activation)
    if activation not in {activations.get("softmax"),
                          activations.get(None)}:
        raise ValueError(
            "Only `None` and `softmax` activations are allowed for the "
            "`classifier_activation` argument when using pretrained "
            "weights, with `include_top=True`; Received: "
            f"classifier_activation={classifier_activation}")


# -- docstrings of the per-family `preprocess_input`/`decode_predictions` ----
_MODE_TEXT = {
    "caffe": "converts RGB to BGR, then zero-centers each color channel on "
             "the ImageNet means, without scaling",
    "tf": "scales pixels to [-1, 1], sample-wise",
    "torch": "scales pixels to [0, 1], then normalizes each channel with "
             "the ImageNet mean and standard deviation",
}
_MODE_EXAMPLE = {
    "caffe": "array([151.061, 138.221, 131.32 ])",
    "tf": "array([1., 1., 1.])",
    "torch": "array([2.2489083 , 2.42857143, 2.64      ])",
}
_PREPROCESS_DOC = """Preprocesses a batch of images for {family}.

This {mode_text} (`imagenet_utils.preprocess_input` with
`mode="{mode}"`).

Args:
    x: Numpy array or tensor of images (3D or 4D, 3 channels), pixels in
        [0, 255]. A float numpy array is modified in place; pass
        `np.copy(x)` to keep it.
    data_format: Optional image data format; `None` uses
        `kerasish.backend.image_data_format()`. Defaults to `None`.

Returns:
    The preprocessed float32 array or tensor.

Raises:
    ValueError: for an unknown `data_format`.

Example:

>>> from kerasish.applications import {module}
>>> {module}.preprocess_input(np.full((1, 1, 1, 3), 255.0))[0, 0, 0]
{output}
"""
_DECODE_DOC = """Decodes the predictions of an ImageNet model.

See `kerasish.applications.imagenet_utils.decode_predictions`: the class
names come from Keras's `imagenet_class_index.json` (cached in
`~/.keras/models`).

Args:
    preds: Array of shape `(samples, 1000)`.
    top: Integer, how many top guesses to return. Defaults to `5`.

Returns:
    One list per sample of `(class_name, class_description, score)`
    tuples, best first.

Raises:
    ValueError: if `preds` is not of shape `(samples, 1000)`.

Example:

>>> from kerasish.applications import {module}
>>> {module}.decode_predictions(np.zeros((2, 10)))
Traceback (most recent call last):
...
ValueError: `decode_predictions` expects a batch of predictions ...
"""
_IDENTITY_DOC = """A placeholder: {family} preprocesses inside the model.

The model starts with its own rescaling/normalization layers and takes
pixels in [0, 255], so this returns `x` unchanged; it exists for API
consistency with the other applications.

Args:
    x: Numpy array or tensor of images.
    data_format: Ignored. Defaults to `None`.

Returns:
    `x`, unchanged.

Example:

>>> from kerasish.applications import {module}
>>> x = np.full((1, 2, 2, 3), 255.0)
>>> {module}.preprocess_input(x) is x
True
"""


def preprocess_doc(mode, module, family):
    """The docstring of `<module>.preprocess_input` for `mode`."""
    if mode is None:
        return _IDENTITY_DOC.format(module=module, family=family)
    return _PREPROCESS_DOC.format(
        mode=mode, mode_text=_MODE_TEXT[mode], module=module, family=family,
        output=_MODE_EXAMPLE[mode])


def decode_doc(module):
    """The docstring of `<module>.decode_predictions`."""
    return _DECODE_DOC.format(module=module)
