"""`kerasish.layers`: the Keras 3 layer library.

Each family lives in its own subpackage; each section below imports one
family's public classes.
"""
from kerasish.engine.layer import Layer  # noqa: F401
from kerasish.engine.input_layer import InputLayer, Input  # noqa: F401
from kerasish.engine.input_spec import InputSpec  # noqa: F401
from kerasish.saving.object_registration import builtin as _builtin

# -- core ---------------------------------------------------------------------
from kerasish.layers.core.dense import Dense  # noqa: F401
from kerasish.layers.core.einsum_dense import EinsumDense  # noqa: F401
from kerasish.layers.core.embedding import Embedding  # noqa: F401
from kerasish.layers.core.reversible_embedding import (  # noqa: F401
    ReversibleEmbedding)
from kerasish.layers.core.identity import Identity  # noqa: F401
from kerasish.layers.core.lambda_layer import Lambda  # noqa: F401
from kerasish.layers.core.masking import Masking  # noqa: F401

# -- activations --------------------------------------------------------------
from kerasish.layers.activations.activation import Activation  # noqa: F401
from kerasish.layers.activations.relu import ReLU  # noqa: F401
from kerasish.layers.activations.leaky_relu import LeakyReLU  # noqa: F401
from kerasish.layers.activations.prelu import PReLU  # noqa: F401
from kerasish.layers.activations.elu import ELU  # noqa: F401
from kerasish.layers.activations.softmax import Softmax  # noqa: F401

# -- convolution and pooling --------------------------------------------------
from kerasish.layers.convolutional.conv1d import Conv1D  # noqa: F401
from kerasish.layers.convolutional.conv2d import Conv2D  # noqa: F401
from kerasish.layers.convolutional.conv3d import Conv3D  # noqa: F401
from kerasish.layers.convolutional.conv1d_transpose import (  # noqa: F401
    Conv1DTranspose)
from kerasish.layers.convolutional.conv2d_transpose import (  # noqa: F401
    Conv2DTranspose)
from kerasish.layers.convolutional.conv3d_transpose import (  # noqa: F401
    Conv3DTranspose)
from kerasish.layers.convolutional.depthwise_conv1d import (  # noqa: F401
    DepthwiseConv1D)
from kerasish.layers.convolutional.depthwise_conv2d import (  # noqa: F401
    DepthwiseConv2D)
from kerasish.layers.convolutional.separable_conv1d import (  # noqa: F401
    SeparableConv1D)
from kerasish.layers.convolutional.separable_conv2d import (  # noqa: F401
    SeparableConv2D)
from kerasish.layers.pooling.max_pooling1d import MaxPooling1D  # noqa: F401
from kerasish.layers.pooling.max_pooling2d import MaxPooling2D  # noqa: F401
from kerasish.layers.pooling.max_pooling3d import MaxPooling3D  # noqa: F401
from kerasish.layers.pooling.average_pooling1d import (  # noqa: F401
    AveragePooling1D)
from kerasish.layers.pooling.average_pooling2d import (  # noqa: F401
    AveragePooling2D)
from kerasish.layers.pooling.average_pooling3d import (  # noqa: F401
    AveragePooling3D)
from kerasish.layers.pooling.global_max_pooling1d import (  # noqa: F401
    GlobalMaxPooling1D)
from kerasish.layers.pooling.global_max_pooling2d import (  # noqa: F401
    GlobalMaxPooling2D)
from kerasish.layers.pooling.global_max_pooling3d import (  # noqa: F401
    GlobalMaxPooling3D)
from kerasish.layers.pooling.global_average_pooling1d import (  # noqa: F401
    GlobalAveragePooling1D)
from kerasish.layers.pooling.global_average_pooling2d import (  # noqa: F401
    GlobalAveragePooling2D)
from kerasish.layers.pooling.global_average_pooling3d import (  # noqa: F401
    GlobalAveragePooling3D)
from kerasish.layers.pooling.adaptive_average_pooling1d import (  # noqa: F401
    AdaptiveAveragePooling1D)
from kerasish.layers.pooling.adaptive_average_pooling2d import (  # noqa: F401
    AdaptiveAveragePooling2D)
from kerasish.layers.pooling.adaptive_average_pooling3d import (  # noqa: F401
    AdaptiveAveragePooling3D)
