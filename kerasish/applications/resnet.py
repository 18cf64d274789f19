"""ResNet50/101/152 and the shared ResNet builder (v1 and v2 blocks).

Layer names, order and weights follow `keras.applications.resnet`, so
Keras's ImageNet files (`resnet50_weights_tf_dim_ordering_tf_kernels.h5`
...) load into these models.
"""
from kerasish import layers
from kerasish.applications import _builder, imagenet_utils

BASE_WEIGHTS_PATH = (
    "https://storage.googleapis.com/tensorflow/keras-applications/resnet/")
# name -> (md5 with top, md5 without top)
WEIGHTS_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107",
                 "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5",
                  "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62",
                  "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0",
                   "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971",
                    "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9",
                    "ed17cf2e0169df9d443503ef94b23b33"),
}
_EPS = 1.001e-5

DOC = """Instantiates the {name} architecture.

Reference:
- [{paper}]({url})

The default input size is 224x224. Call
`kerasish.applications.{module}.preprocess_input` on the inputs first
({preprocessing}).

Args:
    include_top: Whether to include the global pooling and the
        fully-connected `predictions` layer. Defaults to `True`.
    weights: `None` (random initialization), `"imagenet"` (ImageNet
        weights, from the Keras cache or downloaded) or the path to a
        weights file. Defaults to `"imagenet"`.
    input_tensor: Optional Keras tensor (output of `layers.Input()`) to
        use as the image input.
    input_shape: Optional shape tuple, only to be given with
        `include_top=False` (otherwise `(224, 224, 3)`); 3 channels,
        height and width at least 32. Defaults to `None`.
    pooling: Feature pooling when `include_top=False`: `None` (the 4D
        output of the last block), `"avg"` or `"max"` (global pooling, 2D
        output). Defaults to `None`.
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
>>> model.output.shape
(None, 1, 1, 2048)
"""
_PAPER = ("Deep Residual Learning for Image Recognition",
          "https://arxiv.org/abs/1512.03385")


