"""Vocabulary columns: `categorical_column_with_vocabulary_list` / `_file`.

Value `i` of the vocabulary gets id `i`. Out-of-vocabulary values go to an
OOV bucket (`vocabulary_size + Fingerprint64(value) % num_oov_buckets`,
TF's assignment; integers are hashed as their decimal strings) or to
`default_value`; with neither, they get TF's id -1: ignored by the
indicator, embedding and linear columns (as TF's lookups prune negative
ids), but crossed by `crossed_column` (as TF's `sparse_cross` does).
"""
import collections
import functools
import io
import os

import numpy as np

from kerasish.feature_column.base import (CategoricalColumn,
                                          categorical_input, kind)
from kerasish.feature_column.categorical import fingerprints, make_ids
from kerasish.saving import file_refs

_INVALID = -1    # TF's default_value: the id of OOV values


class _VocabularyColumn(CategoricalColumn):
    """Shared lookup of the vocabulary list and file columns."""

    __slots__ = ()

    @property
    def name(self):
        return self.key

    @property
    def num_buckets(self):
        return len(self._table()) + self.num_oov_buckets

    def transform(self, cache):
        values, mask = categorical_input(cache, self, self._value_kind)
        table = self._table()
        uniques, inverse = np.unique(values[mask], return_inverse=True)
        found = np.array([table.get(u, -1) for u in uniques.tolist()],
                         dtype=np.int64)
        ids = np.zeros(values.shape, np.int64)
        ids[mask] = found[inverse.reshape(-1)] if uniques.size else 0
        oov = mask & (ids < 0)
        if oov.any():
            ids, mask = self._out_of_vocabulary(values, ids, mask, oov)
        return make_ids(ids, mask)

    def _out_of_vocabulary(self, values, ids, mask, oov):
        if self.num_oov_buckets:
            buckets = fingerprints(values[oov]) % np.uint64(
                self.num_oov_buckets)
            ids[oov] = len(self._table()) + buckets.astype(np.int64)
        elif self.default_value in (None, _INVALID):
            # Masked out for the dense consumers; the -1 itself marks
            # the value as present for crossed_column (cross_ids).
            ids[oov] = _INVALID
            mask = mask & ~oov
        else:
            ids[oov] = self.default_value
        return ids, mask

    def cross_ids(self, cache):
        ids = self.get_ids(cache)
        return ids.values, ids.mask | (ids.values == _INVALID)


def _vocab_kind(vocabulary, dtype, key):
    got = kind(np.asarray(vocabulary))
    want = None if dtype is None else (
        "string" if np.dtype(dtype).kind in "USO" else
        "int" if np.dtype(dtype).kind in "iu" else "other")
    if got not in ("string", "int") or (want is not None and want != got):
        raise ValueError(f"dtype {dtype} and vocabulary dtype "
                         f"{np.asarray(vocabulary).dtype} do not match, "
                         f"column_name: {key}")
    return got


def _check_oov(default_value, num_oov_buckets, key):
    if num_oov_buckets is None or num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in "
                         f"{key}.")
    if default_value not in (None, _INVALID) and num_oov_buckets:
        raise ValueError(f"Can't specify both num_oov_buckets and "
                         f"default_value in {key}.")


class VocabularyListCategoricalColumn(_VocabularyColumn, collections.namedtuple(
        "VocabularyListCategoricalColumn", ("key", "vocabulary_list", "dtype",
                                            "default_value",
                                            "num_oov_buckets"))):
    """Ids from an in-memory vocabulary."""

    __slots__ = ()

    @property
    def _value_kind(self):
        return "string" if self.dtype == "string" else "int"

    def _table(self):
        return _table_of(self.vocabulary_list)


