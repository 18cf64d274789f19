"""Sigmoid cross-entropy and every loss written in its form: the gradient
at logit 0 is `0.5 - z` (finite differences agree), not `-z`."""
import numpy as np
import pytest

import kerasish as keras
from kerasish import ops
from kerasish.utils import check_grads

Z = np.array([[1.0], [0.0], [1.0], [0.25]])


def analytic_gradient(fn, logits):
    variable = keras.Variable(logits)
    with keras.GradientTape() as tape:
        loss = ops.sum(fn(variable))
    return tape.gradient(loss, variable).numpy()


def test_gradient_at_zero_is_sigmoid_minus_label():
    fn = lambda x: ops.sigmoid_cross_entropy_with_logits(labels=Z, logits=x)
    np.testing.assert_allclose(analytic_gradient(fn, np.zeros((4, 1))),
                               0.5 - Z)
    check_grads(fn, [np.zeros((4, 1))])


@pytest.mark.parametrize("logits", [
    np.array([-30.0, -2.0, -1e-3, 0.0, 1e-3, 2.0, 30.0]),
    np.zeros(7)])
def test_value_and_gradients_everywhere(logits):
    labels = np.linspace(0, 1, 7)
    loss = ops.sigmoid_cross_entropy_with_logits(labels=labels,
                                                 logits=logits).numpy()
    expected = np.logaddexp(0, logits) - logits * labels
    np.testing.assert_allclose(loss, expected, rtol=1e-12, atol=1e-12)
    check_grads(lambda z, x: ops.sigmoid_cross_entropy_with_logits(
        labels=z, logits=x), [labels, logits])


def test_no_overflow_for_large_logits():
    loss = ops.sigmoid_cross_entropy_with_logits(
        labels=np.float32([0, 1]), logits=np.float32([1e4, -1e4]))
    np.testing.assert_allclose(loss.numpy(), [1e4, 1e4])
    assert loss.dtype == "float32"


def test_shape_mismatch_and_missing_arguments_are_named():
    with pytest.raises(ValueError, match=r"labels.shape=\(2,\)"):
        ops.sigmoid_cross_entropy_with_logits(labels=np.zeros(2),
                                              logits=np.zeros(3))
    with pytest.raises(ValueError, match="labels=None"):
        ops.sigmoid_cross_entropy_with_logits(logits=np.zeros(3))


@pytest.mark.parametrize("fn", [
    lambda x: keras.losses.binary_crossentropy(Z, x, from_logits=True),
    lambda x: keras.losses.BinaryCrossentropy(
        from_logits=True, dtype="float64")(Z, x),
    lambda x: ops.binary_crossentropy(Z, x, from_logits=True),
    lambda x: keras.losses.binary_focal_crossentropy(Z, x, from_logits=True),
    lambda x: keras.losses.BinaryFocalCrossentropy(
        from_logits=True, apply_class_balancing=True,
        dtype="float64")(Z, x),
], ids=["bce", "BinaryCrossentropy", "ops_bce", "focal", "BinaryFocal"])
def test_keras_logit_losses_at_zero(fn):
    # float64 loss objects: a float32 one defeats the finite differences.
    check_grads(fn, [np.zeros((4, 1))])


def test_keras_binary_crossentropy_gradient_at_zero_is_exact():
    grad = analytic_gradient(
        lambda x: keras.losses.binary_crossentropy(Z, x, from_logits=True),
        np.zeros((4, 1)))
    np.testing.assert_allclose(grad[:, 0], 0.5 - Z[:, 0], rtol=1e-6)


def test_nce_loss_gradient_at_zero_logits():
    # Zero weights and biases, and expected counts of 1: every logit is 0.
    w, b = np.zeros((6, 2)), np.zeros(6)
    x = np.ones((2, 2))
    labels = np.array([[1], [4]])
    values = (np.array([0, 2, 3]), np.ones((2, 1)), np.ones(3))
    fn = lambda b: ops.nce_loss(w, b, labels, x, 3, 6,
                                sampled_values=values)
    grad = analytic_gradient(fn, b)
    # Each true class: 0.5 - 1; each candidate: 0.5 for both examples.
    np.testing.assert_allclose(grad, [1.0, -0.5, 1.0, 1.0, -0.5, 0.0])
    check_grads(lambda w, b, x: ops.nce_loss(w, b, labels, x, 3, 6,
                                             sampled_values=values),
                [w, b, x])


def test_binary_head_loss_gradient_at_zero_logits():
    from kerasish.estimator.classification_heads import \
        BinaryClassHead
    head = BinaryClassHead()
    labels = np.array([[1], [0], [1]])
    grad = analytic_gradient(
        lambda x: head.unreduced_loss(labels, x), np.zeros((3, 1)))
    np.testing.assert_allclose(grad, 0.5 - labels)
