"""`FeatureSpace`: preprocess and encode a dict of structured features.

The layout follows Keras, so saved files interoperate: preprocessing
layers in `preprocessors` (by feature), crossing layers in `crossers`,
the one-hot `CategoryEncoding`s in `one_hot_encoders` and the final
`TFDConcat` in `concat`. Encoded features are merged in sorted feature
name order, then sorted cross name order.
"""
from kerasish.engine.input_layer import Input
from kerasish.engine.layer import Layer
from kerasish.backend.common.naming import auto_name
from kerasish.layers.preprocessing.discretization import Discretization
from kerasish.layers.preprocessing.hashed_crossing import HashedCrossing
from kerasish.layers.preprocessing.hashing import Hashing
from kerasish.layers.preprocessing.integer_lookup import IntegerLookup
from kerasish.layers.preprocessing.normalization import Normalization
from kerasish.layers.preprocessing.rescaling import Rescaling
from kerasish.layers.preprocessing.string_lookup import StringLookup
from kerasish.layers.preprocessing.text_vectorization import TextVectorization
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin
from kerasish.utils.feature_space import data as fs_data
from kerasish.utils.feature_space.merging import merge_features
from kerasish.utils.feature_space.specs import Cross, Feature, TFDIdentity
from kerasish.data import Dataset

_STRING_TYPES = ("float", "float_normalized", "float_rescaled",
                 "float_discretized", "integer_categorical",
                 "string_categorical", "integer_hashed", "string_hashed")


