"""MobileNetV2, as `keras.applications.mobilenet_v2`.

Inverted residual blocks (1x1 expansion, 3x3 depthwise, linear 1x1
projection; a residual add when shapes allow). ImageNet weights exist for
`alpha` in {0.35, 0.5, 0.75, 1.0, 1.3, 1.4} at 96/128/160/192/224.
"""
import warnings

from kerasish import layers
from kerasish.applications import _builder, imagenet_utils
from kerasish.applications.mobilenet import _default_size, _rows_and_cols
from kerasish.backend.common.keras_tensor import is_keras_tensor

BASE_WEIGHT_PATH = ("https://storage.googleapis.com/tensorflow/"
                    "keras-applications/mobilenet_v2/")
_SIZES = (96, 128, 160, 192, 224)
_ALPHAS = (0.35, 0.50, 0.75, 1.0, 1.3, 1.4)
# (filters, stride, expansion) of the 17 inverted residual blocks
_BLOCKS = ((16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6),
           (32, 1, 6), (64, 2, 6), (64, 1, 6), (64, 1, 6), (64, 1, 6),
           (96, 1, 6), (96, 1, 6), (96, 1, 6), (160, 2, 6), (160, 1, 6),
           (160, 1, 6), (320, 1, 6))


def MobileNetV2(input_shape=None, alpha=1.0, include_top=True,
                weights="imagenet", input_tensor=None, pooling=None,
                classes=1000, classifier_activation="softmax", name=None):
    """Instantiates the MobileNetV2 architecture.

    Reference:
    - [MobileNetV2: Inverted Residuals and Linear Bottlenecks](
        https://arxiv.org/abs/1801.04381) (CVPR 2018)

    The default input size is 224x224. Call
    `kerasish.applications.mobilenet_v2.preprocess_input` on the inputs
    first (pixels scaled to [-1, 1]).

    Args:
        input_shape: Optional shape tuple, only to be given with
            `include_top=False` (otherwise `(224, 224, 3)`, or a square
            size of 96, 128, 160 or 192); height and width at least 32.
            Defaults to `None`.
        alpha: Width multiplier of every layer (`< 1.0` thinner,
            `> 1.0` wider, also widening the last convolution). Defaults
            to `1.0`.
        include_top: Whether to include the global pooling and the
            fully-connected `predictions` layer. Defaults to `True`.
        weights: `None` (random initialization), `"imagenet"` (ImageNet
            weights, from the Keras cache or downloaded) or the path to a
            weights file. Defaults to `"imagenet"`.
        input_tensor: Optional Keras tensor (output of `layers.Input()`)
            to use as the image input.
        pooling: Feature pooling when `include_top=False`: `None` (4D
            output), `"avg"` or `"max"` (global pooling, 2D output).
            Defaults to `None`.
        classes: Number of classes, only with `include_top=True` and no
            `weights`. Defaults to `1000`.
        classifier_activation: Activation of the top layer (`None` returns
            logits); only `None` or `"softmax"` with pretrained weights.
            Defaults to `"softmax"`.
        name: Name of the model. Defaults to `None`:
            `"mobilenetv2_<alpha>_<rows>"`.

    Returns:
        A `Model` instance.

    Example:

    >>> model = kerasish.applications.MobileNetV2(
    ...     weights=None, alpha=0.35, input_shape=(32, 32, 3), classes=10)
    >>> model.name, model.output.shape
    ('mobilenetv2_0.35_32', (None, 10))
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    default_size = _default_size_v2(input_shape, input_tensor)
    input_shape = _builder.input_shape_for(input_shape, default_size, 32,
                                           include_top, weights)
    rows = _rows_and_cols(input_shape)[0]
    if weights == "imagenet":
        rows = _check_imagenet(input_shape, alpha)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _body(img_input, alpha)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        x = _builder.dense_top(x, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling)
    if name is None:
        name = f"mobilenetv2_{alpha:0.2f}_{rows}"
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        file_name = ("mobilenet_v2_weights_tf_dim_ordering_tf_kernels_"
                     f"{float(alpha)}_{rows}" +
                     ("" if include_top else "_no_top") + ".h5")
        return _builder.load_weights(model, weights, file_name,
                                     BASE_WEIGHT_PATH + file_name)
    return _builder.load_weights(model, weights)


def check_input_tensor(input_tensor, input_shape):
    """Keras's checks of an `input_tensor` given with an `input_shape`."""
    if input_tensor is None or input_shape is None:
        return
    if not is_keras_tensor(input_tensor):
        raise ValueError("input_tensor is not a Keras tensor; "
                         f"Received `input_tensor={input_tensor}`")
    index = 1 if not _builder.channels_last() else 2
    if input_tensor.shape[index] != input_shape[1]:
        raise ValueError(
            f"input_shape[1] must equal input_tensor.shape[{index}]; "
            f"Received `input_tensor.shape={input_tensor.shape}`, "
            f"`input_shape={input_shape}`")


