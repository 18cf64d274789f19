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

# -- activations ----------------------------------------------------------------
from kerasish.layers.activations.activation import Activation  # noqa: F401

# -- convolution and pooling ------------------------------------------------------

# -- normalization ----------------------------------------------------------------

# -- regularization ---------------------------------------------------------------
from kerasish.layers.regularization.dropout import Dropout  # noqa: F401

# -- recurrent --------------------------------------------------------------------
from kerasish.layers.rnn.rnn import RNN  # noqa: F401
from kerasish.layers.rnn.stacked_rnn_cells import StackedRNNCells  # noqa: F401
from kerasish.layers.rnn.simple_rnn import (  # noqa: F401
    SimpleRNN, SimpleRNNCell)
from kerasish.layers.rnn.lstm import LSTM, LSTMCell  # noqa: F401
from kerasish.layers.rnn.gru import GRU, GRUCell  # noqa: F401
from kerasish.layers.rnn.bidirectional import Bidirectional  # noqa: F401
from kerasish.layers.rnn.wrapper import Wrapper  # noqa: F401
from kerasish.layers.rnn.time_distributed import (  # noqa: F401
    TimeDistributed)

# -- attention --------------------------------------------------------------------

# -- merging ----------------------------------------------------------------------

# -- reshaping --------------------------------------------------------------------
from kerasish.layers.reshaping.flatten import Flatten  # noqa: F401
from kerasish.layers.reshaping.reshape import Reshape  # noqa: F401

# -- preprocessing ----------------------------------------------------------------

# -- end of families ----------------------------------------------------------------

_builtin("keras.layers")(InputLayer)
_builtin("keras.layers")(Layer)


def serialize(layer):
    from kerasish.saving.serialization_lib import serialize_keras_object
    return serialize_keras_object(layer)


def deserialize(config, custom_objects=None):
    from kerasish.saving.serialization_lib import deserialize_keras_object
    return deserialize_keras_object(config, custom_objects=custom_objects)
