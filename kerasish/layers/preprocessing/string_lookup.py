"""`StringLookup`: map string tokens to integer indices (and back)."""
import numpy as np

from kerasish.layers.preprocessing.index_lookup import IndexLookup
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class StringLookup(IndexLookup):
    """Map strings to `[0, vocab_size)` from a given or adapted vocabulary.

    Inputs are numpy unicode (or bytes) arrays. Unknown strings go to the
    OOV index (1 by default, after the optional mask index 0); with several
    OOV indices each unknown string is bucketed by TensorFlow's FarmHash
    (`Fingerprint64 % num_oov_indices`, or SipHash with `salt`), so buckets
    agree with Keras.

    Args:
        max_tokens: Maximum vocabulary size including special indices, or
            None for no limit.
        num_oov_indices: Number of OOV indices. Defaults to 1.
        mask_token: String meaning "padding" (index 0), or None.
        oov_token: Returned for unknown indices when `invert=True`.
            Defaults to `"[UNK]"`.
        vocabulary: Optional list or array of strings.
        idf_weights: IDF weights for `output_mode="tf_idf"`.
        invert: Map indices back to strings. Defaults to False.
        output_mode: `"int"` (default), `"one_hot"`, `"multi_hot"`,
            `"count"` or `"tf_idf"`.
        pad_to_max_tokens: Make encoded outputs `max_tokens` wide.
        sparse: Accepted for compatibility (outputs are dense).
        encoding: Text encoding of bytes inputs. Defaults to `"utf-8"`.
        name: Layer name.
        salt: Int or pair of ints: SipHash key for the OOV buckets.

    Example:

    >>> layer = StringLookup(vocabulary=["a", "b", "c", "d"])
    >>> layer(np.array([["a", "c", "d"], ["d", "z", "b"]])).numpy()
    array([[1, 3, 4],
           [4, 0, 2]])
    >>> layer = StringLookup(vocabulary=["a", "b"], output_mode="one_hot")
    >>> layer(np.array(["b", "x"])).numpy()
    array([[0, 0, 1],
           [1, 0, 0]])
    """

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None,
                 oov_token="[UNK]", vocabulary=None, idf_weights=None,
                 invert=False, output_mode="int", pad_to_max_tokens=False,
                 sparse=False, encoding="utf-8", name=None, salt=None,
                 **kwargs):
        self.encoding = encoding
        kwargs.pop("vocabulary_dtype", None)
        super().__init__(
            max_tokens=max_tokens, num_oov_indices=num_oov_indices,
            mask_token=mask_token, oov_token=oov_token,
            vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
            output_mode=output_mode, pad_to_max_tokens=pad_to_max_tokens,
            sparse=sparse, name=name, salt=salt, vocabulary_dtype="string",
            **kwargs)

    def _token_dtype(self):
        return np.str_

    def _as_tokens(self, values):
        values = np.asarray(values)
        if values.dtype.kind == "S":
            return np.char.decode(values, self.encoding)
        if values.dtype.kind == "O":
            return np.array([v.decode(self.encoding) if isinstance(v, bytes)
                             else str(v) for v in values.ravel()],
                            dtype=np.str_).reshape(values.shape)
        if values.dtype.kind != "U":
            raise ValueError(
                f"Layer '{self.name}' (StringLookup) expects string inputs. "
                f"Received an array of dtype {values.dtype} with shape "
                f"{values.shape}")
        return values

    def _hash_tokens(self, tokens):
        return self._hash_strings([str(t) for t in tokens])

    def get_config(self):
        config = super().get_config()
        del config["vocabulary_dtype"]
        config["encoding"] = self.encoding
        return config
