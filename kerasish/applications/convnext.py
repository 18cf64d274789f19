"""ConvNeXt Tiny/Small/Base/Large/XLarge, as `keras.applications.convnext`.

Each stage is a downsampling `Sequential` (the stem for stage 0) and
ConvNeXt blocks: 7x7 depthwise (grouped) conv, LayerNormalization, an
inverted MLP of two `Dense` layers, `LayerScale`, and a residual add. The
models normalize [0, 255] pixels themselves; `preprocess_input` is the
identity.
"""
import numpy as np

from kerasish import initializers, layers, ops
from kerasish import random as kerasish_random
from kerasish.applications import _builder, imagenet_utils
from kerasish.engine.layer import Layer
from kerasish.backend.common.naming import get_uid
from kerasish.models import Sequential
from kerasish.saving.object_registration import builtin

BASE_WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                     "keras-applications/convnext/")
WEIGHTS_HASHES = {
    "convnext_tiny": (
        "8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
        "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1"),
    "convnext_small": (
        "ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
        "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab"),
    "convnext_base": (
        "52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
        "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45"),
    "convnext_large": (
        "070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
        "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd"),
    "convnext_xlarge": (
        "c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05"),
}
MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3],
             "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "small": {"depths": [3, 3, 27, 3],
              "projection_dims": [96, 192, 384, 768], "default_size": 224},
    "base": {"depths": [3, 3, 27, 3],
             "projection_dims": [128, 256, 512, 1024], "default_size": 224},
    "large": {"depths": [3, 3, 27, 3],
              "projection_dims": [192, 384, 768, 1536], "default_size": 224},
    "xlarge": {"depths": [3, 3, 27, 3],
               "projection_dims": [256, 512, 1024, 2048],
               "default_size": 224},
}

