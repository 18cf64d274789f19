"""Candidate samplers and the sampled losses, against brute force."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import ops
from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.ops import candidate_sampling as cs
from kerasish.utils import check_grads

FLT_MAX = float(np.finfo(np.float32).max)


@pytest.mark.parametrize("sampler,probability", [
    (ops.log_uniform_candidate_sampler,
     lambda c, n: np.log((c + 2) / (c + 1)) / np.log(n + 1)),
    (ops.uniform_candidate_sampler, lambda c, n: np.full(c.shape, 1 / n)),
])
def test_sampling_frequencies_match_the_distribution(sampler, probability):
    n = 20
    sampled, true_count, sampled_count = sampler(
        np.array([[0], [7]]), 1, num_sampled=100_000, unique=False,
        range_max=n, seed=3)
    classes = np.arange(n)
    frequency = np.bincount(sampled.numpy(), minlength=n) / 100_000
    np.testing.assert_allclose(frequency, probability(classes, n),
                               atol=0.005)
    # With replacement the expected count is num_sampled * Q(c).
    np.testing.assert_allclose(true_count.numpy()[:, 0],
                               100_000 * probability(np.array([0, 7]), n),
                               rtol=1e-5)
    np.testing.assert_allclose(
        sampled_count.numpy()[:5],
        100_000 * probability(sampled.numpy()[:5], n), rtol=1e-5)


class Sequence:
    """A fake sampler drawing a fixed sequence (for the rejection loop)."""

    range_max = 10

    def __init__(self, values):
        self.values = list(values)

    def draw(self, rng, n):
        out, self.values = self.values[:n], self.values[n:]
        return np.array(out, np.int64)


def brute_force_unique(sequence, num_sampled):
    seen, tries = [], 0
    for value in sequence:
        tries += 1
        if value not in seen:
            seen.append(value)
        if len(seen) == num_sampled:
            return seen, tries


def test_unique_draws_follow_tf_rejection_loop():
    sequence = [3, 3, 1, 3, 2, 1, 5, 5, 5, 7] * 10
    values, tries = cs._draw_unique(Sequence(sequence), None, 4)
    expected, expected_tries = brute_force_unique(sequence, 4)
    assert values.tolist() == expected and tries == expected_tries == 7


def test_unique_expected_counts_use_the_number_of_tries():
    sampled, true_count, sampled_count = ops.log_uniform_candidate_sampler(
        np.array([[0, 3]]), 2, num_sampled=5, unique=True, range_max=50,
        seed=0)
    assert len(set(sampled.numpy().tolist())) == 5
    q = lambda c: np.log((c + 2) / (c + 1)) / np.log(51)
    # Recover num_tries from one class, check every other class with it.
    tries = np.log1p(-sampled_count.numpy()[0]) / np.log1p(
        -q(sampled.numpy()[0]))
    np.testing.assert_allclose(tries, round(tries), rtol=1e-4)
    expected = 1 - (1 - q(np.array([0, 3]))) ** round(tries)
    np.testing.assert_allclose(true_count.numpy()[0], expected, rtol=1e-5)
    np.testing.assert_allclose(
        sampled_count.numpy(), 1 - (1 - q(sampled.numpy())) ** round(tries),
        rtol=1e-5)


def test_int_seed_is_repeatable():
    args = (np.array([[1]]), 1, 4, True, 100)
    a = ops.log_uniform_candidate_sampler(*args, seed=9)[0].numpy()
    b = ops.log_uniform_candidate_sampler(*args, seed=9)[0].numpy()
    np.testing.assert_array_equal(a, b)


def test_learned_unigram_counts_the_true_classes():
    labels = np.array([[4], [4], [1]])
    first = ops.learned_unigram_candidate_sampler(labels, 1, 2, False, 6,
                                                  seed=11)
    # Before any update every class has count 1: Q = 1/6.
    np.testing.assert_allclose(first[1].numpy()[:, 0], 2 / 6, rtol=1e-6)
    second = ops.learned_unigram_candidate_sampler(labels, 1, 2, False, 6,
                                                   seed=11)
    # Counts are now [1, 2, 1, 1, 3, 1] (total 9).
    np.testing.assert_allclose(second[1].numpy()[:, 0],
                               2 * np.array([3, 3, 2]) / 9, rtol=1e-6)
    other = ops.learned_unigram_candidate_sampler(labels, 1, 2, False, 6,
                                                  seed=12)
    np.testing.assert_allclose(other[1].numpy()[:, 0], 2 / 6, rtol=1e-6)


def test_compute_accidental_hits_brute_force():
    classes = np.array([[1, 4], [2, 2], [7, 0]])
    sampled = np.array([4, 2, 9, 1, 0])
    rows, ids, weights = ops.compute_accidental_hits(classes, sampled, 2)
    expected = [(i, j) for i in range(3) for j in range(5)
                if sampled[j] in classes[i]]
    assert list(zip(rows.numpy().tolist(), ids.numpy().tolist())) == \
        expected
    assert (weights.numpy() == -FLT_MAX).all()


def brute_force_logits(w, b, labels, x, sampled, true_count, sampled_count,
                       remove_hits):
    batch, num_true = labels.shape
    rows = []
    for i in range(batch):
        true = [w[c] @ x[i] + b[c] - np.log(true_count[i, t])
                for t, c in enumerate(labels[i])]
        noise = []
        for j, c in enumerate(sampled):
            logit = w[c] @ x[i] + b[c]
            if remove_hits and c in labels[i]:
                logit += -FLT_MAX
            noise.append(logit - np.log(sampled_count[j]))
        rows.append(true + noise)
    targets = np.zeros((batch, num_true + len(sampled)))
    targets[:, :num_true] = 1 / num_true
    return np.array(rows), targets


def fixture(seed=0, num_true=2):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=(12, 3)).astype("float32")
    b = rng.normal(size=12).astype("float32")
    x = rng.normal(size=(4, 3)).astype("float32")
    labels = rng.integers(0, 12, (4, num_true))
    sampled = np.array([labels[0, 0], 5, 9, 11])   # one accidental hit
    values = (sampled, rng.uniform(0.1, 1, (4, num_true)),
              rng.uniform(0.1, 1, 4))
    return w, b, x, labels, values


@pytest.mark.parametrize("remove_hits", [True, False])
def test_sampled_softmax_loss_brute_force(remove_hits):
    w, b, x, labels, values = fixture()
    loss = ops.sampled_softmax_loss(w, b, labels, x, 4, 12, num_true=2,
                                    sampled_values=values,
                                    remove_accidental_hits=remove_hits)
    logits, targets = brute_force_logits(w, b, labels, x, *values,
                                         remove_hits)
    logits = logits - logits.max(1, keepdims=True)
    log_softmax = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    np.testing.assert_allclose(loss.numpy(), -(targets * log_softmax).sum(1),
                               rtol=1e-5)


@pytest.mark.parametrize("remove_hits", [True, False])
def test_nce_loss_brute_force(remove_hits):
    w, b, x, labels, values = fixture(1)
    loss = ops.nce_loss(w, b, labels, x, 4, 12, num_true=2,
                        sampled_values=values,
                        remove_accidental_hits=remove_hits)
    logits, targets = brute_force_logits(w, b, labels, x, *values,
                                         remove_hits)
    per_logit = np.log1p(np.exp(-np.abs(logits))) + np.maximum(logits, 0) \
        - logits * targets
    np.testing.assert_allclose(loss.numpy(), per_logit.sum(1), rtol=1e-5)


def test_all_classes_sampled_equals_the_full_softmax():
    w, b, x, _, _ = fixture(2)
    labels = np.array([[3], [0], [11], [5]])
    values = ops.uniform_candidate_sampler(labels, 1, 12, True, 12, seed=4)
    loss = ops.sampled_softmax_loss(w, b, labels, x, 12, 12,
                                    sampled_values=values)
    full = keras.losses.sparse_categorical_crossentropy(
        labels[:, 0], x @ w.T + b, from_logits=True)
    np.testing.assert_allclose(loss.numpy(), full.numpy(), rtol=1e-5)


@pytest.mark.parametrize("loss_fn", [ops.sampled_softmax_loss, ops.nce_loss])
def test_gradients_float64(loss_fn):
    w, b, x, labels, values = fixture(3)
    check_grads(lambda w, b, x: loss_fn(w, b, labels, x, 4, 12, num_true=2,
                                        sampled_values=values),
                [w, b, x])


def test_weight_gradients_are_row_sparse():
    w, b, x, labels, values = fixture(4)
    table = keras.Variable(w)
    with keras.GradientTape() as tape:
        loss = ops.sum(ops.sampled_softmax_loss(
            table, b, labels, x, 4, 12, num_true=2, sampled_values=values))
    grad = tape.gradient(loss, table)
    assert isinstance(grad, IndexedSlices)
    used = set(labels.ravel().tolist()) | set(values[0].tolist())
    assert set(np.asarray(grad.indices).tolist()) <= used


@pytest.mark.parametrize("loss_fn", [ops.sampled_softmax_loss, ops.nce_loss])
@pytest.mark.parametrize("strategy, shards", [
    ("mod", lambda w: [w[0::2], w[1::2]]),
    ("mod", lambda w: [w[0::5], w[1::5], w[2::5], w[3::5], w[4::5]]),
    ("div", lambda w: [w[:6], w[6:]]),
    ("div", lambda w: [w[:3], w[3:6], w[6:9], w[9:]]),
    ("div", lambda w: [w[:3], w[3:6], w[6:8], w[8:10], w[10:]])])
def test_sharded_weights_and_default_sampler(loss_fn, strategy, shards):
    w, b, x, labels, _ = fixture(5, num_true=1)
    whole = loss_fn(w, b, labels, x, 3, 12, seed=2)
    kwargs = {} if strategy == "mod" else {"partition_strategy": "div"}
    sharded = loss_fn(shards(w), b, labels, x, 3, 12, seed=2, **kwargs)
    np.testing.assert_allclose(whole.numpy(), sharded.numpy(), rtol=1e-6)


# TF 2.15's tf.compat.v1.nn losses on two shards of rows 0-5 and 6-11
# (make_tf1_reference.py, sharded_losses): "mod" (the default) reads
# class c from shard c % 2, "div" from shard c // 6.
TF_SHARDED = {
    "nce_loss": {"mod": [5.7459044, 6.6706982, 7.1023707],
                 "div": [5.7535377, 6.3985634, 6.9345932]},
    "sampled_softmax_loss": {"mod": [1.3983786, 1.9760289, 0.5314859],
                             "div": [1.0714200, 1.4187298, 0.5764686]}}


def sharded_case():
    rows = np.arange(12 * 2, dtype="float32").reshape(12, 2) / 10 - 1
    inputs = np.array([[0.5, -1.0], [1.0, 0.25], [-0.5, 2.0]], "float32")
    labels = np.array([[1], [6], [11]])
    values = (np.array([0, 3, 7, 10]), np.full((3, 1), 0.2),
              np.full(4, 0.3))
    return [rows[:6], rows[6:]], np.zeros(12, "float32"), labels, inputs, \
        values


@pytest.mark.parametrize("name", sorted(TF_SHARDED))
@pytest.mark.parametrize("strategy", [None, "mod", "div"])
def test_sharded_losses_match_tf(name, strategy):
    shards, biases, labels, inputs, values = sharded_case()
    kwargs = {} if strategy is None else {"partition_strategy": strategy}
    loss = getattr(ops, name)(shards, biases, labels, inputs, 4, 12,
                              sampled_values=values,
                              remove_accidental_hits=False, **kwargs)
    np.testing.assert_allclose(loss.numpy(),
                               TF_SHARDED[name][strategy or "mod"],
                               rtol=1e-5)


def test_partition_strategy_errors():
    shards, biases, labels, inputs, values = sharded_case()
    with pytest.raises(ValueError, match="partition_strategy='ring'"):
        ops.nce_loss(shards, biases, labels, inputs, 4, 12,
                     sampled_values=values, partition_strategy="ring")
    with pytest.raises(ValueError, match=r"rows \[6, 5\]"):
        ops.nce_loss([shards[0], shards[1][:5]], biases, labels, inputs, 4,
                     12, sampled_values=values)


def test_training_word_embeddings_with_sampled_softmax():
    rng = np.random.default_rng(0)
    contexts = rng.integers(0, 50, 512)
    targets = (contexts * 7) % 50          # a deterministic mapping
    embed = keras.layers.Embedding(50, 16)
    weights = keras.Variable(rng.normal(0, 0.1, (50, 16)).astype("float32"))
    biases = keras.Variable(np.zeros(50, "float32"))
    optimizer = keras.optimizers.Adam(0.05)
    for step in range(60):
        with keras.GradientTape() as tape:
            loss = ops.mean(ops.sampled_softmax_loss(
                weights, biases, targets[:, None], embed(contexts), 10, 50,
                seed=keras.random.SeedGenerator(step)))
        variables = [weights, biases] + embed.trainable_variables
        optimizer.apply(tape.gradient(loss, variables), variables)
    logits = embed(contexts).numpy() @ weights.numpy().T + biases.numpy()
    assert (logits.argmax(1) == targets).mean() > 0.9


@pytest.mark.parametrize("call,message", [
    (lambda: ops.uniform_candidate_sampler(np.array([[1.5]]), 1, 2, True,
                                           5), "must be integers"),
    (lambda: ops.uniform_candidate_sampler(np.array([[1]]), 1, 6, True, 5),
     "cannot be greater than range_max"),
    (lambda: ops.uniform_candidate_sampler(np.array([[1, 2]]), 1, 2, True,
                                           5), "num_true=1"),
    (lambda: ops.uniform_candidate_sampler(np.array([[1]]), 1, 0, True, 5),
     "must be positive"),
])
def test_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()



# TF 2.15's expected counts (make_tf1_reference.py, fixed_unigram).
@pytest.mark.parametrize("kwargs, true_classes, expected", [
    (dict(num_sampled=4, range_max=4, unigrams=[1, 2, 3, 4]),
     [[0], [3]], [0.4, 1.6]),
    (dict(num_sampled=4, range_max=4, unigrams=[1, 2, 3, 4],
          distortion=0.5), [[0], [3]], [0.6508018, 1.3016036]),
    (dict(num_sampled=100000, range_max=6, unigrams=[1, 2, 3, 4],
          num_reserved_ids=2), [[0], [3]], [0.0, 20000.0]),
    (dict(num_sampled=100000, range_max=3, unigrams=[1, 2, 3, 4, 5, 6],
          num_shards=2, shard=0), [[0], [1], [2]],
     [11111.111, 33333.336, 55555.56]),
    (dict(num_sampled=100000, range_max=3, unigrams=[1, 2, 3, 4, 5, 6],
          num_shards=2, shard=1), [[0], [1], [2]],
     [16666.668, 33333.336, 50000.0]),
    # TF numbers the entries after a shard's reserved ids from the count
    # of weights kept (1 here), not from num_reserved_ids.
    (dict(num_sampled=10, range_max=4, unigrams=[1, 2, 3, 4, 5],
          num_reserved_ids=2, num_shards=2, shard=1, distortion=0.75),
     [[0], [1], [2], [3]], [0.0, 1.5098422, 3.4416959, 5.0484614]),
])
def test_fixed_unigram_expected_counts_match_tf(kwargs, true_classes,
                                                expected):
    sampled, true_count, sampled_count = ops.fixed_unigram_candidate_sampler(
        np.array(true_classes), 1, unique=False, seed=1, **kwargs)
    np.testing.assert_allclose(true_count.numpy().ravel(), expected,
                               rtol=1e-6)
    assert sampled.dtype == "int64" and true_count.dtype == "float32"
    assert sampled_count.shape == (kwargs["num_sampled"],)


def test_fixed_unigram_frequencies_and_reserved_ids():
    sampled, _, sampled_count = ops.fixed_unigram_candidate_sampler(
        np.array([[2]]), 1, 100_000, False, 6, unigrams=[1, 2, 3, 4],
        num_reserved_ids=2, seed=0)
    frequency = np.bincount(sampled.numpy(), minlength=6) / 100_000
    # Reserved ids are never drawn (TF: [0, 0, 10012, 20222, 30104, ...]).
    np.testing.assert_allclose(frequency, [0, 0, 0.1, 0.2, 0.3, 0.4],
                               atol=0.005)
    np.testing.assert_allclose(
        sampled_count.numpy()[:5],
        100_000 * np.array([0, 0, 0.1, 0.2, 0.3, 0.4])[sampled.numpy()[:5]],
        rtol=1e-5)


def expected_counts(p, num_sampled, tries):
    # TF's ExpectedCountHelper.
    if tries == num_sampled:
        return p * num_sampled
    return -np.expm1(tries * np.log1p(-p))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_fixed_unigram_unique_uses_the_number_of_tries(seed):
    sampled, true_count, sampled_count = ops.fixed_unigram_candidate_sampler(
        np.array([[0], [3]]), 1, 3, True, 4, unigrams=[1, 2, 3, 4],
        seed=seed)
    assert len(set(sampled.numpy().tolist())) == 3
    p = np.array([0.1, 0.2, 0.3, 0.4])
    # One number of tries explains every count.
    tries = [t for t in range(3, 500) if np.allclose(
        true_count.numpy().ravel(), expected_counts(p[[0, 3]], 3, t),
        rtol=1e-5)]
    assert len(tries) == 1
    np.testing.assert_allclose(
        sampled_count.numpy(),
        expected_counts(p[sampled.numpy()], 3, tries[0]), rtol=1e-5)


@pytest.mark.parametrize("text", ["a,1\nb,2\nc c,3\nd,4\n", "1\n2\n3\n4\n"])
def test_fixed_unigram_vocab_file_takes_the_last_field(tmp_path, text):
    path = tmp_path / "counts.csv"
    path.write_text(text)
    _, true_count, _ = ops.fixed_unigram_candidate_sampler(
        np.array([[0], [3]]), 1, 4, False, 4, vocab_file=str(path))
    np.testing.assert_allclose(true_count.numpy().ravel(), [0.4, 1.6],
                               rtol=1e-6)


@pytest.mark.parametrize("kwargs, message", [
    (dict(range_max=4), "exactly one of `vocab_file` and `unigrams`"),
    (dict(range_max=4, unigrams=[1, 2, 3, 4], vocab_file="x"),
     "exactly one of"),
    (dict(range_max=5, unigrams=[1, 2, 3, 4]), "range_max=5"),
    (dict(range_max=4, unigrams=[1, 2, 3, 4], num_reserved_ids=2),
     "number of weights of the shard"),
    (dict(range_max=2, unigrams=[1, 2, 3, 4], num_shards=2, shard=2),
     "shard=2"),
])
def test_fixed_unigram_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ops.fixed_unigram_candidate_sampler(np.array([[0]]), 1, 2, False,
                                            **kwargs)
    with pytest.raises(ValueError, match=r"in \[0, 4\)"):
        ops.fixed_unigram_candidate_sampler(np.array([[7]]), 1, 2, False, 4,
                                            unigrams=[1, 2, 3, 4])
