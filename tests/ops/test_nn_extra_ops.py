"""keras.ops.nn extras (polar, unfold/fold, depth_to_space/space_to_depth,
ctc_loss/ctc_decode): gradients, round trips, symbolic shapes, errors.
Numbers against Keras 3.15.1 are in test_ops_parity.py."""
import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.utils import check_grads

rng = np.random.default_rng(0)


@pytest.mark.parametrize("name,fn,inputs", [
    ("polar", lambda r, a: ops.real(ops.polar(r, a)) * 2.0
     + ops.imag(ops.polar(r, a)), [rng.random(4), rng.standard_normal(4)]),
    ("unfold", lambda x: ops.unfold(x, (2, 3), dilation=(1, 2), padding=1,
                                    stride=(2, 1)),
     [rng.random((2, 3, 5, 6))]),
    ("fold", lambda x: ops.fold(x, (4, 5), 2, stride=1),
     [rng.random((1, 8, 12))]),
    ("depth_to_space", lambda x: ops.depth_to_space(x, 2),
     [rng.random((1, 2, 3, 8))]),
    ("space_to_depth", lambda x: ops.space_to_depth(
        x, 2, data_format="channels_first"), [rng.random((1, 2, 4, 6))]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_gradients(name, fn, inputs):
    check_grads(fn, inputs)


def test_fold_of_unfold_counts_overlaps():
    x = rng.random((2, 3, 5, 6))
    cols = ops.unfold(x, 3, padding=1)
    back = ops.fold(cols, (5, 6), 3, padding=1).numpy()
    counts = ops.fold(ops.unfold(np.ones_like(x), 3, padding=1), (5, 6), 3,
                      padding=1).numpy()
    np.testing.assert_allclose(back / counts, x, rtol=1e-12)


def test_depth_space_round_trip():
    x = rng.random((2, 4, 6, 3))
    np.testing.assert_array_equal(
        ops.depth_to_space(ops.space_to_depth(x, 2), 2).numpy(), x)


def test_ctc_beam_search_finds_the_most_likely_labelling():
    probs = np.array([[[0.6, 0.4], [0.6, 0.4]]])
    decoded, scores = ops.ctc_decode(np.log(probs), np.array([2]),
                                     strategy="beam_search", beam_width=4,
                                     top_paths=2)
    # P("") = 0.36; P("1") = 0.4*0.4 + 0.4*0.6 + 0.6*0.4 = 0.64.
    np.testing.assert_array_equal(decoded.numpy()[:, 0, 0], [1, -1])
    np.testing.assert_allclose(np.exp(scores.numpy()[0]), [0.64, 0.36],
                               rtol=1e-6)


def test_symbolic_shapes():
    x = kerasish.Input((3, 4, 6))
    assert ops.unfold(x, 2).shape == (None, 12, 15)
    assert ops.space_to_depth(x, 2, data_format="channels_first").shape == (
        None, 12, 2, 3)
    assert ops.depth_to_space(kerasish.Input((2, 3, 8)), 2).shape == (
        None, 4, 6, 2)


@pytest.mark.parametrize("call,match", [
    (lambda: ops.unfold(np.ones((2, 3, 4)), 2), "4D"),
    (lambda: ops.unfold(np.ones((1, 1, 2, 2)), 3), "does not fit"),
    (lambda: ops.fold(np.ones((1, 4, 4, 1)), 3, 2), "3D"),
    (lambda: ops.fold(np.ones((1, 5, 4)), 3, 2), "Expected `x`"),
    (lambda: ops.depth_to_space(np.ones((1, 2, 2, 4)), 1), "at least 2"),
    (lambda: ops.space_to_depth(np.ones((2, 2, 4)), 2), "4D"),
    (lambda: ops.ctc_decode(np.ones((1, 2, 3)), [2], strategy="best"),
     "strategy"),
    (lambda: ops.ctc_decode(np.ones((2, 3)), [2]), "max_time"),
])
def test_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_ctc_loss_on_symbolic_inputs():
    # Keras 3.15: one float32 loss per sample, lengths unknown until run.
    out = ops.ctc_loss(kerasish.KerasTensor((None, 4), "int32"),
                       kerasish.KerasTensor((None, 6, 5), "float16"),
                       kerasish.KerasTensor((None,), "int32"),
                       kerasish.KerasTensor((None,), "int32"))
    assert out.shape == (None,) and out.dtype == "float32"
