"""Heads: losses, predictions and eval metrics against hand computation."""
import numpy as np
import pytest

from kerasish import estimator

LOGITS = np.array([[1.0], [-2.0], [0.5]], "float32")
LABELS = np.array([1, 0, 0])
WEIGHTS = np.array([1.0, 2.0, 1.0])


def sigmoid_ce(x, z):
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


def results(spec):
    return {k: float(np.asarray(m.result())) for k, m in
            spec.eval_metric_ops.items()}


def test_binary_head_loss_and_metrics_with_weights():
    head = estimator.BinaryClassHead(weight_column="w")
    spec = head.create_estimator_spec({"w": WEIGHTS}, "eval", LOGITS,
                                      labels=LABELS)
    per_example = sigmoid_ce(LOGITS[:, 0], LABELS)
    # sum_over_batch_size: weighted sum over the number of examples.
    np.testing.assert_allclose(float(spec.loss),
                               (per_example * WEIGHTS).sum() / 3, rtol=1e-6)
    got = results(spec)
    p = 1 / (1 + np.exp(-LOGITS[:, 0]))
    expected = {
        "average_loss": (per_example * WEIGHTS).sum() / 4,
        "accuracy": 3 / 4,        # ids [1, 0, 1]: right with weights 1+2
        "label/mean": 1 / 4, "accuracy_baseline": 3 / 4,
        "prediction/mean": (p * WEIGHTS).sum() / 4,
        "precision": 0.5, "recall": 1.0, "auc": 1.0,
        "auc_precision_recall": 1.0}
    assert set(got) == set(expected)
    for key, value in expected.items():
        np.testing.assert_allclose(got[key], value, rtol=1e-5, atol=1e-6,
                                   err_msg=key)


def test_binary_head_predictions_and_vocabulary():
    head = estimator.BinaryClassHead(label_vocabulary=["no", "yes"])
    pred = head.predictions(LOGITS)
    np.testing.assert_array_equal(pred["class_ids"], [[1], [0], [1]])
    assert pred["classes"].tolist() == [[b"yes"], [b"no"], [b"yes"]]
    assert pred["all_classes"].tolist() == [[b"no", b"yes"]] * 3
    np.testing.assert_allclose(pred["probabilities"][:, 1],
                               pred["logistic"][:, 0])
    spec = head.create_estimator_spec({}, "eval", LOGITS,
                                      labels=np.array(["yes", "no", "no"]))
    assert results(spec)["accuracy"] == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match=r"\['maybe'\] are not in "
                                         "label_vocabulary"):
        head.create_estimator_spec({}, "eval", LOGITS,
                                   labels=np.array(["yes", "no", "maybe"]))


def test_binary_head_thresholds_and_sum_reduction():
    head = estimator.BinaryClassHead(thresholds=[0.7],
                                     loss_reduction="sum")
    spec = head.create_estimator_spec({}, "eval", LOGITS, labels=LABELS)
    np.testing.assert_allclose(float(spec.loss),
                               sigmoid_ce(LOGITS[:, 0], LABELS).sum(),
                               rtol=1e-6)
    got = results(spec)
    # At 0.7 only example 0 (p = 0.73) is positive: all three are right.
    assert got["accuracy/positive_threshold_0.7"] == 1.0
    assert got["precision/positive_threshold_0.7"] == 1.0


def test_multiclass_head():
    logits = np.array([[2.0, 1.0, 0.0], [0.0, 0.0, 3.0]], "float32")
    head = estimator.MultiClassHead(3, label_vocabulary=["a", "b", "c"])
    spec = head.create_estimator_spec({}, "eval", logits,
                                      labels=np.array([["b"], ["c"]]))
    shifted = logits - logits.max(1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    expected = -(logp[0, 1] + logp[1, 2]) / 2
    np.testing.assert_allclose(float(spec.loss), expected, rtol=1e-6)
    got = results(spec)
    assert got["accuracy"] == 0.5 and set(got) == {"accuracy",
                                                   "average_loss"}
    pred = spec.predictions
    assert pred["classes"].tolist() == [[b"a"], [b"c"]]
    np.testing.assert_allclose(pred["probabilities"].sum(1), [1, 1],
                               rtol=1e-6)


def test_regression_head():
    head = estimator.RegressionHead(label_dimension=2)
    logits = np.array([[1.0, 2.0], [3.0, 4.0]], "float32")
    labels = np.array([[1.0, 0.0], [0.0, 4.0]])
    spec = head.create_estimator_spec({}, "eval", logits, labels=labels)
    # Squared errors 0, 4, 9, 0 over four elements.
    assert float(spec.loss) == pytest.approx(13 / 4)
    got = results(spec)
    assert got == pytest.approx({"average_loss": 13 / 4,
                                 "label/mean": 5 / 4,
                                 "prediction/mean": 10 / 4})
    assert sorted(spec.predictions) == ["predictions"]


@pytest.mark.parametrize("head,labels,message", [
    (estimator.BinaryClassHead(), np.array([0, 2, 1]),
     "Labels must be <= n_classes - 1 = 1"),
    (estimator.BinaryClassHead(), np.array([0, -1, 1]), "Labels must be >= "
                                                        "0"),
    (estimator.BinaryClassHead(), np.array(["a", "b", "a"]),
     "pass label_vocabulary"),
    (estimator.BinaryClassHead(), None, "You must provide a labels"),
    (estimator.BinaryClassHead(), np.ones((3, 2)),
     "Mismatched label shape"),
    (estimator.MultiClassHead(3), np.array([0.5, 1.0, 0.0]),
     "should be integer"),
    (estimator.BinaryClassHead(), np.array([0.5, 1.5, 0.0]),
     r"must be in \[0, 1\]"),
])
def test_label_errors(head, labels, message):
    with pytest.raises(ValueError, match=message):
        head.create_estimator_spec({}, "eval", LOGITS, labels=labels)


def test_head_argument_errors():
    with pytest.raises(ValueError, match="n_classes must be > 2"):
        estimator.MultiClassHead(2)
    with pytest.raises(ValueError, match="thresholds not in"):
        estimator.BinaryClassHead(thresholds=[1.5])
    with pytest.raises(ValueError, match="list or a tuple"):
        estimator.BinaryClassHead(label_vocabulary="ab")
    with pytest.raises(ValueError, match="loss_reduction"):
        estimator.RegressionHead(loss_reduction="mean")
    with pytest.raises(ValueError, match=r"expects shape \(1,\) per"):
        estimator.RegressionHead(weight_column="w").create_estimator_spec(
            {"w": np.ones((2, 2))}, "eval", np.ones((2, 1), "float32"),
            labels=np.ones(2))


def test_binary_head_accepts_soft_float_labels():
    soft = np.array([0.9, 0.1, 0.5])
    spec = estimator.BinaryClassHead().create_estimator_spec(
        {}, "eval", LOGITS, labels=soft)
    np.testing.assert_allclose(float(spec.loss),
                               sigmoid_ce(LOGITS[:, 0], soft).mean(),
                               rtol=1e-6)
