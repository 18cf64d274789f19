"""Xception, as `keras.applications.xception`.

Entry flow (strided separable-conv blocks with 1x1 convolution
shortcuts), 8 middle-flow blocks with identity shortcuts, exit flow. The
shortcut convolutions and their batch norms are unnamed in Keras, so they
take automatic names (`conv2d`, `batch_normalization`, ...), as here.
"""
from kerasish import layers
from kerasish.applications import _builder, imagenet_utils

WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                "keras-applications/xception/"
                "xception_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = ("https://storage.googleapis.com/tensorflow/"
                       "keras-applications/xception/"
                       "xception_weights_tf_dim_ordering_tf_kernels_notop.h5")
WEIGHTS_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6",
                  "b0042744bf5b25fce3cb969f33bebb97")


def Xception(include_top=True, weights="imagenet", input_tensor=None,
             input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="xception"):
    """Instantiates the Xception architecture.

    Reference:
    - [Xception: Deep Learning with Depthwise Separable Convolutions](
        https://arxiv.org/abs/1610.02357) (CVPR 2017)

    The default input size is 299x299. Call
    `kerasish.applications.xception.preprocess_input` on the inputs first
    (pixels scaled to [-1, 1]).

    Args:
        include_top: Whether to include the global pooling and the
            fully-connected `predictions` layer. Defaults to `True`.
        weights: `None` (random initialization), `"imagenet"` (ImageNet
            weights, from the Keras cache or downloaded) or the path to a
            weights file. Defaults to `"imagenet"`.
        input_tensor: Optional Keras tensor (output of `layers.Input()`)
            to use as the image input.
        input_shape: Optional shape tuple, only to be given with
            `include_top=False` (otherwise `(299, 299, 3)`); 3 channels,
            height and width at least 71. Defaults to `None`.
        pooling: Feature pooling when `include_top=False`: `None` (4D
            output), `"avg"` or `"max"` (global pooling, 2D output).
            Defaults to `None`.
        classes: Number of classes, only with `include_top=True` and no
            `weights`. Defaults to `1000`.
        classifier_activation: Activation of the top layer (`None` returns
            logits); only `None` or `"softmax"` with pretrained weights.
            Defaults to `"softmax"`.
        name: Name of the model. Defaults to `"xception"`.

    Returns:
        A `Model` instance.

    Example:

    >>> model = kerasish.applications.Xception(
    ...     weights=None, include_top=False, input_shape=(71, 71, 3))
    >>> model.output.shape
    (None, 3, 3, 2048)
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(input_shape, 299, 71,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _entry_flow(img_input)
    for i in range(8):
        x = _middle_block(x, f"block{i + 5}")
    x = _exit_flow(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        x = _builder.dense_top(x, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling)
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        origin = WEIGHTS_PATH if include_top else WEIGHTS_PATH_NO_TOP
        return _builder.load_weights(
            model, weights, origin.rsplit("/", 1)[1], origin,
            WEIGHTS_HASHES[0 if include_top else 1])
    return _builder.load_weights(model, weights)


def _bn(x, name=None):
    return layers.BatchNormalization(axis=_builder.channel_axis(),
                                     name=name)(x)


def _sepconv_bn(x, filters, name):
    x = layers.SeparableConv2D(filters, (3, 3), padding="same",
                               use_bias=False, name=name)(x)
    return _bn(x, f"{name}_bn")


def _conv_bn_relu(x, filters, strides, name):
    x = layers.Conv2D(filters, (3, 3), strides=strides, use_bias=False,
                      name=name)(x)
    x = _bn(x, f"{name}_bn")
    return layers.Activation("relu", name=f"{name}_act")(x)


def _shortcut(x, filters):
    residual = layers.Conv2D(filters, (1, 1), strides=(2, 2),
                             padding="same", use_bias=False)(x)
    return _bn(residual)


def _strided_block(x, filters, block, first_relu=True):
    """Two separable convs and a strided max pool, plus a 1x1 shortcut."""
    residual = _shortcut(x, filters[1])
    if first_relu:
        x = layers.Activation("relu", name=f"{block}_sepconv1_act")(x)
    x = _sepconv_bn(x, filters[0], f"{block}_sepconv1")
    x = layers.Activation("relu", name=f"{block}_sepconv2_act")(x)
    x = _sepconv_bn(x, filters[1], f"{block}_sepconv2")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same",
                            name=f"{block}_pool")(x)
    return layers.add([x, residual])


def _entry_flow(x):
    x = _conv_bn_relu(x, 32, (2, 2), "block1_conv1")
    x = _conv_bn_relu(x, 64, (1, 1), "block1_conv2")
    # Keras names block 2's in-between activation `block2_sepconv2_act`
    # and has no activation before its first separable conv.
    x = _strided_block(x, (128, 128), "block2", first_relu=False)
    x = _strided_block(x, (256, 256), "block3")
    return _strided_block(x, (728, 728), "block4")


def _middle_block(x, prefix):
    residual = x
    for i in (1, 2, 3):
        x = layers.Activation("relu", name=f"{prefix}_sepconv{i}_act")(x)
        x = _sepconv_bn(x, 728, f"{prefix}_sepconv{i}")
    return layers.add([x, residual])


def _exit_flow(x):
    x = _strided_block(x, (728, 1024), "block13")
    x = _sepconv_bn(x, 1536, "block14_sepconv1")
    x = layers.Activation("relu", name="block14_sepconv1_act")(x)
    x = _sepconv_bn(x, 2048, "block14_sepconv2")
    return layers.Activation("relu", name="block14_sepconv2_act")(x)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "tf", "xception", "Xception")
decode_predictions.__doc__ = imagenet_utils.decode_doc("xception")
