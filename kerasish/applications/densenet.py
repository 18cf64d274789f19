"""DenseNet121/169/201, as `keras.applications.densenet`.

Dense blocks concatenate every conv block's 32 new channels to its input;
transition blocks halve the channels and the resolution.
"""
from kerasish import layers
from kerasish.applications import _builder, imagenet_utils

BASE_WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                     "keras-applications/densenet/")
# blocks per stage -> (name, md5 with top, md5 without top)
WEIGHTS = {
    (6, 12, 24, 16): ("densenet121", "9d60b8095a5708f2dcce2bca79d332c7",
                      "30ee3e1110167f948a6b9946edeeb738"),
    (6, 12, 32, 32): ("densenet169", "d699b8f76981ab1b30698df4c175e90b",
                      "b8c4d4c20dd625c148057b9ff1c1176b"),
    (6, 12, 48, 32): ("densenet201", "1ceb130c1ea1b78c3bf6114dbdfd8807",
                      "c13680b51ded0fb44dff2d8f86ac8bb1"),
}
_EPS = 1.001e-5

DOC = """Instantiates the {name} architecture.

Reference:
- [Densely Connected Convolutional Networks](
    https://arxiv.org/abs/1608.06993) (CVPR 2017)

The default input size is 224x224; only the `"channels_last"` data format
is supported. Call `kerasish.applications.densenet.preprocess_input` on
the inputs first (pixels scaled to [0, 1], then normalized per channel
with the ImageNet mean and standard deviation).

Args:
    include_top: Whether to include the global pooling and the
        fully-connected `predictions` layer. Defaults to `True`.
    weights: `None` (random initialization), `"imagenet"` (ImageNet
        weights, from the Keras cache or downloaded) or the path to a
        weights file. Defaults to `"imagenet"`.
    input_tensor: Optional Keras tensor (output of `layers.Input()`) to use
        as the image input.
    input_shape: Optional shape tuple, only to be given with
        `include_top=False` (otherwise `(224, 224, 3)`); 3 channels,
        height and width at least 32. Defaults to `None`.
    pooling: Feature pooling when `include_top=False`: `None` (4D output),
        `"avg"` or `"max"` (global pooling, 2D output). Defaults to `None`.
    classes: Number of classes, only with `include_top=True` and no
        `weights`. Defaults to `1000`.
    classifier_activation: Activation of the top layer (`None` returns
        logits); only `None` or `"softmax"` with pretrained weights.
        Defaults to `"softmax"`.
    name: Name of the model. Defaults to `"{default_name}"`.

Returns:
    A `Model` instance.

Example:

>>> model = kerasish.applications.{name}(
...     weights=None, include_top=False, input_shape=(32, 32, 3))
>>> model.output.shape[:3]
(None, 1, 1)
"""


def dense_block(x, blocks, name):
    """`blocks` conv blocks, each adding 32 channels.

    Args:
        x: Input tensor.
        blocks: Number of conv blocks.
        name: Block label.

    Returns:
        Output tensor.

    Example:

    >>> from kerasish.applications import densenet
    >>> x = kerasish.Input((8, 8, 16))
    >>> densenet.dense_block(x, 2, name="demo").shape
    (None, 8, 8, 80)
    """
    for i in range(blocks):
        x = conv_block(x, 32, name=f"{name}_block{i + 1}")
    return x


