"""`DenseFeatures`: a layer turning a features dict into one dense tensor."""
import contextlib
import math

from kerasish.backend.common import naming
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.feature_column.base import (DenseColumn, FeatureCache,
                                          normalize_columns)
from kerasish.saving.object_registration import builtin
from kerasish import initializers
from kerasish.backend.common.variable import Variable
from kerasish.feature_column.serialization import serialize
from kerasish.feature_column.serialization import deserialize
from kerasish import ops


class _Root:
    """A name-scope entry that drops the scopes opened before it."""

    name, override_parent = "", ""

    def __str__(self):
        return ""


class ColumnsLayer(Layer):
    """A layer holding feature columns and the weights they create (each
    under `<layer name>/<column name>/`, as TF's variable scopes)."""

    def __init__(self, feature_columns, expected_type, what, trainable=True,
                 name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        columns = normalize_columns(feature_columns, expected_type, what)
        object.__setattr__(self, "_feature_columns", columns)
        object.__setattr__(self, "_column_state", {})
        object.__setattr__(self, "_shared_weights", {})
        # Features are dicts of strings and ints: never cast to floats.
        self._convert_input_args = False

    @property
    def feature_columns(self):
        return list(self._feature_columns)

    def build(self, input_shape=None):
        for column in self._feature_columns:
            state = dict(column.create_state(self) or {})
            state.update(self._column_variables(column) or {})
            self._column_state[column.name] = state

    def add_column_weight(self, column, name, shape, initializer,
                          trainable=True):
        """A weight of `column`, at `<layer path>/<column name>/<name>`."""
        with naming.name_scope(self.name), naming.name_scope(column.name):
            variable = Variable(initializers.get(initializer), shape=shape,
                                dtype=self.variable_dtype,
                                trainable=self.trainable and trainable,
                                name=name)
        variable.regularizer = variable.constraint = None
        self._track(variable)
        return variable

    def add_shared_weight(self, scope, name, shape, initializer,
                          trainable=True, absolute=False):
        """A weight several columns share (shared embeddings): made once
        per layer at `<layer path>/<scope>/<name>`, or at exactly `name`
        when `absolute` (TF2's shared variables have no scope)."""
        shared = self._shared_weights
        key = name if absolute else (scope, name)
        if key not in shared:
            scopes = [naming.name_scope(_Root())] if absolute else \
                [naming.name_scope(self.name), naming.name_scope(scope)]
            with contextlib.ExitStack() as stack:
                for entry in scopes:
                    stack.enter_context(entry)
                variable = Variable(initializers.get(initializer),
                                    shape=shape, dtype=self.variable_dtype,
                                    trainable=self.trainable and trainable,
                                    name=name)
            variable.regularizer = variable.constraint = None
            self._track(variable)
            shared[key] = variable
        return shared[key]

    def _column_variables(self, column):
        """Extra per-column weights of a subclass (e.g. linear weights)."""
        return None

    def column_weights(self, column):
        """The weights `column` created in this layer, by name."""
        return self._column_state[column.name]

    def _batch_of(self, input_shape):
        shapes = list(input_shape.values()) if isinstance(input_shape,
                                                          dict) else \
            [input_shape]
        for shape in shapes:
            if shape:
                return shape[0]
        return None

    def compute_output_spec(self, features, *args, **kwargs):
        shapes = {k: tuple(v.shape) for k, v in features.items()} \
            if isinstance(features, dict) else tuple(features.shape)
        return KerasTensor(self.compute_output_shape(shapes), "float32")

    def get_config(self):
        config = super().get_config()
        config["feature_columns"] = [serialize(c)
                                     for c in self._feature_columns]
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["feature_columns"] = [deserialize(c, custom_objects)
                                     for c in config["feature_columns"]]
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = config["dtype"]["config"]["name"]
        return cls(**config)


@builtin("keras.layers")
class DenseFeatures(ColumnsLayer):
    """A dense tensor from a features dict, through feature columns.

    Keras 2 / tf.keras's `DenseFeatures`: columns are sorted by name, each
    gives a `(batch, prod(variable_shape))` tensor, and the outputs are
    concatenated along the last axis. Embedding columns create their
    weights here (`<layer>/<column>/embedding_weights`).

    Args:
        feature_columns: Dense columns (numeric, bucketized, indicator,
            embedding).
        trainable: Whether the embedding weights are trained.
        name: Layer name.
        partitioner: Accepted for tf.keras compatibility (variables are
            never partitioned here).

    Call arguments:
        features: Dict of feature arrays.
        cols_to_output_tensors: Optional dict filled with each column's
            output.

    Example:

    >>> from kerasish import feature_column as fc
    >>> columns = [fc.numeric_column("b"), fc.numeric_column("a", shape=2)]
    >>> fc.DenseFeatures(columns)({"a": np.array([[1.0, 2.0]]),
    ...                            "b": np.array([3.0])}).numpy()
    array([[1., 2., 3.]], dtype=float32)
    """

    def __init__(self, feature_columns, trainable=True, name=None,
                 partitioner=None, **kwargs):
        super().__init__(feature_columns, DenseColumn, "DenseColumn",
                         trainable=trainable, name=name, **kwargs)

    def call(self, features, cols_to_output_tensors=None, training=None):
        cache = FeatureCache(features)
        outputs = []
        for column in self._feature_columns:
            tensor = column.get_dense_tensor(cache, self)
            tensor = ops.reshape(tensor, (tensor.shape[0], math.prod(
                column.variable_shape)))
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = tensor
            outputs.append(tensor)
        if len(outputs) == 1:
            return outputs[0]
        return ops.concatenate(outputs, axis=-1)

    def compute_output_shape(self, input_shape):
        total = sum(math.prod(c.variable_shape)
                    for c in self._feature_columns)
        return (self._batch_of(input_shape), total)
