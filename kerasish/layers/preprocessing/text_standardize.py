"""Text steps of `TextVectorization`: standardize, split, n-grams.

Each step reproduces the TensorFlow string op Keras runs, byte for byte on
the outputs that matter:

- `tf.strings.lower` (no encoding given) lowercases ASCII letters only:
  `"ÉCOLE"` becomes `"École"`, never `"école"`.
- Keras strips the 32 ASCII punctuation characters (its regex class is
  exactly `string.punctuation`); other symbols (`"…"`, `"🙂"`) stay.
- `tf.strings.split` without a separator splits on ASCII whitespace
  (space, `\\t`, `\\n`, `\\v`, `\\f`, `\\r`) and drops empty pieces; a
  no-break space or an em space stays inside its token.
- `tf.strings.unicode_split` yields code points.
- `tf.strings.ngrams` joins windows with `" "`, width by width, and makes
  no n-gram wider than the sequence.
"""
import re
import string

import numpy as np

_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_NO_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ASCII_SPACE = re.compile(r"[ \t\n\x0b\x0c\r]+")
# What Python's `str.split()` also splits on (`str.isspace`), but
# TensorFlow does not.
_OTHER_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a"
                          "\u2028\u2029\u202f\u205f\u3000]")

STANDARDIZE_MODES = ("lower_and_strip_punctuation", "lower",
                     "strip_punctuation")
SPLIT_MODES = ("whitespace", "character")


def as_strings(values, encoding="utf-8"):
    """A numpy unicode array of `values` (bytes decoded with `encoding`)."""
    if hasattr(values, "_value"):
        values = values._value
    values = np.asarray(values)
    if values.dtype.kind == "S":
        return np.char.decode(values, encoding)
    if values.dtype.kind == "O":
        flat = [v.decode(encoding) if isinstance(v, bytes) else str(v)
                for v in values.ravel()]
        return np.array(flat, dtype=np.str_).reshape(values.shape)
    if values.dtype.kind != "U":
        raise ValueError(
            "TextVectorization expects string inputs. Received an array of "
            f"dtype {values.dtype} with shape {values.shape}")
    return values


def _map_strings(fn, values):
    out = [fn(s) for s in values.ravel().tolist()]
    return np.array(out, dtype=np.str_).reshape(values.shape)


def standardize(values, mode):
    """Apply a built-in standardization (`None` leaves text untouched)."""
    if mode in ("lower", "lower_and_strip_punctuation"):
        values = _map_strings(lambda s: s.translate(_ASCII_LOWER), values)
    if mode in ("strip_punctuation", "lower_and_strip_punctuation"):
        values = _map_strings(lambda s: s.translate(_NO_PUNCTUATION), values)
    return values


def split_whitespace(text):
    """Tokens of `text` separated by runs of ASCII whitespace."""
    return [t for t in _ASCII_SPACE.split(text) if t]


def split_characters(text):
    """The code points of `text`, one token each."""
    return list(text)


def split(values, mode):
    """Split each string of the 1-D array `values`: a list of token lists."""
    strings = values.tolist()
    if mode == "character":
        return [list(s) for s in strings]
    if not _OTHER_SPACE.search("".join(strings)):
        # Without such characters `str.split()` (C speed) is TF's split.
        return [s.split() for s in strings]
    return [split_whitespace(s) for s in strings]


def ngrams(tokens, widths):
    """The n-grams of one token sequence for each width in `widths`."""
    out = []
    for n in widths:
        out.extend(" ".join(tokens[i:i + n])
                   for i in range(len(tokens) - n + 1))
    return out


def pad_rows(rows, length=None, pad=""):
    """Token lists as a dense `(rows, length)` array, padded with `pad`.

    `length=None` pads to the longest row; longer rows are cut.
    """
    if length is None:
        length = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), length), pad, dtype=object)
    for i, row in enumerate(rows):
        row = row[:length]
        out[i, :len(row)] = row
    return out.astype(np.str_) if out.size else out.astype("<U1")
