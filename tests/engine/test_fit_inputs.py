"""fit / evaluate / predict with in-memory data: arrays, lists and dicts of
arrays, sample and class weights, validation forms, shuffling, steps."""
import numpy as np
import pytest

import kerasish
from kerasish import layers

RNG = np.random.default_rng(4)
X = RNG.normal(size=(12, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")
LABELS = np.array([0, 1, 2, 1, 0, 2, 2, 1, 0, 0, 1, 2])


class Recording(kerasish.Model):
    """Dense(1) that records the inputs of every training batch."""

    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(1, kernel_initializer="ones")
        self.seen = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        self.seen.append(np.asarray(data[0]).copy())
        return super().train_step(data)


class BatchLosses(kerasish.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_batch_end(self, batch, logs=None):
        self.losses.append(logs["loss"])


def dense_model(units=1, activation=None, loss="mse", **compile_kwargs):
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 layers.Dense(units, activation=activation,
                                              kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss=loss, **compile_kwargs)
    return model


def two_in_two_out():
    a = kerasish.Input((3,), name="a")
    b = kerasish.Input((2,), name="b")
    merged = layers.Concatenate()([a, b])
    reg = layers.Dense(1, name="reg", kernel_initializer="ones")(merged)
    cls = layers.Dense(3, activation="softmax", name="cls",
                       kernel_initializer="zeros")(merged)
    model = kerasish.Model({"a": a, "b": b}, [reg, cls])
    model.compile("sgd", loss=["mse", "sparse_categorical_crossentropy"])
    return model


B = RNG.normal(size=(12, 2)).astype("float32")


def test_arrays_fit_evaluate_predict():
    model = dense_model()
    history = model.fit(X, Y, batch_size=5, epochs=2, verbose=0)
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 3}
    assert history.epoch == [0, 1] and len(history.history["loss"]) == 2
    assert isinstance(model.evaluate(X, Y, verbose=0), float)
    assert model.predict(X, batch_size=5, verbose=0).shape == (12, 1)


def test_evaluate_and_predict_steps():
    model = dense_model()
    expected = model.evaluate(X[:8], Y[:8], batch_size=4, verbose=0)
    assert model.evaluate(X, Y, batch_size=4, steps=2, verbose=0) == \
        pytest.approx(expected)
    assert model.predict(X, batch_size=4, steps=2, verbose=0).shape == \
        (8, 1)


def test_inputs_by_name_or_position_and_outputs_by_list_or_dict():
    model = two_in_two_out()
    by_name = model.evaluate({"a": X, "b": B}, [Y, LABELS], verbose=0,
                             return_dict=True)
    by_dict = model.evaluate({"b": B, "a": X}, {"cls": LABELS, "reg": Y},
                             verbose=0, return_dict=True)
    assert by_name == pytest.approx(by_dict)
    assert sorted(by_name) == ["cls_loss", "loss", "reg_loss"]
    outputs = model.predict({"a": X, "b": B}, verbose=0)
    assert [o.shape for o in outputs] == [(12, 1), (12, 3)]
    model.fit({"a": X, "b": B}, {"reg": Y, "cls": LABELS}, epochs=1,
              verbose=0)


def test_positional_inputs_for_a_list_model():
    a, b = kerasish.Input((3,)), kerasish.Input((2,))
    out = layers.Dense(1)(layers.Concatenate()([a, b]))
    model = kerasish.Model([a, b], out)
    model.compile("sgd", "mse")
    model.fit([X, B], Y, epochs=1, verbose=0)
    assert model.predict([X, B], verbose=0).shape == (12, 1)


def test_mismatched_dict_keys_raise_clear_errors():
    model = two_in_two_out()
    with pytest.raises(ValueError, match='Missing data for input "b"'):
        model.fit({"a": X, "c": B}, [Y, LABELS], verbose=0)
    with pytest.raises(ValueError, match=r"output names \['reg', 'cls'\]"
                                         r".*unknown: \['clss'\]"):
        model.fit({"a": X, "b": B}, {"reg": Y, "clss": LABELS}, verbose=0)
    with pytest.raises(ValueError, match=r"missing: \['cls'\]"):
        model.evaluate({"a": X, "b": B}, {"reg": Y}, verbose=0)


def test_sample_weight_divides_by_element_count_not_weight_sum():
    model = dense_model()
    weights = np.linspace(0.0, 2.0, 12).astype("float32")
    errors = np.square(model.predict(X, verbose=0) - Y)[:, 0]
    value = model.evaluate(X, Y, sample_weight=weights, batch_size=12,
                           verbose=0)
    assert value == pytest.approx(float(np.sum(errors * weights) / 12),
                                  rel=1e-5)


def test_temporal_sample_weight():
    inputs = kerasish.Input((4, 3))
    model = kerasish.Model(inputs, layers.Dense(1)(inputs))
    model.compile("sgd", "mse")
    x = RNG.normal(size=(6, 4, 3)).astype("float32")
    y = RNG.normal(size=(6, 4, 1)).astype("float32")
    weights = np.zeros((6, 4), "float32")
    weights[:, 0] = 1.0
    errors = np.square(model.predict(x, verbose=0) - y)[..., 0]
    value = model.evaluate(x, y, sample_weight=weights, verbose=0)
    assert value == pytest.approx(float(np.sum(errors[:, 0]) / 24), rel=1e-5)


def test_per_output_and_shared_sample_weights():
    model = two_in_two_out()
    weights = np.linspace(0.5, 1.5, 12).astype("float32")
    shared = model.evaluate({"a": X, "b": B}, [Y, LABELS],
                            sample_weight=weights, verbose=0,
                            return_dict=True)
    listed = model.evaluate({"a": X, "b": B}, [Y, LABELS],
                            sample_weight=[weights, weights], verbose=0,
                            return_dict=True)
    by_name = model.evaluate({"a": X, "b": B}, [Y, LABELS],
                             sample_weight={"reg": weights, "cls": weights},
                             verbose=0, return_dict=True)
    assert shared == pytest.approx(listed)
    assert shared == pytest.approx(by_name)
    only_cls = model.evaluate({"a": X, "b": B}, [Y, LABELS],
                              sample_weight=[np.zeros(12), weights],
                              verbose=0, return_dict=True)
    assert only_cls["reg_loss"] == 0.0
    with pytest.raises(ValueError, match="one scalar score per sample"):
        model.fit({"a": X, "b": B}, [Y, LABELS],
                  sample_weight=np.ones((12, 2)), verbose=0)


def test_class_weight_weights_the_loss():
    model = dense_model(units=3, activation="softmax",
                        loss="sparse_categorical_crossentropy")
    probs = model.predict(X, verbose=0)
    per_sample = -np.log(probs[np.arange(12), LABELS])
    class_weight = {0: 2.0, 2: 0.5}    # class 1 is missing: weight 1
    weights = np.array([class_weight.get(c, 1.0) for c in LABELS])
    recorder = BatchLosses()
    model.fit(X, LABELS, class_weight=class_weight, batch_size=12,
              shuffle=False, verbose=0, callbacks=[recorder])
    assert recorder.losses[0] == pytest.approx(
        float(np.sum(per_sample * weights) / 12), rel=1e-5)


def test_class_weight_errors():
    model = dense_model(units=3, loss="sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match="integer class indices"):
        model.fit(X, LABELS, class_weight={"zero": 1.0}, verbose=0)
    with pytest.raises(ValueError, match="`class_weight` and "
                                         "`sample_weight`"):
        model.fit(X, LABELS, class_weight={0: 1.0},
                  sample_weight=np.ones(12), verbose=0)
    with pytest.raises(ValueError, match="single output"):
        two_in_two_out().fit({"a": X, "b": B}, [Y, LABELS],
                             class_weight={0: 2.0}, verbose=0)


def test_labels_out_of_range_raise():
    model = dense_model(units=3, loss="sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match=r"must be in \[0, 3\)"):
        model.fit(X, LABELS + 1, verbose=0)


def test_validation_split_uses_the_last_samples_before_shuffling():
    model = dense_model()
    expected = model.evaluate(X[9:], Y[9:], verbose=0)
    model.compile(optimizer=kerasish.optimizers.SGD(learning_rate=0.0),
                  loss="mse")
    history = model.fit(X, Y, validation_split=0.25, shuffle=True,
                        epochs=1, verbose=0)
    assert history.history["val_loss"][0] == pytest.approx(expected)


def test_validation_data_forms_and_frequency():
    model = dense_model()
    weights = np.linspace(0.1, 1.0, 4).astype("float32")
    history = model.fit(X, Y, epochs=4, verbose=0,
                        validation_data=(X[:4], Y[:4], weights),
                        validation_freq=2)
    assert len(history.history["val_loss"]) == 2
    history = model.fit(X, Y, epochs=3, verbose=0,
                        validation_data=[X[:4], Y[:4]],
                        validation_freq=[1, 3])
    assert len(history.history["val_loss"]) == 2
    with pytest.raises(ValueError, match="validation_freq"):
        model.fit(X, Y, validation_data=(X, Y), validation_freq=0,
                  verbose=0)


class ValidationBatchCounter(kerasish.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.test_batches = 0

    def on_test_batch_end(self, batch, logs=None):
        self.test_batches += 1


def test_validation_steps_and_batch_size():
    model = dense_model()
    counter = ValidationBatchCounter()
    model.fit(X, Y, epochs=1, verbose=0, batch_size=6,
              validation_data=(X, Y), validation_batch_size=4,
              callbacks=[counter])
    assert counter.test_batches == 3
    counter = ValidationBatchCounter()
    model.fit(X, Y, epochs=2, verbose=0, validation_data=(X, Y),
              validation_steps=1, validation_batch_size=2,
              callbacks=[counter])
    assert counter.test_batches == 2


def test_shuffle_false_true_and_batch():
    def seen(shuffle):
        kerasish.utils.set_random_seed(1)
        model = Recording()
        model.compile("sgd", "mse")
        model.fit(X, Y, batch_size=4, epochs=2, shuffle=shuffle, verbose=0)
        return [batch[:, 0].tolist() for batch in model.seen]

    plain = seen(False)
    assert plain[:3] == [X[i:i + 4, 0].tolist() for i in (0, 4, 8)]
    assert plain[:3] == plain[3:]
    full = seen(True)
    assert sorted(sum(full[:3], [])) == sorted(X[:, 0].tolist())
    assert full[:3] != plain[:3] and full[:3] != full[3:]
    per_batch = seen("batch")
    assert [sorted(b) for b in per_batch[:3]] == \
        [sorted(b) for b in plain[:3]]


def test_steps_per_epoch_with_arrays():
    model = Recording()
    model.compile("sgd", "mse")
    history = model.fit(X, Y, batch_size=4, steps_per_epoch=2, epochs=3,
                        shuffle=False, verbose=0)
    assert history.params["steps"] == 2 and len(model.seen) == 6
    firsts = [float(batch[0, 0]) for batch in model.seen]
    starts = [float(X[i, 0]) for i in (0, 4, 8, 0, 4, 8)]
    assert firsts == starts
    auto = dense_model()
    history = auto.fit(X, Y, steps_per_epoch=3, epochs=1, verbose=0)
    assert history.params["steps"] == 3   # batch_size = ceil(12 / 3)


def test_initial_epoch():
    model = dense_model()
    history = model.fit(X, Y, initial_epoch=2, epochs=4, verbose=0)
    assert history.epoch == [2, 3]


def test_predict_keeps_the_output_structure():
    inputs = kerasish.Input((3,))
    outputs = {"double": layers.Dense(2, name="d2")(inputs),
               "single": layers.Dense(1, name="d1")(inputs)}
    model = kerasish.Model(inputs, outputs)
    predictions = model.predict(X, batch_size=5, verbose=0)
    assert {k: v.shape for k, v in predictions.items()} == \
        {"double": (12, 2), "single": (12, 1)}


def test_evaluate_rejects_unknown_arguments():
    with pytest.raises(ValueError, match="Arguments not recognized"):
        dense_model().evaluate(X, Y, verbose=0, foo=1)


def test_steps_beyond_the_data_stop_evaluate_and_predict():
    model = dense_model()
    with pytest.warns(UserWarning, match="ran out of data"):
        predictions = model.predict(X, batch_size=5, steps=10, verbose=0)
    assert predictions.shape == (12, 1)   # one pass, no repeated samples
    with pytest.warns(UserWarning, match="ran out of data"):
        value = model.evaluate(X, Y, batch_size=5, steps=10, verbose=0)
    assert value == pytest.approx(model.evaluate(X, Y, verbose=0))