class _FeatureTypes:
    """The feature-spec constructors (`FeatureSpace.float()`, ...)."""

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        """A `Cross` of the named features into `crossing_dim` bins."""
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        """A custom feature with its own preprocessing layer."""
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        """Float values used as they are."""
        name = name or auto_name("float")
        return Feature("float32", TFDIdentity(
            dtype="float32", name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        """Float values rescaled by `x * scale + offset`."""
        name = name or auto_name("float_rescaled")
        return Feature("float32", Rescaling(
            scale=scale, offset=offset, name=f"{name}_preprocessor"),
            "float")

    @classmethod
    def float_normalized(cls, name=None):
        """Float values standardized with their adapted mean/variance."""
        name = name or auto_name("float_normalized")
        return Feature("float32", Normalization(
            axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None,
                          output_mode="one_hot", name=None):
        """Float values bucketed into `num_bins` adapted quantile bins (or
        the given `bin_boundaries`, which then need no adapting)."""
        name = name or auto_name("float_discretized")
        # Keras passes both arguments and Discretization then refuses
        # any `bin_boundaries`; kerasish uses the boundaries given.
        preprocessor = Discretization(
            num_bins=num_bins if bin_boundaries is None else None,
            bin_boundaries=bin_boundaries, name=f"{name}_preprocessor")
        return Feature("float32", preprocessor, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1,
                            output_mode="one_hot", name=None):
        """Integer categories indexed by an adapted `IntegerLookup`."""
        name = name or auto_name("integer_categorical")
        return Feature("int32", IntegerLookup(
            name=f"{name}_preprocessor", max_tokens=max_tokens,
            num_oov_indices=num_oov_indices), output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1,
                           output_mode="one_hot", name=None):
        """String categories indexed by an adapted `StringLookup`."""
        name = name or auto_name("string_categorical")
        return Feature("string", StringLookup(
            name=f"{name}_preprocessor", max_tokens=max_tokens,
            num_oov_indices=num_oov_indices), output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """Strings hashed into `num_bins` bins."""
        name = name or auto_name("string_hashed")
        return Feature("string", Hashing(
            name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        """Integers hashed into `num_bins` bins."""
        name = name or auto_name("integer_hashed")
        return Feature("int32", Hashing(
            name=f"{name}_preprocessor", num_bins=num_bins), output_mode)


@builtin("keras.utils")
class FeatureSpace(_FeatureTypes, Layer):
    """One-stop preprocessing and encoding of structured data.

    Give each feature a type (a string such as `"integer_categorical"`
    with default arguments, or a spec such as
    `FeatureSpace.integer_categorical(max_tokens=10)`), `adapt` on data,
    then call the FeatureSpace on dicts of arrays (batched or a single
    example), map it over a `kerasish.data.Dataset`, or build a model on
    `get_inputs()` / `get_encoded_features()`.

    Feature types: `float`, `float_rescaled(scale, offset)`,
    `float_normalized`, `float_discretized(num_bins, bin_boundaries,
    output_mode)`, `integer_categorical(max_tokens, num_oov_indices,
    output_mode)`, `string_categorical(...)`, `integer_hashed(num_bins,
    output_mode)`, `string_hashed(num_bins, output_mode)`, and
    `feature(dtype, preprocessor, output_mode)` for any preprocessing
    layer; `cross(feature_names, crossing_dim, output_mode)` crosses
    features.

    Args:
        features: Dict of feature name -> type string or spec.
        output_mode: `"concat"` (default; one float vector per example,
            features in sorted name order, then crosses) or `"dict"`.
        crosses: Optional list of crosses: tuples of feature names or
            `FeatureSpace.cross(...)` specs.
        crossing_dim: Hash bins of crosses given as tuples. Defaults to 32.
        hashing_dim: Bins of `"integer_hashed"`/`"string_hashed"` given as
            strings. Defaults to 32.
        num_discretization_bins: Bins of `"float_discretized"` given as a
            string. Defaults to 32.
        name: Name of the FeatureSpace.

    Example:

    >>> raw = {"price": np.array([1.0, 2.0, 3.0]),
    ...        "color": np.array(["red", "blue", "red"])}
    >>> fs = FeatureSpace({"price": "float_normalized",
    ...                    "color": "string_categorical"})
    >>> fs.adapt(raw)
    >>> fs(raw).numpy().round(3)
    array([[ 0.   ,  1.   ,  0.   , -1.225],
           [ 0.   ,  0.   ,  1.   ,  0.   ],
           [ 0.   ,  1.   ,  0.   ,  1.225]], dtype=float32)
    """

    def __init__(self, features, output_mode="concat", crosses=None,
                 crossing_dim=32, hashing_dim=32, num_discretization_bins=32,
                 name=None):
        super().__init__(name=name)
        if not features:
            raise ValueError("The `features` argument cannot be None or "
                             "empty.")
        self.crossing_dim, self.hashing_dim = crossing_dim, hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {key: self._standardize_feature(key, value)
                         for key, value in features.items()}
        self.crosses = self._standardize_crosses(crosses, features)
        self.crosses_by_name = {c.name: c for c in self.crosses}
        if output_mode not in {"dict", "concat"}:
            raise ValueError(
                "Invalid value for argument `output_mode`. Expected one of "
                f"{{'dict', 'concat'}}. Received: output_mode={output_mode}")
        self.output_mode = output_mode
        self.inputs = {key: Input(shape=(1,), dtype=f.dtype, name=key)
                       for key, f in self.features.items()}
        self.preprocessors = {key: f.preprocessor
                              for key, f in self.features.items()}
        self.encoded_features = None
        self.crossers = {c.name: HashedCrossing(c.crossing_dim,
                                                name=c.name)
                         for c in self.crosses}
        self.one_hot_encoders = {}
        self.concat = None
        self._is_adapted = False
        self._sublayers_built = False
        self._merge_names = None

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return serialization_lib.deserialize_keras_object(feature)
        if feature not in _STRING_TYPES:
            raise ValueError(f"Invalid feature type: {feature}")
        if feature == "float_discretized":
            return self.float_discretized(
                name=name, num_bins=self.num_discretization_bins)
        if feature in ("integer_hashed", "string_hashed"):
            return getattr(self, feature)(self.hashing_dim, name=name)
        return getattr(self, feature)(name=name)

    def _standardize_crosses(self, crosses, features):
        out = []
        for cross in crosses or ():
            if isinstance(cross, dict):
                cross = serialization_lib.deserialize_keras_object(cross)
            if isinstance(cross, Cross):
                out.append(cross)
                continue
            if not self.crossing_dim:
                raise ValueError(
                    "When specifying `crosses`, the argument `crossing_dim` "
                    "(dimensionality of the crossing space) should be "
                    "specified as well.")
            if any(key not in features for key in cross):
                raise ValueError(
                    "All features referenced in the `crosses` argument "
                    "should be present in the `features` dict. Received "
                    f"unknown features: {cross}")
            out.append(Cross(cross, crossing_dim=self.crossing_dim))
        return out

    # -- adapt ----------------------------------------------------------------
    def _adaptable(self):
        names = []
        for name, layer in self.preprocessors.items():
            if isinstance(layer, Normalization) and \
                    layer.input_mean is not None:
                continue
            if isinstance(layer, TextVectorization) and \
                    layer._has_input_vocabulary:
                continue
            if isinstance(layer, Discretization) and \
                    layer.num_bins is None:
                continue
            if hasattr(layer, "adapt"):
                names.append(name)
        return names

    def adapt(self, dataset):
        """Adapt every adaptable preprocessor on its feature's values.

        Args:
            dataset: A dict of arrays/lists (one entry per feature), or a
                `kerasish.data.Dataset` of such dicts (batched or not;
                `(features, labels)` pairs are accepted too).

        Example:

        >>> fs = FeatureSpace({"n": "integer_categorical"},
        ...                   output_mode="dict")
        >>> fs.adapt({"n": [3, 3, 5]})
        >>> fs.preprocessors["n"].get_vocabulary()
        [-1, 3, 5]
        """
        fs_data.check_adapt_data(dataset)
        for name in self._adaptable():
            self.preprocessors[name].adapt(
                fs_data.feature_batches(dataset, name))
        self._is_adapted = True
        self.get_encoded_features()
        self.built = True
        self._sublayers_built = True

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError(
                    "You need to call `.adapt(dataset)` on the FeatureSpace "
                    "before you can start using it.")
            self._is_adapted = True

    def _check_if_built(self):
        if not self._sublayers_built:
            self._check_if_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    # -- symbolic -------------------------------------------------------------
    def get_inputs(self):
        """The dict of `Input`s, one `(None, 1)` input per feature."""
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self):
        """The encoded features of `get_inputs()` (a tensor in `"concat"`
        mode, a dict in `"dict"` mode), to build a model on."""
        self._check_if_adapted()
        if self.encoded_features is None:
            self.encoded_features = self._encode(self.inputs)
        return self.encoded_features

    def _encode(self, inputs):
        pre = {key: self.preprocessors[key](inputs[key]) for key in inputs}
        crossed = {c.name: self.crossers[c.name](
            [pre[key] for key in c.feature_names]) for c in self.crosses}
        return merge_features(self, pre, crossed)

    # -- calling --------------------------------------------------------------
    def __call__(self, data):
        self._check_if_built()
        if isinstance(data, Dataset):
            return data.map(self._map_element)
        if not isinstance(data, dict):
            raise ValueError("A FeatureSpace can only be called with a dict "
                             f"(or a kerasish.data.Dataset). Received: "
                             f"data={data!r:.100} (of type {type(data)})")
        unknown = sorted(set(data) - set(self.features))
        missing = sorted(set(self.features) - set(data))
        if unknown or missing:
            raise ValueError(
                "The data given to a FeatureSpace must have one entry per "
                f"feature. Unknown keys: {unknown}; missing keys: "
                f"{missing}. Expected keys: {sorted(self.features)}")
        batch, rebatched = fs_data.as_batch(data)
        merged = self._encode(batch)
        if not rebatched:
            return merged
        if self.output_mode == "concat":
            return merged[0]
        return {k: v[0] if len(v.shape) == 2 and v.shape[0] == 1 else v
                for k, v in merged.items()}

    def _map_element(self, features, *rest):
        # `Dataset.map` spreads tuple elements: `(features, labels...)`.
        return (self(features),) + rest if rest else self(features)

    # -- saving ---------------------------------------------------------------
    def get_config(self):
        return {
            "features": serialization_lib.serialize_keras_object(
                self.features),
            "output_mode": self.output_mode,
            "crosses": serialization_lib.serialize_keras_object(
                self.crosses),
            "crossing_dim": self.crossing_dim,
            "hashing_dim": self.hashing_dim,
            "num_discretization_bins": self.num_discretization_bins,
        }

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_build_config(self):
        return {key: f.preprocessor.get_build_config() or {}
                for key, f in self.features.items()}

    def build_from_config(self, config):
        for key, build_config in config.items():
            layer = self.features[key].preprocessor
            if not layer.built:
                layer.build_from_config(build_config)
        self._is_adapted = True

    def save(self, filepath):
        """Save to a `.keras` file; reload with
        `kerasish.models.load_model(filepath)`.

        Args:
            filepath: Path ending in `.keras`.
        """
        # lazy: kept out of `import kerasish`
        from kerasish.saving import saving_lib
        saving_lib.save_model(self, str(filepath))
