"""EarlyStopping: Keras's documented and verified epoch counts."""
import numpy as np
import pytest

import kerasish as keras
from kerasish.callbacks import EarlyStopping
from tests.callbacks.util import data, regression_model


class FakeModel:
    def __init__(self):
        self.stop_training = False
        self.weights = [np.zeros(1)]
        self.metrics = []

    def get_weights(self):
        return [w.copy() for w in self.weights]

    def set_weights(self, weights):
        self.weights = weights


def run_epochs(callback, values, key="loss", model=None):
    model = model or FakeModel()
    callback.set_model(model)
    callback.on_train_begin()
    ran = len(values)
    for epoch, value in enumerate(values):
        model.weights = [np.array([float(epoch)])]
        callback.on_epoch_end(epoch, {key: value})
        if model.stop_training:
            ran = epoch + 1
            break
    callback.on_train_end()
    return ran


def test_patience_on_flat_loss_runs_patience_plus_one_epochs():
    assert run_epochs(EarlyStopping(monitor="loss", patience=3),
                      [1.0] * 10) == 4


def test_patience_zero_stops_at_first_non_improvement_never_epoch_0():
    assert run_epochs(EarlyStopping(monitor="loss", patience=0),
                      [1.0] * 10) == 2
    assert run_epochs(EarlyStopping(monitor="loss", patience=0),
                      [3, 2, 1, 1.5, 0.5]) == 4


@pytest.mark.parametrize("kwargs, epochs", [
    ({"patience": 0}, 2), ({"patience": 2}, 3),
    ({"patience": 0, "start_from_epoch": 3}, 5)])
def test_mode_max_on_falling_loss_matches_keras(kwargs, epochs):
    falling = [1.0 - 0.1 * i for i in range(10)]
    cb = EarlyStopping(monitor="loss", mode="max", **kwargs)
    assert run_epochs(cb, falling) == epochs


def test_min_delta_counts_small_gains_as_no_improvement():
    cb = EarlyStopping(monitor="loss", min_delta=0.1, patience=1)
    assert run_epochs(cb, [1.0, 0.95, 0.92, 0.85]) == 2
    cb = EarlyStopping(monitor="loss", min_delta=0.1, patience=2)
    assert run_epochs(cb, [1.0, 0.95, 0.92, 0.85]) == 3


def test_restore_best_weights_even_without_an_early_stop():
    model = FakeModel()
    cb = EarlyStopping(monitor="loss", patience=10,
                       restore_best_weights=True)
    run_epochs(cb, [3.0, 1.0, 2.0, 2.5], model=model)
    assert model.weights[0][0] == 1.0 and cb.best_epoch == 1
    assert cb.stopped_epoch == 0


def test_restore_best_weights_in_a_real_fit():
    x, y = data(16)
    model = regression_model(keras.optimizers.SGD(0.05))
    snapshots = []

    class Snap(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            snapshots.append((logs["loss"], self.model.get_weights()))

    cb = EarlyStopping(monitor="loss", patience=50,
                       restore_best_weights=True)
    model.fit(x, y, epochs=4, callbacks=[Snap(), cb], verbose=0)
    best = min(snapshots, key=lambda s: s[0])[1]
    for a, b in zip(model.get_weights(), best):
        np.testing.assert_array_equal(a, b)


def test_baseline_stops_a_metric_that_never_reaches_it():
    # Keras never stops here (each epoch improves on the best, so its
    # patience check is skipped); kerasish follows the documentation.
    # Every epoch short of the baseline counts, as with a flat metric
    # (where Keras also stops after 2 epochs with patience=2).
    improving = [1.0 - 0.01 * i for i in range(10)]
    cb = EarlyStopping(monitor="loss", baseline=0.5, patience=2)
    assert run_epochs(cb, improving) == 2
    assert run_epochs(EarlyStopping(monitor="loss", baseline=0.5,
                                    patience=2), [1.0] * 10) == 2


def test_baseline_beaten_resets_wait():
    cb = EarlyStopping(monitor="loss", baseline=0.5, patience=1)
    assert run_epochs(cb, [0.4, 0.3, 0.2, 0.2, 0.2]) == 4


def test_missing_monitor_warns_and_continues():
    cb = EarlyStopping(monitor="val_loss")
    with pytest.warns(UserWarning, match="Early stopping conditioned on "
                                         "metric `val_loss`"):
        assert run_epochs(cb, [1.0, 1.0]) == 2


def test_instance_is_reusable_across_fits():
    cb = EarlyStopping(monitor="loss", patience=0)
    assert run_epochs(cb, [1.0, 1.0, 1.0]) == 2
    assert run_epochs(cb, [5.0, 4.0, 3.0]) == 3


def test_unknown_mode_warns_and_uses_auto():
    with pytest.warns(UserWarning, match="mode 'sideways' is unknown"):
        cb = EarlyStopping(monitor="loss", mode="sideways")
    assert cb.mode == "auto"


def test_verbose_messages(capsys):
    model = FakeModel()
    cb = EarlyStopping(monitor="loss", patience=0, verbose=1,
                       restore_best_weights=True)
    run_epochs(cb, [1.0, 2.0], model=model)
    out = capsys.readouterr().out
    assert "Epoch 2: early stopping" in out
    assert "Restoring model weights from the end of the best epoch: 1." \
        in out


def test_state_round_trip():
    cb = EarlyStopping(monitor="loss", patience=2, restore_best_weights=True)
    model = FakeModel()
    cb.set_model(model)
    cb.on_train_begin()
    cb.on_epoch_end(0, {"loss": 1.0})
    cb.on_epoch_end(1, {"loss": 2.0})
    other = EarlyStopping(monitor="loss", patience=2,
                          restore_best_weights=True)
    other.set_model(model)
    other.on_train_begin()
    other.set_state(cb.get_state())
    other.on_epoch_end(2, {"loss": 2.0})
    assert model.stop_training and other.stopped_epoch == 2
