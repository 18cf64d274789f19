"""EfficientNetB0 to B7, as `keras.applications.efficientnet`.

MBConv blocks (expansion, depthwise conv, squeeze-and-excite, projection)
scaled in width and depth per variant. The models take pixels in
[0, 255]: they start with `Rescaling(1/255)` and a `Normalization` layer
whose mean and variance come with the weights; `preprocess_input` is the
identity.
"""
import math

from kerasish import layers
from kerasish.applications import _builder, imagenet_utils

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/keras-applications/"
WEIGHTS_HASHES = {
    "b0": ("902e53a9f72be733fc0bcb005b3ebbac",
           "50bc09e76180e00e4465e1a485ddc09d"),
    "b1": ("1d254153d4ab51201f1646940f018540",
           "74c4e6b3e1f6a1eea24c589628592432"),
    "b2": ("b15cce36ff4dcbd00b6dd88e7857a6ad",
           "111f8e2ac8aa800a7a99e3239f7bfb39"),
    "b3": ("ffd1fdc53d0ce67064dc6a9c7960ede0",
           "af6d107764bb5b1abb91932881670226"),
    "b4": ("18c95ad55216b8f92d7e70b3a046e2fc",
           "ebc24e6d6c33eaebbd558eafbeedf1ba"),
    "b5": ("ace28f2a6363774853a83a0b21b9421a",
           "38879255a25d3c92d5e44e04ae6cec6f"),
    "b6": ("165f6e37dce68623721b423839de8be5",
           "9ecce42647a20130c1f39a5d4cb75743"),
    "b7": ("8c03f828fec3ef71311cd463b6759d99",
           "cbcfe4450ddf6f3ad90b1b398090fe4a"),
}


def _blocks_args(kernel_size, repeats, filters_in, filters_out,
                 expand_ratio, strides):
    return {"kernel_size": kernel_size, "repeats": repeats,
            "filters_in": filters_in, "filters_out": filters_out,
            "expand_ratio": expand_ratio, "id_skip": True,
            "strides": strides, "se_ratio": 0.25}


DEFAULT_BLOCKS_ARGS = [
    _blocks_args(3, 1, 32, 16, 1, 1), _blocks_args(3, 2, 16, 24, 6, 2),
    _blocks_args(5, 2, 24, 40, 6, 2), _blocks_args(3, 3, 40, 80, 6, 2),
    _blocks_args(5, 3, 80, 112, 6, 1), _blocks_args(5, 4, 112, 192, 6, 2),
    _blocks_args(3, 1, 192, 320, 6, 1),
]
CONV_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 2.0, "mode": "fan_out",
               "distribution": "truncated_normal"},
}
DENSE_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 1.0 / 3.0, "mode": "fan_out",
               "distribution": "uniform"},
}
IMAGENET_STDDEV_RGB = [0.229, 0.224, 0.225]

DOC = """Instantiates the {name} architecture.

Reference:
- [EfficientNet: Rethinking Model Scaling for Convolutional Neural
  Networks](https://arxiv.org/abs/1905.11946) (ICML 2019)

The default input size is {size}x{size}. The model takes pixels in
[0, 255] and normalizes them itself; `efficientnet.preprocess_input` is
the identity.

Args:
    include_top: Whether to include the global pooling, dropout and the
        fully-connected `predictions` layer. Defaults to `True`.
    weights: `None` (random initialization), `"imagenet"` (ImageNet
        weights, from the Keras cache or downloaded) or the path to a
        weights file. Defaults to `"imagenet"`.
    input_tensor: Optional Keras tensor (output of `layers.Input()`) to use
        as the image input.
    input_shape: Optional shape tuple, only to be given with
        `include_top=False` (otherwise `({size}, {size}, 3)`); height and
        width at least 32. Defaults to `None`.
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
>>> model.output.shape
(None, 1, 1, {features})
"""


