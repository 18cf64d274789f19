"""Adam's deferred row updates (optimizers/deferred_rows.py): the numbers
of Keras's dense update, at the cost of the rows a step touches."""
import numpy as np
import pytest

import kerasish
from kerasish import optimizers
from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.backend.capture import _raw_get
from kerasish.backend.common.variable import Variable
from kerasish.optimizers import deferred_rows
from kerasish.optimizers.deferred_rows import DeferredVariable


@pytest.fixture
def defer_small(monkeypatch):
    """Defer tables of any size (the tests' tables are small)."""
    monkeypatch.setattr(deferred_rows, "_MIN_SIZE", 0)


def dense_only(monkeypatch):
    monkeypatch.setattr(deferred_rows, "_MIN_SIZE", 1 << 60)


def zipf_rows(rng, n, rows):
    return np.unique((rng.zipf(1.3, size=n) - 1) % rows)


def train_table(steps, dtype="float32", beta_2=0.999, learning_rate=0.01,
                reads=(), lookups=(), rows=300, seed=0, optimizer=None):
    """Adam (or `optimizer`) on a (rows, 4) table with sparse zipf
    gradients; `reads`: steps after which the whole table is read,
    `lookups`: steps after which a row gather reads a few rows."""
    rng = np.random.default_rng(seed)
    table = Variable(rng.normal(size=(rows, 4)), dtype=dtype)
    opt = optimizer() if optimizer else optimizers.Adam(
        learning_rate=learning_rate, beta_2=beta_2)
    for step in range(steps):
        ids = zipf_rows(rng, 8, rows)
        grad = IndexedSlices(ids, rng.normal(size=(len(ids), 4)).astype(
            dtype), table.shape)
        opt.apply([grad], [table])
        if step in reads:
            table.numpy()
        if step in lookups:
            kerasish.ops.take(table, np.array([[1, 2], [250, 2]]), axis=0)
    return table, opt


def state(table, opt):
    """The table, its momentum and its velocity."""
    return [table.numpy()] + [v.numpy() for v in opt.variables
                              if v.shape == table.shape]


@pytest.mark.parametrize("beta_2", [0.999, 0.99])
@pytest.mark.parametrize("schedule", [False, True])
def test_deferred_equals_dense_adam(monkeypatch, beta_2, schedule):
    # 500 steps span several rings (K = 210 for beta_2=0.999, 20 for 0.99),
    # with whole-table reads and row lookups in between. In float64 the
    # dense update is the exact formula: the deferred one equals it up to
    # the series' truncation; in float32 it is as close to the float64
    # result as the dense float32 update is.
    lr = optimizers.schedules.ExponentialDecay(0.05, 40, 0.8) \
        if schedule else 0.05
    kwargs = dict(steps=500, beta_2=beta_2, learning_rate=lr,
                  reads=(120, 121, 400), lookups=(10, 300))
    runs = {}
    for mode in ("deferred", "dense"):
        monkeypatch.setattr(deferred_rows, "_MIN_SIZE",
                            0 if mode == "deferred" else 1 << 60)
        for dtype in ("float64", "float32"):
            runs[mode, dtype] = state(*train_table(dtype=dtype, **kwargs))
    for a, b in zip(runs["deferred", "float64"], runs["dense", "float64"]):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
    for a, b, exact in zip(runs["deferred", "float32"],
                           runs["dense", "float32"],
                           runs["dense", "float64"]):
        assert np.abs(a - exact).max() <= \
            2 * np.abs(b - exact).max() + 1e-7


def test_closed_form_matches_the_step_by_step_update(defer_small):
    # float64: row 0 gets one gradient, then waits while other rows train;
    # its value equals Keras's dense update written out step by step.
    table = Variable(np.full((200, 2), 0.5), dtype="float64")
    opt = optimizers.Adam(learning_rate=0.1)
    g0 = np.array([[0.3, -2e-4]])
    opt.apply([IndexedSlices(np.array([0]), g0, table.shape)], [table])
    for _ in range(149):
        opt.apply([IndexedSlices(np.array([7]), np.ones((1, 2)),
                                 table.shape)], [table])
    p, m, v = np.full(2, 0.5), np.zeros(2), np.zeros(2)
    lr = float(np.float32(0.1))     # the learning rate is a float32 variable
    for t in range(1, 151):
        g = g0[0] if t == 1 else 0.0
        alpha = lr * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        m += (g - m) * (1 - 0.9)
        v += (g * g - v) * (1 - 0.999)
        p -= m * alpha / (np.sqrt(v) + 1e-7)
    assert type(table) is DeferredVariable
    got_p, got_m, got_v = state(table, opt)
    np.testing.assert_allclose(got_p[0], p, rtol=1e-12)
    np.testing.assert_allclose(got_m[0], m, rtol=1e-12)
    np.testing.assert_allclose(got_v[0], v, rtol=1e-12)


