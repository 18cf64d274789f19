"""Losses on logits and their gradients at logit 0, against TF 2.15.1.

Losses written `relu(x) - x*z + log1p(exp(-|x|))` and differentiated term by
term get the gradient at `x == 0` wrong (relu'(0) = |x|'(0) = 0 gives `-z`
where the true gradient is `sigmoid(0) - z = 0.5 - z`). The logits here
hold exact zeros; TF's values are the analytic ones. TF1's
`tf.nn.sigmoid_cross_entropy_with_logits` is compared through
`keras.ops.binary_crossentropy(from_logits=True)`, the same elementwise
loss. (The canned classifiers' heads and `nce_loss` are compared in their
own tests.)
"""
import numpy as np
import pytest

import kerasish as keras
from kerasish import losses, ops
from tests.tf1_reference.util import assert_close, load

FIXTURE = load("logit_losses")
LOGITS = np.asarray(FIXTURE["logits"], np.float32)
LABELS = np.asarray(FIXTURE["labels"], np.float32)

OURS = {
    "sigmoid_cross_entropy_with_logits": lambda z, x: ops.sum(
        ops.binary_crossentropy(z, x, from_logits=True)),
    "keras.binary_crossentropy": lambda z, x: ops.sum(
        losses.binary_crossentropy(z, x, from_logits=True)),
    "keras.binary_crossentropy_label_smoothing": lambda z, x: ops.sum(
        losses.binary_crossentropy(z, x, from_logits=True,
                                   label_smoothing=0.2)),
    "keras.binary_focal_crossentropy": lambda z, x: ops.sum(
        losses.binary_focal_crossentropy(z, x, from_logits=True,
                                         gamma=2.0)),
    "log_sigmoid": lambda z, x: ops.sum(ops.log_sigmoid(x) * z),
}


@pytest.mark.parametrize("name", sorted(OURS))
def test_loss_and_gradient_at_zero_logits(name):
    case = FIXTURE["cases"][name]
    logits = keras.Variable(LOGITS)
    with keras.GradientTape() as tape:
        loss = OURS[name](LABELS, logits)
    grad = tape.gradient(loss, logits)
    assert_close(loss.numpy(), case["loss"], what="loss")
    assert_close(np.asarray(grad), case["grad"], what="gradient")
