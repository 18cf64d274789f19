"""EfficientNetV2 B0-B3, S, M and L, as `keras.applications.efficientnet_v2`.

Fused-MBConv blocks (one regular convolution instead of expansion +
depthwise) in the early stages, MBConv blocks with squeeze-and-excite
after. The models preprocess [0, 255] pixels themselves
(`include_preprocessing=True`); `preprocess_input` is the identity.
"""
import math

from kerasish import initializers, layers
from kerasish.applications import _builder, imagenet_utils
from kerasish.applications.efficientnet import (CONV_KERNEL_INITIALIZER,
                                                _top, residual,
                                                squeeze_excite)
from kerasish.backend.common.naming import get_uid

BASE_WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                     "keras-applications/efficientnet_v2/")
WEIGHTS_HASHES = {
    "b0": ("21ecbf6da12460d5c40bb2f29ceb2188",
           "893217f2bb855e2983157299931e43ff"),
    "b1": ("069f0534ff22adf035c89e2d9547a9dc",
           "0e80663031ca32d657f9caa404b6ec37"),
    "b2": ("424e49f28180edbde1e94797771950a7",
           "1dfe2e7a5d45b6632553a8961ea609eb"),
    "b3": ("1f1fc43bd98a6e4fd8fdfd551e02c7a0",
           "f6abf7b5849ac99a89b50dd3fd532856"),
    "-s": ("e1d88a8495beba45748fedd0cecbe016",
           "af0682fb74e8c54910f2d4393339c070"),
    "-m": ("a3bf6aa3276309f4fc6a34aa114c95cd",
           "1b8dc055df72dde80d614482840fe342"),
    "-l": ("27e6d408b53c7ebc868fefa357689935",
           "b0b66b5c863aef5b46e8608fe1711615"),
}
_KEYS = ("kernel_size", "num_repeat", "input_filters", "output_filters",
         "expand_ratio", "se_ratio", "strides", "conv_type")
# Stages as (kernel, repeats, in, out, expand, se ratio, strides, type);
# type 1 is Fused-MBConv, 0 MBConv.
_B = [(3, 1, 32, 16, 1, 0, 1, 1), (3, 2, 16, 32, 4, 0, 2, 1),
      (3, 2, 32, 48, 4, 0, 2, 1), (3, 3, 48, 96, 4, 0.25, 2, 0),
      (3, 5, 96, 112, 6, 0.25, 1, 0), (3, 8, 112, 192, 6, 0.25, 2, 0)]
_STAGES = {
    "efficientnetv2-s": [
        (3, 2, 24, 24, 1, 0.0, 1, 1), (3, 4, 24, 48, 4, 0.0, 2, 1),
        (3, 4, 48, 64, 4, 0, 2, 1), (3, 6, 64, 128, 4, 0.25, 2, 0),
        (3, 9, 128, 160, 6, 0.25, 1, 0), (3, 15, 160, 256, 6, 0.25, 2, 0)],
    "efficientnetv2-m": [
        (3, 3, 24, 24, 1, 0, 1, 1), (3, 5, 24, 48, 4, 0, 2, 1),
        (3, 5, 48, 80, 4, 0, 2, 1), (3, 7, 80, 160, 4, 0.25, 2, 0),
        (3, 14, 160, 176, 6, 0.25, 1, 0), (3, 18, 176, 304, 6, 0.25, 2, 0),
        (3, 5, 304, 512, 6, 0.25, 1, 0)],
    "efficientnetv2-l": [
        (3, 4, 32, 32, 1, 0, 1, 1), (3, 7, 32, 64, 4, 0, 2, 1),
        (3, 7, 64, 96, 4, 0, 2, 1), (3, 10, 96, 192, 4, 0.25, 2, 0),
        (3, 19, 192, 224, 6, 0.25, 1, 0), (3, 25, 224, 384, 6, 0.25, 2, 0),
        (3, 7, 384, 640, 6, 0.25, 1, 0)],
    "efficientnetv2-b0": _B, "efficientnetv2-b1": _B,
    "efficientnetv2-b2": _B, "efficientnetv2-b3": _B,
}
DEFAULT_BLOCKS_ARGS = {name: [dict(zip(_KEYS, stage)) for stage in stages]
                       for name, stages in _STAGES.items()}

