"""`IntegerLookup`: map integer tokens to contiguous indices (and back)."""
from kerasish.layers.preprocessing.index_lookup import IndexLookup
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class IntegerLookup(IndexLookup):
    """Map arbitrary integers (ids, codes, years...) to `[0, vocab_size)`.

    The vocabulary is given, or learned by `adapt(data)` (most frequent
    first). Unknown integers go to the OOV index (1 by default, after the
    optional mask index 0).

    Args:
        max_tokens: Maximum vocabulary size including special indices, or
            None for no limit.
        num_oov_indices: Number of OOV indices. Defaults to 1. With more
            than one, an unknown value `v` goes to `v % num_oov_indices`
            (or a FarmHash bucket with `oov_method="farmhash"`).
        mask_token: Integer meaning "padding" (index 0), or None.
        oov_token: Value returned for unknown indices when `invert=True`.
            Defaults to -1.
        vocabulary: Optional list of integers.
        vocabulary_dtype: Only `"int64"`.
        idf_weights: IDF weights for `output_mode="tf_idf"`.
        invert: Map indices back to integers. Defaults to False.
        output_mode: `"int"` (default), `"one_hot"`, `"multi_hot"`,
            `"count"` or `"tf_idf"`.
        sparse: Accepted for compatibility (outputs are dense).
        pad_to_max_tokens: Make encoded outputs `max_tokens` wide.
        oov_method: `"floormod"` (default) or `"farmhash"`.
        salt: Int or pair of ints: SipHash key for `"farmhash"` buckets.
        name: Layer name.

    Example:

    >>> layer = IntegerLookup(vocabulary=[12, 36, 1138, 42])
    >>> layer(np.array([[12, 1138, 42], [42, 1000, 36]])).numpy()
    array([[1, 3, 4],
           [4, 0, 2]])
    >>> IntegerLookup(vocabulary=[12, 36], invert=True)(
    ...     np.array([[1, 2, 0]])).numpy()
    array([[12, 36, -1]])
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None,
                 oov_token=-1, vocabulary=None, vocabulary_dtype="int64",
                 idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False,
                 oov_method="floormod", salt=None, name=None, **kwargs):
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(
                "If `max_tokens` is set for `IntegerLookup`, it must be "
                f"greater than 1. Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(
                "The value of `num_oov_indices` argument for "
                "`IntegerLookup` must >= 0. Received: num_oov_indices="
                f"{num_oov_indices}")
        if vocabulary_dtype != "int64":
            raise ValueError(
                "Only `vocabulary_dtype='int64'` is supported at this time. "
                f"Received: vocabulary_dtype={vocabulary_dtype}")
        if salt is not None and oov_method != "farmhash":
            raise ValueError(
                "`salt` can only be used when `oov_method='farmhash'`. "
                f"Received: oov_method={oov_method}")
        super().__init__(
            max_tokens=max_tokens, num_oov_indices=num_oov_indices,
            mask_token=mask_token, oov_token=oov_token,
            vocabulary=vocabulary, vocabulary_dtype=vocabulary_dtype,
            idf_weights=idf_weights, invert=invert, output_mode=output_mode,
            sparse=sparse, pad_to_max_tokens=pad_to_max_tokens,
            oov_method=oov_method, salt=salt, name=name, **kwargs)

    def get_config(self):
        config = super().get_config()
        for key in ("oov_token", "mask_token"):
            if config[key] is not None:
                config[key] = int(config[key])
        if config["vocabulary"] is not None:
            config["vocabulary"] = [int(v) for v in config["vocabulary"]]
        return config