from kerasish.layers.pooling.adaptive_max_pooling1d import (  # noqa: F401
    AdaptiveMaxPooling1D)
from kerasish.layers.pooling.adaptive_max_pooling2d import (  # noqa: F401
    AdaptiveMaxPooling2D)
from kerasish.layers.pooling.adaptive_max_pooling3d import (  # noqa: F401
    AdaptiveMaxPooling3D)
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import deserialize_keras_object
Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
Convolution1DTranspose = Conv1DTranspose
Convolution2DTranspose = Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = (AveragePooling1D, AveragePooling2D,
                                   AveragePooling3D)
GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D = (
    GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D)
GlobalAvgPool1D, GlobalAvgPool2D, GlobalAvgPool3D = (
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D)

# -- normalization ------------------------------------------------------------
from kerasish.layers.normalization.batch_normalization import (  # noqa: F401
    BatchNormalization)
from kerasish.layers.normalization.layer_normalization import (  # noqa: F401
    LayerNormalization)
from kerasish.layers.normalization.group_normalization import (  # noqa: F401
    GroupNormalization)
from kerasish.layers.normalization.unit_normalization import (  # noqa: F401
    UnitNormalization)
from kerasish.layers.normalization.rms_normalization import (  # noqa: F401
    RMSNormalization)
from kerasish.layers.normalization.spectral_normalization import (  # noqa: F401
    SpectralNormalization)

# -- regularization -----------------------------------------------------------
from kerasish.layers.regularization.dropout import Dropout  # noqa: F401
from kerasish.layers.regularization.spatial_dropout import (  # noqa: F401
    SpatialDropout1D, SpatialDropout2D, SpatialDropout3D)
from kerasish.layers.regularization.gaussian_noise import (  # noqa: F401
    GaussianNoise)
from kerasish.layers.regularization.gaussian_dropout import (  # noqa: F401
    GaussianDropout)
from kerasish.layers.regularization.alpha_dropout import (  # noqa: F401
    AlphaDropout)
from kerasish.layers.regularization.activity_regularization import (  # noqa
    ActivityRegularization)

# -- recurrent ----------------------------------------------------------------
from kerasish.layers.rnn.rnn import RNN  # noqa: F401
from kerasish.layers.rnn.stacked_rnn_cells import StackedRNNCells  # noqa: F401
from kerasish.layers.rnn.simple_rnn import (  # noqa: F401
    SimpleRNN, SimpleRNNCell)
from kerasish.layers.rnn.lstm import LSTM, LSTMCell  # noqa: F401
from kerasish.layers.rnn.gru import GRU, GRUCell  # noqa: F401
from kerasish.layers.rnn.conv_lstm1d import ConvLSTM1D  # noqa: F401
from kerasish.layers.rnn.conv_lstm2d import ConvLSTM2D  # noqa: F401
from kerasish.layers.rnn.conv_lstm3d import ConvLSTM3D  # noqa: F401
from kerasish.layers.rnn.bidirectional import Bidirectional  # noqa: F401
from kerasish.layers.rnn.wrapper import Wrapper  # noqa: F401
from kerasish.layers.rnn.time_distributed import (  # noqa: F401
    TimeDistributed)
# The framework wrappers import torch/jax/flax only when one is created.
from kerasish.layers.wrappers.torch_module_wrapper import (  # noqa: F401
    TorchModuleWrapper)
from kerasish.layers.wrappers.jax_layer import (  # noqa: F401
    FlaxLayer, JaxLayer)

# -- attention ----------------------------------------------------------------
from kerasish.layers.attention.attention import Attention  # noqa: F401
from kerasish.layers.attention.additive_attention import (  # noqa: F401
    AdditiveAttention)
from kerasish.layers.attention.multi_head_attention import (  # noqa: F401
    MultiHeadAttention)
from kerasish.layers.attention.grouped_query_attention import (  # noqa: F401
    GroupQueryAttention)