def _default_size_v2(input_shape, input_tensor):
    check_input_tensor(input_tensor, input_shape)
    if input_shape is None and is_keras_tensor(input_tensor):
        spatial = input_tensor.shape[1:3] if _builder.channels_last() \
            else input_tensor.shape[2:4]
        rows, cols = spatial
        return rows if rows == cols and rows in _SIZES else 224
    return _default_size(input_shape, _SIZES)


def _check_imagenet(input_shape, alpha):
    if alpha not in _ALPHAS:
        raise ValueError(
            "If imagenet weights are being loaded, alpha must be one of "
            "`0.35`, `0.50`, `0.75`, `1.0`, `1.3` or `1.4` only; "
            f"Received `alpha={alpha}`")
    rows, cols = _rows_and_cols(input_shape)
    if rows != cols or rows not in _SIZES:
        warnings.warn(
            "`input_shape` is undefined or non-square, or `rows` is not in "
            "[96, 128, 160, 192, 224]. Weights for input shape (224, 224) "
            "will be loaded as the default.", stacklevel=3)
        return 224
    return rows


def _bn(x, name):
    return layers.BatchNormalization(axis=_builder.channel_axis(),
                                     epsilon=1e-3, momentum=0.999,
                                     name=name)(x)


def _body(x, alpha):
    x = layers.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3,
                      strides=(2, 2), padding="same", use_bias=False,
                      name="Conv1")(x)
    x = _bn(x, "bn_Conv1")
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_BLOCKS):
        x = _inverted_res_block(x, expansion=expansion, stride=stride,
                                alpha=alpha, filters=filters,
                                block_id=block_id)
    last = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = _bn(x, "Conv_1_bn")
    return layers.ReLU(6.0, name="out_relu")(x)


def _inverted_res_block(inputs, expansion, stride, alpha, filters,
                        block_id):
    in_channels = inputs.shape[_builder.channel_axis()]
    pointwise_filters = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"
    if block_id:
        x = layers.Conv2D(expansion * in_channels, kernel_size=1,
                          padding="same", use_bias=False, activation=None,
                          name=f"{prefix}expand")(x)
        x = _bn(x, f"{prefix}expand_BN")
        x = layers.ReLU(6.0, name=f"{prefix}expand_relu")(x)
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3),
                                 name=f"{prefix}pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride,
                               activation=None, use_bias=False,
                               padding="same" if stride == 1 else "valid",
                               name=f"{prefix}depthwise")(x)
    x = _bn(x, f"{prefix}depthwise_BN")
    x = layers.ReLU(6.0, name=f"{prefix}depthwise_relu")(x)
    x = layers.Conv2D(pointwise_filters, kernel_size=1, padding="same",
                      use_bias=False, activation=None,
                      name=f"{prefix}project")(x)
    x = _bn(x, f"{prefix}project_BN")
    if in_channels == pointwise_filters and stride == 1:
        return layers.Add(name=f"{prefix}add")([inputs, x])
    return x


def _make_divisible(v, divisor, min_value=None):
    """Round `v` to a multiple of `divisor`, never more than 10% down."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "tf", "mobilenet_v2", "MobileNetV2")
decode_predictions.__doc__ = imagenet_utils.decode_doc("mobilenet_v2")
