"""The fused whole-sequence primitives against step-by-step numpy loops
(written independently of kerasish, from Keras's cell equations), and
their VJPs against finite differences in float64."""
import numpy as np
import pytest

import kerasish
from kerasish.backend import rnn
from kerasish.utils import check_grads

B, T, D, U = 3, 5, 4, 6

ACTS = {
    "tanh": np.tanh,
    "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
    "hard_sigmoid": lambda v: np.clip(v / 6 + 0.5, 0, 1),
    "relu": lambda v: np.maximum(v, 0),
    "linear": lambda v: v,
}


def _steps(back):
    return range(T - 1, -1, -1) if back else range(T)


def _finish(outs, states, mask, back, zero_output):
    seq = np.stack(outs, 1)
    if mask is not None and zero_output:
        order = list(_steps(back))
        seq = seq * mask[:, order, None]
    return seq, states


def ref_lstm(x, h, c, w, r, b, mask=None, back=False, zero_output=False,
             act="tanh", ract="sigmoid"):
    f_act, f_ract = ACTS[act], ACTS[ract]
    outs = []
    for t in _steps(back):
        z = x[:, t] @ w + h @ r + b
        i, f = f_ract(z[:, :U]), f_ract(z[:, U:2 * U])
        g, o = f_act(z[:, 2 * U:3 * U]), f_ract(z[:, 3 * U:])
        c_new = f * c + i * g
        h_new = o * f_act(c_new)
        if mask is not None:
            m = mask[:, t, None]
            h_new, c_new = np.where(m, h_new, h), np.where(m, c_new, c)
        h, c = h_new, c_new
        outs.append(h)
    return _finish(outs, [h, c], mask, back, zero_output)


def ref_gru(x, h, w, r, b, rb, reset_after=True, mask=None, back=False,
            zero_output=False, act="tanh", ract="sigmoid"):
    f_act, f_ract = ACTS[act], ACTS[ract]
    outs = []
    for t in _steps(back):
        xz = x[:, t] @ w + b
        if reset_after:
            hr = h @ r + rb
            z = f_ract(xz[:, :U] + hr[:, :U])
            rg = f_ract(xz[:, U:2 * U] + hr[:, U:2 * U])
            hh = f_act(xz[:, 2 * U:] + rg * hr[:, 2 * U:])
        else:
            hr = h @ r[:, :2 * U]
            z = f_ract(xz[:, :U] + hr[:, :U])
            rg = f_ract(xz[:, U:2 * U] + hr[:, U:2 * U])
            hh = f_act(xz[:, 2 * U:] + (rg * h) @ r[:, 2 * U:])
        h_new = z * h + (1 - z) * hh
        if mask is not None:
            h_new = np.where(mask[:, t, None], h_new, h)
        h = h_new
        outs.append(h)
    return _finish(outs, [h], mask, back, zero_output)


def ref_simple(x, h, w, r, b, mask=None, back=False, zero_output=False,
               act="tanh"):
    outs = []
    for t in _steps(back):
        h_new = ACTS[act](x[:, t] @ w + h @ r + b)
        if mask is not None:
            h_new = np.where(mask[:, t, None], h_new, h)
        h = h_new
        outs.append(h)
    return _finish(outs, [h], mask, back, zero_output)


@pytest.fixture
def data(rng):
    mask = rng.random((B, T)) > 0.35
    mask[0] = False         # a fully masked sample keeps its initial state
    return dict(
        x=rng.standard_normal((B, T, D)), h=rng.standard_normal((B, U)),
        c=rng.standard_normal((B, U)), mask=mask,
        w4=rng.standard_normal((D, 4 * U)) * 0.5,
        r4=rng.standard_normal((U, 4 * U)) * 0.5,
        b4=rng.standard_normal(4 * U) * 0.5,
        w3=rng.standard_normal((D, 3 * U)) * 0.5,
        r3=rng.standard_normal((U, 3 * U)) * 0.5,
        b3=rng.standard_normal(3 * U) * 0.5,
        rb3=rng.standard_normal(3 * U) * 0.5)


VARIANTS = [
    dict(),
    dict(back=True),
    dict(masked=True),
    dict(masked=True, back=True),
    dict(masked=True, zero_output=True),
    dict(masked=True, zero_output=True, back=True),
]


def _kwargs(v, n_states):
    return dict(go_backwards=v.get("back", False), return_sequences=True,
                return_state=True,
                zero_output_for_mask=v.get("zero_output", False))


def _split(packed, n_states):
    return packed[:, :T], [packed[:, T + k] for k in range(n_states)]


def _assert_same(packed, expected, n_states):
    seq, states = _split(np.asarray(packed), n_states)
    np.testing.assert_allclose(seq, expected[0], rtol=1e-12, atol=1e-12)
    for got, want in zip(states, expected[1]):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("v", VARIANTS)
def test_lstm_forward_matches_loop(data, v):
    d = data
    mask = d["mask"] if v.get("masked") else None
    got = rnn.lstm(d["x"], d["h"], d["c"], d["w4"], d["r4"], d["b4"],
                   mask=mask, **_kwargs(v, 2))
    want = ref_lstm(d["x"], d["h"], d["c"], d["w4"], d["r4"], d["b4"], mask,
                    v.get("back", False), v.get("zero_output", False))
    _assert_same(got, want, 2)


