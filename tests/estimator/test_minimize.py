"""Optimizer.minimize (TF2 Keras's signature), used by model_fns."""
import numpy as np
import pytest

import kerasish as keras


def test_tensor_loss_with_explicit_tape():
    w = keras.Variable([2.0])
    optimizer = keras.optimizers.SGD(0.5)
    with keras.GradientTape() as tape:
        loss = keras.ops.sum(w * w)
    step = optimizer.minimize(loss, [w], tape=tape)
    np.testing.assert_allclose(w.numpy(), [0.0])
    assert step is optimizer.iterations and int(step.numpy()) == 1


def test_callable_loss_and_callable_var_list():
    w = keras.Variable([1.0, -1.0])
    keras.optimizers.SGD(0.25).minimize(
        lambda: keras.ops.sum(w ** 2), lambda: [w])
    np.testing.assert_allclose(w.numpy(), [0.5, -0.5])


def test_tensor_loss_uses_the_recording_tape():
    w = keras.Variable([3.0])
    with keras.GradientTape(persistent=True):
        loss = keras.ops.sum(w * 2.0)
        keras.optimizers.SGD(0.1).minimize(loss, [w])
    np.testing.assert_allclose(w.numpy(), [2.8])


def test_tensor_loss_without_a_tape_is_an_error():
    w = keras.Variable([1.0])
    loss = keras.ops.sum(w)
    with pytest.raises(ValueError, match="`tape` is required"):
        keras.optimizers.Adam().minimize(loss, [w])
