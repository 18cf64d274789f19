"""Sampled losses: `sampled_softmax_loss` and `nce_loss` (TF's `tf.nn`).

They score each example's true classes and the candidates a sampler drew
(shared by the batch), subtract the log expected counts (`log Q`), and
optionally push candidates that equal a true class ("accidental hits") to
`-FLT_MAX`. Only the rows of `weights`/`biases` used get gradients.

`weights` may be a list of row shards (TF's partitioned variables), read
as TF's `embedding_lookup` reads them: `partition_strategy="mod"` (TF1's
default) keeps class `c` in shard `c % n` at row `c // n`; `"div"` keeps
contiguous ranges, the first `num_classes % n` shards one row longer.
"""
import numpy as np

from kerasish.ops.candidate_sampling import (_FLT_MAX,  # noqa: F401
                                             _true_classes,
                                             compute_accidental_hits,
                                             log_uniform_candidate_sampler)
from kerasish.ops.symbolic import keras_op

__all__ = ["sampled_softmax_loss", "nce_loss"]

PARTITION_STRATEGIES = ("mod", "div")


def _shard_rows(sizes, ids, strategy):
    """Row of each id in the shards stacked in order (TF's assignment)."""
    n, total = len(sizes), int(sum(sizes))
    if strategy == "mod":
        shard, row = ids % n, ids // n
    else:
        per, extras = divmod(total, n)
        shard = np.maximum(ids // (per + 1), (ids - extras) // max(per, 1))
        row = np.where(shard < extras, ids % (per + 1),
                       (ids - extras) % max(per, 1))
    sizes = np.asarray(sizes)
    if np.any((ids < 0) | (ids >= total)) or np.any(row >= sizes[shard]):
        raise ValueError(
            f"The shards of `weights` (rows {sizes.tolist()}) do not hold "
            f"every class id under partition_strategy={strategy!r}. "
            f"Received ids in [{int(ids.min())}, {int(ids.max())}].")
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return offsets[shard] + row


def _lookup(weights, ids, strategy):
    # lazy: a top-level import would close an import circle
    from kerasish import ops
    if not isinstance(weights, (list, tuple)):
        return ops.take(weights, ids, axis=0)
    if len(weights) == 1:
        return ops.take(weights[0], ids, axis=0)
    sizes = [int(w.shape[0]) for w in weights]
    return ops.take(ops.concatenate(list(weights), axis=0),
                    _shard_rows(sizes, ids, strategy), axis=0)


def _check_strategy(partition_strategy):
    if partition_strategy not in PARTITION_STRATEGIES:
        raise ValueError(
            "Unrecognized partition strategy: expected 'mod' or 'div'. "
            f"Received: partition_strategy={partition_strategy!r}")


def _sampled_logits(weights, biases, labels, inputs, num_sampled,
                    num_classes, num_true, sampled_values, subtract_log_q,
                    remove_accidental_hits, seed, partition_strategy):
    """TF's `_compute_sampled_logits`: `(logits, soft labels)`, each
    `(batch_size, num_true + num_sampled)`."""
    # lazy: a top-level import would close an import circle
    from kerasish import ops
    _check_strategy(partition_strategy)
    classes = _true_classes(labels, num_true, "sampled loss labels")
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(
            classes, num_true, num_sampled, True, num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (
        np.asarray(getattr(v, "_value", v)) for v in sampled_values)
    sampled = sampled.astype(np.int64)
    batch = classes.shape[0]
    true_w = ops.reshape(
        _lookup(weights, classes.ravel(), partition_strategy),
        (batch, num_true, -1))
    sampled_w = _lookup(weights, sampled, partition_strategy)
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
                         remove_accidental_hits=True, partition_strategy="mod",
                         seed=None, name=None):
    """Softmax cross-entropy over the true classes and sampled candidates.

    A cheap estimate of the full softmax loss for training with many
    classes (Jean et al., 2014); at inference compute the full softmax.

    Args:
        weights: `(num_classes, dim)` class embeddings, or a list of
            row shards.
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
        partition_strategy: How row shards of `weights` hold the classes:
            `"mod"` (default, TF1's) or `"div"` (see module docstring).
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
        sampled_values, True, remove_accidental_hits, seed,
        partition_strategy)
    return ops.categorical_crossentropy(targets, logits, from_logits=True)


@keras_op
def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes,
             num_true=1, sampled_values=None, remove_accidental_hits=False,
             partition_strategy="mod", seed=None, name=None):
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
        partition_strategy: How row shards of `weights` hold the classes:
            `"mod"` (default, TF1's) or `"div"` (see module docstring).
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
        sampled_values, True, remove_accidental_hits, seed,
        partition_strategy)
    losses = ops.sigmoid_cross_entropy_with_logits(
        labels=targets, logits=logits)
    return ops.sum(losses, axis=1)