@pytest.mark.parametrize("act,ract", [("relu", "hard_sigmoid"),
                                      ("linear", "tanh")])
def test_lstm_other_activations(data, act, ract):
    d = data
    got = rnn.lstm(d["x"], d["h"], d["c"], d["w4"], d["r4"], d["b4"],
                   activation=act, recurrent_activation=ract,
                   return_sequences=True, return_state=True)
    _assert_same(got, ref_lstm(d["x"], d["h"], d["c"], d["w4"], d["r4"],
                               d["b4"], act=act, ract=ract), 2)


@pytest.mark.parametrize("reset_after", [True, False])
@pytest.mark.parametrize("v", VARIANTS)
def test_gru_forward_matches_loop(data, v, reset_after):
    d = data
    mask = d["mask"] if v.get("masked") else None
    rb = d["rb3"] if reset_after else np.zeros(3 * U)
    got = rnn.gru(d["x"], d["h"], d["w3"], d["r3"], d["b3"], rb, mask=mask,
                  reset_after=reset_after, **_kwargs(v, 1))
    want = ref_gru(d["x"], d["h"], d["w3"], d["r3"], d["b3"], rb,
                   reset_after, mask, v.get("back", False),
                   v.get("zero_output", False))
    _assert_same(got, want, 1)


@pytest.mark.parametrize("v", VARIANTS)
def test_simple_rnn_forward_matches_loop(data, v):
    d = data
    mask = d["mask"] if v.get("masked") else None
    w, r, b = d["w4"][:, :U], d["r4"][:, :U], d["b4"][:U]
    got = rnn.simple_rnn(d["x"], d["h"], w, r, b, mask=mask, **_kwargs(v, 1))
    want = ref_simple(d["x"], d["h"], w, r, b, mask, v.get("back", False),
                      v.get("zero_output", False))
    _assert_same(got, want, 1)


OUTPUTS = [dict(), dict(return_sequences=True), dict(return_state=True),
           dict(return_sequences=True, return_state=True)]


def _grad_kwargs(v, out):
    kw = dict(out, go_backwards=v.get("back", False),
              zero_output_for_mask=v.get("zero_output", False))
    return kw


@pytest.mark.parametrize("out", OUTPUTS)
@pytest.mark.parametrize("v", VARIANTS[::2] + [VARIANTS[3]])
def test_lstm_gradients(data, v, out):
    d = data
    kw = _grad_kwargs(v, out)
    kw["mask"] = d["mask"] if v.get("masked") else None
    check_grads(lambda *a: rnn.lstm(*a, **kw),
                [d["x"], d["h"], d["c"], d["w4"], d["r4"], d["b4"]])


def test_lstm_gradients_other_activations(data):
    d = data
    check_grads(lambda *a: rnn.lstm(*a, activation="relu",
                                    recurrent_activation="hard_sigmoid",
                                    return_sequences=True),
                [d["x"], d["h"], d["c"], d["w4"], d["r4"], d["b4"]])


@pytest.mark.parametrize("reset_after", [True, False])
@pytest.mark.parametrize("out", OUTPUTS[1:])
@pytest.mark.parametrize("v", VARIANTS[::2] + [VARIANTS[3]])
def test_gru_gradients(data, v, out, reset_after):
    d = data
    kw = _grad_kwargs(v, out)
    kw["mask"] = d["mask"] if v.get("masked") else None
    rb = d["rb3"] if reset_after else np.zeros(3 * U)
    check_grads(lambda *a: rnn.gru(*a, reset_after=reset_after, **kw),
                [d["x"], d["h"], d["w3"], d["r3"], d["b3"], rb],
                wrt=list(range(6 if reset_after else 5)))


@pytest.mark.parametrize("act", ["tanh", "relu", "sigmoid"])
@pytest.mark.parametrize("v", VARIANTS[::2] + [VARIANTS[3]])
def test_simple_rnn_gradients(data, v, act):
    d = data
    kw = _grad_kwargs(v, dict(return_sequences=True, return_state=True))
    kw["mask"] = d["mask"] if v.get("masked") else None
    check_grads(lambda *a: rnn.simple_rnn(*a, activation=act, **kw),
                [d["x"], d["h"], d["w4"][:, :U], d["r4"][:, :U],
                 d["b4"][:U]])


def test_kernel_gradient_alone(data):
    """Only the kernel needs a gradient here; the VJP skips the others."""
    d = data
    w = kerasish.Variable(d["w4"])
    with kerasish.GradientTape() as tape:
        y = kerasish.ops.sum(rnn.lstm(d["x"], d["h"], d["c"], w, d["r4"],
                                      d["b4"]))
    grad = tape.gradient(y, w)
    assert grad.shape == (D, 4 * U)


def test_float32_stays_float32(data):
    d = {k: v.astype("float32") if v.dtype.kind == "f" else v
         for k, v in data.items()}
    out = rnn.lstm(d["x"], d["h"], d["c"], d["w4"], d["r4"], d["b4"])
    assert out.dtype == np.float32 and out.shape == (B, U)