DOC = """Instantiates the {name} architecture.

Reference:
- [EfficientNetV2: Smaller Models and Faster Training](
    https://arxiv.org/abs/2104.00298) (ICML 2021)

The default input size is {size}x{size}. The model takes pixels in
[0, 255] and preprocesses them itself (unless
`include_preprocessing=False`); `efficientnet_v2.preprocess_input` is the
identity.

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
    include_preprocessing: Whether the model rescales (and, for the B
        variants, normalizes) the pixels itself. Defaults to `True`.
    name: Name of the model. Defaults to `"{default_name}"`.

Returns:
    A `Model` instance.

Example:

>>> model = kerasish.applications.{name}(
...     weights=None, include_top=False, input_shape=(32, 32, 3))
>>> model.output.shape
(None, 1, 1, {features})
"""


def round_filters(filters, width_coefficient, min_depth, depth_divisor):
    """Scale `filters` by the width and round to a `depth_divisor` multiple.

    Example:

    >>> from kerasish.applications import efficientnet_v2
    >>> efficientnet_v2.round_filters(32, 1.1, 8, 8)
    32
    """
    filters *= width_coefficient
    minimum_depth = min_depth or depth_divisor
    return int(max(minimum_depth, int(filters + depth_divisor / 2)
                   // depth_divisor * depth_divisor))


def round_repeats(repeats, depth_coefficient):
    """Scale a stage's number of blocks by the depth, rounding up.

    Example:

    >>> from kerasish.applications import efficientnet_v2
    >>> efficientnet_v2.round_repeats(3, 1.1)
    4
    """
    return int(math.ceil(depth_coefficient * repeats))


def _bn(x, momentum, name):
    return layers.BatchNormalization(axis=_builder.bn_axis(),
                                     momentum=momentum, name=name)(x)


def _conv(x, filters, kernel_size, strides, name):
    return layers.Conv2D(filters, kernel_size=kernel_size, strides=strides,
                         kernel_initializer=CONV_KERNEL_INITIALIZER,
                         padding="same", use_bias=False, name=name)(x)


def _expand(x, filters, kernel_size, strides, bn_momentum, activation, name):
    x = _conv(x, filters, kernel_size, strides, f"{name}expand_conv")
    x = _bn(x, bn_momentum, f"{name}expand_bn")
    return layers.Activation(activation, name=f"{name}expand_activation")(x)


def MBConvBlock(input_filters, output_filters, expand_ratio=1, kernel_size=3,
                strides=1, se_ratio=0.0, bn_momentum=0.9, activation="swish",
                survival_probability=0.8, name=None):
    """MBConv: 1x1 expansion, depthwise conv, squeeze-excite, projection.

    Args:
        input_filters: Input channels.
        output_filters: Output channels.
        expand_ratio: Expansion of the input channels. Defaults to `1`.
        kernel_size: Depthwise kernel size. Defaults to `3`.
        strides: Depthwise strides. Defaults to `1`.
        se_ratio: Squeeze-and-excite ratio in (0, 1], else none.
            Defaults to `0`.
        bn_momentum: Batch-norm momentum. Defaults to `0.9`.
        activation: Activation. Defaults to `"swish"`.
        survival_probability: Dropout rate of the residual branch (Keras's
            name for it). Defaults to `0.8`.
        name: Prefix of the layer names. Defaults to `None` (a unique
            `block0_<n>` prefix).

    Returns:
        A function applying the block to a tensor.

    Example:

    >>> from kerasish.applications import efficientnet_v2
    >>> x = kerasish.Input((8, 8, 16))
    >>> efficientnet_v2.MBConvBlock(16, 16, 4, se_ratio=0.25,
    ...                             name="demo_")(x).shape
    (None, 8, 8, 16)
    """
    name = name if name is not None else _unique_prefix()

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = _expand(x, filters, 1, 1, bn_momentum, activation, name)
        x = layers.DepthwiseConv2D(
            kernel_size=kernel_size, strides=strides,
            depthwise_initializer=CONV_KERNEL_INITIALIZER, padding="same",
            use_bias=False, name=f"{name}dwconv2")(x)
        x = _bn(x, bn_momentum, f"{name}bn")
        x = layers.Activation(activation, name=f"{name}activation")(x)
        if 0 < se_ratio <= 1:
            x = squeeze_excite(x, filters,
                               max(1, int(input_filters * se_ratio)),
                               activation, name)
        x = _conv(x, output_filters, 1, 1, f"{name}project_conv")
        x = _bn(x, bn_momentum, f"{name}project_bn")
        if strides == 1 and input_filters == output_filters:
            x = residual(x, inputs, survival_probability, name)
        return x
    return apply


def FusedMBConvBlock(input_filters, output_filters, expand_ratio=1,
                     kernel_size=3, strides=1, se_ratio=0.0, bn_momentum=0.9,
                     activation="swish", survival_probability=0.8,
                     name=None):
    """Fused-MBConv: one kxk expansion conv, squeeze-excite, projection.

    Args: as `MBConvBlock`.

    Returns:
        A function applying the block to a tensor.

    Example:

    >>> from kerasish.applications import efficientnet_v2
    >>> x = kerasish.Input((8, 8, 16))
    >>> efficientnet_v2.FusedMBConvBlock(16, 24, 4, strides=2,
    ...                                  name="demo_")(x).shape
    (None, 4, 4, 24)
    """
    name = name if name is not None else _unique_prefix()

    def apply(inputs):
        filters = input_filters * expand_ratio
        x = inputs
        if expand_ratio != 1:
            x = _expand(x, filters, kernel_size, strides, bn_momentum,
                        activation, name)
        if 0 < se_ratio <= 1:
            x = squeeze_excite(x, filters,
                               max(1, int(input_filters * se_ratio)),
                               activation, name)
        fused = expand_ratio == 1
        x = _conv(x, output_filters, kernel_size if fused else 1,
                  strides if fused else 1, f"{name}project_conv")
        x = _bn(x, bn_momentum, f"{name}project_bn")
        if fused:
            x = layers.Activation(activation,
                                  name=f"{name}project_activation")(x)
        if strides == 1 and input_filters == output_filters:
            x = residual(x, inputs, survival_probability, name)
        return x
    return apply


def _unique_prefix():
    return str(get_uid("block0"))


def EfficientNetV2(width_coefficient, depth_coefficient, default_size,
                   dropout_rate=0.2, drop_connect_rate=0.2, depth_divisor=8,
                   min_depth=8, bn_momentum=0.9, activation="swish",
                   blocks_args="default", name="efficientnetv2",
                   include_top=True, weights="imagenet", input_tensor=None,
                   input_shape=None, pooling=None, classes=1000,
                   classifier_activation="softmax",
                   include_preprocessing=True, weights_name=None):
    """Builds an EfficientNetV2 scaled by width and depth coefficients.

    Args:
        width_coefficient: Scaling of the number of filters.
        depth_coefficient: Scaling of the number of blocks.
        default_size: Default input size.
        dropout_rate: Dropout before the classifier. Defaults to `0.2`.
        drop_connect_rate: Largest residual dropout rate (growing linearly
            with depth). Defaults to `0.2`.
        depth_divisor: Filters are multiples of it. Defaults to `8`.
        min_depth: Smallest number of filters. Defaults to `8`.
        bn_momentum: Batch-norm momentum. Defaults to `0.9`.
        activation: Activation of the blocks. Defaults to `"swish"`.
        blocks_args: List of stage dicts, or `"default"` for the stages of
            `weights_name`'s variant.
        weights_name: Variant key: `"b0"`..`"b3"`, `"-s"`, `"-m"` or
            `"-l"` (stages, preprocessing and ImageNet file).
        name, include_top, weights, input_tensor, input_shape, pooling,
        classes, classifier_activation, include_preprocessing: As in
            `EfficientNetV2B0`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import efficientnet_v2
    >>> model = efficientnet_v2.EfficientNetV2(
    ...     0.25, 0.25, 32, weights=None, include_top=False,
    ...     input_shape=(32, 32, 3), weights_name="b0")
    >>> model.output.shape
    (None, 1, 1, 320)
    """
    variant = f"efficientnetv2-{(weights_name or name).split('-')[-1]}"
    if blocks_args == "default":
        # Keras looks the stages up by `name`; the variant keeps renamed
        # models buildable.
        blocks_args = DEFAULT_BLOCKS_ARGS[_variant_key(variant, name)]
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(input_shape, default_size, 32,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)

    def filters(n):
        return round_filters(n, width_coefficient, min_depth, depth_divisor)

    x = img_input
    if include_preprocessing:
        x = _preprocess(x, input_shape, variant)
    x = _conv(x, filters(blocks_args[0]["input_filters"]), 3, 2, "stem_conv")
    x = _bn(x, bn_momentum, "stem_bn")
    x = layers.Activation(activation, name="stem_activation")(x)
    x = _stages(x, blocks_args, filters, depth_coefficient, activation,
                bn_momentum, drop_connect_rate)
    x = _conv(x, filters(1280), 1, 1, "top_conv")
    x = _bn(x, bn_momentum, "top_bn")
    x = layers.Activation(activation=activation, name="top_activation")(x)
    if include_top:
        x = _top(x, dropout_rate, classes, classifier_activation, weights,
                 bias_initializer=initializers.Constant(0.0))
    else:
        x = _builder.pool(x, pooling, "avg_pool", "max_pool")
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights != "imagenet":
        return _builder.load_weights(model, weights)
    file_name = variant + (".h5" if include_top else "_notop.h5")
    return _builder.load_weights(
        model, weights, file_name, BASE_WEIGHTS_PATH + file_name,
        WEIGHTS_HASHES[weights_name][0 if include_top else 1])


def _variant_key(variant, name):
    if variant in DEFAULT_BLOCKS_ARGS:
        return variant
    if name in DEFAULT_BLOCKS_ARGS:
        return name
    raise ValueError(
        "`blocks_args='default'` needs a known variant: `weights_name` one "
        f"of 'b0'-'b3', '-s', '-m', '-l'. Received: name={name!r}")


def _preprocess(x, input_shape, variant):
    channels = input_shape[_builder.bn_axis() - 1]
    if variant.split("-")[-1].startswith("b") and channels == 3:
        x = layers.Rescaling(scale=1.0 / 255)(x)
        return layers.Normalization(
            mean=[0.485, 0.456, 0.406],
            variance=[0.229 ** 2, 0.224 ** 2, 0.225 ** 2],
            axis=_builder.bn_axis())(x)
    return layers.Rescaling(scale=1.0 / 128.0, offset=-1)(x)


def _stages(x, blocks_args, filters, depth_coefficient, activation,
            bn_momentum, drop_connect_rate):
    total = float(sum(args["num_repeat"] for args in blocks_args))
    b = 0
    for i, args in enumerate(blocks_args):
        if args["num_repeat"] <= 0:
            raise ValueError(
                "The number of repeats in `EfficientNetV2` must be > 0. "
                f"Received: num_repeat={args['num_repeat']}")
        args = dict(args, input_filters=filters(args["input_filters"]),
                    output_filters=filters(args["output_filters"]))
        block = FusedMBConvBlock if args.pop("conv_type") else MBConvBlock
        for j in range(round_repeats(args.pop("num_repeat"),
                                     depth_coefficient)):
            if j > 0:
                args.update(strides=1, input_filters=args["output_filters"])
            x = block(activation=activation, bn_momentum=bn_momentum,
                      survival_probability=drop_connect_rate * b / total,
                      name=f"block{i + 1}{chr(j + 97)}_", **args)(x)
            b += 1
    return x


# function name -> (weights key, width, depth, default size, top filters,
# default name)
_VARIANTS = {
    "EfficientNetV2B0": ("b0", 1.0, 1.0, 224, 1280, "efficientnetv2-b0"),
    "EfficientNetV2B1": ("b1", 1.0, 1.1, 240, 1280, "efficientnetv2-b1"),
    "EfficientNetV2B2": ("b2", 1.1, 1.2, 260, 1408, "efficientnetv2-b2"),
    "EfficientNetV2B3": ("b3", 1.2, 1.4, 300, 1536, "efficientnetv2-b3"),
    "EfficientNetV2S": ("-s", 1.0, 1.0, 384, 1280, "efficientnetv2-s"),
    "EfficientNetV2M": ("-m", 1.0, 1.0, 480, 1280, "efficientnetv2-m"),
    "EfficientNetV2L": ("-l", 1.0, 1.0, 480, 1280, "efficientnetv2-l"),
}


def _variant(function_name, include_top, weights, input_tensor, input_shape,
             pooling, classes, classifier_activation, include_preprocessing,
             name):
    key, width, depth, size, _, _ = _VARIANTS[function_name]
    return EfficientNetV2(
        width_coefficient=width, depth_coefficient=depth, default_size=size,
        name=name, include_top=include_top, weights=weights,
        input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
        classes=classes, classifier_activation=classifier_activation,
        include_preprocessing=include_preprocessing, weights_name=key)


def _doc(function_name):
    _, _, _, size, features, default_name = _VARIANTS[function_name]
    return _builder.with_doc(DOC, name=function_name, size=size,
                             features=features, default_name=default_name)


@_doc("EfficientNetV2B0")
def EfficientNetV2B0(include_top=True, weights="imagenet", input_tensor=None,
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax",
                     include_preprocessing=True, name="efficientnetv2-b0"):
    return _variant("EfficientNetV2B0", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    include_preprocessing, name)


@_doc("EfficientNetV2B1")
def EfficientNetV2B1(include_top=True, weights="imagenet", input_tensor=None,
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax",
                     include_preprocessing=True, name="efficientnetv2-b1"):
    return _variant("EfficientNetV2B1", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    include_preprocessing, name)


@_doc("EfficientNetV2B2")
def EfficientNetV2B2(include_top=True, weights="imagenet", input_tensor=None,
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax",
                     include_preprocessing=True, name="efficientnetv2-b2"):
    return _variant("EfficientNetV2B2", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    include_preprocessing, name)


@_doc("EfficientNetV2B3")
def EfficientNetV2B3(include_top=True, weights="imagenet", input_tensor=None,
                     input_shape=None, pooling=None, classes=1000,
                     classifier_activation="softmax",
                     include_preprocessing=True, name="efficientnetv2-b3"):
    return _variant("EfficientNetV2B3", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    include_preprocessing, name)


@_doc("EfficientNetV2S")
def EfficientNetV2S(include_top=True, weights="imagenet", input_tensor=None,
                    input_shape=None, pooling=None, classes=1000,
                    classifier_activation="softmax",
                    include_preprocessing=True, name="efficientnetv2-s"):
    return _variant("EfficientNetV2S", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    include_preprocessing, name)


@_doc("EfficientNetV2M")
def EfficientNetV2M(include_top=True, weights="imagenet", input_tensor=None,
                    input_shape=None, pooling=None, classes=1000,
                    classifier_activation="softmax",
                    include_preprocessing=True, name="efficientnetv2-m"):
    return _variant("EfficientNetV2M", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    include_preprocessing, name)


@_doc("EfficientNetV2L")
def EfficientNetV2L(include_top=True, weights="imagenet", input_tensor=None,
                    input_shape=None, pooling=None, classes=1000,
                    classifier_activation="softmax",
                    include_preprocessing=True, name="efficientnetv2-l"):
    return _variant("EfficientNetV2L", include_top, weights, input_tensor,
                    input_shape, pooling, classes, classifier_activation,
                    include_preprocessing, name)


def preprocess_input(x, data_format=None):
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    None, "efficientnet_v2", "EfficientNetV2")
decode_predictions.__doc__ = imagenet_utils.decode_doc("efficientnet_v2")