def EfficientNet(width_coefficient, depth_coefficient, default_size,
                 dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8,
                 activation="swish", blocks_args="default",
                 name="efficientnet", include_top=True, weights="imagenet",
                 input_tensor=None, input_shape=None, pooling=None,
                 classes=1000, classifier_activation="softmax",
                 weights_name=None):
    """Builds an EfficientNet scaled by width and depth coefficients.

    Args:
        width_coefficient: Scaling of the number of filters.
        depth_coefficient: Scaling of the number of blocks.
        default_size: Default input size.
        dropout_rate: Dropout before the classifier. Defaults to `0.2`.
        drop_connect_rate: Largest stochastic-depth rate of the residual
            branches (growing linearly with depth). Defaults to `0.2`.
        depth_divisor: Filters are multiples of it. Defaults to `8`.
        activation: Activation of the blocks. Defaults to `"swish"`.
        blocks_args: List of block dicts, or `"default"`.
        weights_name: Key of `WEIGHTS_HASHES` (`"b0"`...) for
            `weights="imagenet"`.
        name, include_top, weights, input_tensor, input_shape, pooling,
        classes, classifier_activation: As in `EfficientNetB0`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import efficientnet
    >>> model = efficientnet.EfficientNet(
    ...     0.25, 0.25, 32, weights=None, include_top=False,
    ...     input_shape=(32, 32, 3))
    >>> model.output.shape
    (None, 1, 1, 320)
    """
    if blocks_args == "default":
        blocks_args = DEFAULT_BLOCKS_ARGS
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(input_shape, default_size, 32,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)

    def round_filters(filters):
        return _round_filters(filters, width_coefficient, depth_divisor)

    x = _stem(img_input, round_filters(32), activation, weights)
    x = _blocks(x, blocks_args, round_filters, depth_coefficient,
                activation, drop_connect_rate)
    x = _conv_bn_act(x, round_filters(1280), "top", activation)
    if include_top:
        x = _top(x, dropout_rate, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling, "avg_pool", "max_pool")
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights != "imagenet":
        return _builder.load_weights(model, weights)
    # Keras names the file after the model name; the variant's canonical
    # name keeps a renamed model loadable.
    file_name = f"efficientnet{weights_name}" + \
        (".h5" if include_top else "_notop.h5")
    return _builder.load_weights(
        model, weights, file_name, BASE_WEIGHTS_PATH + file_name,
        WEIGHTS_HASHES[weights_name][0 if include_top else 1])


def _round_filters(filters, width_coefficient, divisor):
    """Scale `filters` and round to a multiple of `divisor` (>= 90%)."""
    filters *= width_coefficient
    new_filters = max(divisor,
                      int(filters + divisor / 2) // divisor * divisor)
    if new_filters < 0.9 * filters:
        new_filters += divisor
    return int(new_filters)


def _stem(x, filters, activation, weights):
    axis = _builder.bn_axis()
    x = layers.Rescaling(1.0 / 255.0)(x)
    x = layers.Normalization(axis=axis)(x)
    if weights == "imagenet":
        # The original EfficientNet divided by the variance, not the
        # standard deviation, and the ImageNet weights expect that: divide
        # once more by sqrt(variance) after Normalization's own.
        x = layers.Rescaling(
            [1.0 / math.sqrt(stddev) for stddev in IMAGENET_STDDEV_RGB])(x)
    x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3),
                             name="stem_conv_pad")(x)
    x = layers.Conv2D(filters, 3, strides=2, padding="valid", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER,
                      name="stem_conv")(x)
    x = layers.BatchNormalization(axis=axis, name="stem_bn")(x)
    return layers.Activation(activation, name="stem_activation")(x)


