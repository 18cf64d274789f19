"""keras.ops.math transforms and segment ops: gradients, numpy parity,
round trips, symbolic shapes, bad inputs. Parity with Keras is in
test_ops_parity.py."""
import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.utils import check_grads

rng = np.random.default_rng(0)


def rand(*shape):
    return rng.standard_normal(shape)


@pytest.mark.parametrize("name,fn,inputs", [
    ("fft", lambda a, b: ops.fft((a, b)), [rand(2, 5), rand(2, 5)]),
    ("fft2", lambda a, b: ops.fft2((a, b)), [rand(3, 4), rand(3, 4)]),
    ("ifft2", lambda a, b: ops.ifft2((a, b)), [rand(2, 3, 3), rand(2, 3, 3)]),
    ("rfft_even", lambda x: ops.rfft(x), [rand(2, 6)]),
    ("rfft_odd_pad", lambda x: ops.rfft(x, fft_length=7), [rand(5)]),
    ("rfft_crop", lambda x: ops.rfft(x, fft_length=3), [rand(2, 5)]),
    ("irfft_even", lambda a, b: ops.irfft((a, b)), [rand(2, 4), rand(2, 4)]),
    ("irfft_odd", lambda a, b: ops.irfft((a, b), fft_length=7),
     [rand(4), rand(4)]),
    ("irfft_crop", lambda a, b: ops.irfft((a, b), fft_length=4),
     [rand(5), rand(5)]),
    ("stft", lambda x: ops.stft(x, 6, 3, 8), [rand(2, 20)]),
    ("stft_hamming_nocenter", lambda x: ops.stft(x, 5, 2, 5,
                                                 window="hamming",
                                                 center=False), [rand(12)]),
    ("istft", lambda a, b: ops.istft((a, b), 6, 3, 8), [rand(5, 5),
                                                       rand(5, 5)]),
    ("istft_none", lambda a, b: ops.istft((a, b), 4, 2, 4, window=None,
                                          center=False, length=9),
     [rand(4, 3), rand(4, 3)]),
    ("extract_sequences", lambda x: ops.extract_sequences(x, 3, 2),
     [rand(2, 8)]),
    ("segment_min", lambda d: ops.segment_min(d, np.array([1, 0, 1, 2]),
                                              num_segments=3), [rand(4, 2)]),
    ("segment_prod", lambda d: ops.segment_prod(d, np.array([0, 0, 1, 0]),
                                                num_segments=2),
     [np.array([1.5, 0.0, 2.0, -1.0])]),
    ("view_as_complex", lambda x: ops.real(ops.view_as_complex(x)) * 2.0
     + ops.imag(ops.view_as_complex(x)), [rand(3, 2)]),
    ("view_as_real", lambda a, b: ops.view_as_real(
        ops.view_as_complex(ops.stack([a, b], axis=-1))), [rand(3), rand(3)]),
    ("cdist", ops.cdist, [rand(2, 3, 4), rand(2, 5, 4)]),
    ("logdet", ops.logdet, [np.eye(3) * 2 + 0.1 * rand(3, 3)]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_gradients(name, fn, inputs):
    check_grads(fn, inputs)


def test_transforms_match_numpy():
    a, b = rand(3, 8), rand(3, 8)
    z = a + 1j * b
    re, im = ops.fft((a, b))
    np.testing.assert_allclose(re.numpy() + 1j * im.numpy(), np.fft.fft(z))
    re, im = ops.ifft2((a, b))
    np.testing.assert_allclose(re.numpy() + 1j * im.numpy(), np.fft.ifft2(z))
    re, im = ops.rfft(a, fft_length=11)
    np.testing.assert_allclose(re.numpy() + 1j * im.numpy(),
                               np.fft.rfft(a, n=11))
    np.testing.assert_allclose(ops.irfft((a, b), fft_length=9).numpy(),
                               np.fft.irfft(z, n=9))


def test_single_precision_is_kept():
    re, im = ops.rfft(np.ones(4, "float32"))
    assert re.dtype == "float32" and im.dtype == "float32"
    assert ops.irfft((re, im)).dtype == "float32"
    assert ops.view_as_complex(np.ones((2, 2), "float32")).dtype == \
        "complex64"


@pytest.mark.parametrize("window", ["hann", "hamming"])
@pytest.mark.parametrize("center", [True, False])
def test_istft_inverts_stft(window, center):
    signal = rand(2, 64)
    spec = ops.stft(signal, 16, 4, 16, window=window, center=center)
    back = ops.istft(spec, 16, 4, 16, window=window, center=center,
                     length=64 if center else None).numpy()
    # Without centring, the first sample sits where the window is 0.
    start = 0 if center or window == "hamming" else 1
    np.testing.assert_allclose(back[..., start:], signal[..., start:64],
                               atol=1e-9)


def test_istft_without_window_uses_keras_scaling():
    # With `window=None` Keras divides the overlap-added frames by
    # `sequence_stride`: the round trip is scaled by fft_length /
    # sequence_stride (16 / 4 = 4 here); test_ops_parity pins the numbers.
    signal = rand(48)
    spec = ops.stft(signal, 16, 4, 16, window=None)
    np.testing.assert_allclose(ops.istft(spec, 16, 4, 16, window=None,
                                         length=48).numpy(), signal * 4.0,
                               atol=1e-9)


def test_stft_frame_equals_windowed_rfft():
    signal = rand(40)
    re, im = ops.stft(signal, 8, 5, 12, window="hann", center=False)
    n = np.arange(8)
    win = np.pad(0.5 - 0.5 * np.cos(2 * np.pi * n / 8), (2, 2))
    frame = signal[10:22] * win
    np.testing.assert_allclose(re.numpy()[2] + 1j * im.numpy()[2],
                               np.fft.rfft(frame), atol=1e-12)


def test_segments_empty_and_out_of_range_ids():
    data = np.array([[1.0, 5.0], [3.0, 2.0], [7.0, 7.0]])
    out = ops.segment_min(data, [2, 2, -1], num_segments=3).numpy()
    np.testing.assert_allclose(out[2], [1.0, 2.0])
    assert np.all(np.isinf(out[:2]))
    out = ops.segment_prod(np.array([2, 3, 4]), [0, 0, 1]).numpy()
    np.testing.assert_array_equal(out, [6, 4])
    # Keras 3.15 (JAX) drops out-of-range ids in segment_sum/max too.
    out = ops.segment_sum(data, [0, 3, -1], num_segments=2).numpy()
    np.testing.assert_allclose(out, [[1.0, 5.0], [0.0, 0.0]])
    out = ops.segment_max(data, [1, 1, 5], num_segments=2).numpy()
    np.testing.assert_allclose(out, [[-np.inf, -np.inf], [3.0, 5.0]])


def test_segment_ops_symbolic_rows():
    # Keras 3.15: the number of segments is unknown (None) until run when
    # `num_segments` is not given.
    data = kerasish.KerasTensor((6, 3))
    ids = kerasish.KerasTensor((6,), dtype="int32")
    for op in (ops.segment_sum, ops.segment_max, ops.segment_min,
               ops.segment_prod):
        assert op(data, ids).shape == (None, 3)
        assert op(data, ids, num_segments=4).shape == (4, 3)


def test_symbolic_shapes():
    x = kerasish.Input((40,))
    re, im = ops.stft(x, 8, 4, 16)
    assert re.shape == (None, 11, 9) and im.shape == (None, 11, 9)
    assert ops.istft((re, im), 8, 4, 16).shape == (None, 40)
    assert ops.extract_sequences(x, 10, 5).shape == (None, 7, 10)
    re, im = ops.rfft(x, fft_length=32)
    assert re.shape == (None, 17)
    assert ops.irfft((re, im)).shape == (None, 32)
    assert ops.cdist(kerasish.Input((3, 4)), np.ones((5, 4))).shape == (
        None, 3, 5)


@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.fft(np.ones(3)), ValueError, "tuple of two"),
    (lambda: ops.fft((np.ones(3), np.ones(4))), ValueError, "same shape"),
    (lambda: ops.fft((np.ones(3, "int32"), np.ones(3, "int32"))), ValueError,
     "float"),
    (lambda: ops.fft2((np.ones(3), np.ones(3))), ValueError, "rank >= 2"),
    (lambda: ops.stft(np.ones(8, "int32"), 4, 2, 4), TypeError, "float32"),
    (lambda: ops.stft(np.ones(8), 4, 2, 3), ValueError, "fft_length"),
    (lambda: ops.stft(np.ones(8), 4, 2, 4, window="kaiser"), ValueError,
     "hann"),
    (lambda: ops.stft(np.ones(8), 4, 2, 4, window=np.ones(3)), ValueError,
     "window"),
    (lambda: ops.extract_sequences(np.ones(8), 0, 2), ValueError, "positive"),
    (lambda: ops.view_as_complex(np.ones(3)), ValueError, "size 2"),
    (lambda: ops.segment_min(np.ones(3), [0, 1]), ValueError, "one id"),
    (lambda: ops.cdist(np.ones(3), np.ones((2, 3))), ValueError, "rank"),
    (lambda: ops.cdist(np.ones((2, 3)), np.ones((2, 4))), ValueError,
     "match"),
])
def test_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("x,values,indices", [
    # Keras 3.15 (JAX backend).
    (np.array([0, 5, 3, 200], "uint8"), [200, 5], [3, 1]),
    (np.array([-128, 5, -3, 127, 5], "int8"), [127, 5], [3, 1]),
    (np.array([True, False, True]), [True, True], [0, 2]),
])
def test_top_k_orders_integers_and_bools_as_keras(x, values, indices):
    v, i = ops.top_k(x, 2)
    assert v.dtype == x.dtype
    np.testing.assert_array_equal(v.numpy(), values)
    np.testing.assert_array_equal(i.numpy(), indices)


@pytest.mark.parametrize("k", [8, -1])
def test_top_k_rejects_k_outside_the_last_axis(k):
    with pytest.raises(ValueError, match=f"k={k}"):
        ops.top_k(np.ones((2, 7)), k)


def test_in_top_k_ranks_a_nan_target_last():
    # Keras 3.15 (JAX): a NaN at the target ranks below every number.
    preds = np.array([[np.nan, 1.0, 0.5], [0.1, 0.2, 0.3]], "float32")
    out = ops.in_top_k(np.array([0, 1]), preds, 1)
    np.testing.assert_array_equal(out.numpy(), [False, False])
    out = ops.in_top_k(np.array([0, 1]), preds, 3)
    np.testing.assert_array_equal(out.numpy(), [True, True])


def test_logsumexp_over_an_empty_axis_is_minus_inf():
    # Keras 3.15 (JAX): [-inf, -inf].
    out = ops.logsumexp(np.zeros((2, 0), "float32"), axis=1)
    assert out.dtype == "float32"
    np.testing.assert_array_equal(out.numpy(), [-np.inf, -np.inf])
