"""Keras 2 `compiled_loss` / `compiled_metrics` in a custom train_step."""
import numpy as np
import pytest

import kerasish as keras

X = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
Y = np.linspace(0, 1, 8, dtype="float32").reshape(8, 1)


class Legacy(keras.Model):
    def train_step(self, data):
        x, y = data
        with keras.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred,
                                      regularization_losses=self.losses)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def _model(cls=Legacy):
    inputs = keras.Input((3,))
    outputs = keras.layers.Dense(
        1, kernel_initializer=keras.initializers.Constant(0.2),
        kernel_regularizer=keras.regularizers.L2(0.1))(inputs)
    model = cls(inputs, outputs)
    model.compile(keras.optimizers.SGD(0.1), "mse", metrics=["mae"])
    return model


def test_keras2_train_step_trains_as_keras():
    model = _model()
    with pytest.warns(UserWarning, match="deprecated"):
        history = model.fit(X, Y, batch_size=4, epochs=2, verbose=0,
                            shuffle=False)
    # Reference values from Keras 3.15 on TensorFlow (same model and data,
    # tf.GradientTape); "loss" is the mean prediction there too, since the
    # shim hands the loss tracker (a Mean) y_pred.
    np.testing.assert_allclose(history.history["mae"],
                               [0.49336105585, 0.29675984382], rtol=1e-5)
    np.testing.assert_allclose(history.history["loss"],
                               [0.00663892924, 0.20324015617],
                               rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(model.weights[0].numpy().ravel(),
                               [0.15323987, 0.17975974, 0.20627963],
                               rtol=1e-5)
    np.testing.assert_allclose(model.weights[1].numpy(), [0.31604838],
                               rtol=1e-5)


def test_compiled_loss_is_compute_loss_and_warns():
    model = _model()
    y_pred = model(X)
    with pytest.warns(UserWarning, match=r"`model.compiled_loss\(\)` is "
                                         "deprecated"):
        loss = model.compiled_loss(Y, y_pred, sample_weight=np.ones(8),
                                   regularization_losses=[5.0])
    expected = model.compute_loss(x=None, y=Y, y_pred=y_pred,
                                  sample_weight=np.ones(8))
    np.testing.assert_allclose(float(loss), float(expected), rtol=1e-6)


def test_compiled_metrics_update_state_warns_and_updates():
    model = _model(keras.Model)
    model.fit(X, Y, epochs=1, verbose=0)     # builds the compiled metrics
    model.reset_metrics()
    with pytest.warns(UserWarning, match="compiled_metrics"):
        model.compiled_metrics.update_state(Y, np.zeros((8, 1), "float32"))
    result = model.get_metrics_result()
    assert float(result["mae"]) == pytest.approx(float(np.mean(Y)))
    assert float(result["loss"]) == 0.0      # the mean of y_pred