def test_untouched_rows_wait_until_read(defer_small):
    table, opt = train_table(steps=30)
    assert type(table) is DeferredVariable
    raw = _raw_get(table).copy()
    before = raw[299].copy()
    # A lookup brings its rows up to date and leaves the others pending.
    out = kerasish.ops.take(table, np.array([3]), axis=0)
    assert type(table) is DeferredVariable
    assert (_raw_get(table)[299] == before).all()
    full = table.numpy()          # any other read settles every row
    np.testing.assert_array_equal(out.numpy()[0], full[3])
    assert type(table) is Variable and table._deferred is None
    assert all(type(v) is Variable for v in opt.variables)


@pytest.mark.parametrize("make", [
    lambda: optimizers.Adam(amsgrad=True),
    lambda: optimizers.AdamW(),
    lambda: optimizers.Adam(use_ema=True),
    lambda: optimizers.Adam(beta_2=0.5),
])
def test_variants_without_a_closed_form_stay_dense(defer_small, make):
    table = Variable(np.ones((50, 3), "float32"))
    opt = make()
    opt.apply([IndexedSlices(np.array([1]), np.ones((1, 3), "float32"),
                             table.shape)], [table])
    assert type(table) is Variable


def test_large_tables_only_by_default():
    small = Variable(np.ones((100, 4), "float32"))
    large = Variable(np.ones((20000, 4), "float32"))
    opt = optimizers.Adam()
    grads = [IndexedSlices(np.array([1]), np.ones((1, 4), "float32"),
                           v.shape) for v in (small, large)]
    opt.apply(grads, [small, large])
    assert type(small) is Variable and type(large) is DeferredVariable


def test_a_table_read_every_step_goes_back_to_dense(defer_small):
    table, opt = train_table(steps=12, reads=range(12))
    assert opt._deferred_strikes[table.path] == deferred_rows._MAX_STRIKES
    assert type(table) is Variable


def embedding_model():
    inputs = kerasish.Input((2,), dtype="int32")
    x = kerasish.layers.Embedding(3000, 8)(inputs)
    x = kerasish.layers.Flatten()(x)
    model = kerasish.Model(inputs, kerasish.layers.Dense(1)(x))
    model.compile(optimizers.Adam(0.01), "mse")
    return model


def fit_embedding_model(path):
    kerasish.utils.set_random_seed(3)
    rng = np.random.default_rng(0)
    ids = ((rng.zipf(1.3, size=(640, 2)) - 1) % 3000).astype("int32")
    y = rng.normal(size=(640, 1)).astype("float32")
    model = embedding_model()
    history = model.fit(ids, y, batch_size=32, epochs=3, shuffle=False,
                        verbose=0, validation_data=(ids[:64], y[:64]))
    predictions = model.predict(ids[:50], verbose=0)
    model.save(path)
    return history.history, predictions, model


def test_fit_with_deferred_tables_gives_the_dense_numbers(
        monkeypatch, tmp_path):
    monkeypatch.setattr(deferred_rows, "_MIN_SIZE", 0)
    deferred = fit_embedding_model(tmp_path / "a.keras")
    dense_only(monkeypatch)
    dense = fit_embedding_model(tmp_path / "b.keras")
    for key in dense[0]:
        np.testing.assert_allclose(deferred[0][key], dense[0][key],
                                   rtol=1e-5)
    np.testing.assert_allclose(deferred[1], dense[1], rtol=1e-5, atol=1e-7)
    loaded = kerasish.saving.load_model(tmp_path / "a.keras")
    for a, b in zip(loaded.get_weights(), dense[2].get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("momentum", [0.9, 1.0])
def test_sgd_momentum_deferred_equals_dense(monkeypatch, nesterov,
                                            momentum):
    def sgd():
        schedule = optimizers.schedules.ExponentialDecay(0.01, 20, 0.9)
        return optimizers.SGD(schedule, momentum=momentum,
                              nesterov=nesterov)

    kwargs = dict(steps=120, optimizer=sgd, reads=(50,), lookups=(10, 80))
    runs = {}
    for mode in ("deferred", "dense"):
        monkeypatch.setattr(deferred_rows, "_MIN_SIZE",
                            0 if mode == "deferred" else 1 << 60)
        for dtype in ("float64", "float32"):
            table, opt = train_table(dtype=dtype, **kwargs)
            if mode == "deferred":
                assert type(table) is DeferredVariable
            runs[mode, dtype] = state(table, opt)
    for a, b in zip(runs["deferred", "float64"], runs["dense", "float64"]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    for a, b in zip(runs["deferred", "float32"], runs["dense", "float32"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
