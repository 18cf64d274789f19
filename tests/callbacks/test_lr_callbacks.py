"""ReduceLROnPlateau and LearningRateScheduler."""
import numpy as np
import pytest

import kerasish as keras
from kerasish.callbacks import LearningRateScheduler, ReduceLROnPlateau
from tests.callbacks.util import data, regression_model


class FakeOptimizer:
    def __init__(self, lr):
        self.learning_rate = lr


class FakeModel:
    def __init__(self, lr=1.0):
        self.optimizer = FakeOptimizer(lr)
        self.stop_training = False
        self.metrics = []


def run(cb, losses, model):
    cb.set_model(model)
    cb.on_train_begin()
    rates = []
    for epoch, loss in enumerate(losses):
        logs = {"loss": loss}
        cb.on_epoch_end(epoch, logs)
        rates.append((logs["learning_rate"], model.optimizer.learning_rate))
    return rates


def test_reduce_after_patience_with_cooldown_and_min_lr():
    model = FakeModel(1.0)
    cb = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=2,
                           cooldown=1, min_lr=0.2)
    rates = run(cb, [1.0] * 8, model)
    logged = [r[0] for r in rates]
    after = [r[1] for r in rates]
    # Logged values are the rate used during the epoch (before reducing);
    # after a reduction, one cooldown epoch passes before waiting resumes.
    assert logged == [1.0, 1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.2]
    assert after == [1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.2, 0.2]


def test_reduce_schedule_exactly():
    model = FakeModel(1.0)
    cb = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    run(cb, [1.0, 1.0, 1.0, 1.0], model)
    # Epochs 1, 2, 3 each wait 1 >= patience 1: three halvings.
    assert model.optimizer.learning_rate == 0.125


def test_improvement_resets_wait():
    model = FakeModel(1.0)
    cb = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=2)
    run(cb, [1.0, 1.0, 0.5, 0.5, 0.4], model)
    assert model.optimizer.learning_rate == 1.0


def test_factor_must_be_below_one_and_missing_monitor_warns():
    with pytest.raises(ValueError, match="factor >= 1.0"):
        ReduceLROnPlateau(factor=1.0)
    cb = ReduceLROnPlateau(monitor="val_loss")
    cb.set_model(FakeModel())
    with pytest.warns(UserWarning, match="conditioned on metric `val_loss`"):
        cb.on_epoch_end(0, {"loss": 1.0})


def test_reduce_in_fit_adds_learning_rate_to_history(capsys):
    x, y = data(8)
    model = regression_model(keras.optimizers.SGD(0.1))
    cb = ReduceLROnPlateau(monitor="loss", mode="max", factor=0.5,
                           patience=1, verbose=1)
    history = model.fit(x, y, epochs=3, callbacks=[cb], verbose=0)
    np.testing.assert_allclose(history.history["learning_rate"],
                               [0.1, 0.1, 0.05], rtol=1e-6)
    assert "Epoch 2: ReduceLROnPlateau reducing learning rate to" in \
        capsys.readouterr().out


def test_scheduler_with_epoch_and_lr():
    x, y = data(8)
    model = regression_model(keras.optimizers.SGD(0.1))
    cb = LearningRateScheduler(lambda epoch, lr: lr * 0.5)
    history = model.fit(x, y, epochs=3, callbacks=[cb], verbose=0)
    np.testing.assert_allclose(history.history["learning_rate"],
                               [0.05, 0.025, 0.0125], rtol=1e-6)


def test_scheduler_with_epoch_only_and_verbose(capsys):
    x, y = data(8)
    model = regression_model(keras.optimizers.SGD(0.1))
    cb = LearningRateScheduler(lambda epoch: 0.01 * (epoch + 1), verbose=1)
    history = model.fit(x, y, epochs=2, callbacks=[cb], verbose=0)
    np.testing.assert_allclose(history.history["learning_rate"],
                               [0.01, 0.02], rtol=1e-6)
    assert "Epoch 1: LearningRateScheduler setting learning rate to 0.01." \
        in capsys.readouterr().out


