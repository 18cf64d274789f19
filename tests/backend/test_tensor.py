import numpy as np
import pytest

import kerasish
from kerasish import ops


def test_numpy_conversion_and_operators():
    t = ops.convert_to_tensor([[1.0, 2.0], [3.0, 4.0]])
    assert t.dtype == np.float32 and t.shape == (2, 2)
    np.testing.assert_array_equal(np.asarray(t), [[1, 2], [3, 4]])
    np.testing.assert_array_equal((t + 1).numpy(), [[2, 3], [4, 5]])
    np.testing.assert_array_equal((2 * t - t / 2).numpy(),
                                  [[1.5, 3], [4.5, 6]])
    np.testing.assert_array_equal((t @ t).numpy(), [[7, 10], [15, 22]])
    np.testing.assert_array_equal((t ** 2).numpy(), [[1, 4], [9, 16]])
    np.testing.assert_array_equal((-t)[0].numpy(), [-1, -2])
    np.testing.assert_array_equal((t > 2).numpy(),
                                  [[False, False], [True, True]])
    assert t.T.shape == (2, 2) and len(t) == 2
    assert float(ops.sum(t)) == 10.0


def test_ndarray_on_the_left_defers_to_tensor():
    t = ops.convert_to_tensor([1.0, 2.0])
    out = np.array([1.0, 1.0], dtype="float32") + t
    assert isinstance(out, kerasish.Tensor)
    assert isinstance(np.exp(t), np.ndarray)


def test_float64_inputs_stay_float64_python_scalars_are_weak():
    x = np.ones(3)
    assert ops.add(x, 1.0).dtype == np.float64
    y = ops.convert_to_tensor([1.0])
    assert (y * 2.5).dtype == np.float32


def test_keras_type_promotion_int_meets_float():
    i = ops.convert_to_tensor(np.array([1, 2], dtype="int32"))
    f = ops.convert_to_tensor([0.5, 0.5])
    assert ops.add(i, f).dtype == np.float32
    assert ops.multiply(i, 1.5).dtype == np.float32
    assert ops.divide(i, i).dtype == np.float32


def test_variable_assign_and_copy_semantics():
    v = kerasish.Variable(np.zeros(3), name="w")
    snapshot = v.numpy()
    v.assign([1.0, 2.0, 3.0])
    assert snapshot.sum() == 0
    assert v.path == "w" and v.dtype == np.float32
    with pytest.raises(ValueError, match="must match"):
        v.assign(np.zeros(4))
    v.assign_sub([1.0, 1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(v), [0, 1, 2])


def test_model_outputs_convert_with_asarray():
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(2)])
    out = model(np.ones((4, 3), "float32"))
    assert np.asarray(out).shape == (4, 2)
    assert out.numpy().shape == (4, 2)


def test_objects_are_rejected_clearly():
    with pytest.raises(ValueError, match="Python objects"):
        ops.convert_to_tensor(np.array([{}, []], dtype=object))


def test_tensor_of_numpy_scalar_converts():
    t = kerasish.Tensor(np.float32(2.5))
    assert np.asarray(t).shape == () and float(np.asarray(t)) == 2.5
    assert t.numpy().dtype == np.float32
