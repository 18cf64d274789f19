"""Candidate sampling against TF 2.15.1: sampled losses and samplers.

`sampled_softmax_loss` and `nce_loss` run with fixed `sampled_values` (one
candidate is an accidental hit), so losses and the gradients of a weighted
sum of them with respect to the weights (or each shard), biases and inputs
must equal `tf.compat.v1.nn`'s to float32 tolerance; one case per loss makes
every logit exactly 0, the kink of the sigmoid cross-entropy. The samplers are
compared through their expected counts with `unique=False` (deterministic):
every id is passed as a true class, which gives the whole table.
"""
import numpy as np
import pytest

import kerasish as keras
from kerasish import ops
from kerasish.backend.indexed_slices import IndexedSlices
from tests.tf1_reference.util import assert_close, load

FIXTURE = load("candidate_sampling")
INPUTS = FIXTURE["inputs"]
W = np.asarray(INPUTS["weights"], np.float32)
B = np.asarray(INPUTS["biases"], np.float32)


def dense(grad, shape):
    if isinstance(grad, IndexedSlices):
        out = np.zeros(shape, np.float32)
        np.add.at(out, np.asarray(grad.indices), np.asarray(grad.values))
        return out
    return np.asarray(grad)


def shards(strategy):
    ids = np.arange(len(W))
    if strategy == "mod":
        parts = [ids[ids % 3 == i] for i in range(3)]
    else:
        parts = [ids[:4], ids[4:7], ids[7:]]
    return [W[p] for p in parts]


def case_id(case):
    parts = [case["loss"], f"num_true={case['num_true']}",
             f"hits={case['remove_accidental_hits']}"]
    if case["zero_inputs"]:
        parts.append("zero_inputs")
    if case["zero_logits"]:
        parts.append("zero_logits")
    if case["shards"]:
        parts.append(f"shards_{case['shards']}")
    return "-".join(parts)


def run(case, explicit_strategy):
    num_true = str(case["num_true"])
    zero = case["zero_inputs"] or case["zero_logits"]
    x = np.zeros((4, 3), np.float32) if zero else \
        np.asarray(INPUTS["inputs"], np.float32)
    tables = shards(case["shards"]) if case["shards"] else [W]
    weights = [keras.Variable(t) for t in tables]
    biases = keras.Variable(np.zeros_like(B) if case["zero_logits"] else B)
    inputs = keras.Variable(x)
    fn = ops.sampled_softmax_loss if case["loss"] == "sampled_softmax" \
        else ops.nce_loss
    kwargs = {}
    if explicit_strategy:
        kwargs["partition_strategy"] = case["partition_strategy"]
    true_expected = np.asarray(INPUTS["true_expected"][num_true], np.float32)
    sampled_expected = np.asarray(INPUTS["sampled_expected"], np.float32)
    if case["zero_logits"]:   # every logit exactly 0 (see the generator)
        true_expected = np.ones_like(true_expected)
        sampled_expected = np.ones_like(sampled_expected)
    sampled_values = (np.asarray(INPUTS["sampled"]), true_expected,
                      sampled_expected)
    with keras.GradientTape() as tape:
        losses = fn(weights if case["shards"] else weights[0], biases,
                    np.asarray(INPUTS["labels"][num_true]), inputs,
                    num_sampled=5, num_classes=10, num_true=case["num_true"],
                    sampled_values=sampled_values,
                    remove_accidental_hits=case["remove_accidental_hits"],
                    **kwargs)
        total = ops.sum(losses * np.asarray(INPUTS["loss_weights"],
                                            np.float32))
    grads = tape.gradient(total, weights + [biases, inputs])
    return losses, [dense(g, v.shape) for g, v in
                    zip(grads, weights + [biases, inputs])]


def compare(case, losses, grads):
    assert_close(losses.numpy(), case["losses"], what="losses")
    for got, want in zip(grads[:-2], case["grad_weights"]):
        assert_close(got, want, what="gradient of the weights")
    assert_close(grads[-2], case["grad_biases"], what="gradient of biases")
    assert_close(grads[-1], case["grad_inputs"], what="gradient of inputs")


UNSHARDED = [c for c in FIXTURE["losses"] if not c["shards"]]
SHARDED = [c for c in FIXTURE["losses"] if c["shards"]]


@pytest.mark.parametrize("case", UNSHARDED, ids=case_id)
def test_sampled_loss_and_gradients(case):
    compare(case, *run(case, explicit_strategy=False))


@pytest.mark.parametrize("case", [c for c in SHARDED
                                  if c["partition_strategy"] == "mod"],
                         ids=case_id)
def test_sharded_weights_default_partition_strategy_is_mod(case):
    # TF1's default: shard i holds the ids equal to i modulo the shards.
    compare(case, *run(case, explicit_strategy=False))


@pytest.mark.parametrize("case", SHARDED, ids=case_id)
def test_sharded_weights_partition_strategy(case):
    compare(case, *run(case, explicit_strategy=True))


def sampler_id(case):
    args = ",".join(f"{k}={v}" for k, v in sorted(case["kwargs"].items())
                    if k != "unigrams")
    return f"{case['sampler']}({args})"


@pytest.mark.parametrize("case", FIXTURE["samplers"], ids=sampler_id)
def test_sampler_expected_counts(case, tmp_path):
    kwargs = dict(case["kwargs"])
    if kwargs.get("vocab_file") == "<vocab_file>":
        path = tmp_path / "vocab.txt"
        path.write_text(INPUTS["vocab_file"])
        kwargs["vocab_file"] = str(path)
    range_max = kwargs["range_max"]
    every_id = np.arange(range_max, dtype=np.int64)[None, :]
    sampler = getattr(ops, case["sampler"])
    sampled, true_expected, sampled_expected = sampler(
        true_classes=every_id, num_true=range_max,
        num_sampled=case["num_sampled"], unique=False, seed=3, **kwargs)
    table = np.asarray(case["expected_count"], np.float32)
    assert_close(np.asarray(true_expected)[0], table,
                 what="expected count of every id")
    sampled = np.asarray(sampled)
    assert sampled.shape == (case["num_sampled"],)
    # Only ids TF can draw are drawn, each with its expected count.
    assert (table[sampled] > 0).all()
    assert_close(sampled_expected, table[sampled])