@functools.lru_cache(maxsize=256)
def _table_of(vocabulary):
    return {value: i for i, value in enumerate(vocabulary)}


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None,
                                            default_value=None,
                                            num_oov_buckets=0):
    """Ids from an in-memory vocabulary (TF's signature).

    Args:
        key: The feature's key.
        vocabulary_list: Ordered list of unique strings or ints; value `i`
            gets id `i`.
        dtype: `"string"` or an int dtype (default: inferred).
        default_value: Id of out-of-vocabulary values. None (default)
            or -1: TF's id -1 (ignored by the dense columns, crossed by
            `crossed_column`) unless `num_oov_buckets`.
        num_oov_buckets: Hash OOV values into this many extra ids.

    Returns:
        A categorical column with `len(vocabulary_list) + num_oov_buckets`
        buckets.

    Example:

    >>> from kerasish.feature_column import DenseFeatures, indicator_column
    >>> color = categorical_column_with_vocabulary_list(
    ...     "color", ["red", "green"], num_oov_buckets=1)
    >>> DenseFeatures([indicator_column(color)])(
    ...     {"color": np.array(["green", "blue"])}).numpy()
    array([[0., 1., 0.],
           [0., 0., 1.]], dtype=float32)
    """
    vocabulary = tuple(np.asarray(vocabulary_list).tolist()) \
        if vocabulary_list is not None else ()
    if not vocabulary:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be "
                         f"non-empty, column_name: {key}")
    if len(set(vocabulary)) != len(vocabulary):
        raise ValueError(f"Duplicate keys in vocabulary_list "
                         f"{list(vocabulary)}, column_name: {key}")
    value_kind = _vocab_kind(vocabulary, dtype, key)
    _check_oov(default_value, num_oov_buckets, key)
    dtype = "string" if value_kind == "string" else "int64"
    return VocabularyListCategoricalColumn(key, vocabulary, dtype,
                                           default_value, num_oov_buckets)


class VocabularyFileCategoricalColumn(_VocabularyColumn, collections.namedtuple(
        "VocabularyFileCategoricalColumn", ("key", "vocabulary_file",
                                            "vocabulary_size",
                                            "num_oov_buckets", "dtype",
                                            "default_value"))):
    """Ids from a vocabulary file (one value per line)."""

    __slots__ = ()

    @property
    def _value_kind(self):
        return "string" if self.dtype == "string" else "int"

    def _table(self):
        return _file_table(self.vocabulary_file, self.vocabulary_size,
                           self._value_kind)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        # A model file may name any path here; loading in safe mode reads
        # none, as StringLookup's vocabulary files.
        file_refs.refuse_in_safe_mode(
            f"the vocabulary file of feature column {config.get('key')!r}",
            config.get("vocabulary_file"))
        return super().from_config(config, custom_objects)


def _read_lines(path):
    text = file_refs.read_text(path, "the vocabulary_file")
    # Lines as a text-mode file yields them (universal newlines).
    return [line.rstrip("\n") for line in io.StringIO(text, newline=None)]


@functools.lru_cache(maxsize=64)
def _file_table(path, size, value_kind):
    lines = _read_lines(path)
    if size > len(lines):
        raise ValueError(f"vocabulary_size {size} is larger than the "
                         f"{len(lines)} lines of {path}.")
    lines = lines[:size]
    if value_kind == "int":
        lines = [int(line) for line in lines]
    return {value: i for i, value in enumerate(lines)}


def categorical_column_with_vocabulary_file(key, vocabulary_file,
                                            vocabulary_size=None,
                                            dtype="string",
                                            default_value=None,
                                            num_oov_buckets=0):
    """Ids from a vocabulary file: line `i` gets id `i` (TF's signature).

    Args:
        key: The feature's key.
        vocabulary_file: Path of the file (one value per line).
        vocabulary_size: Lines used (default: all).
        dtype: `"string"` or an int dtype (lines parsed as ints).
        default_value: As in `categorical_column_with_vocabulary_list`.
        num_oov_buckets: Hash OOV values into this many extra ids.

    Returns:
        A categorical column.

    Example:

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("cat\\ndog\\n")
    >>> column = categorical_column_with_vocabulary_file("pet", path)
    >>> column.num_buckets
    2
    """
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    vocabulary_file = os.fspath(vocabulary_file)
    if vocabulary_size is None:
        if not os.path.exists(vocabulary_file):
            raise ValueError(f"vocabulary_file in {key} does not exist.")
        vocabulary_size = len(_read_lines(vocabulary_file))
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    _check_oov(default_value, num_oov_buckets, key)
    kind_ = np.dtype(dtype).kind if dtype != "string" else "U"
    if kind_ not in "USiu":
        raise ValueError(f"Invalid dtype {dtype} in {key}: expected "
                         "'string' or an integer dtype.")
    dtype = "string" if kind_ in "US" else "int64"
    return VocabularyFileCategoricalColumn(key, vocabulary_file,
                                           int(vocabulary_size),
                                           num_oov_buckets, dtype,
                                           default_value)
