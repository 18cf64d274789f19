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
           "learned_unigram_candidate_sampler",
           "fixed_unigram_candidate_sampler", "compute_accidental_hits"]

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


class _FixedUnigram(_Unigram):
    """Given weights (TF's `FixedUnigramSampler`)."""

    def __init__(self, weights):
        self.range_max = len(weights)
        self.counts = np.asarray(weights, np.float64)


def _unigram_weights(vocab_file, unigrams, distortion, num_reserved_ids,
                     num_shards, shard):
    """The weights of this shard's ids, as TF builds them: reserved ids
    (weight 0) first, then one weight per vocabulary entry, each kept
    when its id is `shard` modulo `num_shards`."""
    if bool(vocab_file) == bool(len(unigrams)):
        raise ValueError(
            "fixed_unigram_candidate_sampler expected exactly one of "
            f"`vocab_file` and `unigrams`. Received: vocab_file="
            f"{vocab_file!r}, unigrams of length {len(unigrams)}")
    if not 0 <= shard < num_shards:
        raise ValueError(
            "fixed_unigram_candidate_sampler expected 0 <= shard < "
            f"num_shards. Received: shard={shard!r}, "
            f"num_shards={num_shards!r}")
    weights = [0.0 for i in range(num_reserved_ids)
               if i % num_shards == shard]
    if vocab_file:
        with open(vocab_file, encoding="utf-8") as f:
            # The count is the last comma-separated field of a line.
            unigrams = [float(line.rstrip("\r\n").split(",")[-1])
                        for line in f if line.strip()]
    # TF numbers the entries from the number of weights kept so far (the
    # reserved ids of this shard), not from num_reserved_ids.
    start = len(weights)
    weights += [float(w) ** distortion for i, w in
                enumerate(unigrams, start) if i % num_shards == shard]
    return weights


@keras_op
def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled,
                                    unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """Sample classes from given counts (a vocabulary file or a list).

    Class `c` is drawn with probability `w_c ** distortion / sum`, where
    the weights come from `unigrams` or from the last comma-separated
    field of each line of `vocab_file` (TF's fixed unigram sampler). The
    first `num_reserved_ids` ids have weight 0; with `num_shards > 1` the
    sampler covers the ids of one shard, renumbered from 0.

    Args:
        true_classes: Int array `(batch_size, num_true)` of target classes.
        num_true: Target classes per example.
        num_sampled: Number of candidates to draw.
        unique: Draw without replacement (distinct candidates).
        range_max: Number of classes (of this shard): the reserved ids
            plus the entries it keeps.
        vocab_file: Path of a file of counts, one line per class.
            Defaults to `""` (give `unigrams` instead).
        distortion: Power applied to each weight. Defaults to 1.0.
        num_reserved_ids: Ids of weight 0 before the vocabulary.
            Defaults to 0.
        num_shards: Number of shards the ids are split in. Defaults to 1.
        shard: This sampler's shard. Defaults to 0.
        unigrams: Counts, one per class. Defaults to `()`.
        seed: Int, `SeedGenerator` or None.
        name: Accepted for TF compatibility.

    Returns:
        `(sampled_candidates, true_expected_count, sampled_expected_count)`:
        int64 `(num_sampled,)`, float32 `(batch_size, num_true)` and
        `(num_sampled,)`.

    Example:

    >>> _, true_count, _ = fixed_unigram_candidate_sampler(
    ...     np.array([[0], [3]]), 1, num_sampled=4, unique=False,
    ...     range_max=4, unigrams=[1.0, 2.0, 3.0, 4.0], seed=1)
    >>> true_count.numpy().ravel()  # 4 draws * [0.1, 0.4]
    array([0.4, 1.6], dtype=float32)
    """
    name_ = "fixed_unigram_candidate_sampler"
    weights = _unigram_weights(vocab_file, list(unigrams), distortion,
                               num_reserved_ids, num_shards, shard)
    if len(weights) != range_max:
        raise ValueError(
            f"{name_}: range_max must equal the number of weights of the "
            f"shard (reserved ids included), {len(weights)}. Received: "
            f"range_max={range_max!r}")
    classes = _true_classes(true_classes, num_true, name_)
    if classes.size and (classes.min() < 0 or classes.max() >= range_max):
        raise ValueError(
            f"{name_}: true classes must be in [0, {range_max}). Received "
            f"{int(classes.min())} to {int(classes.max())}.")
    return _sample(_FixedUnigram(weights), classes, num_true, num_sampled,
                   unique, seed, name_)


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