def test_scheduler_must_return_a_float():
    x, y = data(8)
    model = regression_model()
    cb = LearningRateScheduler(lambda epoch, lr: "fast")
    with pytest.raises(ValueError, match="should be a float. Got: fast"):
        model.fit(x, y, epochs=1, callbacks=[cb], verbose=0)


def test_scheduler_state_avoids_double_application_on_resume():
    model = FakeModel(1.0)
    cb = LearningRateScheduler(lambda epoch, lr: lr * 0.5)
    cb.set_model(model)
    cb.on_epoch_begin(0)
    state = cb.get_state()
    # A resumed process: the optimizer already has this epoch's rate.
    other = LearningRateScheduler(lambda epoch, lr: lr * 0.5)
    other.set_model(model)
    other.set_state(state)
    other.on_epoch_begin(0)
    assert model.optimizer.learning_rate == 0.5


def multi_optimizer_model():
    model = keras.Sequential([keras.Input((3,)),
                              keras.layers.Dense(2, name="enc"),
                              keras.layers.Dense(1, name="head")])
    rates = keras.optimizers.OptimizerMap(
        default_optimizer=keras.optimizers.SGD(0.01, name="sgd_b"))
    rates["enc"] = keras.optimizers.SGD(0.1, name="sgd_a")
    model.compile(keras.optimizers.MultiOptimizer(rates), "mse")
    return model


def fit_multi(callback):
    x, y = data(10)
    return multi_optimizer_model().fit(
        x, y, batch_size=5, epochs=3, verbose=0, shuffle=False,
        callbacks=[callback])


def test_reduce_each_inner_optimizer_of_a_multi_optimizer(capsys):
    # Log keys, rates and messages are Keras 3.15's for the same model.
    history = fit_multi(ReduceLROnPlateau(
        monitor="loss", patience=0, factor=0.5, min_delta=10, verbose=1))
    np.testing.assert_allclose(history.history["learning_rate_sgd_a"],
                               [0.1, 0.1, 0.05], rtol=1e-6)
    np.testing.assert_allclose(history.history["learning_rate_sgd_b"],
                               [0.01, 0.01, 0.005], rtol=1e-6)
    assert "learning_rate" not in history.history
    assert capsys.readouterr().out == (
        "\nEpoch 2: ReduceLROnPlateau reducing sgd_a learning rate to "
        "0.05000000074505806.\n"
        "\nEpoch 2: ReduceLROnPlateau reducing sgd_b learning rate to "
        "0.004999999888241291.\n"
        "\nEpoch 3: ReduceLROnPlateau reducing sgd_a learning rate to "
        "0.02500000037252903.\n"
        "\nEpoch 3: ReduceLROnPlateau reducing sgd_b learning rate to "
        "0.0024999999441206455.\n")


def test_scheduler_sets_each_inner_optimizer_of_a_multi_optimizer(capsys):
    # Keras 3.15: each inner optimizer's own rate goes through the schedule.
    history = fit_multi(LearningRateScheduler(lambda e, lr: lr * 0.5,
                                              verbose=1))
    np.testing.assert_allclose(history.history["learning_rate_sgd_a"],
                               [0.05, 0.025, 0.0125], rtol=1e-6)
    np.testing.assert_allclose(history.history["learning_rate_sgd_b"],
                               [0.005, 0.0025, 0.00125], rtol=1e-6)
    lines = capsys.readouterr().out.split("\n\n")
    assert lines[0] == ("\nEpoch 1: LearningRateScheduler setting sgd_a "
                        "learning rate to 0.05000000074505806.")
    assert lines[1] == ("Epoch 1: LearningRateScheduler setting sgd_b "
                        "learning rate to 0.004999999888241291.")
    assert len(lines) == 6
