"""Float64 gradient checks of every loss function w.r.t. `y_pred`."""
import numpy as np
import pytest

import kerasish
from kerasish import losses
from kerasish.utils import check_grads
from tests.losses.fixtures import cases as c


def _f64(a):
    return np.asarray(a, dtype=np.float64)


GRAD_CASES = {
    "mean_squared_error": (c.REG_T, c.REG_P, {}),
    "mean_absolute_error": (c.REG_T, c.REG_P, {}),
    "mean_absolute_percentage_error": (c.REG_T, c.REG_P, {}),
    "mean_squared_logarithmic_error": (c.POS_T, c.POS_P, {}),
    "cosine_similarity": (c.REG_T, c.REG_P, {"axis": 0}),
    "huber": (c.REG_T, c.REG_P, {"delta": 0.7}),
    "log_cosh": (c.REG_T, c.REG_P, {}),
    "kl_divergence": (c.PROBS, c.ONE_HOT * 0.8 + 0.05, {}),
    "poisson": (c.POS_T, c.POS_P, {}),
    "hinge": (c.B2, c.P2 * 2 - 1, {}),
    "squared_hinge": (c.B2, c.P2 * 2 - 1, {}),
    "categorical_hinge": (c.ONE_HOT, c.LOGITS, {}),
    "binary_crossentropy": (c.B2, c.P2, {"label_smoothing": 0.1}),
    "binary_crossentropy_logits": (c.B2, c.P2 * 4 - 2,
                                   {"from_logits": True}),
    "categorical_crossentropy": (c.ONE_HOT, c.PROBS, {}),
    "categorical_crossentropy_logits": (c.ONE_HOT, c.LOGITS,
                                        {"from_logits": True,
                                         "label_smoothing": 0.1}),
    "sparse_categorical_crossentropy": (c.SPARSE, c.PROBS, {}),
    "sparse_categorical_crossentropy_logits": (
        c.SPARSE, c.LOGITS, {"from_logits": True, "ignore_class": 2}),
    "binary_focal_crossentropy": (c.B2, c.P2 * 4 - 2,
                                  {"from_logits": True,
                                   "apply_class_balancing": True}),
    "categorical_focal_crossentropy": (c.ONE_HOT, c.LOGITS,
                                       {"from_logits": True}),
    "categorical_generalized_cross_entropy": (c.SPARSE, c.PROBS,
                                              {"q": 0.4}),
    "dice": (c.SEG_T, c.SEG_P, {"axis": (1, 2)}),
    "tversky": (c.SEG_T, c.SEG_P, {"alpha": 0.3, "beta": 0.7}),
    "circle": (c.EMB_LABELS, c.EMB, {"gamma": 4.0}),
    "ctc": (c.CTC_LABELS, c.CTC_LOGITS, {}),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_loss_function_gradient(name):
    y_true, y_pred, kwargs = GRAD_CASES[name]
    fn = getattr(losses, name.replace("_logits", ""))
    if y_true.dtype.kind == "f":
        y_true = _f64(y_true)
    check_grads(lambda p: fn(y_true, p, **kwargs), [_f64(y_pred)],
                rtol=1e-4, atol=1e-7)


def test_ctc_gradient_with_ragged_lengths():
    from kerasish.losses.ctc import ctc_loss
    logits = _f64(c.CTC_LOGITS) * 2.0
    check_grads(lambda x: ctc_loss(c.CTC_LABELS, x, [2, 3, 1], [6, 4, 3]),
                [logits], rtol=1e-5)


def test_loss_class_gradient_with_weights_and_mask():
    loss = losses.SparseCategoricalCrossentropy(from_logits=True,
                                                ignore_class=0,
                                                dtype="float64")
    weights = np.array([1.0, 0.5, 2.0, 1.0])
    check_grads(lambda p: loss(c.SPARSE, p, sample_weight=weights),
                [_f64(c.LOGITS)])


def test_ctc_gradient_of_an_infeasible_target():
    # Sample 2 ([1, 1] in 2 frames) has no valid alignment; its gradient is
    # that of Keras's penalised paths, still finite.
    from kerasish.losses.ctc import ctc_loss
    labels, lengths, frames = np.array([[2, 1], [1, 1]]), [2, 2], [3, 2]
    logits = np.array([[[-0.44, -1.17, 1.74], [-0.5, 0.33, -0.26],
                        [1.58, 1.32, 0.63]],
                       [[-2.2, 0.05, 0.68], [1.0, -0.62, 1.82],
                        [-1.32, -0.66, 0.94]]])
    check_grads(lambda x: ctc_loss(labels, x, lengths, frames), [logits],
                rtol=1e-5)
    # jax.grad of Keras 3.15.1's ops.ctc_loss (float32; the 1e5-sized log
    # values of the infeasible sample leave Keras about 3 digits there).
    keras_grad = np.array(
        [[[0.078117, 0.046659, -0.124776], [0.088914, -0.18324, 0.094326],
          [0.07629, -0.25552, 0.17923]],
         [[-0.05346, -0.574818, 0.628278], [-0.490086, -0.16544, 0.655526],
          [0.0, 0.0, 0.0]]])
    x = kerasish.Variable(logits.astype("float32"))
    with kerasish.GradientTape() as tape:
        total = kerasish.ops.sum(ctc_loss(labels, x, lengths, frames))
    grad = np.asarray(tape.gradient(total, x))
    np.testing.assert_allclose(grad[0], keras_grad[0], atol=1e-5)
    np.testing.assert_allclose(grad[1], keras_grad[1], atol=5e-3)
