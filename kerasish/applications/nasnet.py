"""NASNetMobile and NASNetLarge, as `keras.applications.nasnet`.

NASNet-A normal and reduction cells found by architecture search. The
cells open name scopes (`normal_A_block_0/block_1/...`) exactly where
Keras does, so variable paths match too; many layers are unnamed and take
automatic names in creation order.
"""
from kerasish import layers
from kerasish.applications import _builder, imagenet_utils
from kerasish.backend.common.naming import name_scope

BASE_WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                     "keras-applications/nasnet/")
# default size -> ((file, origin, md5) with top, (...) without top)
WEIGHTS = {
    224: (("nasnet_mobile.h5", "NASNet-mobile.h5",
           "020fb642bf7360b370c678b08e0adf61"),
          ("nasnet_mobile_no_top.h5", "NASNet-mobile-no-top.h5",
           "1ed92395b5b598bdda52abe5c0dbfd63")),
    331: (("nasnet_large.h5", "NASNet-large.h5",
           "11577c9a518f0070763c2b964a382f17"),
          ("nasnet_large_no_top.h5", "NASNet-large-no-top.h5",
           "d81d89dc07e6e56530c4e77faddd61b5")),
}

DOC = """Instantiates a NASNet model in ImageNet mode ({name}).

Reference:
- [Learning Transferable Architectures for Scalable Image Recognition](
    https://arxiv.org/abs/1707.07012) (CVPR 2018)

The default input size is {size}x{size}; only the `"channels_last"` data
format is supported. Call `kerasish.applications.nasnet.preprocess_input`
on the inputs first (pixels scaled to [-1, 1]).

Args:
    input_shape: Optional shape tuple, only to be given with
        `include_top=False` (otherwise `({size}, {size}, 3)`); 3 channels,
        height and width at least 32. Defaults to `None`{no_top_default}.
    include_top: Whether to include the global pooling and the
        fully-connected `predictions` layer. Defaults to `True`.
    weights: `None` (random initialization), `"imagenet"` (ImageNet
        weights, from the Keras cache or downloaded) or the path to a
        weights file. Defaults to `"imagenet"`.
    input_tensor: Optional Keras tensor (output of `layers.Input()`) to use
        as the image input.
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


def NASNet(input_shape=None, penultimate_filters=4032, num_blocks=6,
           stem_block_filters=96, skip_reduction=True, filter_multiplier=2,
           include_top=True, weights="imagenet", input_tensor=None,
           pooling=None, classes=1000, default_size=None,
           classifier_activation="softmax", name="NASNet"):
    """Builds a NASNet-A model.

    Args:
        penultimate_filters: Filters of the last cells (a multiple of
            `24 * filter_multiplier ** 2`). Defaults to `4032`.
        num_blocks: Normal cells between two reductions. Defaults to `6`.
        stem_block_filters: Filters of the stem convolution. Defaults to
            `96`.
        skip_reduction: Whether the cells after a reduction skip its
            input. Defaults to `True`.
        filter_multiplier: Width factor between stages. Defaults to `2`.
        default_size: Default input size; `224` or `331` select the
            ImageNet files. Defaults to `None` (331).
        input_shape, include_top, weights, input_tensor, pooling, classes,
        classifier_activation, name: As in `NASNetMobile`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import nasnet
    >>> model = nasnet.NASNet((32, 32, 3), penultimate_filters=96,
    ...                       num_blocks=1, stem_block_filters=8,
    ...                       weights=None, include_top=False)
    >>> model.output.shape
    (None, 1, 1, 96)
    """
    _check_arguments(input_shape, weights, include_top, classes, pooling,
                     penultimate_filters, filter_multiplier)
    default_size = default_size or 331
    if weights == "imagenet" and default_size not in WEIGHTS:
        raise ValueError("ImageNet weights can only be loaded with "
                         "NASNetLarge or NASNetMobile")
    input_shape = _builder.input_shape_for(input_shape, default_size, 32,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _body(img_input, penultimate_filters // 24, num_blocks,
              stem_block_filters, skip_reduction, filter_multiplier)
    if include_top:
        x = layers.GlobalAveragePooling2D()(x)
        x = _builder.dense_top(x, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling)
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights != "imagenet":
        return _builder.load_weights(model, weights)
    file_name, remote, file_hash = \
        WEIGHTS[default_size][0 if include_top else 1]
    return _builder.load_weights(model, weights, file_name,
                                 BASE_WEIGHTS_PATH + remote, file_hash)


def _check_arguments(input_shape, weights, include_top, classes, pooling,
                     penultimate_filters, filter_multiplier):
    if not _builder.channels_last():
        raise ValueError(
            "NASNet does not support the `channels_first` image data "
            "format. Switch to `channels_last` by editing your local config "
            "file at ~/.keras/keras.json")
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    if isinstance(input_shape, tuple) and None in input_shape and \
            weights == "imagenet":
        raise ValueError(
            "When specifying the input shape of a NASNet and loading "
            "`ImageNet` weights, the input_shape argument must be static "
            f"(no None entries). Got: `input_shape={input_shape}`.")
    if penultimate_filters % (24 * (filter_multiplier ** 2)) != 0:
        raise ValueError(
            "For NASNet-A models, the `penultimate_filters` must be a "
            "multiple of 24 * (`filter_multiplier` ** 2). Current value: "
            f"{penultimate_filters}")


def _bn(x, name=None):
    return layers.BatchNormalization(axis=-1, momentum=0.9997, epsilon=1e-3,
                                     name=name)(x)


def _body(x, filters, num_blocks, stem_filters, skip_reduction, multiplier):
    x = layers.Conv2D(stem_filters, (3, 3), strides=(2, 2), padding="valid",
                      use_bias=False, name="stem_conv1",
                      kernel_initializer="he_normal")(x)
    x = _bn(x, "stem_bn1")
    x, p = _reduction_a_cell(x, None, filters // multiplier ** 2, "stem_1")
    x, p = _reduction_a_cell(x, p, filters // multiplier, "stem_2")
    for stage in range(3):
        width = filters * multiplier ** stage
        if stage:
            x, p0 = _reduction_a_cell(x, p, width,
                                      f"reduce_{stage * num_blocks}")
            p = p if skip_reduction else p0
        for i in range(num_blocks):
            block_id = str(stage * num_blocks + i + (stage > 0))
            x, p = _normal_a_cell(x, p, width, block_id)
    return layers.Activation("relu")(x)


def _separable_conv_block(ip, filters, kernel_size=(3, 3), strides=(1, 1),
                          block_id=None):
    with name_scope(f"separable_conv_block_{block_id}"):
        x = layers.Activation("relu")(ip)
        padding = "same"
        if strides == (2, 2):
            x = layers.ZeroPadding2D(
                padding=imagenet_utils.correct_pad(x, kernel_size),
                name=f"separable_conv_1_pad_{block_id}")(x)
            padding = "valid"
        x = layers.SeparableConv2D(filters, kernel_size, strides=strides,
                                   name=f"separable_conv_1_{block_id}",
                                   padding=padding, use_bias=False)(x)
        x = _bn(x, f"separable_conv_1_bn_{block_id}")
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, kernel_size,
                                   name=f"separable_conv_2_{block_id}",
                                   padding="same", use_bias=False)(x)
        return _bn(x, f"separable_conv_2_bn_{block_id}")


def _conv_1x1(x, filters, name):
    return layers.Conv2D(filters, (1, 1), padding="same", use_bias=False,
                         name=name, kernel_initializer="he_normal")(x)


def _adjust_block(p, ip, filters, block_id=None):
    """Match the previous cell's output `p` to the shape of `ip`."""
    with name_scope("adjust_block"):
        if p is None:
            return ip
        if p.shape[-2] != ip.shape[-2]:
            with name_scope(f"adjust_reduction_block_{block_id}"):
                return _adjust_reduction(p, filters, block_id)
        if p.shape[-1] != filters:
            with name_scope(f"adjust_projection_block_{block_id}"):
                p = layers.Activation("relu")(p)
                p = _conv_1x1(p, filters, f"adjust_conv_projection_{block_id}")
                return _bn(p, f"adjust_bn_{block_id}")
        return p


