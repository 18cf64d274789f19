"""fit / evaluate / predict with streamed data: generators, iterators,
re-iterable objects and PyDatasets (also as validation data)."""
import warnings

import numpy as np
import pytest

import kerasish
from kerasish import layers

RNG = np.random.default_rng(5)
X = RNG.normal(size=(12, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]], "float32")).astype("float32")
W = np.linspace(0.0, 1.0, 12).astype("float32")


def batches(count=3, size=4, weights=False):
    for i in range(count):
        part = slice(i * size % 12, i * size % 12 + size)
        if weights:
            yield X[part], Y[part], W[part]
        else:
            yield X[part], Y[part]


def forever(size=4):
    i = 0
    while True:
        part = slice(i * size % 12, i * size % 12 + size)
        yield X[part], Y[part]
        i += 1


class Data(kerasish.utils.PyDataset):
    def __init__(self, with_y=True, **kwargs):
        super().__init__(**kwargs)
        self.with_y, self.calls = with_y, []
        self.begins = self.ends = 0

    def __len__(self):
        return 3

    def __getitem__(self, index):
        self.calls.append(index)
        part = slice(index * 4, index * 4 + 4)
        return (X[part], Y[part]) if self.with_y else (X[part],)

    def on_epoch_begin(self):
        self.begins += 1

    def on_epoch_end(self):
        self.ends += 1