def transition_block(x, reduction, name):
    """BN-relu-1x1 conv to `reduction` of the channels, then 2x2 pooling.

    Args:
        x: Input tensor.
        reduction: Float, the fraction of channels kept.
        name: Block label.

    Returns:
        Output tensor.

    Example:

    >>> from kerasish.applications import densenet
    >>> x = kerasish.Input((8, 8, 16))
    >>> densenet.transition_block(x, 0.5, name="demo").shape
    (None, 4, 4, 8)
    """
    axis = _builder.bn_axis()
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS,
                                  name=f"{name}_bn")(x)
    x = layers.Activation("relu", name=f"{name}_relu")(x)
    x = layers.Conv2D(int(x.shape[axis] * reduction), 1, use_bias=False,
                      name=f"{name}_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=f"{name}_pool")(x)


def conv_block(x, growth_rate, name):
    """BN-relu-1x1 conv, BN-relu-3x3 conv, concatenated to the input.

    Args:
        x: Input tensor.
        growth_rate: Number of channels added.
        name: Block label.

    Returns:
        Output tensor.

    Example:

    >>> from kerasish.applications import densenet
    >>> x = kerasish.Input((8, 8, 16))
    >>> densenet.conv_block(x, 4, name="demo").shape
    (None, 8, 8, 20)
    """
    axis = _builder.bn_axis()
    x1 = layers.BatchNormalization(axis=axis, epsilon=_EPS,
                                   name=f"{name}_0_bn")(x)
    x1 = layers.Activation("relu", name=f"{name}_0_relu")(x1)
    x1 = layers.Conv2D(4 * growth_rate, 1, use_bias=False,
                       name=f"{name}_1_conv")(x1)
    x1 = layers.BatchNormalization(axis=axis, epsilon=_EPS,
                                   name=f"{name}_1_bn")(x1)
    x1 = layers.Activation("relu", name=f"{name}_1_relu")(x1)
    x1 = layers.Conv2D(growth_rate, 3, padding="same", use_bias=False,
                       name=f"{name}_2_conv")(x1)
    return layers.Concatenate(axis=axis, name=f"{name}_concat")([x, x1])


def DenseNet(blocks, include_top=True, weights="imagenet", input_tensor=None,
             input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="densenet"):
    """Builds a DenseNet with `blocks` conv blocks in its 4 dense blocks.

    Args:
        blocks: Four integers, e.g. `[6, 12, 24, 16]` for DenseNet121.
        include_top, weights, input_tensor, input_shape, pooling, classes,
        classifier_activation, name: As in `DenseNet121`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import densenet
    >>> model = densenet.DenseNet([1, 1, 1, 1], weights=None,
    ...                           include_top=False, input_shape=(32, 32, 3))
    >>> model.output.shape
    (None, 1, 1, 68)
    """
    if not _builder.channels_last():
        raise ValueError(
            "DenseNet does not support the `channels_first` image data "
            "format. Switch to `channels_last` by editing your local config "
            "file at ~/.keras/keras.json")
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    key = tuple(blocks)
    if weights == "imagenet" and key not in WEIGHTS:
        raise ValueError(
            "ImageNet weights exist only for the blocks of DenseNet121, "
            f"DenseNet169 and DenseNet201. Received: blocks={blocks}")
    input_shape = _builder.input_shape_for(input_shape, 224, 32,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _body(img_input, blocks)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        x = _builder.dense_top(x, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling, "avg_pool", "max_pool")
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights != "imagenet":
        return _builder.load_weights(model, weights)
    base, top_hash, notop_hash = WEIGHTS[key]
    file_name = f"{base}_weights_tf_dim_ordering_tf_kernels" + \
        ("" if include_top else "_notop") + ".h5"
    return _builder.load_weights(model, weights, file_name,
                                 BASE_WEIGHTS_PATH + file_name,
                                 top_hash if include_top else notop_hash)


def _body(x, blocks):
    axis = _builder.bn_axis()
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(x)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1_conv")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS,
                                  name="conv1_bn")(x)
    x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks, start=2):
        x = dense_block(x, count, name=f"conv{stage}")
        if stage < 5:
            x = transition_block(x, 0.5, name=f"pool{stage}")
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS, name="bn")(x)
    return layers.Activation("relu", name="relu")(x)


def _named(blocks, include_top, weights, input_tensor, input_shape, pooling,
           classes, classifier_activation, name):
    return DenseNet(list(blocks), include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    name=name)


@_builder.with_doc(DOC, name="DenseNet121", default_name="densenet121")
def DenseNet121(include_top=True, weights="imagenet", input_tensor=None,
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="densenet121"):
    return _named((6, 12, 24, 16), include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name)


@_builder.with_doc(DOC, name="DenseNet169", default_name="densenet169")
def DenseNet169(include_top=True, weights="imagenet", input_tensor=None,
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="densenet169"):
    return _named((6, 12, 32, 32), include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name)


@_builder.with_doc(DOC, name="DenseNet201", default_name="densenet201")
def DenseNet201(include_top=True, weights="imagenet", input_tensor=None,
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="densenet201"):
    return _named((6, 12, 48, 32), include_top, weights, input_tensor,
                  input_shape, pooling, classes, classifier_activation, name)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="torch")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "torch", "densenet", "DenseNet")
decode_predictions.__doc__ = imagenet_utils.decode_doc("densenet")
