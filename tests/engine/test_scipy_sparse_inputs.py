"""SciPy sparse matrices as fit/evaluate/predict inputs, as in Keras."""
import numpy as np
import pytest

import kerasish as keras
from kerasish.engine.data_adapters import ArrayDataAdapter, get_data_adapter
from kerasish.engine.data_adapters.array_slicing import \
    train_validation_split

sp = pytest.importorskip("scipy.sparse")    # optional dependency

X = np.zeros((10, 4), "float32")
X[np.arange(10), np.arange(10) % 4] = np.linspace(-1, 1, 10)
X[::3, 2] = 0.5
Y = np.linspace(0, 1, 10, dtype="float32").reshape(10, 1)


def _model():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(
        1, kernel_initializer=keras.initializers.Constant(0.3))])
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    return model


def test_fit_evaluate_predict_match_keras():
    # Reference values from Keras 3.15 (JAX backend), same model and data:
    # tests/engine/fixtures/scipy_sparse_reference.py.
    model = _model()
    history = model.fit(sp.csc_matrix(X), Y, batch_size=4, epochs=2,
                        shuffle=False, verbose=0, validation_split=0.3)
    np.testing.assert_allclose(history.history["loss"],
                               [0.139217272, 0.062793143], rtol=1e-5)
    np.testing.assert_allclose(history.history["val_mae"],
                               [0.462122529, 0.370121985], rtol=1e-5)
    np.testing.assert_allclose(
        model.evaluate(sp.coo_matrix(X), Y, batch_size=3, verbose=0),
        [0.067063182, 0.228855758], rtol=1e-5)
    np.testing.assert_allclose(
        model.predict(sp.csr_matrix(X), batch_size=3, verbose=0)[:, 0],
        [0.114191457, 0.019105762, 0.061928883, 0.304437220, 0.209002047,
         0.272697716, 0.402161598, 0.403872668, 0.464975476, 0.687452554],
        rtol=1e-5, atol=1e-7)


def test_sparse_batches_equal_dense_batches_when_shuffled():
    np.random.seed(3)
    dense = list(ArrayDataAdapter(X, Y, batch_size=3, shuffle=True)
                 .get_numpy_iterator())
    np.random.seed(3)
    sparse = list(ArrayDataAdapter(sp.csr_array(X), Y, batch_size=3,
                                   shuffle=True).get_numpy_iterator())
    for (dx, dy), (sx, sy) in zip(dense, sparse):
        assert isinstance(sx, np.ndarray) and sx.dtype == np.float32
        np.testing.assert_array_equal(dx, sx)
        np.testing.assert_array_equal(dy, sy)


def test_sparse_input_is_arrays_not_a_generator():
    adapter = get_data_adapter({"a": sp.coo_matrix(X.astype("float64"))},
                               Y, batch_size=4)
    assert isinstance(adapter, ArrayDataAdapter)
    first = adapter.peek_batch()[0]["a"]
    assert first.dtype == np.float32 and first.shape == (4, 4)


def test_validation_split_keeps_sparse_rows():
    (x, y, _), (vx, vy, _) = train_validation_split(
        (sp.coo_matrix(X), Y, None), 0.2)
    assert sp.issparse(x) and x.shape == (8, 4) and vx.shape == (2, 4)
    np.testing.assert_array_equal(vx.toarray(), X[8:])


def test_sparse_input_with_class_weight_as_dense():
    def fit(x):
        model = _model()
        return model.fit(x, (Y > 0.5).astype("int32"), batch_size=4,
                         class_weight={0: 2.0, 1: 0.5}, shuffle=False,
                         verbose=0).history["loss"]
    assert fit(sp.csr_matrix(X)) == pytest.approx(fit(X), rel=1e-6)
