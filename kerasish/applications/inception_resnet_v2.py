"""InceptionResNetV2, as `keras.applications.inception_resnet_v2`.

Inception branches whose concatenation, projected by a 1x1 convolution
with bias, is added to the block input scaled by `CustomScaleLayer`.
"""
from kerasish import layers
from kerasish.applications import _builder, imagenet_utils
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin

BASE_WEIGHT_URL = ("https://storage.googleapis.com/tensorflow/"
                   "keras-applications/inception_resnet_v2/")
WEIGHTS_FILES = (
    ("inception_resnet_v2_weights_tf_dim_ordering_tf_kernels.h5",
     "e693bd0210a403b3192acc6073ad2e96"),
    ("inception_resnet_v2_weights_tf_dim_ordering_tf_kernels_notop.h5",
     "d19885ff4a710c122648d3b5c3b684e4"),
)


def InceptionResNetV2(include_top=True, weights="imagenet",
                      input_tensor=None, input_shape=None, pooling=None,
                      classes=1000, classifier_activation="softmax",
                      name="inception_resnet_v2"):
    """Instantiates the Inception-ResNet v2 architecture.

    Reference:
    - [Inception-v4, Inception-ResNet and the Impact of Residual
      Connections on Learning](https://arxiv.org/abs/1602.07261)
      (AAAI 2017)

    The default input size is 299x299. Call
    `kerasish.applications.inception_resnet_v2.preprocess_input` on the
    inputs first (pixels scaled to [-1, 1]).

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
        name: Name of the model. Defaults to `"inception_resnet_v2"`.

    Returns:
        A `Model` instance.

    Example:

    >>> model = kerasish.applications.InceptionResNetV2(
    ...     weights=None, include_top=False, input_shape=(75, 75, 3))
    >>> model.output.shape
    (None, 1, 1, 1536)
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(input_shape, 299, 75,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _stem(img_input)
    x = _repeat(x, 0.17, "block35", 10)
    x = _reduction_a(x)
    x = _repeat(x, 0.1, "block17", 20)
    x = _reduction_b(x)
    x = _repeat(x, 0.2, "block8", 9)
    x = inception_resnet_block(x, scale=1.0, activation=None,
                               block_type="block8", block_idx=10)
    x = conv2d_bn(x, 1536, 1, name="conv_7b")
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        x = _builder.dense_top(x, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling)
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        file_name, file_hash = WEIGHTS_FILES[0 if include_top else 1]
        return _builder.load_weights(model, weights, file_name,
                                     BASE_WEIGHT_URL + file_name, file_hash)
    return _builder.load_weights(model, weights)


def conv2d_bn(x, filters, kernel_size, strides=1, padding="same",
              activation="relu", use_bias=False, name=None):
    """Conv2D, then (without bias) BatchNormalization without scale, then
    the activation.

    Args:
        x: Input tensor.
        filters: Number of filters.
        kernel_size: Kernel size (int or pair).
        strides: Convolution strides. Defaults to `1`.
        padding: Convolution padding. Defaults to `"same"`.
        activation: Activation, or `None` for none. Defaults to `"relu"`.
        use_bias: Whether the convolution has a bias (and then no batch
            norm). Defaults to `False`.
        name: Optional label: the layers become `<name>`, `<name>_bn` and
            `<name>_ac`.

    Returns:
        Output tensor.

    Example:

    >>> from kerasish.applications import inception_resnet_v2
    >>> x = kerasish.Input((9, 9, 3))
    >>> inception_resnet_v2.conv2d_bn(x, 4, 3, strides=2).shape
    (None, 5, 5, 4)
    """
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding,
                      use_bias=use_bias, name=name)(x)
    if not use_bias:
        x = layers.BatchNormalization(
            axis=_builder.bn_axis(), scale=False,
            name=None if name is None else f"{name}_bn")(x)
    if activation is not None:
        x = layers.Activation(activation,
                              name=None if name is None else f"{name}_ac")(x)
    return x


@builtin("keras.src.applications.inception_resnet_v2")
class CustomScaleLayer(Layer):
    """`inputs[0] + inputs[1] * scale`: the scaled residual connection.

    Args:
        scale: Float, the factor of the residual branch.

    Example:

    >>> from kerasish.applications.inception_resnet_v2 import (
    ...     CustomScaleLayer)
    >>> layer = CustomScaleLayer(0.5)
    >>> np.asarray(layer([np.ones((1, 2)), np.full((1, 2), 4.0)]))
    array([[3., 3.]], dtype=float32)
    """

    def __init__(self, scale, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, inputs):
        return inputs[0] + inputs[1] * self.scale

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0])

    def get_config(self):
        config = super().get_config()
        config.update({"scale": self.scale})
        return config


_BRANCHES = {
    # block type -> branches, each a list of (filters, kernel size)
    "block35": [[(32, 1)], [(32, 1), (32, 3)], [(32, 1), (48, 3), (64, 3)]],
    "block17": [[(192, 1)], [(128, 1), (160, [1, 7]), (192, [7, 1])]],
    "block8": [[(192, 1)], [(192, 1), (224, [1, 3]), (256, [3, 1])]],
}


def inception_resnet_block(x, scale, block_type, block_idx,
                           activation="relu"):
    """An Inception-ResNet block: `x + scale * conv(concat(branches))`.

    Args:
        x: Input tensor.
        scale: Factor of the residual branch.
        block_type: `"block35"`, `"block17"` or `"block8"`.
        block_idx: Index of the block; layers are named
            `<block_type>_<block_idx>_...`.
        activation: Activation after the addition, or `None`. Defaults to
            `"relu"`.

    Returns:
        Output tensor, with the shape of `x`.

    Example:

    >>> from kerasish.applications import inception_resnet_v2
    >>> x = kerasish.Input((5, 5, 16))
    >>> inception_resnet_v2.inception_resnet_block(
    ...     x, 0.1, "block8", 1).shape
    (None, 5, 5, 16)
    """
    if block_type not in _BRANCHES:
        raise ValueError(
            'Unknown Inception-ResNet block type. Expects "block35", '
            f'"block17" or "block8", but got: {block_type}')
    branches = []
    for convs in _BRANCHES[block_type]:
        branch = x
        for filters, kernel_size in convs:
            branch = conv2d_bn(branch, filters, kernel_size)
        branches.append(branch)
    block_name = f"{block_type}_{block_idx}"
    axis = _builder.bn_axis()
    mixed = layers.Concatenate(axis=axis, name=f"{block_name}_mixed")(
        branches)
    up = conv2d_bn(mixed, x.shape[axis], 1, activation=None, use_bias=True,
                   name=f"{block_name}_conv")
    x = CustomScaleLayer(scale)([x, up])
    if activation is not None:
        x = layers.Activation(activation, name=f"{block_name}_ac")(x)
    return x


def _repeat(x, scale, block_type, count):
    for block_idx in range(1, count + 1):
        x = inception_resnet_block(x, scale=scale, block_type=block_type,
                                   block_idx=block_idx)
    return x


def _branches(x, convs_per_branch):
    branches = []
    for convs in convs_per_branch:
        branch = x
        for filters, kernel_size, strides, padding in convs:
            branch = conv2d_bn(branch, filters, kernel_size,
                               strides=strides, padding=padding)
        branches.append(branch)
    return branches


def _stem(x):
    x = conv2d_bn(x, 32, 3, strides=2, padding="valid")
    x = conv2d_bn(x, 32, 3, padding="valid")
    x = conv2d_bn(x, 64, 3)
    x = layers.MaxPooling2D(3, strides=2)(x)
    x = conv2d_bn(x, 80, 1, padding="valid")
    x = conv2d_bn(x, 192, 3, padding="valid")
    x = layers.MaxPooling2D(3, strides=2)(x)
    # mixed 5b (Inception-A)
    branches = _branches(x, [
        [(96, 1, 1, "same")],
        [(48, 1, 1, "same"), (64, 5, 1, "same")],
        [(64, 1, 1, "same"), (96, 3, 1, "same"), (96, 3, 1, "same")],
    ])
    pool = layers.AveragePooling2D(3, strides=1, padding="same")(x)
    branches.append(conv2d_bn(pool, 64, 1))
    return layers.Concatenate(axis=_builder.bn_axis(),
                              name="mixed_5b")(branches)


def _reduction_a(x):
    branches = _branches(x, [
        [(384, 3, 2, "valid")],
        [(256, 1, 1, "same"), (256, 3, 1, "same"), (384, 3, 2, "valid")],
    ])
    branches.append(layers.MaxPooling2D(3, strides=2, padding="valid")(x))
    return layers.Concatenate(axis=_builder.bn_axis(),
                              name="mixed_6a")(branches)


def _reduction_b(x):
    branches = _branches(x, [
        [(256, 1, 1, "same"), (384, 3, 2, "valid")],
        [(256, 1, 1, "same"), (288, 3, 2, "valid")],
        [(256, 1, 1, "same"), (288, 3, 1, "same"), (320, 3, 2, "valid")],
    ])
    branches.append(layers.MaxPooling2D(3, strides=2, padding="valid")(x))
    return layers.Concatenate(axis=_builder.bn_axis(),
                              name="mixed_7a")(branches)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "tf", "inception_resnet_v2", "InceptionResNetV2")
decode_predictions.__doc__ = imagenet_utils.decode_doc("inception_resnet_v2")
