"""MobileNetV3Small and MobileNetV3Large, as `keras.applications`.

Inverted residual blocks with optional squeeze-and-excite and hard-swish
activations (relu only when `minimalistic`). The models rescale pixels
from [0, 255] themselves (`include_preprocessing=True`), so
`preprocess_input` is the identity. Unnamed `ReLU`/`Activation` layers and
the `x + 3` / `* (1 / 6)` ops of the hard sigmoid take automatic names in
creation order, as in Keras.
"""
import warnings

from kerasish import layers
from kerasish.applications import _builder, imagenet_utils
from kerasish.applications.mobilenet_v2 import (_make_divisible,
                                                check_input_tensor)
from kerasish.backend.common.keras_tensor import is_keras_tensor

BASE_WEIGHT_PATH = ("https://storage.googleapis.com/tensorflow/"
                    "keras-applications/mobilenet_v3/")
WEIGHTS_HASHES = {
    "large_224_0.75_float": ("765b44a33ad4005b3ac83185abf1d0eb",
                             "40af19a13ebea4e2ee0c676887f69a2e"),
    "large_224_1.0_float": ("59e551e166be033d707958cf9e29a6a7",
                            "07fb09a5933dd0c8eaafa16978110389"),
    "large_minimalistic_224_1.0_float": ("675e7b876c45c57e9e63e6d90a36599c",
                                         "ec5221f64a2f6d1ef965a614bdae7973"),
    "small_224_0.75_float": ("cb65d4e5be93758266aa0a7f2c6708b7",
                             "ebdb5cc8e0b497cd13a7c275d475c819"),
    "small_224_1.0_float": ("8768d4c2e7dee89b9d02b2d03d65d862",
                            "d3e8ec802a04aa4fc771ee12a9a9b836"),
    "small_minimalistic_224_1.0_float": ("99cd97fb2fcdad2bf028eb838de69e37",
                                         "cde8136e733e811080d9fcd8a252f7e4"),
}

# Blocks: (expansion, filters, kernel, stride, squeeze-excite, activation);
# kernel "k", squeeze-excite "se" and activation "act" follow
# `minimalistic`, the others are fixed.
_SMALL = ((1, 16, 3, 2, "se", "relu"), (72 / 16, 24, 3, 2, None, "relu"),
          (88 / 24, 24, 3, 1, None, "relu"), (4, 40, "k", 2, "se", "act"),
          (6, 40, "k", 1, "se", "act"), (6, 40, "k", 1, "se", "act"),
          (3, 48, "k", 1, "se", "act"), (3, 48, "k", 1, "se", "act"),
          (6, 96, "k", 2, "se", "act"), (6, 96, "k", 1, "se", "act"),
          (6, 96, "k", 1, "se", "act"))
_LARGE = ((1, 16, 3, 1, None, "relu"), (4, 24, 3, 2, None, "relu"),
          (3, 24, 3, 1, None, "relu"), (3, 40, "k", 2, "se", "relu"),
          (3, 40, "k", 1, "se", "relu"), (3, 40, "k", 1, "se", "relu"),
          (6, 80, 3, 2, None, "act"), (2.5, 80, 3, 1, None, "act"),
          (2.3, 80, 3, 1, None, "act"), (2.3, 80, 3, 1, None, "act"),
          (6, 112, 3, 1, "se", "act"), (6, 112, 3, 1, "se", "act"),
          (6, 160, "k", 2, "se", "act"), (6, 160, "k", 1, "se", "act"),
          (6, 160, "k", 1, "se", "act"))

DOC = """Instantiates the {name} architecture.

Reference:
- [Searching for MobileNetV3](https://arxiv.org/pdf/1905.02244.pdf)
  (ICCV 2019)

The model takes pixels in [0, 255] and rescales them itself (a
`Rescaling` layer, unless `include_preprocessing=False`, in which case it
expects [-1, 1]); `mobilenet_v3.preprocess_input` is the identity.

Args:
    input_shape: Optional shape tuple; height and width at least 32.
        Defaults to `None`: `(None, None, 3)`, or the shape of
        `input_tensor`.
    alpha: Width multiplier of every layer. ImageNet weights exist for
        `0.75` and `1.0` (`1.0` only when minimalistic). Defaults to `1.0`.
    minimalistic: Whether to drop squeeze-and-excite, hard-swish and 5x5
        kernels (a faster, less accurate model). Defaults to `False`.
    include_top: Whether to include the classifier. Defaults to `True`.
    weights: `None` (random initialization), `"imagenet"` (ImageNet
        weights, from the Keras cache or downloaded) or the path to a
        weights file. Defaults to `"imagenet"`.
    input_tensor: Optional Keras tensor (output of `layers.Input()`) to use
        as the image input.
    classes: Number of classes, only with `include_top=True` and no
        `weights`. Defaults to `1000`.
    pooling: Feature pooling when `include_top=False`: `None` (4D output),
        `"avg"` or `"max"` (global pooling, 2D output). Defaults to `None`.
    dropout_rate: Dropout rate before the classifier (`0` for none).
        Defaults to `0.2`.
    classifier_activation: Activation of the top layer (`None` returns
        logits); only `None` or `"softmax"` with pretrained weights.
        Defaults to `"softmax"`.
    include_preprocessing: Whether the model rescales [0, 255] pixels to
        [-1, 1] itself. Defaults to `True`.
    name: Name of the model. Defaults to `"{name}"`.

Returns:
    A `Model` instance.

Example:

>>> model = kerasish.applications.{name}(
...     weights=None, input_shape=(32, 32, 3), classes=10)
>>> model.output.shape
(None, 10)
"""


