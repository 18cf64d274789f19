"""The pieces a `FeatureSpace` is made of: feature and cross specs, and
its two plumbing layers.

They are registered under Keras's module for them
(`keras.src.layers.preprocessing.feature_space`), so a FeatureSpace saved
by Keras names classes kerasish finds, and kerasish writes the same names.
"""
import numpy as np

from kerasish import ops
from kerasish.engine.layer import Layer
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin

_MODULE = "keras.src.layers.preprocessing.feature_space"


@builtin(_MODULE)
class Cross:
    """A feature cross: the named features hashed together into
    `crossing_dim` bins (`HashedCrossing`), then one-hot encoded unless
    `output_mode="int"`.

    Args:
        feature_names: Tuple of the crossed features' names.
        crossing_dim: Number of hash bins.
        output_mode: `"one_hot"` (default) or `"int"`.

    Example:

    >>> Cross(("a", "b"), crossing_dim=8).name
    'a_X_b'
    """

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in {"int", "one_hot"}:
            raise ValueError(
                "Invalid value for argument `output_mode`. Expected one of "
                "{'int', 'one_hot'}. Received: "
                f"output_mode={output_mode}")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names,
                "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@builtin(_MODULE)
class Feature:
    """One input feature: its dtype, the layer that preprocesses it, and
    how the result is encoded (`"int"`, `"one_hot"` or `"float"`).

    Args:
        dtype: Dtype of the raw input (`"float32"`, `"int32"`,
            `"string"`...).
        preprocessor: A preprocessing layer (or its serialized dict).
        output_mode: `"float"` (used as is), `"one_hot"` (integer ids,
            one-hot encoded by the FeatureSpace) or `"int"` (ids kept).

    Example:

    >>> import kerasish
    >>> f = Feature("float32", kerasish.layers.Rescaling(0.5), "float")
    >>> f.get_config()["preprocessor"]["class_name"]
    'Rescaling'
    """

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in {"int", "one_hot", "float"}:
            raise ValueError(
                "Invalid value for argument `output_mode`. Expected one of "
                "{'int', 'one_hot', 'float'}. Received: "
                f"output_mode={output_mode}")
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            preprocessor = serialization_lib.deserialize_keras_object(
                preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {"dtype": self.dtype,
                "preprocessor": serialization_lib.serialize_keras_object(
                    self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@builtin(_MODULE)
class TFDIdentity(Layer):
    """Identity preprocessor of plain `"float"` features (Keras's name).

    Example:

    >>> TFDIdentity()(np.array([[1.5]], "float32")).numpy()
    array([[1.5]], dtype=float32)
    """

    def call(self, inputs):
        return ops.convert_to_tensor(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape


@builtin(_MODULE)
class TFDConcat(Layer):
    """Concatenation of the encoded features (Keras's name).

    Args:
        axis: Axis to join on.

    Example:

    >>> TFDConcat(axis=-1)([np.ones((2, 1)), np.zeros((2, 2))]).shape
    (2, 3)
    """

    def __init__(self, axis, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, xs):
        return ops.concatenate([ops.cast(x, self.compute_dtype) for x in xs],
                               axis=self.axis)

    def compute_output_shape(self, input_shape):
        shapes = [tuple(s) for s in input_shape]
        sizes = [s[self.axis] for s in shapes]
        size = None if None in sizes else int(np.sum(sizes))
        out = list(shapes[0])
        out[self.axis] = size
        return tuple(out)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config