# -- merging ------------------------------------------------------------------
from kerasish.layers.merging.add import Add, add  # noqa: F401
from kerasish.layers.merging.subtract import Subtract, subtract  # noqa: F401
from kerasish.layers.merging.multiply import Multiply, multiply  # noqa: F401
from kerasish.layers.merging.average import Average, average  # noqa: F401
from kerasish.layers.merging.maximum import Maximum, maximum  # noqa: F401
from kerasish.layers.merging.minimum import Minimum, minimum  # noqa: F401
from kerasish.layers.merging.concatenate import (  # noqa: F401
    Concatenate, concatenate)
from kerasish.layers.merging.dot import Dot, dot  # noqa: F401

# -- reshaping ----------------------------------------------------------------
from kerasish.layers.reshaping.flatten import Flatten  # noqa: F401
from kerasish.layers.reshaping.reshape import Reshape  # noqa: F401
from kerasish.layers.reshaping.permute import Permute  # noqa: F401
from kerasish.layers.reshaping.repeat_vector import RepeatVector  # noqa: F401
from kerasish.layers.reshaping.cropping1d import Cropping1D  # noqa: F401
from kerasish.layers.reshaping.cropping2d import Cropping2D  # noqa: F401
from kerasish.layers.reshaping.cropping3d import Cropping3D  # noqa: F401
from kerasish.layers.reshaping.zero_padding1d import (  # noqa: F401
    ZeroPadding1D)
from kerasish.layers.reshaping.zero_padding2d import (  # noqa: F401
    ZeroPadding2D)
from kerasish.layers.reshaping.zero_padding3d import (  # noqa: F401
    ZeroPadding3D)
from kerasish.layers.reshaping.up_sampling1d import UpSampling1D  # noqa: F401
from kerasish.layers.reshaping.up_sampling2d import UpSampling2D  # noqa: F401
from kerasish.layers.reshaping.up_sampling3d import UpSampling3D  # noqa: F401

# -- preprocessing ------------------------------------------------------------
from kerasish.layers.preprocessing.normalization import (  # noqa: F401
    Normalization)
from kerasish.layers.preprocessing.rescaling import Rescaling  # noqa: F401
from kerasish.layers.preprocessing.category_encoding import (  # noqa: F401
    CategoryEncoding)
from kerasish.layers.preprocessing.discretization import (  # noqa: F401
    Discretization)
from kerasish.layers.preprocessing.integer_lookup import (  # noqa: F401
    IntegerLookup)
from kerasish.layers.preprocessing.string_lookup import (  # noqa: F401
    StringLookup)
from kerasish.layers.preprocessing.hashed_crossing import (  # noqa: F401
    HashedCrossing)
from kerasish.layers.preprocessing.hashing import Hashing  # noqa: F401
from kerasish.layers.preprocessing.text_vectorization import (  # noqa: F401
    TextVectorization)
from kerasish.layers.preprocessing.audio.stft_spectrogram import (  # noqa: F401
    STFTSpectrogram)
from kerasish.layers.preprocessing.audio.mel_spectrogram import (  # noqa: F401
    MelSpectrogram)
from kerasish.layers.preprocessing.image import *  # noqa: F401,F403,E402

# -- feature columns ----------------------------------------------------------
from kerasish.feature_column.dense_features import (  # noqa: F401,E402
    DenseFeatures)

# -- end of families ----------------------------------------------------------

_builtin("keras.layers")(InputLayer)
_builtin("keras.layers")(Layer)


def serialize(layer):
    """A layer's serialized form (`module`, `class_name`, `config`, ...).

    Args:
        layer: The layer.

    Returns:
        A JSON-friendly dict, as Keras 3 writes it.

    Example:

    >>> config = kerasish.layers.serialize(kerasish.layers.Dense(3))
    >>> config["class_name"], config["config"]["units"]
    ('Dense', 3)
    """
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    """Rebuild a layer from `serialize`'s output (or Keras's).

    Args:
        config: The serialized dict.
        custom_objects: Optional dict of name -> user class or function.

    Returns:
        The layer.

    Example:

    >>> config = kerasish.layers.serialize(kerasish.layers.Dense(3))
    >>> kerasish.layers.deserialize(config).units
    3
    """
    obj = deserialize_keras_object(config, custom_objects=custom_objects)
    if not isinstance(obj, Layer):
        raise ValueError(
            "`keras.layers.deserialize` was passed a `config` object that "
            f"is not a `keras.layers.Layer`. Received: {str(config):.200}")
    return obj