def _blocks(x, blocks_args, round_filters, depth_coefficient, activation,
            drop_connect_rate):
    def round_repeats(repeats):
        return int(math.ceil(depth_coefficient * repeats))

    total = float(sum(round_repeats(args["repeats"]) for args in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        if args["repeats"] <= 0:
            raise ValueError(
                "The number of repeats in `EfficientNet` must be > 0. "
                f"Received: repeats={args['repeats']}")
        args = dict(args, filters_in=round_filters(args["filters_in"]),
                    filters_out=round_filters(args["filters_out"]))
        for j in range(round_repeats(args.pop("repeats"))):
            if j > 0:
                args.update(strides=1, filters_in=args["filters_out"])
            x = block(x, activation, drop_connect_rate * b / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)
            b += 1
    return x


def _conv_bn_act(x, filters, prefix, activation):
    x = layers.Conv2D(filters, 1, padding="same", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER,
                      name=f"{prefix}_conv")(x)
    x = layers.BatchNormalization(axis=_builder.bn_axis(),
                                  name=f"{prefix}_bn")(x)
    return layers.Activation(activation, name=f"{prefix}_activation")(x)


def _top(x, dropout_rate, classes, classifier_activation, weights, **kwargs):
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    if dropout_rate > 0:
        x = layers.Dropout(dropout_rate, name="top_dropout")(x)
    return _builder.dense_top(x, classes, classifier_activation, weights,
                              kernel_initializer=DENSE_KERNEL_INITIALIZER,
                              **kwargs)


def squeeze_excite(x, filters, filters_se, activation, name):
    """Squeeze-and-excite: channel gates from the pooled features."""
    se = layers.GlobalAveragePooling2D(name=f"{name}se_squeeze")(x)
    shape = (filters, 1, 1) if _builder.bn_axis() == 1 else (1, 1, filters)
    se = layers.Reshape(shape, name=f"{name}se_reshape")(se)
    se = layers.Conv2D(filters_se, 1, padding="same", activation=activation,
                       kernel_initializer=CONV_KERNEL_INITIALIZER,
                       name=f"{name}se_reduce")(se)
    se = layers.Conv2D(filters, 1, padding="same", activation="sigmoid",
                       kernel_initializer=CONV_KERNEL_INITIALIZER,
                       name=f"{name}se_expand")(se)
    return layers.multiply([x, se], name=f"{name}se_excite")


def residual(x, inputs, drop_rate, name):
    """Add the block input, after dropping whole samples at `drop_rate`."""
    if drop_rate > 0:
        x = layers.Dropout(drop_rate, noise_shape=(None, 1, 1, 1),
                           name=f"{name}drop")(x)
    return layers.add([x, inputs], name=f"{name}add")


def block(inputs, activation="swish", drop_rate=0.0, name="", filters_in=32,
          filters_out=16, kernel_size=3, strides=1, expand_ratio=1,
          se_ratio=0.0, id_skip=True):
    """An inverted residual (MBConv) block.

    Args:
        inputs: Input tensor.
        activation: Activation. Defaults to `"swish"`.
        drop_rate: Stochastic-depth rate of the residual. Defaults to `0`.
        name: Prefix of the layer names. Defaults to `""`.
        filters_in: Input filters. Defaults to `32`.
        filters_out: Output filters. Defaults to `16`.
        kernel_size: Depthwise kernel size. Defaults to `3`.
        strides: Depthwise strides. Defaults to `1`.
        expand_ratio: Expansion of the input filters. Defaults to `1`.
        se_ratio: Squeeze-and-excite ratio in (0, 1], else none.
            Defaults to `0`.
        id_skip: Whether to add the residual when shapes allow. Defaults
            to `True`.

    Returns:
        Output tensor.

    Example:

    >>> from kerasish.applications import efficientnet
    >>> x = kerasish.Input((8, 8, 16))
    >>> efficientnet.block(x, filters_in=16, filters_out=16,
    ...                    se_ratio=0.25, name="demo_").shape
    (None, 8, 8, 16)
    """
    axis = _builder.bn_axis()
    filters = filters_in * expand_ratio
    x = inputs
    if expand_ratio != 1:
        x = _conv_bn_act(x, filters, f"{name}expand", activation)
    conv_pad = "same"
    if strides == 2:
        x = layers.ZeroPadding2D(
            padding=imagenet_utils.correct_pad(x, kernel_size),
            name=f"{name}dwconv_pad")(x)
        conv_pad = "valid"
    x = layers.DepthwiseConv2D(kernel_size, strides=strides,
                               padding=conv_pad, use_bias=False,
                               depthwise_initializer=CONV_KERNEL_INITIALIZER,
                               name=f"{name}dwconv")(x)
    x = layers.BatchNormalization(axis=axis, name=f"{name}bn")(x)
    x = layers.Activation(activation, name=f"{name}activation")(x)
    if 0 < se_ratio <= 1:
        x = squeeze_excite(x, filters, max(1, int(filters_in * se_ratio)),
                           activation, name)
    x = layers.Conv2D(filters_out, 1, padding="same", use_bias=False,
                      kernel_initializer=CONV_KERNEL_INITIALIZER,
                      name=f"{name}project_conv")(x)
    x = layers.BatchNormalization(axis=axis, name=f"{name}project_bn")(x)
    if id_skip and strides == 1 and filters_in == filters_out:
        x = residual(x, inputs, drop_rate, name)
    return x


def _variant(key, width, depth, size, dropout_rate, include_top, weights,
             input_tensor, input_shape, pooling, classes,
             classifier_activation, name):
    return EfficientNet(width, depth, size, dropout_rate, name=name,
                        include_top=include_top, weights=weights,
                        input_tensor=input_tensor, input_shape=input_shape,
                        pooling=pooling, classes=classes,
                        classifier_activation=classifier_activation,
                        weights_name=key)


# name -> (weights key, width, depth, default size, dropout, top filters)
_VARIANTS = {
    "EfficientNetB0": ("b0", 1.0, 1.0, 224, 0.2, 1280),
    "EfficientNetB1": ("b1", 1.0, 1.1, 240, 0.2, 1280),
    "EfficientNetB2": ("b2", 1.1, 1.2, 260, 0.3, 1408),
    "EfficientNetB3": ("b3", 1.2, 1.4, 300, 0.3, 1536),
    "EfficientNetB4": ("b4", 1.4, 1.8, 380, 0.4, 1792),
    "EfficientNetB5": ("b5", 1.6, 2.2, 456, 0.4, 2048),
    "EfficientNetB6": ("b6", 1.8, 2.6, 528, 0.5, 2304),
    "EfficientNetB7": ("b7", 2.0, 3.1, 600, 0.5, 2560),
}


def _doc(name):
    key, _, _, size, _, features = _VARIANTS[name]
    return _builder.with_doc(DOC, name=name, size=size, features=features,
                             default_name=f"efficientnet{key}")


@_doc("EfficientNetB0")
def EfficientNetB0(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb0"):
    return _variant(*_VARIANTS["EfficientNetB0"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("EfficientNetB1")
def EfficientNetB1(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb1"):
    return _variant(*_VARIANTS["EfficientNetB1"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("EfficientNetB2")
def EfficientNetB2(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb2"):
    return _variant(*_VARIANTS["EfficientNetB2"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("EfficientNetB3")
def EfficientNetB3(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb3"):
    return _variant(*_VARIANTS["EfficientNetB3"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("EfficientNetB4")
def EfficientNetB4(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb4"):
    return _variant(*_VARIANTS["EfficientNetB4"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("EfficientNetB5")
def EfficientNetB5(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb5"):
    return _variant(*_VARIANTS["EfficientNetB5"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("EfficientNetB6")
def EfficientNetB6(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb6"):
    return _variant(*_VARIANTS["EfficientNetB6"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("EfficientNetB7")
def EfficientNetB7(include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax", name="efficientnetb7"):
    return _variant(*_VARIANTS["EfficientNetB7"][:5], include_top, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def preprocess_input(x, data_format=None):
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    None, "efficientnet", "EfficientNet")
decode_predictions.__doc__ = imagenet_utils.decode_doc("efficientnet")
