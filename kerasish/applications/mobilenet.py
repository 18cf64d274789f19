"""MobileNet (v1), as `keras.applications.mobilenet`.

A 3x3 convolution followed by 13 depthwise-separable blocks; `alpha`
scales every width, `depth_multiplier` the depthwise outputs. ImageNet
weights exist for `alpha` in {0.25, 0.5, 0.75, 1.0} at 128/160/192/224.
"""
import warnings

from kerasish import layers
from kerasish.applications import _builder, imagenet_utils

BASE_WEIGHT_PATH = ("https://storage.googleapis.com/tensorflow/"
                    "keras-applications/mobilenet/")
_SIZES = (128, 160, 192, 224)
_ALPHA_TEXT = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0", 0.25: "2_5"}
# (pointwise filters, strides) of the 13 depthwise-separable blocks
_BLOCKS = ((64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2),
           (512, 1), (512, 1), (512, 1), (512, 1), (512, 1), (1024, 2),
           (1024, 1))


def MobileNet(input_shape=None, alpha=1.0, depth_multiplier=1, dropout=1e-3,
              include_top=True, weights="imagenet", input_tensor=None,
              pooling=None, classes=1000, classifier_activation="softmax",
              name=None):
    """Instantiates the MobileNet architecture.

    Reference:
    - [MobileNets: Efficient Convolutional Neural Networks for Mobile
      Vision Applications](https://arxiv.org/abs/1704.04861)

    The default input size is 224x224. Call
    `kerasish.applications.mobilenet.preprocess_input` on the inputs first
    (pixels scaled to [-1, 1]).

    Args:
        input_shape: Optional shape tuple, only to be given with
            `include_top=False` (otherwise `(224, 224, 3)`, or a square
            size of 128, 160 or 192); height and width at least 32.
            Defaults to `None`.
        alpha: Width multiplier: `< 1.0` thins and `> 1.0` widens every
            layer. Defaults to `1.0`.
        depth_multiplier: Depth multiplier of the depthwise convolutions.
            Defaults to `1`.
        dropout: Dropout rate before the classifier. Defaults to `0.001`.
        include_top: Whether to include the classifier (a 1x1 convolution
            over the pooled features). Defaults to `True`.
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
            `"mobilenet_<alpha>_<rows>"`.

    Returns:
        A `Model` instance.

    Example:

    >>> model = kerasish.applications.MobileNet(
    ...     weights=None, alpha=0.25, input_shape=(32, 32, 3), classes=10)
    >>> model.name, model.output.shape
    ('mobilenet_0.25_32', (None, 10))
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(
        input_shape, _default_size(input_shape, _SIZES), 32, include_top,
        weights)
    rows = _rows_and_cols(input_shape)[0]
    if weights == "imagenet":
        rows = _check_imagenet(input_shape, alpha, depth_multiplier)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = _conv_block(img_input, 32, alpha, strides=(2, 2))
    for block_id, (filters, stride) in enumerate(_BLOCKS, start=1):
        x = _depthwise_conv_block(x, filters, alpha, depth_multiplier,
                                  strides=(stride, stride),
                                  block_id=block_id)
    if include_top:
        x = _classifier(x, classes, dropout, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling)
    if name is None:
        name = f"mobilenet_{alpha:0.2f}_{rows}"
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        file_name = f"mobilenet_{_ALPHA_TEXT[alpha]}_{rows}_tf" + \
            ("" if include_top else "_no_top") + ".h5"
        return _builder.load_weights(model, weights, file_name,
                                     BASE_WEIGHT_PATH + file_name)
    return _builder.load_weights(model, weights)


def _rows_and_cols(shape):
    return shape[:2] if _builder.channels_last() else shape[1:]


def _default_size(input_shape, sizes):
    """The input size when square and one of `sizes`, else 224."""
    if input_shape is None:
        return 224
    rows, cols = _rows_and_cols(input_shape)
    return rows if rows == cols and rows in sizes else 224


def _check_imagenet(input_shape, alpha, depth_multiplier):
    """Validate an ImageNet configuration; return the weights' size."""
    if depth_multiplier != 1:
        raise ValueError(
            "If imagenet weights are being loaded, depth multiplier must be "
            f"1.  Received depth_multiplier={depth_multiplier}")
    if alpha not in _ALPHA_TEXT:
        raise ValueError(
            "If imagenet weights are being loaded, alpha can be one of "
            "`0.25`, `0.50`, `0.75` or `1.0` only.  "
            f"Received alpha={alpha}")
    rows, cols = _rows_and_cols(input_shape)
    if rows != cols or rows not in _SIZES:
        warnings.warn(
            "`input_shape` is undefined or non-square, or `rows` is not in "
            "[128, 160, 192, 224]. Weights for input shape (224, 224) will "
            "be loaded as the default.", stacklevel=3)
        return 224
    return rows


def _conv_block(inputs, filters, alpha, kernel=(3, 3), strides=(1, 1)):
    x = layers.Conv2D(int(filters * alpha), kernel, padding="same",
                      use_bias=False, strides=strides, name="conv1")(inputs)
    x = layers.BatchNormalization(axis=_builder.channel_axis(),
                                  name="conv1_bn")(x)
    return layers.ReLU(6.0, name="conv1_relu")(x)


def _depthwise_conv_block(inputs, pointwise_conv_filters, alpha,
                          depth_multiplier=1, strides=(1, 1), block_id=1):
    axis = _builder.channel_axis()
    x = inputs
    if strides != (1, 1):
        x = layers.ZeroPadding2D(((0, 1), (0, 1)),
                                 name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D(
        (3, 3), padding="same" if strides == (1, 1) else "valid",
        depth_multiplier=depth_multiplier, strides=strides, use_bias=False,
        name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(int(pointwise_conv_filters * alpha), (1, 1),
                      padding="same", use_bias=False, strides=(1, 1),
                      name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


def _classifier(x, classes, dropout, classifier_activation, weights):
    x = layers.GlobalAveragePooling2D(keepdims=True)(x)
    x = layers.Dropout(dropout, name="dropout")(x)
    x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
    x = layers.Reshape((classes,), name="reshape_2")(x)
    imagenet_utils.validate_activation(classifier_activation, weights)
    return layers.Activation(activation=classifier_activation,
                             name="predictions")(x)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "tf", "mobilenet", "MobileNet")
decode_predictions.__doc__ = imagenet_utils.decode_doc("mobilenet")
