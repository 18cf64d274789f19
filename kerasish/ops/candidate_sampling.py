"""Candidate samplers for large output vocabularies (TF's `tf.nn` ops).

A sampler draws `num_sampled` candidate classes from a distribution `Q`
over `[0, range_max)` and reports each class's expected count in the
draw: `num_sampled * Q(c)` when drawn with replacement, or
`1 - (1 - Q(c)) ** num_tries` when drawn until `num_sampled` distinct
classes were found in `num_tries` draws (TF's formulas), which the
sampled losses (`sampled_losses.py`) subtract from their logits.

As in Keras, an int `seed` draws the same candidates at every call, a
`SeedGenerator` advances, and `None` uses the global generator.
"""
import math

import numpy as np

from kerasish.backend.random import make_rng
from kerasish.backend.tensor import Tensor
from kerasish.ops.symbolic import keras_op

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler",
           "learned_unigram_candidate_sampler", "compute_accidental_hits"]

_FLT_MAX = float(np.finfo(np.float32).max)


def _true_classes(true_classes, num_true, name):
    values = np.asarray(getattr(true_classes, "_value", true_classes))
    if values.dtype.kind not in "iu":
        raise ValueError(f"{name}: true classes must be integers. Received "
                         f"dtype {values.dtype}.")
    values = values.astype(np.int64)
    if values.ndim == 1 and num_true == 1:
        values = values[:, None]
    if values.ndim != 2 or values.shape[1] != num_true:
        raise ValueError(f"{name}: true classes must have shape (batch_size, "
                         f"num_true={num_true}). Received {values.shape}.")
    return values


def _check_counts(name, num_sampled, unique, range_max):
    if num_sampled < 1 or range_max < 1:
        raise ValueError(f"{name}: num_sampled and range_max must be "
                         f"positive. Received: num_sampled={num_sampled}, "
                         f"range_max={range_max}")
    if unique and num_sampled > range_max:
        raise ValueError(f"{name}: num_sampled ({num_sampled}) cannot be "
                         f"greater than range_max ({range_max}) when "
                         "unique=True.")


class _LogUniform:
    """Zipf-like: `Q(c) = log((c + 2) / (c + 1)) / log(range_max + 1)`."""

    def __init__(self, range_max):
        self.range_max = range_max
        self._log_range = math.log(range_max + 1)

    def probability(self, classes):
        c = classes.astype(np.float64)
        return (np.log(c + 2) - np.log(c + 1)) / self._log_range

    def draw(self, rng, n):
        values = np.exp(rng.random(n) * self._log_range).astype(np.int64) - 1
        return np.minimum(values, self.range_max - 1)


class _Uniform:
    def __init__(self, range_max):
        self.range_max = range_max

    def probability(self, classes):
        return np.full(classes.shape, 1.0 / self.range_max)

    def draw(self, rng, n):
        return rng.integers(0, self.range_max, n)


class _Unigram:
    """Counts of the true classes seen so far, each starting at 1."""

    def __init__(self, range_max):
        self.range_max = range_max
        self.counts = np.ones(range_max, np.float64)

    def probability(self, classes):
        return self.counts[classes] / self.counts.sum()

    def draw(self, rng, n):
        cumulative = np.cumsum(self.counts)
        return np.searchsorted(cumulative, rng.random(n) * cumulative[-1],
                               side="right")

    def update(self, classes):
        self.counts += np.bincount(classes.ravel(),
                                   minlength=self.range_max)


def _draw_unique(sampler, rng, num_sampled):
    """Draw until `num_sampled` distinct values (TF's rejection loop):
    `(values in order of first appearance, number of draws)`."""
    drawn = np.empty(0, np.int64)
    chunk = 2 * num_sampled + 16
    while True:
        drawn = np.concatenate([drawn, sampler.draw(rng, chunk)])
        uniques, first = np.unique(drawn, return_index=True)
        if len(uniques) >= num_sampled:
            order = np.sort(first)[:num_sampled]
            return drawn[order], int(order[-1]) + 1
        chunk *= 2


def _expected_count(probability, num_sampled, num_tries):
    if num_sampled == num_tries:
        return probability * num_sampled
    return -np.expm1(num_tries * np.log1p(-probability))


def _sample(sampler, true_classes, num_true, num_sampled, unique, seed,
            name):
    classes = _true_classes(true_classes, num_true, name)
    _check_counts(name, num_sampled, unique, sampler.range_max)
    rng = make_rng(seed)
    if unique:
        sampled, tries = _draw_unique(sampler, rng, num_sampled)
    else:
        sampled, tries = sampler.draw(rng, num_sampled), num_sampled
    true_expected = _expected_count(sampler.probability(classes),
                                    num_sampled, tries)
    sampled_expected = _expected_count(sampler.probability(sampled),
                                       num_sampled, tries)
    return (Tensor(sampled.astype(np.int64)),
            Tensor(true_expected.astype(np.float32)),
            Tensor(sampled_expected.astype(np.float32)))


