"""Candidate sampling for large output vocabularies (TF's `tf.nn` ops).

A sampler draws `num_sampled` candidate classes from a distribution `Q`
over `[0, range_max)` and reports each class's expected count in the
draw: `num_sampled * Q(c)` when drawn with replacement, or
`1 - (1 - Q(c)) ** num_tries` when drawn until `num_sampled` distinct
classes were found in `num_tries` draws (TF's formulas). The losses
(`sampled_softmax_loss`, `nce_loss`) score each example's true classes and
the shared candidates, subtract the log expected counts (`log Q`), and
optionally push candidates that equal a true class ("accidental hits") to
`-FLT_MAX`. Only the rows of `weights`/`biases` used get gradients.

As in Keras, an int `seed` draws the same candidates at every call, a
`SeedGenerator` advances, and `None` uses the global generator.
"""
import math

import numpy as np

from kerasish.backend.random import make_rng
from kerasish.backend.tensor import Tensor
from kerasish.ops.symbolic import keras_op

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler",
           "learned_unigram_candidate_sampler", "compute_accidental_hits",
           "sampled_softmax_loss", "nce_loss"]

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


def _table(weights):
    # lazy: a top-level import would close an import circle
    from kerasish import ops
    if isinstance(weights, (list, tuple)):
        return ops.concatenate(list(weights), axis=0)
    return weights


def _sampled_logits(weights, biases, labels, inputs, num_sampled,
                    num_classes, num_true, sampled_values, subtract_log_q,
                    remove_accidental_hits, seed):
    """TF's `_compute_sampled_logits`: `(logits, soft labels)`, each
    `(batch_size, num_true + num_sampled)`."""
    # lazy: a top-level import would close an import circle
    from kerasish import ops
    classes = _true_classes(labels, num_true, "sampled loss labels")
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(
            classes, num_true, num_sampled, True, num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (
        np.asarray(getattr(v, "_value", v)) for v in sampled_values)
    sampled = sampled.astype(np.int64)
    table, batch = _table(weights), classes.shape[0]
    true_w = ops.reshape(ops.take(table, classes.ravel(), axis=0),
                         (batch, num_true, -1))
    sampled_w = ops.take(table, sampled, axis=0)
    true_logits = ops.sum(ops.expand_dims(inputs, 1) * true_w, axis=-1) + \
        ops.reshape(ops.take(biases, classes.ravel(), axis=0),
                    (batch, num_true))
    sampled_logits = ops.matmul(inputs, ops.transpose(sampled_w)) + \
        ops.take(biases, sampled, axis=0)
    if remove_accidental_hits:
        rows, ids, hit = (t.numpy() for t in compute_accidental_hits(
            classes, sampled, num_true))
        penalty = np.zeros((batch, len(sampled)), np.float32)
        penalty[rows, ids] = hit
        sampled_logits = sampled_logits + penalty
    if subtract_log_q:
        true_logits = true_logits - np.log(true_expected).astype(np.float32)
        sampled_logits = sampled_logits - np.log(sampled_expected).astype(
            np.float32)
    logits = ops.concatenate([true_logits, sampled_logits], axis=1)
    targets = np.concatenate(
        [np.full((batch, num_true), 1.0 / num_true, np.float32),
         np.zeros((batch, len(sampled)), np.float32)], axis=1)
    return logits, targets


@keras_op
def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled,
                         num_classes, num_true=1, sampled_values=None,
                         remove_accidental_hits=True, seed=None, name=None):
    """Softmax cross-entropy over the true classes and sampled candidates.

    A cheap estimate of the full softmax loss for training with many
    classes (Jean et al., 2014); at inference compute the full softmax.

    Args:
        weights: `(num_classes, dim)` class embeddings (or a list of
            row shards).
        biases: `(num_classes,)` class biases.
        labels: Int `(batch_size, num_true)` target classes.
        inputs: `(batch_size, dim)` activations.
        num_sampled: Candidates drawn per batch.
        num_classes: Number of classes.
        num_true: Target classes per example. Defaults to 1.
        sampled_values: A sampler's output to use; default: draw with
            `log_uniform_candidate_sampler(unique=True)`.
        remove_accidental_hits: Ignore candidates equal to a target class.
            Defaults to True.
        seed: Seed of the default sampler.
        name: Accepted for TF compatibility.

    Returns:
        Per-example losses, `(batch_size,)`.

    Example:

    >>> w, b = np.eye(4, dtype="float32"), np.zeros(4, "float32")
    >>> values = (np.array([0, 1, 2, 3]), np.ones((1, 1)), np.ones(4))
    >>> loss = sampled_softmax_loss(w, b, np.array([[1]]),
    ...                             np.array([[0.0, 2.0, 0.0, 0.0]]), 4, 4,
    ...                             sampled_values=values)
    >>> round(float(loss.numpy()[0]), 4)  # the full softmax loss
    0.3408
    """
    # lazy: a top-level import would close an import circle
    from kerasish import ops
    logits, targets = _sampled_logits(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true,
        sampled_values, True, remove_accidental_hits, seed)
    return ops.categorical_crossentropy(targets, logits, from_logits=True)


@keras_op
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes,
             num_true=1, sampled_values=None, remove_accidental_hits=False,
             seed=None, name=None):
    """Noise-contrastive estimation loss (Gutmann and Hyvarinen, 2010).

    Logistic losses of telling each true class (target `1 / num_true`)
    from the sampled noise candidates (target 0), with `log Q` subtracted
    from the logits, summed per example (TF's `nce_loss`).

    Args:
        weights: `(num_classes, dim)` class embeddings (or row shards).
        biases: `(num_classes,)` class biases.
        labels: Int `(batch_size, num_true)` target classes.
        inputs: `(batch_size, dim)` activations.
        num_sampled: Candidates drawn per batch.
        num_classes: Number of classes.
        num_true: Target classes per example. Defaults to 1.
        sampled_values: A sampler's output to use; default: draw with
            `log_uniform_candidate_sampler(unique=True)`.
        remove_accidental_hits: Ignore candidates equal to a target class.
            Defaults to False.
        seed: Seed of the default sampler.
        name: Accepted for TF compatibility.

    Returns:
        Per-example losses, `(batch_size,)`.

    Example:

    >>> w, b = np.zeros((10, 3), "float32"), np.zeros(10, "float32")
    >>> nce_loss(w, b, np.array([[1], [2]]), np.ones((2, 3), "float32"),
    ...          num_sampled=3, num_classes=10, seed=1).shape
    (2,)
    """
    # lazy: a top-level import would close an import circle
    from kerasish import ops
    logits, targets = _sampled_logits(
        weights, biases, labels, inputs, num_sampled, num_classes, num_true,
        sampled_values, True, remove_accidental_hits, seed)
    # Stable sigmoid cross-entropy: max(x, 0) - x z + log(1 + e^-|x|).
    losses = ops.relu(logits) - logits * targets + \
        ops.log1p(ops.exp(-ops.abs(logits)))
    return ops.sum(losses, axis=1)