def _adjust_reduction(p, filters, block_id):
    p = layers.Activation("relu", name=f"adjust_relu_1_{block_id}")(p)
    p1 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                 name=f"adjust_avg_pool_1_{block_id}")(p)
    p1 = _conv_1x1(p1, filters // 2, f"adjust_conv_1_{block_id}")
    p2 = layers.ZeroPadding2D(padding=((0, 1), (0, 1)))(p)
    p2 = layers.Cropping2D(cropping=((1, 0), (1, 0)))(p2)
    p2 = layers.AveragePooling2D((1, 1), strides=(2, 2), padding="valid",
                                 name=f"adjust_avg_pool_2_{block_id}")(p2)
    p2 = _conv_1x1(p2, filters // 2, f"adjust_conv_2_{block_id}")
    p = layers.concatenate([p1, p2], axis=-1)
    return _bn(p, f"adjust_bn_{block_id}")


def _avg_pool(x, strides, padding, name):
    return layers.AveragePooling2D((3, 3), strides=strides, padding=padding,
                                   name=name)(x)


def _normal_a_cell(ip, p, filters, block_id=None):
    with name_scope(f"normal_A_block_{block_id}"):
        p = _adjust_block(p, ip, filters, block_id)
        h = layers.Activation("relu")(ip)
        h = _conv_1x1(h, filters, f"normal_conv_1_{block_id}")
        h = _bn(h, f"normal_bn_1_{block_id}")
        with name_scope("block_1"):
            x1_1 = _separable_conv_block(
                h, filters, kernel_size=(5, 5),
                block_id=f"normal_left1_{block_id}")
            x1_2 = _separable_conv_block(
                p, filters, block_id=f"normal_right1_{block_id}")
            x1 = layers.add([x1_1, x1_2], name=f"normal_add_1_{block_id}")
        with name_scope("block_2"):
            x2_1 = _separable_conv_block(
                p, filters, (5, 5), block_id=f"normal_left2_{block_id}")
            x2_2 = _separable_conv_block(
                p, filters, (3, 3), block_id=f"normal_right2_{block_id}")
            x2 = layers.add([x2_1, x2_2], name=f"normal_add_2_{block_id}")
        with name_scope("block_3"):
            x3 = _avg_pool(h, (1, 1), "same", f"normal_left3_{block_id}")
            x3 = layers.add([x3, p], name=f"normal_add_3_{block_id}")
        with name_scope("block_4"):
            x4_1 = _avg_pool(p, (1, 1), "same", f"normal_left4_{block_id}")
            x4_2 = _avg_pool(p, (1, 1), "same", f"normal_right4_{block_id}")
            x4 = layers.add([x4_1, x4_2], name=f"normal_add_4_{block_id}")
        with name_scope("block_5"):
            x5 = _separable_conv_block(
                h, filters, block_id=f"normal_left5_{block_id}")
            x5 = layers.add([x5, h], name=f"normal_add_5_{block_id}")
        x = layers.concatenate([p, x1, x2, x3, x4, x5], axis=-1,
                               name=f"normal_concat_{block_id}")
    return x, ip


def _reduction_a_cell(ip, p, filters, block_id=None):
    with name_scope(f"reduction_A_block_{block_id}"):
        p = _adjust_block(p, ip, filters, block_id)
        h = layers.Activation("relu")(ip)
        h = _conv_1x1(h, filters, f"reduction_conv_1_{block_id}")
        h = _bn(h, f"reduction_bn_1_{block_id}")
        h3 = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3),
                                  name=f"reduction_pad_1_{block_id}")(h)
        with name_scope("block_1"):
            x1_1 = _separable_conv_block(
                h, filters, (5, 5), strides=(2, 2),
                block_id=f"reduction_left1_{block_id}")
            x1_2 = _separable_conv_block(
                p, filters, (7, 7), strides=(2, 2),
                block_id=f"reduction_right1_{block_id}")
            x1 = layers.add([x1_1, x1_2], name=f"reduction_add_1_{block_id}")
        with name_scope("block_2"):
            x2_1 = layers.MaxPooling2D(
                (3, 3), strides=(2, 2), padding="valid",
                name=f"reduction_left2_{block_id}")(h3)
            x2_2 = _separable_conv_block(
                p, filters, (7, 7), strides=(2, 2),
                block_id=f"reduction_right2_{block_id}")
            x2 = layers.add([x2_1, x2_2], name=f"reduction_add_2_{block_id}")
        with name_scope("block_3"):
            x3_1 = _avg_pool(h3, (2, 2), "valid",
                             f"reduction_left3_{block_id}")
            x3_2 = _separable_conv_block(
                p, filters, (5, 5), strides=(2, 2),
                block_id=f"reduction_right3_{block_id}")
            x3 = layers.add([x3_1, x3_2], name=f"reduction_add3_{block_id}")
        with name_scope("block_4"):
            x4 = _avg_pool(x1, (1, 1), "same", f"reduction_left4_{block_id}")
            x4 = layers.add([x2, x4])
        with name_scope("block_5"):
            x5_1 = _separable_conv_block(
                x1, filters, (3, 3), block_id=f"reduction_left4_{block_id}")
            x5_2 = layers.MaxPooling2D(
                (3, 3), strides=(2, 2), padding="valid",
                name=f"reduction_right5_{block_id}")(h3)
            x5 = layers.add([x5_1, x5_2], name=f"reduction_add4_{block_id}")
        x = layers.concatenate([x2, x3, x4, x5], axis=-1,
                               name=f"reduction_concat_{block_id}")
        return x, ip


@_builder.with_doc(DOC, name="NASNetMobile", size=224, features=1056,
                   default_name="nasnet_mobile",
                   no_top_default=" ((224, 224, 3) without the top)")
def NASNetMobile(input_shape=None, include_top=True, weights="imagenet",
                 input_tensor=None, pooling=None, classes=1000,
                 classifier_activation="softmax", name="nasnet_mobile"):
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4,
                  stem_block_filters=32, skip_reduction=False,
                  filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor,
                  pooling=pooling, classes=classes, default_size=224,
                  classifier_activation=classifier_activation, name=name)


@_builder.with_doc(DOC, name="NASNetLarge", size=331, features=4032,
                   default_name="nasnet_large", no_top_default="")
def NASNetLarge(input_shape=None, include_top=True, weights="imagenet",
                input_tensor=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="nasnet_large"):
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6,
                  stem_block_filters=96, skip_reduction=True,
                  filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor,
                  pooling=pooling, classes=classes, default_size=331,
                  classifier_activation=classifier_activation, name=name)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "tf", "nasnet", "NASNet")
decode_predictions.__doc__ = imagenet_utils.decode_doc("nasnet")