DOC = """Instantiates the {name} architecture.

References:
- [A ConvNet for the 2020s](https://arxiv.org/abs/2201.03545) (CVPR 2022)

The base, large and xlarge ImageNet weights were pre-trained on
ImageNet-21k and fine-tuned on ImageNet-1k. The model takes float or uint8
pixels in [0, 255] and normalizes them itself (a `Normalization` layer);
only the `"channels_last"` data format is supported.

Args:
    include_top: Whether to include the classification head. Defaults to
        `True`.
    include_preprocessing: Whether to normalize the pixels in the model
        (for 3-channel inputs). Defaults to `True`.
    weights: `None` (random initialization), `"imagenet"` (ImageNet-1k
        weights, from the Keras cache or downloaded) or the path to a
        weights file. Defaults to `"imagenet"`.
    input_tensor: Optional Keras tensor (output of `layers.Input()`) to use
        as the image input.
    input_shape: Optional shape tuple, only to be given with
        `include_top=False` (otherwise `(224, 224, 3)`). Defaults to `None`.
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


@builtin("keras.src.applications.convnext")
class StochasticDepth(Layer):
    """Drops the residual branch per sample with `drop_path_rate`.

    In training each sample's input is zeroed with probability
    `drop_path_rate` and the others scaled by `1 / (1 - drop_path_rate)`;
    in inference it is the identity.

    Args:
        drop_path_rate: Float, probability of dropping a sample.

    Example:

    >>> from kerasish.applications.convnext import StochasticDepth
    >>> x = np.ones((2, 3), "float32")
    >>> np.asarray(StochasticDepth(0.5)(x))
    array([[1., 1., 1.],
           [1., 1., 1.]], dtype=float32)
    """

    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate

    def call(self, x, training=None):
        if not training:
            return x
        keep_prob = 1 - self.drop_path_rate
        shape = (ops.shape(x)[0],) + (1,) * (len(x.shape) - 1)
        mask = ops.floor(keep_prob + kerasish_random.uniform(shape, 0, 1))
        return x / keep_prob * mask

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"drop_path_rate": self.drop_path_rate})
        return config


@builtin("keras.src.applications.convnext")
class LayerScale(Layer):
    """Multiplies the channels by a learned vector `gamma`.

    Args:
        init_values: Float, initial value of every entry of `gamma`.
        projection_dim: Integer, number of channels.

    Example:

    >>> from kerasish.applications.convnext import LayerScale
    >>> layer = LayerScale(0.5, 3)
    >>> np.asarray(layer(np.ones((1, 3), "float32")))
    array([[0.5, 0.5, 0.5]], dtype=float32)
    """

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values = init_values
        self.projection_dim = projection_dim

    def build(self, _):
        # Unnamed, as in Keras: the weight is called "variable".
        self.gamma = self.add_weight(
            shape=(self.projection_dim,),
            initializer=initializers.Constant(self.init_values),
            trainable=True)

    def call(self, x):
        return x * self.gamma

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"init_values": self.init_values,
                       "projection_dim": self.projection_dim})
        return config


def ConvNeXtBlock(projection_dim, drop_path_rate=0.0,
                  layer_scale_init_value=1e-6, name=None):
    """A ConvNeXt block, as a function of its input tensor.

    Args:
        projection_dim: Number of channels (input and output).
        drop_path_rate: Stochastic-depth rate. Defaults to `0`.
        layer_scale_init_value: Initial `LayerScale` value, or `None` for
            no layer scale. Defaults to `1e-6`.
        name: Prefix of the layer names. Defaults to `None` (a unique
            `prestem<n>` prefix).

    Returns:
        A function applying the block.

    Example:

    >>> from kerasish.applications import convnext
    >>> x = kerasish.Input((8, 8, 16))
    >>> convnext.ConvNeXtBlock(16, name="demo")(x).shape
    (None, 8, 8, 16)
    """
    if name is None:
        name = f"prestem{get_uid('prestem')}"

    def apply(inputs):
        x = layers.Conv2D(filters=projection_dim, kernel_size=7,
                          padding="same", groups=projection_dim,
                          name=f"{name}_depthwise_conv")(inputs)
        x = layers.LayerNormalization(epsilon=1e-6,
                                      name=f"{name}_layernorm")(x)
        x = layers.Dense(4 * projection_dim,
                         name=f"{name}_pointwise_conv_1")(x)
        x = layers.Activation("gelu", name=f"{name}_gelu")(x)
        x = layers.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            x = LayerScale(layer_scale_init_value, projection_dim,
                           name=f"{name}_layer_scale")(x)
        if drop_path_rate:
            layer = StochasticDepth(drop_path_rate,
                                    name=f"{name}_stochastic_depth")
        else:
            layer = layers.Activation("linear", name=f"{name}_identity")
        return inputs + layer(x)
    return apply


def PreStem(name=None):
    """The `Normalization` of [0, 255] pixels with ImageNet statistics.

    Args:
        name: Prefix of the layer name. Defaults to `None` (a unique
            `prestem<n>` prefix).

    Returns:
        A function applying the layer.

    Example:

    >>> from kerasish.applications import convnext
    >>> x = np.full((1, 1, 1, 3), 255.0 * 0.485, "float32")
    >>> float(np.asarray(convnext.PreStem(name="demo")(x))[0, 0, 0, 0])
    0.0
    """
    if name is None:
        name = f"prestem{get_uid('prestem')}"

    def apply(x):
        return layers.Normalization(
            mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
            variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2,
                      (0.225 * 255) ** 2],
            name=f"{name}_prestem_normalization")(x)
    return apply


def Head(num_classes=1000, classifier_activation=None, name=None):
    """The classification head: global pooling, LayerNorm, Dense.

    Args:
        num_classes: Number of classes. Defaults to `1000`.
        classifier_activation: Activation of the Dense layer. Defaults to
            `None`.
        name: Prefix of the layer names. Defaults to `None` (a unique
            number).

    Returns:
        A function applying the head.

    Example:

    >>> from kerasish.applications import convnext
    >>> x = kerasish.Input((4, 4, 8))
    >>> convnext.Head(10, name="demo")(x).shape
    (None, 10)
    """
    if name is None:
        name = str(get_uid("head"))

    def apply(x):
        x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = layers.LayerNormalization(epsilon=1e-6,
                                      name=f"{name}_head_layernorm")(x)
        return layers.Dense(num_classes, activation=classifier_activation,
                            name=f"{name}_head_dense")(x)
    return apply


def _downsample_layers(projection_dims, name):
    stem = Sequential([
        layers.Conv2D(projection_dims[0], kernel_size=4, strides=4,
                      name=f"{name}_stem_conv"),
        layers.LayerNormalization(epsilon=1e-6,
                                  name=f"{name}_stem_layernorm"),
    ], name=f"{name}_stem")
    stages = [stem]
    for i in range(3):
        stages.append(Sequential([
            layers.LayerNormalization(
                epsilon=1e-6, name=f"{name}_downsampling_layernorm_{i}"),
            layers.Conv2D(projection_dims[i + 1], kernel_size=2, strides=2,
                          name=f"{name}_downsampling_conv_{i}"),
        ], name=f"{name}_downsampling_block_{i}"))
    return stages


def ConvNeXt(depths, projection_dims, drop_path_rate=0.0,
             layer_scale_init_value=1e-6, default_size=224, name="convnext",
             include_preprocessing=True, include_top=True, weights=None,
             input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", weights_name=None):
    """Builds a ConvNeXt with `depths` blocks of `projection_dims` widths.

    Args:
        depths: Four integers, blocks per stage.
        projection_dims: Four integers, channels per stage.
        drop_path_rate: Largest stochastic-depth rate (growing linearly
            over the blocks). Defaults to `0`.
        layer_scale_init_value: Initial `LayerScale` value. Defaults to
            `1e-6`.
        default_size: Default input size. Defaults to `224`.
        weights_name: `WEIGHTS_HASHES` key for `weights="imagenet"`.
        name, include_preprocessing, include_top, weights, input_tensor,
        input_shape, pooling, classes, classifier_activation: As in
            `ConvNeXtTiny`.

    Returns:
        A `Model` instance.

    Example:

    >>> from kerasish.applications import convnext
    >>> model = convnext.ConvNeXt([1, 1, 1, 1], [8, 8, 8, 8],
    ...                           include_top=False, input_shape=(32, 32, 3))
    >>> model.output.shape
    (None, 1, 1, 8)
    """
    _check_arguments(weights, include_top, classes, pooling)
    input_shape = _builder.input_shape_for(input_shape, default_size, 32,
                                           include_top, weights)
    img_input = _builder.image_input(input_tensor, input_shape)
    if input_tensor is not None:
        inputs = _builder.get_source_inputs(input_tensor)[0]
        x = input_tensor
    else:
        inputs = x = img_input
    if include_preprocessing and input_shape[-1] == 3:
        x = PreStem(name=name)(x)
    x = _stages(x, depths, projection_dims, drop_path_rate,
                layer_scale_init_value, name)
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Head(num_classes=classes,
                 classifier_activation=classifier_activation, name=name)(x)
    else:
        x = _builder.pool(x, pooling)
        x = layers.LayerNormalization(epsilon=1e-6)(x)
    model = _builder.make_model(None, inputs, x, name)
    if weights != "imagenet":
        return _builder.load_weights(model, weights)
    _check_imagenet_variant(depths, projection_dims, name, weights_name)
    file_name = weights_name + (".h5" if include_top else "_notop.h5")
    return _builder.load_weights(
        model, weights, file_name, BASE_WEIGHTS_PATH + file_name,
        WEIGHTS_HASHES[weights_name][0 if include_top else 1])


def _check_arguments(weights, include_top, classes, pooling):
    if not _builder.channels_last():
        raise ValueError(
            "ConvNeXt does not support the `channels_first` image data "
            "format. Switch to `channels_last` by editing your local config "
            "file at ~/.keras/keras.json")
    _builder.check_weights(weights, include_top, classes)
    _builder.check_pooling(pooling)


def _stages(x, depths, projection_dims, drop_path_rate,
            layer_scale_init_value, name):
    downsample_layers = _downsample_layers(projection_dims, name)
    rates = [float(r) for r in np.linspace(0.0, drop_path_rate, sum(depths))]
    cur = 0
    for i in range(4):
        x = downsample_layers[i](x)
        for j in range(depths[i]):
            x = ConvNeXtBlock(
                projection_dim=projection_dims[i],
                drop_path_rate=rates[cur + j],
                layer_scale_init_value=layer_scale_init_value,
                name=f"{name}_stage_{i}_block_{j}")(x)
        cur += depths[i]
    return x


def _check_imagenet_variant(depths, projection_dims, name, weights_name):
    expected = MODEL_CONFIGS[weights_name.split("convnext_")[-1]]
    if list(depths) != expected["depths"] or \
            list(projection_dims) != expected["projection_dims"]:
        raise ValueError(
            "Architecture configuration does not match "
            f"{weights_name} variant. When using pre-trained weights, the "
            "model architecture must match the pre-trained configuration "
            f"exactly. Expected depths: {expected['depths']}, got: "
            f"{depths}. Expected projection_dims: "
            f"{expected['projection_dims']}, got: {projection_dims}.")
    if weights_name not in name:
        raise ValueError(
            f'Model name "{name}" does not match weights variant '
            f'"{weights_name}". When using imagenet weights, model name '
            f'must contain the weights variant (e.g., "{weights_name}").')


def _variant(size, include_top, include_preprocessing, weights,
             input_tensor, input_shape, pooling, classes,
             classifier_activation, name):
    config = MODEL_CONFIGS[size]
    return ConvNeXt(
        weights_name=f"convnext_{size}", depths=config["depths"],
        projection_dims=config["projection_dims"], drop_path_rate=0.0,
        layer_scale_init_value=1e-6, default_size=config["default_size"],
        name=name, include_top=include_top,
        include_preprocessing=include_preprocessing, weights=weights,
        input_tensor=input_tensor, input_shape=input_shape, pooling=pooling,
        classes=classes, classifier_activation=classifier_activation)


def _doc(size):
    return _builder.with_doc(
        DOC, name=f"ConvNeXt{size.title().replace('Xl', 'XL')}",
        default_name=f"convnext_{size}",
        features=MODEL_CONFIGS[size]["projection_dims"][-1])


@_doc("tiny")
def ConvNeXtTiny(include_top=True, include_preprocessing=True,
                 weights="imagenet", input_tensor=None, input_shape=None,
                 pooling=None, classes=1000, classifier_activation="softmax",
                 name="convnext_tiny"):
    return _variant("tiny", include_top, include_preprocessing, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("small")
def ConvNeXtSmall(include_top=True, include_preprocessing=True,
                  weights="imagenet", input_tensor=None, input_shape=None,
                  pooling=None, classes=1000,
                  classifier_activation="softmax", name="convnext_small"):
    return _variant("small", include_top, include_preprocessing, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("base")
def ConvNeXtBase(include_top=True, include_preprocessing=True,
                 weights="imagenet", input_tensor=None, input_shape=None,
                 pooling=None, classes=1000, classifier_activation="softmax",
                 name="convnext_base"):
    return _variant("base", include_top, include_preprocessing, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("large")
def ConvNeXtLarge(include_top=True, include_preprocessing=True,
                  weights="imagenet", input_tensor=None, input_shape=None,
                  pooling=None, classes=1000,
                  classifier_activation="softmax", name="convnext_large"):
    return _variant("large", include_top, include_preprocessing, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


@_doc("xlarge")
def ConvNeXtXLarge(include_top=True, include_preprocessing=True,
                   weights="imagenet", input_tensor=None, input_shape=None,
                   pooling=None, classes=1000,
                   classifier_activation="softmax", name="convnext_xlarge"):
    return _variant("xlarge", include_top, include_preprocessing, weights,
                    input_tensor, input_shape, pooling, classes,
                    classifier_activation, name)


def preprocess_input(x, data_format=None):
    return x


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    None, "convnext", "ConvNeXt")
decode_predictions.__doc__ = imagenet_utils.decode_doc("convnext")