def MobileNetV3(stack, last_point_ch, input_shape=None, alpha=1.0,
                model_type="large", minimalistic=False, include_top=True,
                weights="imagenet", input_tensor=None, classes=1000,
                pooling=None, dropout_rate=0.2,
                classifier_activation="softmax", include_preprocessing=True,
                name=None):
    """Builds a MobileNetV3 from a table of blocks (see `MobileNetV3Small`).

    Args:
        stack: Tuple of blocks `(expansion, filters, kernel, stride,
            squeeze-excite, activation)`, as `_SMALL`/`_LARGE`.
        last_point_ch: Width of the penultimate 1x1 convolution.
        model_type: `"small"` or `"large"`: names the ImageNet file.
        input_shape, alpha, minimalistic, include_top, weights,
        input_tensor, classes, pooling, dropout_rate,
        classifier_activation, include_preprocessing, name: As in
            `MobileNetV3Small`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import mobilenet_v3
    >>> model = mobilenet_v3.MobileNetV3(
    ...     mobilenet_v3._SMALL[:2], 64, weights=None, include_top=False,
    ...     input_shape=(32, 32, 3))
    >>> model.output.shape
    (None, 4, 4, 144)
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _input_shape(input_shape, input_tensor)
    _check_size(input_shape, alpha, minimalistic, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    kernel, activation, se_ratio = \
        (3, relu, None) if minimalistic else (5, hard_swish, 0.25)
    x = img_input
    if include_preprocessing:
        x = layers.Rescaling(scale=1.0 / 127.5, offset=-1.0)(x)
    x = _conv_bn(x, 16, 3, "conv", strides=(2, 2))
    x = activation(x)
    for block_id, block in enumerate(stack):
        x = _stack_block(x, block, block_id, alpha, kernel, activation,
                         se_ratio)
    x = _conv_bn(x, _depth(x.shape[_builder.channel_axis()] * 6), 1,
                 "conv_1")
    x = activation(x)
    if alpha > 1.0:
        last_point_ch = _depth(last_point_ch * alpha)
    if include_top:
        x = _top(x, last_point_ch, activation, dropout_rate, classes,
                 classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling, "avg_pool", "max_pool")
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights != "imagenet":
        return _builder.load_weights(model, weights)
    key = f"{model_type}{'_minimalistic' if minimalistic else ''}" \
          f"_224_{alpha}_float"
    file_name = f"weights_mobilenet_v3_{key}" + \
        (".h5" if include_top else "_no_top_v2.h5")
    return _builder.load_weights(model, weights, file_name,
                                 BASE_WEIGHT_PATH + file_name,
                                 WEIGHTS_HASHES[key][0 if include_top else 1])


def _input_shape(input_shape, input_tensor):
    check_input_tensor(input_tensor, input_shape)
    if input_shape is None and is_keras_tensor(input_tensor):
        # Keras swaps rows and cols here; harmless, as both must be
        # static-equal or None for the model to make sense.
        if _builder.channels_last():
            rows, cols = input_tensor.shape[1:3]
            return (cols, rows, 3)
        rows, cols = input_tensor.shape[2:4]
        return (3, cols, rows)
    if input_shape is None:
        return (None, None, 3) if _builder.channels_last() \
            else (3, None, None)
    return input_shape


def _check_size(input_shape, alpha, minimalistic, weights):
    rows, cols = input_shape[:2] if _builder.channels_last() \
        else input_shape[1:]
    if rows and cols and (rows < 32 or cols < 32):
        raise ValueError("Input size must be at least 32x32; Received "
                         f"`input_shape={input_shape}`")
    if weights != "imagenet":
        return
    if (not minimalistic and alpha not in (0.75, 1.0)) or \
            (minimalistic and alpha != 1.0):
        raise ValueError(
            "If imagenet weights are being loaded, alpha can be one of "
            "`0.75`, `1.0` for non minimalistic or `1.0` for minimalistic "
            f"only. Received: alpha={alpha}")
    if rows != cols or rows != 224:
        warnings.warn(
            "`input_shape` is undefined or non-square, or `rows` is not "
            "224. Weights for input shape (224, 224) will be loaded as the "
            "default.", stacklevel=4)


def _conv_bn(x, filters, kernel_size, name, strides=(1, 1)):
    x = layers.Conv2D(filters, kernel_size=kernel_size, strides=strides,
                      padding="same", use_bias=False, name=name)(x)
    return _bn(x, f"{name}_bn")


def _bn(x, name):
    return layers.BatchNormalization(axis=_builder.channel_axis(),
                                     epsilon=1e-3, momentum=0.999,
                                     name=name)(x)


def _stack_block(x, block, block_id, alpha, kernel, activation, se_ratio):
    expansion, filters, kernel_size, stride, se, act = block
    return _inverted_res_block(
        x, expansion, _depth(filters * alpha),
        kernel if kernel_size == "k" else kernel_size, stride,
        se_ratio if se else None, activation if act == "act" else relu,
        block_id)


def _top(x, last_point_ch, activation, dropout_rate, classes,
         classifier_activation, weights):
    x = layers.GlobalAveragePooling2D(keepdims=True)(x)
    x = layers.Conv2D(last_point_ch, kernel_size=1, padding="same",
                      use_bias=True, name="conv_2")(x)
    x = activation(x)
    if dropout_rate > 0:
        x = layers.Dropout(dropout_rate)(x)
    x = layers.Conv2D(classes, kernel_size=1, padding="same",
                      name="logits")(x)
    x = layers.Flatten()(x)
    imagenet_utils.validate_activation(classifier_activation, weights)
    return layers.Activation(activation=classifier_activation,
                             name="predictions")(x)


def relu(x):
    return layers.ReLU()(x)


def hard_sigmoid(x):
    return layers.ReLU(6.0)(x + 3.0) * (1.0 / 6.0)


def hard_swish(x):
    return layers.Activation("hard_swish")(x)


def _depth(v, divisor=8, min_value=None):
    return _make_divisible(v, divisor, min_value)


def _se_block(inputs, filters, se_ratio, prefix):
    x = layers.GlobalAveragePooling2D(
        keepdims=True, name=f"{prefix}squeeze_excite_avg_pool")(inputs)
    x = layers.Conv2D(_depth(filters * se_ratio), kernel_size=1,
                      padding="same", name=f"{prefix}squeeze_excite_conv")(x)
    x = layers.ReLU(name=f"{prefix}squeeze_excite_relu")(x)
    x = layers.Conv2D(filters, kernel_size=1, padding="same",
                      name=f"{prefix}squeeze_excite_conv_1")(x)
    x = hard_sigmoid(x)
    return layers.Multiply(name=f"{prefix}squeeze_excite_mul")([inputs, x])


def _inverted_res_block(x, expansion, filters, kernel_size, stride,
                        se_ratio, activation, block_id):
    shortcut = x
    prefix = "expanded_conv_"
    infilters = x.shape[_builder.channel_axis()]
    if block_id:
        prefix = f"expanded_conv_{block_id}_"
        x = layers.Conv2D(_depth(infilters * expansion), kernel_size=1,
                          padding="same", use_bias=False,
                          name=f"{prefix}expand")(x)
        x = activation(_bn(x, f"{prefix}expand_bn"))
    if stride == 2:
        x = layers.ZeroPadding2D(
            padding=imagenet_utils.correct_pad(x, kernel_size),
            name=f"{prefix}depthwise_pad")(x)
    x = layers.DepthwiseConv2D(kernel_size, strides=stride,
                               padding="same" if stride == 1 else "valid",
                               use_bias=False, name=f"{prefix}depthwise")(x)
    x = activation(_bn(x, f"{prefix}depthwise_bn"))
    if se_ratio:
        x = _se_block(x, _depth(infilters * expansion), se_ratio, prefix)
    x = layers.Conv2D(filters, kernel_size=1, padding="same",
                      use_bias=False, name=f"{prefix}project")(x)
    x = _bn(x, f"{prefix}project_bn")
    if stride == 1 and infilters == filters:
        x = layers.Add(name=f"{prefix}add")([shortcut, x])
    return x


@_builder.with_doc(DOC, name="MobileNetV3Small")
def MobileNetV3Small(input_shape=None, alpha=1.0, minimalistic=False,
                     include_top=True, weights="imagenet", input_tensor=None,
                     classes=1000, pooling=None, dropout_rate=0.2,
                     classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Small"):
    return MobileNetV3(_SMALL, 1024, input_shape, alpha, "small",
                       minimalistic, include_top, weights, input_tensor,
                       classes, pooling, dropout_rate, classifier_activation,
                       include_preprocessing, name=name)


@_builder.with_doc(DOC, name="MobileNetV3Large")
def MobileNetV3Large(input_shape=None, alpha=1.0, minimalistic=False,
                     include_top=True, weights="imagenet", input_tensor=None,
                     classes=1000, pooling=None, dropout_rate=0.2,
                     classifier_activation="softmax",
                     include_preprocessing=True, name="MobileNetV3Large"):
    return MobileNetV3(_LARGE, 1280, input_shape, alpha, "large",
                       minimalistic, include_top, weights, input_tensor,
                       classes, pooling, dropout_rate, classifier_activation,
                       include_preprocessing, name=name)


def preprocess_input(x, data_format=None):
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    None, "mobilenet_v3", "MobileNetV3")
decode_predictions.__doc__ = imagenet_utils.decode_doc("mobilenet_v3")