class Counter(kerasish.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.train, self.test, self.epochs = 0, 0, []

    def on_train_batch_end(self, batch, logs=None):
        self.train += 1

    def on_test_batch_end(self, batch, logs=None):
        self.test += 1

    def on_epoch_end(self, epoch, logs=None):
        self.epochs.append(self.train)


def model():
    net = kerasish.Sequential([kerasish.Input((3,)),
                               layers.Dense(1, kernel_initializer="ones")])
    net.compile(optimizer="sgd", loss="mse")
    return net


def test_generator_of_x_y_and_x_y_sample_weight():
    for weighted in (False, True):
        net, counter = model(), Counter()
        history = net.fit(batches(weights=weighted), epochs=1, verbose=0,
                          callbacks=[counter])
        assert counter.train == 3 and history.params["steps"] is None
    weighted = model().evaluate(batches(weights=True), verbose=0)
    errors = np.square(model().predict(X, verbose=0) - Y)[:, 0]
    expected = np.mean([np.sum(errors[i:i + 4] * W[i:i + 4]) / 4
                        for i in (0, 4, 8)])
    assert weighted == pytest.approx(float(expected), rel=1e-5)


def test_generator_is_used_once_and_training_stops_when_it_is_dry():
    net, counter = model(), Counter()
    with pytest.warns(UserWarning, match="ran out of data"):
        history = net.fit(batches(), epochs=3, verbose=0,
                          callbacks=[counter])
    # The first epoch sees every batch once (the read-ahead batch is not
    # repeated); no empty epochs follow.
    assert counter.epochs == [3] and history.epoch == [0]


def test_single_epoch_on_a_generator_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model().fit(batches(), epochs=1, verbose=0)


def test_infinite_generator_with_steps_per_epoch():
    net, counter = model(), Counter()
    history = net.fit(forever(), steps_per_epoch=2, epochs=3, verbose=0,
                      callbacks=[counter])
    assert counter.epochs == [2, 4, 6] and history.params["steps"] == 2


def test_generator_running_dry_under_steps_per_epoch():
    net, counter = model(), Counter()
    with pytest.warns(UserWarning, match="ran out of data"):
        history = net.fit(batches(count=5), steps_per_epoch=2, epochs=4,
                          verbose=0, callbacks=[counter])
    assert counter.epochs == [2, 4, 5] and history.epoch == [0, 1, 2]


def test_reiterable_object_trains_for_every_epoch():
    class Reiterable:
        def __iter__(self):
            return batches()

    net, counter = model(), Counter()
    net.fit(Reiterable(), epochs=3, verbose=0, callbacks=[counter])
    assert counter.epochs == [3, 6, 9]


def test_plain_iterator_of_tuples():
    net, counter = model(), Counter()
    net.fit(iter(list(batches())), epochs=1, verbose=0, callbacks=[counter])
    assert counter.train == 3


def test_generator_validation_data_is_replayed_every_epoch():
    net = model()
    net.compile(optimizer=kerasish.optimizers.SGD(learning_rate=0.0),
                loss="mse")
    counter = Counter()
    history = net.fit(X, Y, epochs=3, verbose=0, validation_data=batches(),
                      callbacks=[counter])
    assert counter.test == 9
    values = history.history["val_loss"]
    assert values[0] == pytest.approx(net.evaluate(X, Y, verbose=0,
                                                   batch_size=4))
    assert values == pytest.approx([values[0]] * 3)


def test_generator_validation_steps():
    counter = Counter()
    model().fit(X, Y, epochs=2, verbose=0, validation_data=forever(),
                validation_steps=2, callbacks=[counter])
    assert counter.test == 4


def test_predict_and_evaluate_on_generators():
    net = model()
    predictions = net.predict(((X[i:i + 5],) for i in range(0, 12, 5)),
                              verbose=0)
    np.testing.assert_allclose(predictions, net.predict(X, verbose=0),
                               rtol=1e-6)
    assert net.predict(forever(), steps=2, verbose=0).shape == (8, 1)
    assert net.evaluate(forever(), steps=3, verbose=0) == pytest.approx(
        net.evaluate(X, Y, batch_size=4, verbose=0))


def test_generator_argument_errors():
    net = model()
    with pytest.raises(ValueError, match="`y` should not be passed"):
        net.fit(batches(), Y, verbose=0)
    with pytest.raises(ValueError, match="class_weight"):
        net.fit(batches(), class_weight={0: 1.0}, verbose=0)
    with pytest.raises(ValueError, match="validation_split"):
        net.fit(batches(), validation_split=0.2, verbose=0)
    with pytest.raises(ValueError, match="must return a tuple"):
        net.fit((x for x, _ in batches()), verbose=0)
    with pytest.raises(ValueError, match="at least one batch"):
        net.fit(iter([]), verbose=0)


@pytest.mark.parametrize("kwargs", [{}, {"workers": 3},
                                    {"workers": 2,
                                     "use_multiprocessing": True}])
def test_py_dataset_fit_evaluate_predict(kwargs):
    net, counter = model(), Counter()
    data = Data(**kwargs)
    history = net.fit(data, epochs=2, verbose=0, callbacks=[counter],
                      validation_data=Data(**kwargs))
    assert counter.epochs == [3, 6] and history.params["steps"] == 3
    assert sorted(history.history) == ["loss", "val_loss"]
    assert net.evaluate(Data(**kwargs), verbose=0) == pytest.approx(
        net.evaluate(X, Y, batch_size=4, verbose=0))
    np.testing.assert_allclose(net.predict(Data(with_y=False, **kwargs),
                                           verbose=0),
                               net.predict(X, verbose=0), rtol=1e-6)


def test_py_dataset_epoch_hooks_and_shuffling():
    data = Data()
    model().fit(data, epochs=3, verbose=0, shuffle=True)
    # As Keras 3.15: one more pair for the read that builds the model.
    assert (data.begins, data.ends) == (4, 4)
    epochs = [data.calls[1 + 3 * e:4 + 3 * e] for e in range(3)]
    assert all(sorted(e) == [0, 1, 2] for e in epochs)
    assert len({tuple(e) for e in epochs}) > 1
    ordered = Data()
    model().fit(ordered, epochs=2, verbose=0, shuffle=False)
    assert ordered.calls[1:] == [0, 1, 2, 0, 1, 2]


def test_py_dataset_class_weight_and_rejected_arguments():
    labels = (Y[:, 0] > 0).astype("float32")[:, None]

    class Binary(Data):
        def __getitem__(self, index):
            part = slice(index * 4, index * 4 + 4)
            return X[part], labels[part]

    net = kerasish.Sequential([kerasish.Input((3,)),
                               layers.Dense(1, activation="sigmoid")])
    net.compile("sgd", "binary_crossentropy")
    net.fit(Binary(), class_weight={0: 1.0, 1: 3.0}, epochs=1, verbose=0)
    with pytest.raises(ValueError, match="`y` should not be passed"):
        net.fit(Binary(), labels, verbose=0)


def test_sequence_subclass_without_super_init_still_trains():
    class OldSequence(kerasish.utils.Sequence):
        def __init__(self):
            self.batch_size = 4

        def __len__(self):
            return 3

        def __getitem__(self, index):
            part = slice(index * 4, index * 4 + 4)
            return X[part], Y[part]

    with pytest.warns(UserWarning, match="should call `super"):
        model().fit(OldSequence(), epochs=1, verbose=0)