@keras_op
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique,
                              range_max, seed=None):
    """Sample classes uniformly from `[0, range_max)`.

    Args:
        true_classes: Int array `(batch_size, num_true)` of target classes.
        num_true: Target classes per example.
        num_sampled: Number of candidates to draw.
        unique: Draw without replacement (distinct candidates).
        range_max: Number of classes.
        seed: Int, `SeedGenerator` or None.

    Returns:
        `(sampled_candidates, true_expected_count, sampled_expected_count)`:
        int64 `(num_sampled,)`, float32 `(batch_size, num_true)` and
        `(num_sampled,)`.

    Example:

    >>> sampled, true_count, _ = uniform_candidate_sampler(
    ...     np.array([[1], [2]]), 1, num_sampled=4, unique=False,
    ...     range_max=10, seed=0)
    >>> sampled.shape, true_count.numpy().ravel().tolist()
    ((4,), [0.4000000059604645, 0.4000000059604645])
    """
    return _sample(_Uniform(range_max), true_classes, num_true, num_sampled,
                   unique, seed, "uniform_candidate_sampler")


@keras_op
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique,
                                  range_max, seed=None):
    """Sample classes from the log-uniform (Zipfian) distribution
    `Q(c) = log((c + 2) / (c + 1)) / log(range_max + 1)`, for classes
    sorted by decreasing frequency (TF's sampler, the default of the
    sampled losses).

    Args:
        true_classes: Int array `(batch_size, num_true)` of target classes.
        num_true: Target classes per example.
        num_sampled: Number of candidates to draw.
        unique: Draw without replacement (distinct candidates).
        range_max: Number of classes.
        seed: Int, `SeedGenerator` or None.

    Returns:
        `(sampled_candidates, true_expected_count, sampled_expected_count)`.

    Example:

    >>> _, true_count, _ = log_uniform_candidate_sampler(
    ...     np.array([[0]]), 1, num_sampled=1, unique=False, range_max=3)
    >>> round(float(true_count.numpy()[0, 0]), 4)  # log(2) / log(4)
    0.5
    """
    return _sample(_LogUniform(range_max), true_classes, num_true,
                   num_sampled, unique, seed, "log_uniform_candidate_sampler")


_LEARNED = {}


@keras_op
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled,
                                      unique, range_max, seed=None):
    """Sample classes by how often they were seen as true classes.

    Every class starts with a count of 1; after each draw the true classes
    of the batch add 1 to their counts (TF's learned unigram sampler). The
    counts persist between calls with the same arguments, as the state of
    TF's op does.

    Args:
        true_classes: Int array `(batch_size, num_true)` of target classes.
        num_true: Target classes per example.
        num_sampled: Number of candidates to draw.
        unique: Draw without replacement (distinct candidates).
        range_max: Number of classes.
        seed: Int, `SeedGenerator` or None (also names the sampler's state).

    Returns:
        `(sampled_candidates, true_expected_count, sampled_expected_count)`.

    Example:

    >>> labels = np.array([[2]] * 8)
    >>> _ = learned_unigram_candidate_sampler(labels, 1, 1, False, 4, seed=5)
    >>> _, count, _ = learned_unigram_candidate_sampler(labels, 1, 1, False,
    ...                                                 4, seed=5)
    >>> float(count.numpy()[0, 0])  # (1 + 8) / (4 + 8)
    0.75
    """
    key = (num_true, num_sampled, unique, range_max,
           seed if isinstance(seed, (int, np.integer)) else id(seed))
    sampler = _LEARNED.setdefault(key, _Unigram(range_max))
    result = _sample(sampler, true_classes, num_true, num_sampled, unique,
                     seed, "learned_unigram_candidate_sampler")
    sampler.update(_true_classes(true_classes, num_true,
                                 "learned_unigram_candidate_sampler"))
    return result


@keras_op
def compute_accidental_hits(true_classes, sampled_candidates, num_true,
                            seed=None):
    """Where sampled candidates equal an example's true classes.

    Args:
        true_classes: Int array `(batch_size, num_true)`.
        sampled_candidates: Int array `(num_sampled,)`.
        num_true: Target classes per example.
        seed: Accepted for TF compatibility.

    Returns:
        `(indices, ids, weights)`: the example (row) of each hit, the
        position of the hit in `sampled_candidates`, and `-FLT_MAX`.

    Example:

    >>> indices, ids, _ = compute_accidental_hits(
    ...     np.array([[3], [5]]), np.array([5, 1, 3]), num_true=1)
    >>> indices.numpy().tolist(), ids.numpy().tolist()
    ([0, 1], [2, 0])
    """
    classes = _true_classes(true_classes, num_true, "compute_accidental_hits")
    sampled = np.asarray(getattr(sampled_candidates, "_value",
                                 sampled_candidates)).astype(np.int64)
    hits = (classes[:, :, None] == sampled[None, None, :]).any(axis=1)
    rows, ids = np.nonzero(hits)
    return (Tensor(rows.astype(np.int32)), Tensor(ids.astype(np.int64)),
            Tensor(np.full(len(rows), -_FLT_MAX, np.float32)))
