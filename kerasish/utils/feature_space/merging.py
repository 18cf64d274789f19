"""Encode and merge a FeatureSpace's preprocessed features, as Keras does.

The first (symbolic) merge creates one multi-hot `CategoryEncoding` per
`"one_hot"` feature or cross, sized by its preprocessor's cardinality, and
the `TFDConcat` layer; later merges reuse them.
"""
from kerasish.backend.dtypes import standardize_dtype
from kerasish.layers.preprocessing.category_encoding import CategoryEncoding
from kerasish.layers.preprocessing.discretization import Discretization
from kerasish.layers.preprocessing.hashed_crossing import HashedCrossing
from kerasish.layers.preprocessing.hashing import Hashing
from kerasish.layers.preprocessing.integer_lookup import IntegerLookup
from kerasish.layers.preprocessing.string_lookup import StringLookup
from kerasish.utils.feature_space.specs import TFDConcat


def _cardinality(name, layer):
    if isinstance(layer, (IntegerLookup, StringLookup)):
        return layer.vocabulary_size()
    if isinstance(layer, CategoryEncoding):
        return layer.num_tokens
    if isinstance(layer, (Discretization, HashedCrossing, Hashing)):
        if isinstance(layer, Discretization):
            return layer._depth()
        return layer.num_bins
    raise ValueError(
        f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a "
        "standard feature and the dimensionality of its output space is "
        "not known, thus it cannot be one-hot encoded. Try using "
        "`output_mode='int'`.")


def _dtype_of(feature):
    if isinstance(feature, dict):
        feature = next(iter(feature.values()))
    return standardize_dtype(feature.dtype)


def _make_encoder(fs, name, feature, spec):
    dtype = _dtype_of(feature)
    if not dtype.startswith("int"):
        raise ValueError(
            f"Feature '{name}' has `output_mode='one_hot'`. Thus its "
            "preprocessor should return an integer dtype. Instead it "
            f"returns a {dtype} dtype.")
    layer = fs.preprocessors.get(name) or fs.crossers.get(name)
    encoder = CategoryEncoding(num_tokens=_cardinality(name, layer),
                               output_mode="multi_hot")
    fs.one_hot_encoders[name] = encoder
    return encoder


def _names(fs, preprocessed, crossed):
    if fs._merge_names is None:
        fs._merge_names = (sorted(preprocessed), sorted(crossed))
    return fs._merge_names


def merge_features(fs, preprocessed, crossed):
    """The encoded features: a concatenated tensor or a dict."""
    feature_names, cross_names = _names(fs, preprocessed, crossed)
    items = [(n, preprocessed[n], fs.features[n]) for n in feature_names] + \
        [(n, crossed[n], fs.crosses_by_name[n]) for n in cross_names]
    building = not fs._sublayers_built and fs.concat is None
    encoded = {}
    for name, feature, spec in items:
        encoder = fs.one_hot_encoders.get(name)
        if encoder is None and building and spec.output_mode == "one_hot":
            encoder = _make_encoder(fs, name, feature, spec)
        encoded[name] = encoder(feature) if encoder is not None else feature
    if fs.output_mode == "dict":
        return encoded
    if building:
        _check_concatenable(encoded)
        fs.concat = TFDConcat(axis=-1)
    return fs.concat(list(encoded.values()))


def _check_concatenable(encoded):
    for name, feature in encoded.items():
        dtype = _dtype_of(feature)
        if dtype.startswith("int") or dtype == "string":
            raise ValueError(
                f"Cannot concatenate features because feature '{name}' has "
                f"not been encoded (it has dtype {dtype}). Consider using "
                "`output_mode='dict'`.")
