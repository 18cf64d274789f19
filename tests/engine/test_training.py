"""fit/evaluate/predict behaviour pinned to Keras 3
(KERAS_REFERENCE §1, §6).
"""
import numpy as np
import pytest

import kerasish
from kerasish import layers


def classifier(n_in=4, n_out=2):
    model = kerasish.Sequential([kerasish.Input((n_in,)),
                                 layers.Dense(8, activation="relu"),
                                 layers.Dense(n_out, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


class Recorder(kerasish.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.events = []

    def _add(name):
        def hook(self, *args, logs=None):
            # Batch hooks get `logs` by keyword, as in Keras.
            args = args + (logs,) if "batch" in name else args
            label = name if len(args) == 1 else f"{name}({args[0]})"
            self.events.append(label)
        return hook

    for _n in ["on_train_begin", "on_train_end", "on_epoch_begin",
               "on_epoch_end", "on_train_batch_begin", "on_train_batch_end",
               "on_test_begin", "on_test_end", "on_test_batch_begin",
               "on_test_batch_end"]:
        locals()[_n] = _add(_n)


def test_fit_params_keys_history_and_event_order():
    # Reference anchor: 100 samples, batch 40, split 0.2 -> 2 steps.
    x = np.random.rand(100, 4).astype("float32")
    y = (x[:, 0] > 0.5).astype("int32")
    model = classifier()
    rec = Recorder()
    history = model.fit(x, y, batch_size=40, epochs=2, validation_split=0.2,
                        verbose=0, callbacks=[rec])
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 2}
    assert sorted(history.history) == ["accuracy", "loss", "val_accuracy",
                                       "val_loss"]
    assert history.epoch == [0, 1] and model.history is history
    assert all(type(v) is float for vs in history.history.values()
               for v in vs)
    epoch0 = ["on_epoch_begin(0)", "on_train_batch_begin(0)",
              "on_train_batch_end(0)", "on_train_batch_begin(1)",
              "on_train_batch_end(1)", "on_test_begin",
              "on_test_batch_begin(0)", "on_test_batch_end(0)",
              "on_test_end", "on_epoch_end(0)"]
    assert rec.events[:1 + len(epoch0)] == ["on_train_begin"] + epoch0
    assert rec.events[-1] == "on_train_end"


def test_validation_split_takes_last_samples_before_shuffling():
    x = np.arange(10, dtype="float32").reshape(10, 1)
    y = np.zeros((10, 1), "float32")
    model = kerasish.Sequential([kerasish.Input((1,)),
                                 layers.Dense(1, kernel_initializer="ones",
                                              bias_initializer="zeros")])
    model.compile(kerasish.optimizers.SGD(0.0), "mse")
    h = model.fit(x, y, validation_split=0.2, epochs=1, verbose=0)
    assert h.history["val_loss"][0] == pytest.approx((8 ** 2 + 9 ** 2) / 2)


def test_initial_epoch_and_epochs_semantics():
    model = classifier()
    x, y = np.random.rand(8, 4), np.zeros(8, "int32")
    h = model.fit(x, y, initial_epoch=2, epochs=4, verbose=0)
    assert h.epoch == [2, 3]
    h = model.fit(x, y, initial_epoch=4, epochs=4, verbose=0)
    assert h.history == {} and h.epoch == []


def test_number_of_batches_includes_partial_batch():
    model = classifier()
    rec = Recorder()
    model.fit(np.random.rand(70, 4), np.zeros(70, "int32"), epochs=1,
              verbose=0, callbacks=[rec])
    assert rec.events.count("on_train_batch_end") == 0
    assert sum(e.startswith("on_train_batch_end") for e in rec.events) == 3


def test_loss_is_sample_weighted_mean_over_batches():
    x = np.arange(5, dtype="float32").reshape(5, 1)
    y = np.zeros((5, 1), "float32")
    model = kerasish.Sequential([kerasish.Input((1,)), layers.Dense(
        1, kernel_initializer="ones", bias_initializer="zeros")])
    model.compile(kerasish.optimizers.SGD(0.0), "mse")
    h = model.fit(x, y, batch_size=2, epochs=1, shuffle=False, verbose=0)
    # Batches (0,1), (2,3), (4): running mean weighted by batch size.
    assert h.history["loss"][0] == pytest.approx(np.mean(x[:, 0] ** 2))


def test_evaluate_predict_and_return_forms():
    model = classifier()
    x, y = np.random.rand(33, 4).astype("float32"), np.ones(33, "int32")
    loss, acc = model.evaluate(x, y, verbose=0)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs == {"accuracy": acc, "loss": loss}
    pred = model.predict(x, batch_size=10, verbose=0)
    assert isinstance(pred, np.ndarray) and pred.shape == (33, 2)
    np.testing.assert_allclose(pred, model(x).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="Arguments not recognized"):
        model.evaluate(x, y, verbose=0, bogus=1)


def test_single_batch_methods_reset_metrics_each_call():
    model = classifier()
    x, y = np.random.rand(4, 4).astype("float32"), np.ones(4, "int32")
    out1 = model.train_on_batch(x, y)
    assert isinstance(out1, list) and len(out1) == 2
    logs = model.test_on_batch(x, y, return_dict=True)
    expected = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs == pytest.approx(expected)
    assert model.predict_on_batch(x).shape == (4, 2)


def test_custom_train_step_is_used_by_fit():
    class Custom(kerasish.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1)
            self.tracker = kerasish.metrics.Mean(name="custom_loss")

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            with kerasish.GradientTape() as tape:
                loss = kerasish.ops.mean((self(x, training=True) - y) ** 2)
            grads = tape.gradient(loss, self.trainable_weights)
            self.optimizer.apply_gradients(zip(grads,
                                               self.trainable_weights))
            self.tracker.update_state(loss)
            return {"custom_loss": self.tracker.result()}

        @property
        def metrics(self):
            return [self.tracker]

    model = Custom()
    model.compile(optimizer=kerasish.optimizers.SGD(0.1))
    x = np.random.rand(32, 3).astype("float32")
    y = x.sum(1, keepdims=True)
    h = model.fit(x, y, epochs=5, verbose=0)
    assert list(h.history) == ["custom_loss"]
    assert h.history["custom_loss"][-1] < h.history["custom_loss"][0]


def test_functional_multi_output_logs_and_loss_weights():
    a = kerasish.Input((3,), name="a")
    reg = layers.Dense(1, name="reg")(a)
    cls = layers.Dense(2, activation="softmax", name="cls")(a)
    model = kerasish.Model(a, [reg, cls])
    model.compile("sgd", loss={"reg": "mse",
                               "cls": "sparse_categorical_crossentropy"},
                  loss_weights={"reg": 2.0, "cls": 1.0},
                  metrics={"reg": ["mae"], "cls": ["accuracy"]})
    x = np.random.rand(20, 3).astype("float32")
    y = {"reg": np.random.rand(20, 1), "cls": np.ones(20, "int32")}
    h = model.fit(x, y, epochs=1, verbose=0, batch_size=20)
    logs = {k: v[0] for k, v in h.history.items()}
    assert sorted(logs) == ["cls_accuracy", "cls_loss", "loss", "reg_loss",
                            "reg_mae"]
    assert logs["loss"] == pytest.approx(2 * logs["reg_loss"] +
                                         logs["cls_loss"], rel=1e-5)
    values = model.evaluate(x, y, verbose=0)
    assert len(values) == 5


def test_regularization_losses_are_added_to_the_loss():
    model = kerasish.Sequential([kerasish.Input((2,)), layers.Dense(
        1, kernel_initializer="ones", bias_initializer="zeros",
        kernel_regularizer=kerasish.regularizers.L2(0.1))])
    model.compile(kerasish.optimizers.SGD(0.0), "mse")
    x, y = np.zeros((4, 2), "float32"), np.zeros((4, 1), "float32")
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(0.1 * 2)


def test_seeded_runs_are_deterministic():
    def run():
        kerasish.utils.set_random_seed(3)
        model = classifier()
        x = np.random.rand(64, 4).astype("float32")
        y = (x[:, 1] > 0.5).astype("int32")
        model.fit(x, y, epochs=2, verbose=0)
        return model.get_weights()
    for a, b in zip(run(), run()):
        np.testing.assert_array_equal(a, b)


class TestBadInput:
    def test_fit_before_compile(self):
        model = kerasish.Sequential([kerasish.Input((2,)), layers.Dense(1)])
        with pytest.raises(ValueError, match="must call `compile"):
            model.fit(np.ones((2, 2)), np.ones((2, 1)))
        with pytest.raises(ValueError, match="must call `compile"):
            model.evaluate(np.ones((2, 2)), np.ones((2, 1)))

    def test_model_input_shape_mismatch(self):
        model = classifier()
        # As in Keras, the first Dense checks (a Sequential has no spec).
        with pytest.raises(ValueError, match=r"layer 'dense' is incompatible"
                           r".*axis -1 of input shape to have value 4, but "
                           r"received input with shape \(8, 3\)"):
            model.fit(np.ones((8, 3)), np.zeros(8, "int32"), verbose=0)

    def test_label_shape_mismatch(self):
        model = kerasish.Sequential([kerasish.Input((2,)), layers.Dense(2)])
        model.compile("sgd", "mse")
        with pytest.raises(ValueError, match=r"y_true.shape=\(4, 3\), "
                                             r"y_pred.shape=\(4, 2\)"):
            model.fit(np.ones((4, 2)), np.ones((4, 3)), verbose=0)

    def test_cardinality_mismatch(self):
        model = classifier()
        with pytest.raises(ValueError, match="Data cardinality is "
                                             "ambiguous"):
            model.fit(np.ones((8, 4)), np.zeros(7, "int32"), verbose=0)

    def test_empty_data(self):
        model = classifier()
        with pytest.raises(ValueError, match="at least one sample"):
            model.fit(np.ones((0, 4)), np.zeros(0, "int32"), verbose=0)

    def test_strings_and_objects(self):
        model = classifier()
        with pytest.raises(ValueError, match="expects data of dtype "
                                             "float32"):
            model.fit(np.array([["a"] * 4] * 3), np.zeros(3, "int32"),
                      verbose=0)
        with pytest.raises(ValueError, match="Python objects"):
            model.fit(np.array([{}, [], 1], dtype=object),
                      np.zeros(3, "int32"), verbose=0)

    def test_unknown_aliases(self):
        model = kerasish.Sequential([kerasish.Input((2,)), layers.Dense(1)])
        with pytest.raises(ValueError, match="optimizer identifier: nope"):
            model.compile("nope", "mse")
        with pytest.raises(ValueError, match="loss identifier: nope"):
            model.compile("sgd", "nope")
            model.fit(np.ones((2, 2)), np.ones((2, 1)), verbose=0)
        with pytest.raises(ValueError, match="activation function "
                                             "identifier: nope"):
            layers.Dense(2, activation="nope")

    def test_sparse_labels_out_of_range(self):
        model = classifier()
        with pytest.raises(ValueError, match=r"must be in \[0, 2\)"):
            model.fit(np.ones((4, 4)), np.array([0, 1, 2, 1]), verbose=0)


def test_get_metrics_result_is_keras_ordered_tensors():
    from kerasish.backend.tensor import Tensor
    # Keras 3.15 (JAX) lists this model's results as
    # ['loss', 'ya_mae', 'zb_mse', 'zb_mae', 'zb_loss', 'ya_loss']: its
    # metrics in `model.metrics` order, a flat output dict by sorted key,
    # the per-output losses in the loss dict's order; values are tensors.
    x = np.linspace(0, 1, 24, dtype="float32").reshape(8, 3)
    y = x.sum(1, keepdims=True)
    inputs = kerasish.Input((3,))
    a = layers.Dense(1, name="a", kernel_initializer="ones")(inputs)
    b = layers.Dense(1, name="b", kernel_initializer="zeros")(inputs)
    model = kerasish.Model(inputs, {"zb": b, "ya": a})
    model.compile("sgd", {"zb": "mse", "ya": "mae"},
                  metrics={"zb": ["mse", "mae"], "ya": ["mae"]})
    logs = model.evaluate(x, {"zb": y, "ya": y}, verbose=0,
                          return_dict=True)
    result = model.get_metrics_result()
    assert list(result) == ["loss", "ya_mae", "zb_mse", "zb_mae",
                            "zb_loss", "ya_loss"]
    assert all(isinstance(v, Tensor) for v in result.values())
    assert {k: float(v) for k, v in result.items()} == pytest.approx(logs)
