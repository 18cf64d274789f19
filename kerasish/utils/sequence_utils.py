"""`pad_sequences`: ragged lists of sequences -> one padded array."""
import numpy as np


def _lengths_and_sample_shape(sequences):
    """Each sequence's length, and the shape of one step (from the first
    non-empty sequence)."""
    lengths, sample_shape = [], None
    for s in sequences:
        try:
            lengths.append(len(s))
        except TypeError:
            raise ValueError("`sequences` must be a list of iterables. "
                             f"Found non-iterable: {s!r}") from None
        if sample_shape is None and len(s):
            sample_shape = np.asarray(s).shape[1:]
    return lengths, sample_shape or ()


def _check_modes(padding, truncating):
    if padding not in ("pre", "post"):
        raise ValueError('`padding` must be "pre" or "post". '
                         f"Received: padding={padding!r}")
    if truncating not in ("pre", "post"):
        raise ValueError('`truncating` must be "pre" or "post". '
                         f"Received: truncating={truncating!r}")


def _check_value(value, dtype):
    is_text = dtype is object or np.issubdtype(dtype, np.str_) or \
        np.issubdtype(dtype, np.bytes_)
    if isinstance(value, str) and not is_text:
        raise ValueError(
            f"`dtype` {dtype} is not compatible with `value`'s type: "
            f"{type(value)}. Use `dtype=object` for variable-length "
            "strings.")


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre",
                  truncating="pre", value=0.0):
    """Pad (and truncate) sequences to one length, as a 2D numpy array.

    Shorter sequences are filled with `value`; longer ones lose steps at
    the start (`truncating="pre"`) or the end (`"post"`).

    Args:
        sequences: List of sequences (lists or arrays; steps may be
            arrays of one common shape).
        maxlen: Length of the output; defaults to `None`, the longest
            sequence's length.
        dtype: Output dtype. Defaults to `"int32"`; use `object` for
            strings of varying lengths.
        padding: `"pre"` (the default) or `"post"`: where to pad.
        truncating: `"pre"` (the default) or `"post"`: where to cut.
        value: Padding value. Defaults to `0.0`.

    Returns:
        An array of shape `(len(sequences), maxlen) + step_shape`.

    Example:

    >>> sequences = [[1], [2, 3], [4, 5, 6]]
    >>> pad_sequences(sequences)
    array([[0, 0, 1],
           [0, 2, 3],
           [4, 5, 6]], dtype=int32)
    >>> pad_sequences(sequences, maxlen=2, padding="post")
    array([[1, 0],
           [2, 3],
           [5, 6]], dtype=int32)
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable. Received: "
                         f"sequences={sequences!r}")
    _check_modes(padding, truncating)
    lengths, sample_shape = _lengths_and_sample_shape(sequences)
    if maxlen is None:
        maxlen = max(lengths, default=0)
    if not isinstance(maxlen, (int, np.integer)) or maxlen < 0:
        raise ValueError("`maxlen` must be a non-negative int or None. "
                         f"Received: maxlen={maxlen!r}")
    _check_value(value, dtype)
    out = np.full((len(sequences), maxlen) + sample_shape, value,
                  dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s) or not maxlen:
            continue
        kept = np.asarray(s[-maxlen:] if truncating == "pre"
                          else s[:maxlen], dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(
                f"Shape of sample {kept.shape[1:]} of sequence at position "
                f"{i} is different from expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        else:
            out[i, maxlen - len(kept):] = kept
    return out
