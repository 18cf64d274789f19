"""`IndexLookup`: the vocabulary machinery behind IntegerLookup/StringLookup.

Index layout (as in Keras): `[mask] [oov_1 .. oov_n] tokens...`. The mask
index 0 exists only when `mask_token` is set and `output_mode="int"`. An
out-of-vocabulary token goes to the single OOV index, or with several OOV
indices to `floormod(token, n)` (integers) or `Fingerprint64(token) % n`
(strings, TensorFlow's `to_hash_bucket_fast`). Lookups hash each distinct
input value once (`np.unique`), then scatter back.
"""
import collections
import itertools
import os

import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.backend import farmhash
from kerasish.layers.preprocessing import lookup_checks
from kerasish.layers.preprocessing.encoding import bag_counts
from kerasish.layers.preprocessing.adapt_utils import peek_batches
from kerasish.saving import file_refs

_INT64_MAX = np.iinfo(np.int64).max


class IndexLookup(Layer):
    """Shared implementation; use `IntegerLookup` or `StringLookup`."""

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token,
                 vocabulary_dtype, vocabulary=None, idf_weights=None,
                 invert=False, output_mode="int", sparse=False,
                 pad_to_max_tokens=False, oov_method="floormod", name=None,
                 salt=None, **kwargs):
        output_mode = lookup_checks.check_arguments(
            max_tokens, num_oov_indices, pad_to_max_tokens, oov_method,
            output_mode, invert, sparse, idf_weights, salt)
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        self._has_input_vocabulary = kwargs.pop(
            "has_input_vocabulary", vocabulary is not None)
        kwargs.pop("trainable", None)
        kwargs.pop("dtype", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword argument(s): {kwargs}")
        super().__init__(name=name)
        self._convert_input_args = False
        self.invert, self.max_tokens = invert, max_tokens
        self.num_oov_indices = num_oov_indices
        self.mask_token, self.oov_token = mask_token, oov_token
        self.output_mode, self.sparse = output_mode, sparse
        self.pad_to_max_tokens = pad_to_max_tokens
        self.vocabulary_dtype = vocabulary_dtype
        self.oov_method = oov_method
        self.salt = [salt, salt] if isinstance(salt, int) else salt
        self.input_vocabulary = vocabulary \
            if not isinstance(vocabulary, str) else None
        self.input_idf_weights = idf_weights
        self._tokens = np.array([], dtype=self._token_dtype())
        self._index = {}
        self.idf_weights = None
        self.token_counts = collections.Counter()
        self.token_document_counts = collections.Counter()
        self.num_documents = 0
        if self.output_mode == "tf_idf" and self._has_input_vocabulary and \
                idf_weights is None:
            raise ValueError(
                "When specifying the `vocabulary` argument, in TF-IDF output "
                "mode, the `idf_weights` argument must also be provided.")
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self.built = True

    # -- token types (overridden by the subclasses) ---------------------------
    def _token_dtype(self):
        return np.int64

    def _as_tokens(self, values):
        values = np.asarray(values)
        if values.size and values.dtype.kind not in "biuf":
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) looks up "
                f"integers; it received tokens of dtype {values.dtype}: "
                f"{values.ravel()[:5].tolist()}")
        return values.astype(np.int64)

    def _hash_tokens(self, tokens):
        """OOV bucket hashes of distinct tokens (uint64 Python ints), or
        None to use `floormod` (integer vocabularies)."""
        if self.oov_method != "farmhash":
            return None
        return self._hash_strings([str(int(t)) for t in tokens])

    def _hash_strings(self, strings):
        if self.salt is not None:
            return [farmhash.siphash24(self.salt, s) for s in strings]
        return [farmhash.fingerprint64(s) for s in strings]

    # -- indices --------------------------------------------------------------
    def _oov_start_index(self):
        return 1 if self.mask_token is not None and \
            self.output_mode == "int" else 0

    def _token_start_index(self):
        return self._oov_start_index() + self.num_oov_indices

    def vocabulary_size(self):
        """Number of indices: special tokens plus the vocabulary."""
        return len(self._tokens) + self._token_start_index()

    def get_vocabulary(self, include_special_tokens=True):
        """The tokens in index order (with mask/OOV entries by default)."""
        vocab = [self.oov_token] * self._token_start_index() + \
            [_python(t) for t in self._tokens]
        if self.mask_token is not None and self.output_mode == "int":
            vocab[0] = self.mask_token
        return vocab if include_special_tokens else \
            vocab[self._token_start_index():]

    # -- vocabulary -----------------------------------------------------------
    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Replace the vocabulary (and, in `"tf_idf"` mode, the weights).

        Args:
            vocabulary: List or array of distinct tokens, optionally
                preceded by the mask and OOV tokens in index order.
            idf_weights: IDF weights (`"tf_idf"` mode only), one per token.
        """
        from_file = isinstance(vocabulary, str)
        if from_file:
            vocabulary = lookup_checks.read_vocabulary_file(
                vocabulary, self.output_mode, self._token_dtype() is np.int64)
        lookup_checks.check_idf_argument(self.output_mode, idf_weights)
        vocabulary = np.asarray(_numpy(vocabulary))
        if vocabulary.size == 0:
            raise ValueError("Cannot set an empty vocabulary. Received: "
                             f"vocabulary={vocabulary}")
        # As Keras, every line of a file is a token, an OOV token included;
        # a list may start with the special tokens.
        tokens = lookup_checks.strip_special_tokens(
            self, vocabulary, leading_specials=not from_file)
        self._install(self._as_tokens(tokens))
        if self.output_mode == "tf_idf":
            self._set_idf(np.asarray(_numpy(idf_weights), "float32"),
                          len(vocabulary))
        self._record_vocabulary_size()

    def _install(self, tokens):
        self._tokens = tokens
        start = self._token_start_index()
        self._index = {_python(t): start + i for i, t in enumerate(tokens)}

    def _set_idf(self, weights, vocab_len):
        if len(weights) != vocab_len:
            raise ValueError(
                "`idf_weights` must be the same length as vocabulary. "
                f"len(idf_weights) is {len(weights)}; len(vocabulary) is "
                f"{vocab_len}")
        start = self._token_start_index()
        if len(weights) == len(self._tokens):
            weights = np.concatenate([np.full(start, weights.mean(),
                                              "float32"), weights])
        self.idf_weights = self._padded(weights)

    def _padded(self, weights):
        if self.pad_to_max_tokens and self.max_tokens is not None:
            weights = np.pad(weights, (0, self.max_tokens - len(weights)))
        return weights.astype("float32")

    def _record_vocabulary_size(self):
        if self.output_mode != "int" and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is not None and \
                self._frozen_vocab_size != self.vocabulary_size():
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and "
                "`pad_to_max_tokens=False`, the vocabulary size cannot be "
                "changed after the layer is called. Old vocab size is "
                f"{self._frozen_vocab_size}, new vocab size is "
                f"{self.vocabulary_size()}")
        self._frozen_vocab_size = self.vocabulary_size()

    # -- adapt ----------------------------------------------------------------
    def adapt(self, data, steps=None):
        """Build the vocabulary from `data`, most frequent tokens first
        (ties broken by the larger token, as Keras does).

        Args:
            data: Array of tokens, or an iterable of batches.
            steps: Optional maximum number of batches.
        """
        if self._has_input_vocabulary:
            raise ValueError(
                f"Cannot adapt layer '{self.name}' after setting a static "
                "vocabulary via `vocabulary` argument or `set_vocabulary()` "
                "method.")
        self.reset_state()
        if isinstance(data, (list, tuple)):
            # As Keras, a (non-ragged) list is one tensor, not batches.
            try:
                data = np.asarray(data)
            except ValueError:
                pass   # ragged: rows are batches
        _, batches = peek_batches(data)
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            self.update_state(batch)
        self.finalize_state()

    def update_state(self, data):
        data = self._as_tokens(_numpy(data))
        if data.ndim < 2:
            # As Keras: `[x, y, z]` is three documents `[[x], [y], [z]]`.
            data = data.reshape(-1, 1)
        tokens, counts = np.unique(data.ravel(), return_counts=True)
        self.token_counts.update(dict(zip(map(_python, tokens),
                                          counts.tolist())))
        if self.output_mode == "tf_idf":
            for row in data.reshape(data.shape[0], -1):
                self.token_document_counts.update(
                    map(_python, np.unique(row)))
            self.num_documents += data.shape[0]

    def update_ragged_state(self, rows):
        """`update_state` for ragged text: `rows` is a list of token lists
        (one document each), counted as they are, without padding."""
        self.token_counts.update(itertools.chain.from_iterable(rows))
        if self.output_mode == "tf_idf":
            self.token_document_counts.update(
                itertools.chain.from_iterable(map(set, rows)))
            self.num_documents += len(rows)

    def finalize_state(self):
        if self._has_input_vocabulary or not self.token_counts:
            self._record_vocabulary_size()
            return
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                self.token_counts.pop(_python(self._as_tokens(
                    np.asarray([special]))[0]), None)
        tokens = np.asarray(list(self.token_counts), dtype=self._token_dtype())
        counts = np.asarray(list(self.token_counts.values()))
        order = np.lexsort((tokens, counts))[::-1]
        if self.max_tokens:
            order = order[:self.max_tokens - self._token_start_index()]
        self._install(tokens[order])
        if self.output_mode == "tf_idf":
            docs = np.asarray([self.token_document_counts[_python(t)]
                               for t in self._tokens], "float64")
            idf = np.log(1 + self.num_documents / (1 + docs))
            idf = np.concatenate([np.full(self._token_start_index(),
                                          idf.mean()), idf])
            self.idf_weights = self._padded(idf.astype("float32"))
        self.reset_state()
        self._record_vocabulary_size()

    def reset_state(self):
        if self._has_input_vocabulary:
            return
        self.token_counts = collections.Counter()
        self.token_document_counts = collections.Counter()
        self.num_documents = 0

    # -- lookups --------------------------------------------------------------
    def call(self, inputs):
        if self.output_mode != "int" and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is None:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and "
                "`pad_to_max_tokens=False`, you must set the layer's "
                "vocabulary before calling it. Either pass a `vocabulary` "
                "argument to the layer, or call `adapt` with some sample "
                "data.")
        values = _numpy(inputs)
        if self.invert:
            return Tensor(self._invert(np.asarray(values, np.int64)))
        ids = self._lookup(self._as_tokens(values))
        if self.output_mode == "int":
            return Tensor(ids)
        return Tensor(self._encode(ids))

    def _lookup(self, tokens):
        uniques, inverse = np.unique(tokens, return_inverse=True)
        found = np.array([self._index.get(_python(t), -1) for t in uniques],
                         dtype=np.int64)
        if self.mask_token is not None:
            mask = self._as_tokens(np.asarray([self.mask_token]))[0]
            found[uniques == mask] = 0 if self.output_mode == "int" \
                else _INT64_MAX
        missing = found < 0
        if missing.any():
            found[missing] = self._oov_ids(uniques[missing])
        return found[inverse].reshape(tokens.shape)

    def _oov_ids(self, tokens):
        if self.num_oov_indices == 0:
            raise ValueError(
                "When `num_oov_indices=0` all inputs should be in "
                f"vocabulary, found OOV values {list(map(_python, tokens))}, "
                "consider setting `num_oov_indices=1`.")
        start = self._oov_start_index()
        if self.num_oov_indices == 1:
            return np.full(len(tokens), start, np.int64)
        hashes = self._hash_tokens(tokens)
        if hashes is None:
            return np.mod(tokens, self.num_oov_indices) + start
        return np.array([h % self.num_oov_indices for h in hashes],
                        np.int64) + start

    def _invert(self, ids):
        table = np.asarray(self.get_vocabulary(), dtype=object)
        inside = (ids >= 0) & (ids < len(table))
        out = np.where(inside, table[np.clip(ids, 0, len(table) - 1)],
                       self.oov_token)
        if self.mask_token is not None:
            out = np.where(ids == 0, self.mask_token, out)
        return out.astype(self._token_dtype())

    def _depth(self):
        return self.max_tokens if self.pad_to_max_tokens else \
            self._frozen_vocab_size

    def _encode(self, ids):
        depth = self._depth()
        ids = ids.reshape(1) if ids.ndim == 0 else ids
        # Masked tokens (id int64 max) and ids past `depth` count nowhere.
        dropped = (ids < 0) | (ids >= depth)
        safe = np.where(dropped, depth, ids)
        if self.output_mode == "one_hot":
            if safe.ndim > 1 and safe.shape[-1] == 1:
                safe = safe.reshape(safe.shape[:-1])
            out = np.eye(depth + 1, depth, dtype=np.int64)[safe]
            return out
        counts = bag_counts(safe, depth + 1, dtype="int64")[..., :depth]
        if self.output_mode == "multi_hot":
            return (counts > 0).astype(np.int64)
        if self.output_mode == "count":
            return counts
        return counts.astype("float32") * self.idf_weights[:depth]

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else \
            self._frozen_vocab_size
        if self.output_mode == "one_hot" and (not input_shape or
                                              input_shape[-1] != 1):
            return tuple(input_shape) + (depth,)
        return tuple(input_shape)[:-1] + (depth,)

    def compute_output_spec(self, inputs, *args, **kwargs):
        if self.invert:
            dtype = "string" if self._token_dtype() is not np.int64 \
                else "int64"
        else:
            dtype = "float32" if self.output_mode == "tf_idf" else "int64"
        return KerasTensor(self.compute_output_shape(inputs.shape),
                           dtype=dtype)

    # -- serialization --------------------------------------------------------
    def get_config(self):
        config = super().get_config()
        config.update({
            "invert": self.invert, "max_tokens": self.max_tokens,
            "num_oov_indices": self.num_oov_indices,
            "oov_token": self.oov_token, "mask_token": self.mask_token,
            "output_mode": self.output_mode, "sparse": self.sparse,
            "pad_to_max_tokens": self.pad_to_max_tokens,
            "vocabulary_dtype": self.vocabulary_dtype,
            "idf_weights": _listify(self.input_idf_weights),
            "vocabulary": _listify(self.input_vocabulary),
            "vocabulary_size": self._frozen_vocab_size,
            "oov_method": self.oov_method, "salt": self.salt,
        })
        return config

    def save_assets(self, dir_path):
        """Write an adapted vocabulary to `vocabulary.txt` (Keras's asset);
        in `"tf_idf"` mode the weights go to `idf_weights.npy` beside it."""
        if self.input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), "w",
                  encoding="utf-8") as f:
            f.write("\n".join(str(w) for w in self.get_vocabulary()))
        if self.output_mode == "tf_idf" and self.idf_weights is not None:
            np.save(os.path.join(dir_path, "idf_weights.npy"),
                    self.idf_weights)

    def load_assets(self, dir_path):
        """Read back the vocabulary written by `save_assets`."""
        if self.input_vocabulary is not None:
            return
        lines = file_refs.read_text(os.path.join(dir_path, "vocabulary.txt"),
                                    f"the vocabulary asset of {self.name!r}"
                                    ).splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        if not lines:
            return
        idf_path = os.path.join(dir_path, "idf_weights.npy")
        # Keras keeps the weights in the weights file (`vars/idf_weights`,
        # loaded first by `load_own_variables`), kerasish also beside the
        # vocabulary.
        idf = file_refs.load_npy(idf_path, "the idf_weights asset of "
                                 f"{self.name!r}") \
            if os.path.exists(idf_path) else self.idf_weights
        self._frozen_vocab_size = None
        self.set_vocabulary(lines if self._token_dtype() is not np.int64
                            else [int(v) for v in lines],
                            idf_weights=idf[:len(lines)] if idf is not None
                            else None)

    def save_own_variables(self, store):
        if self.output_mode == "tf_idf" and self.idf_weights is not None:
            store["idf_weights"] = self.idf_weights

    def load_own_variables(self, store):
        if self.output_mode == "tf_idf" and "idf_weights" in store.keys():
            self.idf_weights = np.asarray(store["idf_weights"], "float32")


def _numpy(x):
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, (list, tuple)):
        return np.asarray(x)
    return np.asarray(x)


def _python(value):
    return value.item() if isinstance(value, np.generic) else value


def _listify(x):
    if isinstance(x, Tensor):
        x = x._value
    if isinstance(x, np.ndarray):
        x = x.tolist()
    return x