def ResNet(stack_fn, preact, use_bias, include_top=True, weights="imagenet",
           input_tensor=None, input_shape=None, pooling=None, classes=1000,
           classifier_activation="softmax", name="resnet",
           weights_name=None):
    """Builds a ResNet (`preact=False`) or ResNetV2 (`preact=True`).

    Args:
        stack_fn: Function mapping the stem output to the last stage's.
        preact: Whether blocks are pre-activation (v2) blocks.
        use_bias: Whether the stem convolution has a bias.
        weights_name: Key of `WEIGHTS_HASHES` for `weights="imagenet"`.
        include_top, weights, input_tensor, input_shape, pooling, classes,
        classifier_activation, name: As in `ResNet50`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import resnet
    >>> def stack_fn(x):
    ...     return resnet.stack_residual_blocks_v1(x, 8, 1, name="conv2")
    >>> model = resnet.ResNet(stack_fn, False, True, weights=None,
    ...                       include_top=False, input_shape=(32, 32, 3))
    >>> model.output.shape
    (None, 4, 4, 32)
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(input_shape, 224, 32,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _stem(img_input, preact, use_bias)
    x = stack_fn(x)
    if preact:
        x = layers.BatchNormalization(axis=_builder.bn_axis(), epsilon=_EPS,
                                      name="post_bn")(x)
        x = layers.Activation("relu", name="post_relu")(x)
    if include_top:
        x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
        x = _builder.dense_top(x, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling, "avg_pool", "max_pool")
    model = _builder.make_model(input_tensor, img_input, x, name)
    return _load(model, weights, weights_name, include_top)


def _stem(x, preact, use_bias):
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(x)
    x = layers.Conv2D(64, 7, strides=2, use_bias=use_bias,
                      name="conv1_conv")(x)
    if not preact:
        x = layers.BatchNormalization(axis=_builder.bn_axis(), epsilon=_EPS,
                                      name="conv1_bn")(x)
        x = layers.Activation("relu", name="conv1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    return layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)


def _load(model, weights, weights_name, include_top):
    if weights == "imagenet" and weights_name in WEIGHTS_HASHES:
        suffix = "" if include_top else "_notop"
        file_name = \
            f"{weights_name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
        file_hash = WEIGHTS_HASHES[weights_name][0 if include_top else 1]
        return _builder.load_weights(model, weights, file_name,
                                     BASE_WEIGHTS_PATH + file_name,
                                     file_hash)
    if weights == "imagenet":
        return model
    return _builder.load_weights(model, weights)


def _conv_bn(x, filters, kernel_size, name, strides=1, padding="valid"):
    x = layers.Conv2D(filters, kernel_size, strides=strides, padding=padding,
                      name=f"{name}_conv")(x)
    return layers.BatchNormalization(axis=_builder.bn_axis(), epsilon=_EPS,
                                     name=f"{name}_bn")(x)


def residual_block_v1(x, filters, kernel_size=3, stride=1,
                      conv_shortcut=True, name=None):
    """A bottleneck residual block of ResNet v1 (post-activation).

    Args:
        x: Input tensor.
        filters: Filters of the bottleneck layer (the output has
            `4 * filters` channels).
        kernel_size: Kernel size of the bottleneck layer. Defaults to `3`.
        stride: Stride of the first layer. Defaults to `1`.
        conv_shortcut: Whether the shortcut is a convolution (`True`) or
            the identity. Defaults to `True`.
        name: Block label.

    Returns:
        Output tensor of the block.

    Example:

    >>> from kerasish.applications import resnet
    >>> x = kerasish.Input((8, 8, 16))
    >>> resnet.residual_block_v1(x, 4, name="demo").shape
    (None, 8, 8, 16)
    """
    if conv_shortcut:
        shortcut = _conv_bn(x, 4 * filters, 1, f"{name}_0", strides=stride)
    else:
        shortcut = x
    x = _conv_bn(x, filters, 1, f"{name}_1", strides=stride)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = _conv_bn(x, filters, kernel_size, f"{name}_2", padding="SAME")
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = _conv_bn(x, 4 * filters, 1, f"{name}_3")
    x = layers.Add(name=f"{name}_add")([shortcut, x])
    return layers.Activation("relu", name=f"{name}_out")(x)


def stack_residual_blocks_v1(x, filters, blocks, stride1=2, name=None):
    """A stage of `blocks` v1 residual blocks; the first one strides.

    Args:
        x: Input tensor.
        filters: Bottleneck filters of each block.
        blocks: Number of blocks.
        stride1: Stride of the first block. Defaults to `2`.
        name: Stage label.

    Returns:
        Output tensor of the stage.

    Example:

    >>> from kerasish.applications import resnet
    >>> x = kerasish.Input((8, 8, 16))
    >>> resnet.stack_residual_blocks_v1(x, 4, 2, name="demo").shape
    (None, 4, 4, 16)
    """
    x = residual_block_v1(x, filters, stride=stride1, name=f"{name}_block1")
    for i in range(2, blocks + 1):
        x = residual_block_v1(x, filters, conv_shortcut=False,
                              name=f"{name}_block{i}")
    return x


def residual_block_v2(x, filters, kernel_size=3, stride=1,
                      conv_shortcut=False, name=None):
    """A bottleneck residual block of ResNet v2 (pre-activation).

    Args:
        x: Input tensor.
        filters: Filters of the bottleneck layer (the output has
            `4 * filters` channels).
        kernel_size: Kernel size of the bottleneck layer. Defaults to `3`.
        stride: Stride of the bottleneck layer. Defaults to `1`.
        conv_shortcut: Whether the shortcut is a convolution (`True`) or
            the identity (subsampled by a 1x1 max pooling when strided).
            Defaults to `False`.
        name: Block label.

    Returns:
        Output tensor of the block.

    Example:

    >>> from kerasish.applications import resnet
    >>> x = kerasish.Input((8, 8, 16))
    >>> resnet.residual_block_v2(x, 4, stride=2, name="demo").shape
    (None, 4, 4, 16)
    """
    axis = _builder.bn_axis()
    preact = layers.BatchNormalization(axis=axis, epsilon=_EPS,
                                       name=f"{name}_preact_bn")(x)
    preact = layers.Activation("relu", name=f"{name}_preact_relu")(preact)
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride,
                                 name=f"{name}_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) \
            if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False,
                      name=f"{name}_1_conv")(preact)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS,
                                  name=f"{name}_1_bn")(x)
    x = layers.Activation("relu", name=f"{name}_1_relu")(x)
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)),
                             name=f"{name}_2_pad")(x)
    x = layers.Conv2D(filters, kernel_size, strides=stride, use_bias=False,
                      name=f"{name}_2_conv")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=_EPS,
                                  name=f"{name}_2_bn")(x)
    x = layers.Activation("relu", name=f"{name}_2_relu")(x)
    x = layers.Conv2D(4 * filters, 1, name=f"{name}_3_conv")(x)
    return layers.Add(name=f"{name}_out")([shortcut, x])


def stack_residual_blocks_v2(x, filters, blocks, stride1=2, name=None):
    """A stage of `blocks` v2 residual blocks; the last one strides.

    Args:
        x: Input tensor.
        filters: Bottleneck filters of each block.
        blocks: Number of blocks.
        stride1: Stride of the last block. Defaults to `2`.
        name: Stage label.

    Returns:
        Output tensor of the stage.

    Example:

    >>> from kerasish.applications import resnet
    >>> x = kerasish.Input((8, 8, 16))
    >>> resnet.stack_residual_blocks_v2(x, 4, 2, name="demo").shape
    (None, 4, 4, 16)
    """
    x = residual_block_v2(x, filters, conv_shortcut=True,
                          name=f"{name}_block1")
    for i in range(2, blocks):
        x = residual_block_v2(x, filters, name=f"{name}_block{i}")
    return residual_block_v2(x, filters, stride=stride1,
                             name=f"{name}_block{blocks}")


def _v1_stack(depths):
    def stack_fn(x):
        for i, (filters, blocks) in enumerate(zip((64, 128, 256, 512),
                                                  depths)):
            x = stack_residual_blocks_v1(x, filters, blocks,
                                         stride1=1 if i == 0 else 2,
                                         name=f"conv{i + 2}")
        return x
    return stack_fn


def _resnet_v1(depths, weights_name, include_top, weights, input_tensor,
               input_shape, pooling, classes, classifier_activation, name):
    return ResNet(_v1_stack(depths), preact=False, use_bias=True,
                  include_top=include_top, weights=weights,
                  input_tensor=input_tensor, input_shape=input_shape,
                  pooling=pooling, classes=classes,
                  classifier_activation=classifier_activation, name=name,
                  weights_name=weights_name)


_FORMAT = dict(paper=_PAPER[0], url=_PAPER[1], module="resnet",
               preprocessing="RGB to BGR, then each channel zero-centered "
               "on ImageNet, no scaling")


@_builder.with_doc(DOC, name="ResNet50", default_name="resnet50", **_FORMAT)
def ResNet50(include_top=True, weights="imagenet", input_tensor=None,
             input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", name="resnet50"):
    return _resnet_v1((3, 4, 6, 3), "resnet50", include_top, weights,
                      input_tensor, input_shape, pooling, classes,
                      classifier_activation, name)


@_builder.with_doc(DOC, name="ResNet101", default_name="resnet101",
                   **_FORMAT)
def ResNet101(include_top=True, weights="imagenet", input_tensor=None,
              input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet101"):
    return _resnet_v1((3, 4, 23, 3), "resnet101", include_top, weights,
                      input_tensor, input_shape, pooling, classes,
                      classifier_activation, name)


@_builder.with_doc(DOC, name="ResNet152", default_name="resnet152",
                   **_FORMAT)
def ResNet152(include_top=True, weights="imagenet", input_tensor=None,
              input_shape=None, pooling=None, classes=1000,
              classifier_activation="softmax", name="resnet152"):
    return _resnet_v1((3, 8, 36, 3), "resnet152", include_top, weights,
                      input_tensor, input_shape, pooling, classes,
                      classifier_activation, name)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="caffe")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "caffe", "resnet", "ResNet")
decode_predictions.__doc__ = imagenet_utils.decode_doc("resnet")
