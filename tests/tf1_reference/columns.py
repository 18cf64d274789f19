"""Feature columns from the JSON specs of `feature_columns.json`.

One builder for both sides: tools/gen_tf1_reference.py passes TensorFlow's
`tf.feature_column`, the tests pass `kerasish.feature_column` (the two
spell every function and argument the same).
"""
import numpy as np


def build_column(spec, fc, constant, vocab_file):
    """The column `spec` describes, made with the module `fc`.

    Args:
        spec: Dict with `"type"` and the column's arguments.
        fc: The feature-column module.
        constant: `constant(array)` -> an initializer giving `array`.
        vocab_file: Path of the vocabulary file of `"vocab_file"` specs.
    """
    kind = spec["type"]

    def sub(s):
        return s if isinstance(s, str) else build_column(s, fc, constant,
                                                         vocab_file)
    if kind == "numeric":
        return fc.numeric_column(spec["key"],
                                 shape=tuple(spec.get("shape", [1])))
    if kind == "bucketized":
        return fc.bucketized_column(sub(spec["source"]), spec["boundaries"])
    if kind == "vocab_list":
        # As a TF script: default_value only when the spec sets it.
        extra = {"default_value": spec["default_value"]} \
            if "default_value" in spec else {}
        return fc.categorical_column_with_vocabulary_list(
            spec["key"], spec["vocabulary_list"],
            num_oov_buckets=spec.get("num_oov_buckets", 0), **extra)
    if kind == "vocab_file":
        return fc.categorical_column_with_vocabulary_file(
            spec["key"], vocab_file, vocabulary_size=spec["vocabulary_size"],
            num_oov_buckets=spec.get("num_oov_buckets", 0))
    if kind == "identity":
        return fc.categorical_column_with_identity(spec["key"],
                                                   spec["num_buckets"])
    if kind == "hash":
        return fc.categorical_column_with_hash_bucket(
            spec["key"], spec["hash_bucket_size"],
            dtype=spec.get("dtype", "string"))
    if kind == "crossed":
        return fc.crossed_column([sub(k) for k in spec["keys"]],
                                 spec["hash_bucket_size"])
    if kind == "weighted":
        return fc.weighted_categorical_column(sub(spec["categorical"]),
                                              spec["weight_feature_key"])
    if kind == "indicator":
        return fc.indicator_column(sub(spec["categorical"]))
    if kind == "embedding":
        return fc.embedding_column(
            sub(spec["categorical"]), spec["dimension"],
            combiner=spec["combiner"], max_norm=spec.get("max_norm"),
            initializer=constant(np.asarray(spec["table"], np.float32)))
    raise ValueError(f"Unknown column spec type. Received: kind={kind!r}")
