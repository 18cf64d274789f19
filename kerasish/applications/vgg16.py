"""VGG16 (and the VGG builder VGG19 shares), as `keras.applications.vgg16`."""
from kerasish import layers
from kerasish.applications import _builder, imagenet_utils

WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                "keras-applications/vgg16/"
                "vgg16_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = ("https://storage.googleapis.com/tensorflow/"
                       "keras-applications/vgg16/"
                       "vgg16_weights_tf_dim_ordering_tf_kernels_notop.h5")
WEIGHTS_HASHES = ("64373286793e3c8b2b4e3219cbf3544b",
                  "6d6bbae143d832006294945121d1f1fc")

DOC = """Instantiates the {name} model.

Reference:
- [Very Deep Convolutional Networks for Large-Scale Image Recognition](
    https://arxiv.org/abs/1409.1556) (ICLR 2015)

The default input size is 224x224. Call
`kerasish.applications.{module}.preprocess_input` on the inputs first
(RGB to BGR, then each channel zero-centered on ImageNet, no scaling).

Args:
    include_top: Whether to include the 3 fully-connected layers at the
        top of the network. Defaults to `True`.
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
(None, 1, 1, 512)
"""


def VGG(convs_per_block, weights_files, include_top=True,
        weights="imagenet", input_tensor=None, input_shape=None,
        pooling=None, classes=1000, classifier_activation="softmax",
        name="vgg"):
    """Builds a VGG network with `convs_per_block` 3x3 convolutions.

    Args:
        convs_per_block: Five integers, the convolutions of each block
            (`(2, 2, 3, 3, 3)` for VGG16, `(2, 2, 4, 4, 4)` for VGG19).
        weights_files: `((file, origin, md5) with top, (...) without)`
            for `weights="imagenet"`.
        include_top, weights, input_tensor, input_shape, pooling, classes,
        classifier_activation, name: As in `VGG16`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import vgg16
    >>> model = vgg16.VGG((1, 1, 1, 1, 1), None, weights=None,
    ...                   include_top=False, input_shape=(32, 32, 3))
    >>> len(model.layers)
    11
    """
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)
    input_shape = _builder.input_shape_for(input_shape, 224, 32,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    x = img_input
    for block, convs in enumerate(convs_per_block, start=1):
        x = _block(x, block, convs)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        x = _builder.dense_top(x, classes, classifier_activation, weights)
    else:
        x = _builder.pool(x, pooling)
    model = _builder.make_model(input_tensor, img_input, x, name)
    if weights == "imagenet":
        return _builder.load_weights(model, weights,
                                     *weights_files[0 if include_top else 1])
    return _builder.load_weights(model, weights)


def _block(x, block, convs):
    filters = min(64 * 2 ** (block - 1), 512)
    for i in range(1, convs + 1):
        x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same",
                          name=f"block{block}_conv{i}")(x)
    return layers.MaxPooling2D((2, 2), strides=(2, 2),
                               name=f"block{block}_pool")(x)


@_builder.with_doc(DOC, name="VGG16", default_name="vgg16", module="vgg16")
def VGG16(include_top=True, weights="imagenet", input_tensor=None,
          input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg16"):
    files = ((WEIGHTS_PATH.rsplit("/", 1)[1], WEIGHTS_PATH,
              WEIGHTS_HASHES[0]),
             (WEIGHTS_PATH_NO_TOP.rsplit("/", 1)[1], WEIGHTS_PATH_NO_TOP,
              WEIGHTS_HASHES[1]))
    return VGG((2, 2, 3, 3, 3), files, include_top, weights, input_tensor,
               input_shape, pooling, classes, classifier_activation, name)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="caffe")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "caffe", "vgg16", "VGG16")
decode_predictions.__doc__ = imagenet_utils.decode_doc("vgg16")
