"""`ctc_decode`: greedy and beam-search decoding of CTC outputs.

Both follow Keras's JAX backend step for step (including its tie-breaking
and its beam pruning), so decoded paths and scores match Keras's. The
beam search keeps, per sample, `2 * beam_width` prefixes: each one's
score of ending in a label and of ending in a blank.
"""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.symbolic import keras_op

_PAD = -1


def _greedy(logits, lengths, merge_repeated, mask_index):
    batch, steps, _ = logits.shape
    indices = np.argmax(logits, axis=-1)
    scores = np.max(logits, axis=-1)
    past_end = np.arange(steps)[None, :] >= lengths[:, None]
    indices = np.where(past_end, mask_index, indices)
    scores = np.where(past_end, 0.0, scores).astype(logits.dtype)
    if merge_repeated:
        repeat = np.pad(indices[:, 1:] == indices[:, :-1], ((0, 0), (1, 0)))
        indices = np.where(repeat, mask_index, indices)
    blank = indices == mask_index
    indices = np.where(blank, _PAD, indices)
    # Keep the decoded labels in order, blanks moved to the end.
    order = np.argsort(np.where(blank, steps, np.arange(steps)[None, :]),
                       axis=-1, kind="stable")
    indices = np.take_along_axis(indices, order, axis=-1)
    return (indices[None].astype("int32"),
            -np.sum(scores, axis=1, keepdims=True))


def _log_softmax(x):
    shifted = x - x.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _merge(inverse, scores):
    """Log-sum-exp of the scores of identical paths (slot per unique)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        peak = np.max(scores)
        summed = np.bincount(inverse, weights=np.exp(scores - peak),
                             minlength=len(scores))[:len(scores)]
        return (np.log(summed) + peak).astype(scores.dtype)


def _unique_rows(paths, size):
    rows, inverse = np.unique(paths, axis=0, return_inverse=True)
    padded = np.full((size, paths.shape[1]), _PAD, paths.dtype)
    padded[:len(rows)] = rows
    return padded, inverse.reshape(-1)


def _extend(paths, scores, masked, x, classes_count, mask_index, width):
    paths = np.repeat(paths, classes_count, axis=0)
    scores = np.repeat(scores, classes_count)
    prev_masked = np.repeat(masked, classes_count)
    rows = np.arange(paths.shape[0])
    tail = np.argmax(paths == _PAD, axis=1)
    last = np.where(tail == 0, _PAD, paths[rows, tail - 1])
    classes = np.arange(classes_count)
    classes[mask_index] = _PAD
    classes = np.tile(classes, 2 * width)
    masked = classes == _PAD
    classes = np.where(~prev_masked & (last == classes), _PAD, classes)
    paths[rows, tail] = classes
    return paths, scores + np.tile(x, 2 * width), masked


def _prune(paths, scores, masked, classes_count, width):
    paths, inverse = _unique_rows(paths, 2 * classes_count * width)
    emit = _merge(inverse, np.where(masked, -np.inf, scores))
    blank = _merge(inverse, np.where(masked, scores, -np.inf))
    with np.errstate(invalid="ignore"):
        total = np.logaddexp(emit, blank)
    top = np.argsort(total, kind="stable")[-width:]
    paths = np.tile(paths[top], (2, 1))
    masked = np.concatenate([np.zeros(width, bool), np.ones(width, bool)])
    return paths, np.concatenate([emit[top], blank[top]]), masked


def _beam_one(log_probs, past_end, width, top_paths, mask_index):
    steps, classes_count = log_probs.shape
    paths = np.full((2 * width, steps), _PAD, np.int64)
    first = min(classes_count, width)
    best = np.argsort(log_probs[0], kind="stable")[-first:]
    paths[:first, 0] = np.where(best == mask_index, _PAD, best)
    scores = np.full(2 * width, -np.inf, log_probs.dtype)
    scores[:first] = log_probs[0, best]
    masked = paths[:, 0] == _PAD
    for t in range(1, steps):
        if past_end[t]:
            continue
        paths, scores, masked = _extend(paths, scores, masked, log_probs[t],
                                        classes_count, mask_index, width)
        paths, scores, masked = _prune(paths, scores, masked, classes_count,
                                       width)
    paths, inverse = _unique_rows(paths, 2 * classes_count * width)
    scores = _merge(inverse, scores)
    top = np.argsort(scores, kind="stable")[-top_paths:][::-1]
    return paths[top], scores[top]


def _beam_search(logits, lengths, width, top_paths, mask_index):
    batch, steps, classes_count = logits.shape
    # Keras flips the classes so that ties break as TensorFlow's do.
    log_probs = np.flip(_log_softmax(logits), axis=2)
    mask_index = classes_count - mask_index - 1
    past_end = np.arange(steps)[None, :] >= lengths[:, None]
    results = [_beam_one(log_probs[b], past_end[b], width, top_paths,
                         mask_index) for b in range(batch)]
    paths = np.stack([p for p, _ in results])
    paths = np.where(paths == _PAD, _PAD, classes_count - paths - 1)
    scores = np.stack([s for _, s in results])
    return np.transpose(paths, (1, 0, 2)).astype("int32"), scores


@keras_op
def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100,
               top_paths=1, merge_repeated=True, mask_index=0):
    """Decode CTC outputs into label sequences.

    Args:
        inputs: Scores `(batch, max_time, num_classes)` (logits or
            probabilities for greedy; logits for beam search).
        sequence_lengths: Valid frames per sample, `(batch,)`.
        strategy: `"greedy"` (default) or `"beam_search"`.
        beam_width: Beam size of the beam search. Defaults to 100.
        top_paths: Number of best paths returned by the beam search.
        merge_repeated: Greedy only: merge repeated labels. Defaults to
            `True`.
        mask_index: The blank class. Defaults to 0.

    Returns:
        `(decoded, scores)`: int32 labels `(top_paths, batch, max_time)`
        padded with -1, and float scores `(batch, top_paths)` (the negative
        sum of the best scores for greedy, the log-probability for beam
        search).

    Example:

    >>> logits = np.log(np.array([[[0.1, 0.8, 0.1], [0.1, 0.8, 0.1],
    ...                            [0.8, 0.1, 0.1], [0.1, 0.1, 0.8]]]))
    >>> decoded, _ = ctc_decode(logits, np.array([4]))
    >>> decoded.numpy()[0, 0]
    array([ 1,  2, -1, -1], dtype=int32)
    """
    values = convert_to_tensor(inputs).numpy()
    if values.dtype.kind != "f" or values.dtype.itemsize < 4:
        values = values.astype("float32")
    if values.ndim != 3:
        raise ValueError("`inputs` must be (batch, max_time, num_classes). "
                         f"Received: inputs.shape={values.shape}")
    lengths = np.asarray(convert_to_tensor(sequence_lengths).numpy(),
                         dtype=np.int64).reshape(-1)
    if strategy == "greedy":
        decoded, scores = _greedy(values, lengths, merge_repeated,
                                  int(mask_index))
    elif strategy == "beam_search":
        decoded, scores = _beam_search(values, lengths, int(beam_width),
                                       int(top_paths), int(mask_index))
    else:
        raise ValueError(f"Invalid strategy {strategy}. Supported values are "
                         "'greedy' and 'beam_search'.")
    return Tensor(decoded), Tensor(np.asarray(scores, values.dtype))
