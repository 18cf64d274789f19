"""`TextVectorization`: raw strings to token ids or bag-of-token vectors.

Standardize -> split -> n-grams run in `text_standardize` (TensorFlow's
string ops, reproduced); the vocabulary, the lookups and the encodings are
a `StringLookup` held as `_lookup_layer` (the attribute name Keras uses, so
its assets and weights land at `.../text_vectorization/_lookup_layer` too).
Split text is ragged; it is padded with the mask token `""` into a dense
array before the lookup, which sends padding to id 0 (`"int"` mode) or
drops it from the counts (other modes), exactly as Keras's ragged-to-dense
conversion does.
"""
import itertools

import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.layers.preprocessing import text_batches
from kerasish.layers.preprocessing import text_standardize as text
from kerasish.layers.preprocessing.string_lookup import StringLookup
from kerasish.layers.preprocessing.text_vectorization_checks import (
    check_arguments)
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import \
    deserialize_keras_object


@builtin("keras.layers")
class TextVectorization(Layer):
    """Map text to integer sequences or to dense bag-of-token vectors.

    Each example (one string) is standardized, split into tokens, combined
    into n-grams and looked up in a vocabulary, given or learned by
    `adapt()` (most frequent tokens first, ties broken by the larger
    token, as Keras does). Index 0 is padding in `"int"` mode and index 1
    the out-of-vocabulary token `"[UNK]"`.

    Args:
        max_tokens: Maximum vocabulary size, special tokens included, or
            `None` for no limit. Defaults to `None`.
        standardize: `"lower_and_strip_punctuation"` (default), `"lower"`,
            `"strip_punctuation"`, `None`, or a callable taking and
            returning a numpy array of strings. Lowercasing is ASCII-only
            and the punctuation stripped is ASCII's, as in Keras.
        split: `"whitespace"` (default, ASCII whitespace), `"character"`
            (code points), `None`, or a callable taking a 1-D numpy array
            of strings and returning one token list per string.
        ngrams: `None` (default), an int `n` (n-grams of widths 1..n) or a
            tuple of widths.
        output_mode: `"int"` (default), `"multi_hot"`, `"count"` or
            `"tf_idf"`.
        output_sequence_length: `"int"` mode only: pad or cut sequences to
            this length. Defaults to `None` (longest in the batch).
        pad_to_max_tokens: Encoded modes only: make outputs `max_tokens`
            wide. Defaults to `False`.
        vocabulary: Optional list of strings, or the path of a file with
            one token per line.
        idf_weights: `"tf_idf"` mode with a given `vocabulary`: one weight
            per token.
        sparse: Must stay `False`: kerasish has no sparse tensors (Keras
            supports it on TensorFlow only).
        ragged: `"int"` mode only. If `True`, eager calls return a list of
            1-D int64 numpy arrays, one per example, unpadded (cut to
            `output_sequence_length` if set). Ragged outputs cannot flow
            into a functional model. Defaults to `False`.
        encoding: Encoding of bytes inputs. Defaults to `"utf-8"`.
        name: Layer name.

    Example:

    >>> layer = TextVectorization(output_sequence_length=4)
    >>> layer.adapt(["foo bar", "bar baz", "baz bada boom"])
    >>> layer(np.array([["foo qux bar"], ["qux baz"]])).numpy()
    array([[4, 1, 3, 0],
           [1, 2, 0, 0]])
    >>> layer = TextVectorization(vocabulary=["earth", "wind", "and",
    ...                                       "fire"])
    >>> layer.get_vocabulary()
    ['', '[UNK]', 'earth', 'wind', 'and', 'fire']
    """

    _convert_input_args = False
    _passes_text = True

    def __init__(self, max_tokens=None,
                 standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False,
                 vocabulary=None, idf_weights=None, sparse=False,
                 ragged=False, encoding="utf-8", name=None, **kwargs):
        output_mode = check_arguments(standardize, split, ngrams,
                                      output_mode, output_sequence_length,
                                      sparse, ragged)
        self._has_input_vocabulary = kwargs.pop(
            "has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        super().__init__(name=name, **kwargs)
        self._standardize, self._split = standardize, split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) \
            if isinstance(ngrams, int) else ngrams
        self._output_mode = output_mode
        self._output_sequence_length = output_sequence_length
        self._ragged, self._encoding = ragged, encoding
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary,
            idf_weights=idf_weights, pad_to_max_tokens=pad_to_max_tokens,
            mask_token="", output_mode=output_mode, encoding=encoding,
            has_input_vocabulary=self._has_input_vocabulary,
            vocabulary_size=vocabulary_size)
        self.built = True

    # -- vocabulary -----------------------------------------------------------
    def get_vocabulary(self, include_special_tokens=True):
        """The vocabulary in index order.

        Args:
            include_special_tokens: Whether to include the padding (`""`,
                `"int"` mode) and OOV (`"[UNK]"`) tokens, so that a
                token's position is its index. Defaults to `True`.

        Returns:
            A list of strings.

        Example:

        >>> layer = TextVectorization(vocabulary=["a", "b"])
        >>> layer.get_vocabulary(include_special_tokens=False)
        ['a', 'b']
        """
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        """The number of indices, special tokens included.

        Returns:
            An int.

        Example:

        >>> TextVectorization(vocabulary=["a", "b"]).vocabulary_size()
        4
        """
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Replace the vocabulary (and the IDF weights in `"tf_idf"` mode).

        Args:
            vocabulary: List or array of strings (optionally starting with
                the padding and OOV tokens), or a file path with one token
                per line.
            idf_weights: `"tf_idf"` mode only: one weight per token.

        Example:

        >>> layer = TextVectorization()
        >>> layer.set_vocabulary(["sun", "moon"])
        >>> layer(np.array(["Moon and sun"])).numpy()
        array([[3, 1, 2]])
        """
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    # -- adapt ----------------------------------------------------------------
    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary (and IDF weights) from text.

        Args:
            data: A list, tuple or numpy array of strings (shape `(n,)` or
                `(n, 1)`), a `kerasish.data.Dataset` of string batches, or
                any iterable of batches.
            batch_size: Optional number of strings processed at a time for
                arrays and lists (the vocabulary does not depend on it).
            steps: Optional maximum number of batches read from a dataset
                or iterable.

        Example:

        >>> layer = TextVectorization()
        >>> layer.adapt(["a b b", "c b"])
        >>> layer.get_vocabulary()
        ['', '[UNK]', 'b', 'c', 'a']
        """
        if self._has_input_vocabulary:
            raise ValueError(
                f"Cannot adapt layer '{self.name}' after setting a static "
                "vocabulary via `vocabulary` argument or `set_vocabulary()` "
                "method.")
        self.reset_state()
        for i, batch in enumerate(text_batches.adapt_batches(data, batch_size)):
            if steps is not None and i >= steps:
                break
            self.update_state(batch)
        self.finalize_state()

    def update_state(self, data):
        values, rows = self._token_rows(data)
        if rows is None:
            self._lookup_layer.update_state(values)
        else:
            self._lookup_layer.update_ragged_state(rows)

    def finalize_state(self):
        self._lookup_layer.finalize_state()

    def reset_state(self):
        self._lookup_layer.reset_state()

    # -- calling --------------------------------------------------------------
    def _tokens(self, inputs, pad_to):
        """Standardized, split, n-grammed tokens as a dense string array
        (ragged rows padded with `""` to `pad_to` or the longest row)."""
        values, rows = self._token_rows(inputs)
        if rows is None:
            return values
        dense = text.pad_rows(rows, pad_to)
        return dense[0] if values.ndim == 0 else dense

    def _token_rows(self, inputs):
        """`(values, rows)`: the standardized strings and, when splitting,
        the token list of each string (`rows=None`: dense tokens)."""
        values = text.as_strings(inputs, self._encoding)
        values = self._apply_standardize(values)
        if self._split is None:
            return self._dense_ngrams(values), None
        rows = self._split_rows(values)
        if self._ngrams is not None:
            rows = [text.ngrams(r, self._ngrams) for r in rows]
        return values, rows

    def _apply_standardize(self, values):
        if callable(self._standardize):
            return text.as_strings(self._standardize(values), self._encoding)
        return text.standardize(values, self._standardize)

    def _split_rows(self, values):
        if values.ndim > 1:
            if values.shape[-1] != 1:
                raise ValueError(
                    "When using `TextVectorization` to tokenize strings, the "
                    "input rank must be 1 or the last shape dimension must "
                    f"be 1. Received: inputs.shape={values.shape} with "
                    f"rank={values.ndim}")
            values = values.reshape(values.shape[:-1])
        flat = values.reshape(-1)
        if callable(self._split):
            rows = self._split(flat)
            return [[str(t) for t in text.as_strings(r, self._encoding)]
                    for r in rows]
        return text.split(flat, self._split)

    def _dense_ngrams(self, values):
        if self._ngrams is None:
            return values
        if values.ndim == 0:
            raise ValueError(
                "TextVectorization cannot build n-grams of a single "
                "unsplit string: pass a batch (`split=None` treats the last "
                f"axis as the sequence). Received: inputs.shape=()")
        rows = [text.ngrams(r, self._ngrams)
                for r in values.reshape(-1, values.shape[-1]).tolist()]
        dense = text.pad_rows(rows)
        return dense.reshape(values.shape[:-1] + dense.shape[-1:])

    def call(self, inputs):
        if self._ragged:
            return self._ragged_call(inputs)
        int_mode = self._output_mode == "int"
        length = self._output_sequence_length if int_mode else None
        if int_mode and self._split is not None:
            values, rows = self._token_rows(inputs)
            ids = self._padded_ids(rows, length)
            return Tensor(ids[0] if values.ndim == 0 else ids)
        tokens = self._tokens(inputs, pad_to=length)
        if not int_mode:
            if tokens.ndim and tokens.shape[-1] == 0:
                # An all-empty batch still has one (dropped) padding token,
                # so every row gets its all-zero encoding.
                tokens = np.full(tokens.shape[:-1] + (1,), "", np.str_)
            return self._lookup_layer(tokens)
        ids = self._lookup_layer(tokens)._value
        if self._split is None and length is not None:
            ids = text_batches.fit_last_axis(ids, length)
        return Tensor(ids)

    def _padded_ids(self, rows, length):
        """`(rows, length)` int ids of ragged token rows, zero-padded (or
        cut); each distinct token is looked up once."""
        flat = list(itertools.chain.from_iterable(rows))
        ids = np.zeros(0, np.int64)
        if flat:
            distinct = dict.fromkeys(flat)
            found = self._lookup_layer(
                np.array(list(distinct), np.str_))._value
            position = dict(zip(distinct, range(len(distinct))))
            ids = found[np.fromiter(map(position.__getitem__, flat),
                                    np.int64, len(flat))]
        return text_batches.pad_ids(ids, rows, length)

    def _ragged_call(self, inputs):
        """One unpadded int64 array per example (cut to
        `output_sequence_length` if set)."""
        values, rows = self._token_rows(inputs)
        if rows is None:
            ids = self._lookup_layer(values)._value
            rows_ids = list(ids.reshape(len(ids), -1)) if ids.ndim else [ids]
        else:
            ids = self._lookup_layer(text.pad_rows(rows))._value
            rows_ids = [row[:len(r)] for row, r in zip(ids, rows)]
        length = self._output_sequence_length
        rows_ids = [r[:length] for r in rows_ids]
        return rows_ids[0] if values.ndim == 0 else rows_ids

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self._output_mode == "int":
            return (input_shape[0] if input_shape else None,
                    self._output_sequence_length)
        if self._split is None:
            if len(input_shape) <= 1:
                input_shape = input_shape + (1,)
        else:
            # The call squeezes a trailing 1 before splitting, so
            # `(batch, 1)` text encodes to `(batch, depth)`. (Keras declares
            # `(batch, 1, depth)` here, which its calls never return.)
            if len(input_shape) > 1 and input_shape[-1] == 1:
                input_shape = input_shape[:-1]
            input_shape = input_shape + (None,)
        return self._lookup_layer.compute_output_shape(input_shape)

    def compute_output_spec(self, inputs, *args, **kwargs):
        if self._ragged:
            raise ValueError(
                f"Layer '{self.name}' (TextVectorization) has ragged=True: "
                "its outputs are lists of arrays, which cannot flow through "
                "a functional model. Use ragged=False (padded outputs).")
        dtype = "int64" if self._output_mode == "int" else "float32"
        return KerasTensor(self.compute_output_shape(inputs.shape),
                           dtype=dtype)

    # -- serialization --------------------------------------------------------
    def get_config(self):
        lookup = self._lookup_layer
        config = super().get_config()
        config.update({
            "max_tokens": lookup.max_tokens,
            "standardize": self._standardize, "split": self._split,
            "ngrams": self._ngrams_arg, "output_mode": self._output_mode,
            "output_sequence_length": self._output_sequence_length,
            "pad_to_max_tokens": lookup.pad_to_max_tokens,
            "sparse": lookup.sparse, "ragged": self._ragged,
            "vocabulary": _listify(lookup.input_vocabulary),
            "idf_weights": _listify(lookup.input_idf_weights),
            "encoding": self._encoding,
            "vocabulary_size": self.vocabulary_size(),
        })
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("standardize", "split"):
            if config.get(key) is not None and \
                    not isinstance(config[key], str):
                config[key] = deserialize_keras_object(config[key])
        if isinstance(config.get("ngrams"), list):
            config["ngrams"] = tuple(config["ngrams"])
        return cls(**config)

    def save_own_variables(self, store):
        """Write the IDF weights (`"tf_idf"` mode) as Keras does."""
        self._lookup_layer.save_own_variables(store)

    def load_own_variables(self, store):
        """Read back the IDF weights written by `save_own_variables`."""
        self._lookup_layer.load_own_variables(store)

    def save_assets(self, dir_path):
        """Write the adapted vocabulary as Keras does (`vocabulary.txt`)."""
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        """Read back the vocabulary written by `save_assets`."""
        self._lookup_layer.load_assets(dir_path)


def _listify(x):
    if isinstance(x, Tensor):
        x = x._value
    if isinstance(x, np.ndarray):
        x = x.tolist()
    return x
