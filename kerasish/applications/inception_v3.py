"""InceptionV3, as `keras.applications.inception_v3`.

Every convolution is `conv2d_bn` (conv without bias, batch norm without
scale, relu) and, as in Keras, most are unnamed: their automatic names
(`conv2d_12`, `batch_normalization_12`, `activation_12`) depend on the
order of creation, which the block functions below keep exactly.
"""
from kerasish import layers
from kerasish.applications import _builder, imagenet_utils

WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                "keras-applications/inception_v3/"
                "inception_v3_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = (
    "https://storage.googleapis.com/tensorflow/keras-applications/"
    "inception_v3/inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5")
WEIGHTS_HASHES = ("9a0d58056eeedaa3f26cb7ebd46da564",
                  "bcbd6486424b2319ff4ef7d526e38f63")


def InceptionV3(include_top=True, weights="imagenet", input_tensor=None,
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="inception_v3"):
    """Instantiates the Inception v3 architecture.

    Reference:
    - [Rethinking the Inception Architecture for Computer Vision](
        http://arxiv.org/abs/1512.00567) (CVPR 2016)

    The default input size is 299x299. Call
    `kerasish.applications.inception_v3.preprocess_input` on the inputs
    first (pixels scaled to [-1, 1]).

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
            height and width at least 75. Defaults to `None`.
        pooling: Feature pooling when `include_top=False`: `None` (4D
            output), `"avg"` or `"max"` (global pooling, 2D output).
            Defaults to `None`.
        classes: Number of classes, only with `include_top=True` and no
            `weights`. Defaults to `1000`.
        classifier_activation: Activation of the top layer (`None` returns
            logits); only `None` or `"softmax"` with pretrained weights.
            Defaults to `"softmax"`.
        name: Name of the model. Defaults to `"inception_v3"`.

    Returns:
        A `Model` instance.

    Example:

    >>> model = kerasish.applications.InceptionV3(
    ...     weights=None, include_top=False, input_shape=(75, 75, 3))
    >>> model.output.shape
    (None, 1, 1, 2048)
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(input_shape, 299, 75,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _stem(img_input)
    for i, pool_filters in enumerate((32, 64, 64)):
        x = _block_35(x, pool_filters, f"mixed{i}")
    x = _reduction_a(x)
    x = _block_17(x, 128, "mixed4")
    for i in range(2):
        x = _block_17(x, 160, f"mixed{5 + i}")
    x = _block_17(x, 192, "mixed7")
    x = _reduction_b(x)
    for i in range(2):
        x = _block_8(x, i)
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


def conv2d_bn(x, filters, num_row, num_col, padding="same", strides=(1, 1),
              name=None):
    """Conv2D (no bias) + BatchNormalization (no scale) + relu.

    Args:
        x: Input tensor.
        filters: Number of filters.
        num_row: Kernel height.
        num_col: Kernel width.
        padding: Convolution padding. Defaults to `"same"`.
        strides: Convolution strides. Defaults to `(1, 1)`.
        name: Optional label: the layers become `<name>_conv`,
            `<name>_bn` and `<name>`.

    Returns:
        Output tensor.

    Example:

    >>> from kerasish.applications import inception_v3
    >>> x = kerasish.Input((9, 9, 3))
    >>> inception_v3.conv2d_bn(x, 4, 3, 3, padding="valid").shape
    (None, 7, 7, 4)
    """
    x = layers.Conv2D(filters, (num_row, num_col), strides=strides,
                      padding=padding, use_bias=False,
                      name=None if name is None else f"{name}_conv")(x)
    x = layers.BatchNormalization(
        axis=_builder.bn_axis(), scale=False,
        name=None if name is None else f"{name}_bn")(x)
    return layers.Activation("relu", name=name)(x)


def _concat(branches, name=None):
    return layers.concatenate(branches, axis=_builder.bn_axis(), name=name)


def _avg_pool_branch(x, filters):
    pool = layers.AveragePooling2D((3, 3), strides=(1, 1),
                                   padding="same")(x)
    return conv2d_bn(pool, filters, 1, 1)


def _stem(x):
    x = conv2d_bn(x, 32, 3, 3, strides=(2, 2), padding="valid")
    x = conv2d_bn(x, 32, 3, 3, padding="valid")
    x = conv2d_bn(x, 64, 3, 3)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = conv2d_bn(x, 80, 1, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, 3, padding="valid")
    return layers.MaxPooling2D((3, 3), strides=(2, 2))(x)


def _block_35(x, pool_filters, name):
    branch1x1 = conv2d_bn(x, 64, 1, 1)
    branch5x5 = conv2d_bn(x, 48, 1, 1)
    branch5x5 = conv2d_bn(branch5x5, 64, 5, 5)
    branch3x3dbl = conv2d_bn(x, 64, 1, 1)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3)
    branch_pool = _avg_pool_branch(x, pool_filters)
    return _concat([branch1x1, branch5x5, branch3x3dbl, branch_pool], name)


def _reduction_a(x):
    branch3x3 = conv2d_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    branch3x3dbl = conv2d_bn(x, 64, 1, 1)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 96, 3, 3, strides=(2, 2),
                             padding="valid")
    branch_pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    return _concat([branch3x3, branch3x3dbl, branch_pool], "mixed3")


def _block_17(x, width, name):
    """The 17x17 block with factorized 7x7 convolutions of `width`."""
    branch1x1 = conv2d_bn(x, 192, 1, 1)
    branch7x7 = conv2d_bn(x, width, 1, 1)
    branch7x7 = conv2d_bn(branch7x7, width, 1, 7)
    branch7x7 = conv2d_bn(branch7x7, 192, 7, 1)
    branch7x7dbl = conv2d_bn(x, width, 1, 1)
    for rows, cols in ((7, 1), (1, 7), (7, 1)):
        branch7x7dbl = conv2d_bn(branch7x7dbl, width, rows, cols)
    branch7x7dbl = conv2d_bn(branch7x7dbl, 192, 1, 7)
    branch_pool = _avg_pool_branch(x, 192)
    return _concat([branch1x1, branch7x7, branch7x7dbl, branch_pool], name)


def _reduction_b(x):
    branch3x3 = conv2d_bn(x, 192, 1, 1)
    branch3x3 = conv2d_bn(branch3x3, 320, 3, 3, strides=(2, 2),
                          padding="valid")
    branch7x7x3 = conv2d_bn(x, 192, 1, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 1, 7)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 7, 1)
    branch7x7x3 = conv2d_bn(branch7x7x3, 192, 3, 3, strides=(2, 2),
                            padding="valid")
    branch_pool = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    return _concat([branch3x3, branch7x7x3, branch_pool], "mixed8")


def _block_8(x, i):
    branch1x1 = conv2d_bn(x, 320, 1, 1)
    branch3x3 = conv2d_bn(x, 384, 1, 1)
    branch3x3_1 = conv2d_bn(branch3x3, 384, 1, 3)
    branch3x3_2 = conv2d_bn(branch3x3, 384, 3, 1)
    branch3x3 = _concat([branch3x3_1, branch3x3_2], f"mixed9_{i}")
    branch3x3dbl = conv2d_bn(x, 448, 1, 1)
    branch3x3dbl = conv2d_bn(branch3x3dbl, 384, 3, 3)
    branch3x3dbl_1 = conv2d_bn(branch3x3dbl, 384, 1, 3)
    branch3x3dbl_2 = conv2d_bn(branch3x3dbl, 384, 3, 1)
    branch3x3dbl = _concat([branch3x3dbl_1, branch3x3dbl_2])
    branch_pool = _avg_pool_branch(x, 192)
    return _concat([branch1x1, branch3x3, branch3x3dbl, branch_pool],
                   f"mixed{9 + i}")


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "tf", "inception_v3", "InceptionV3")
decode_predictions.__doc__ = imagenet_utils.decode_doc("inception_v3")
