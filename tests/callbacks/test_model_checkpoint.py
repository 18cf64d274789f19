"""ModelCheckpoint: filepath formatting, best-only, save_freq, retention."""
import os

import numpy as np
import pytest

import kerasish as keras
from kerasish.callbacks import ModelCheckpoint
from tests.callbacks.util import data, regression_model


def fit(model, callbacks, epochs=2, n=20, batch_size=4, **kwargs):
    x, y = data(n)
    return model.fit(x, y, batch_size=batch_size, epochs=epochs,
                     callbacks=callbacks, verbose=0, **kwargs)


def test_filepath_formatting_from_logs(tmp_path):
    path = str(tmp_path / "ck" / "e{epoch:02d}-{val_loss:.3f}-{mae:.2f}.keras")
    history = fit(regression_model(), [ModelCheckpoint(path)],
                  validation_split=0.2)
    names = sorted(os.listdir(tmp_path / "ck"))
    expected = [f"e{e + 1:02d}-{history.history['val_loss'][e]:.3f}-"
                f"{history.history['mae'][e]:.2f}.keras" for e in range(2)]
    assert names == sorted(expected)
    loaded = keras.saving.load_model(str(tmp_path / "ck" / expected[1]))
    assert loaded.count_params() == 21


def test_missing_format_key_is_a_clear_key_error(tmp_path):
    cb = ModelCheckpoint(str(tmp_path / "{nokey}.keras"))
    with pytest.raises(KeyError, match="Failed to format this callback "
                                       "filepath") as info:
        fit(regression_model(), [cb], epochs=1)
    assert "Reason: \\'nokey\\'" in str(info.value)


def test_save_freq_int_counts_batches_across_epochs(tmp_path):
    # 5 batches per epoch, save every 3: e1-b3, e2-b1, e2-b4 (as Keras).
    path = str(tmp_path / "e{epoch}-b{batch}.weights.h5")
    cb = ModelCheckpoint(path, save_weights_only=True, save_freq=3)
    fit(regression_model(), [cb], epochs=2, n=20, batch_size=4)
    assert sorted(os.listdir(tmp_path)) == ["e1-b3.weights.h5",
                                            "e2-b1.weights.h5",
                                            "e2-b4.weights.h5"]


def test_save_best_only_with_int_save_freq_works(tmp_path):
    # Keras crashes with TypeError on the second batch save here.
    path = str(tmp_path / "best.weights.h5")
    cb = ModelCheckpoint(path, monitor="loss", save_best_only=True,
                         save_weights_only=True, save_freq=2)
    fit(regression_model(), [cb], epochs=2)
    assert os.path.exists(path) and cb.best is not None


def test_save_best_only_saves_only_improvements(tmp_path, capsys):
    path = str(tmp_path / "e{epoch}.weights.h5")
    cb = ModelCheckpoint(path, monitor="loss", mode="max",
                         save_best_only=True, save_weights_only=True,
                         verbose=1)
    fit(regression_model(keras.optimizers.SGD(0.05)), [cb], epochs=3)
    # The loss falls, so in "max" mode only the first epoch is "best".
    assert os.listdir(tmp_path) == ["e1.weights.h5"]
    out = capsys.readouterr().out
    assert "Epoch 1: loss improved from None to" in out
    assert "Epoch 2: loss did not improve from" in out


def test_initial_value_threshold(tmp_path):
    path = str(tmp_path / "m.weights.h5")
    cb = ModelCheckpoint(path, monitor="loss", save_best_only=True,
                         save_weights_only=True,
                         initial_value_threshold=-1.0)
    fit(regression_model(), [cb], epochs=2)
    assert not os.path.exists(path)


def test_missing_monitor_warns_and_saves(tmp_path):
    path = str(tmp_path / "m.weights.h5")
    cb = ModelCheckpoint(path, save_best_only=True, save_weights_only=True)
    with pytest.warns(UserWarning, match="Can save best model only with "
                                         "val_loss available"):
        fit(regression_model(), [cb], epochs=1)
    assert os.path.exists(path)


def test_max_to_keep_deletes_older_files(tmp_path):
    path = str(tmp_path / "e{epoch}.weights.h5")
    cb = ModelCheckpoint(path, save_weights_only=True, max_to_keep=2)
    fit(regression_model(), [cb], epochs=4)
    assert sorted(os.listdir(tmp_path)) == ["e3.weights.h5",
                                            "e4.weights.h5"]
    with pytest.raises(ValueError, match="max_to_keep"):
        ModelCheckpoint(path, save_weights_only=True, max_to_keep=0)


def test_checkpoint_restores_in_a_fresh_model(tmp_path):
    path = str(tmp_path / "w.weights.h5")
    model = regression_model()
    fit(model, [ModelCheckpoint(path, save_weights_only=True)])
    other = regression_model()
    other.load_weights(path)
    x, _ = data(5)
    np.testing.assert_array_equal(model.predict(x, verbose=0),
                                  other.predict(x, verbose=0))


@pytest.mark.parametrize("path, weights_only, message", [
    ("m.keras", True, "must end in `.weights.h5`"),
    ("m.txt", False, "must end in `.keras`"),
])
def test_bad_extensions_raise(path, weights_only, message):
    with pytest.raises(ValueError, match=message):
        ModelCheckpoint(path, save_weights_only=weights_only)


@pytest.mark.parametrize("path", ["m.h5", "m.hdf5"])
@pytest.mark.parametrize("weights_only", [True, False])
def test_h5_paths_are_accepted(path, weights_only):
    # Keras raises for these (keras-io#1568); kerasish writes legacy HDF5.
    cb = ModelCheckpoint(path, save_weights_only=weights_only)
    assert cb.filepath == path


def test_h5_checkpoint_loads_back(tmp_path):
    pytest.importorskip("kerasish.saving.legacy_h5",
                        reason="legacy HDF5 writer (saving package)")
    path = str(tmp_path / "w.h5")
    model = regression_model()
    fit(model, [ModelCheckpoint(path, save_weights_only=True)], epochs=1)
    other = regression_model()
    other.load_weights(path)
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_invalid_save_freq_and_directory_path(tmp_path):
    with pytest.raises(ValueError, match="Unrecognized save_freq"):
        ModelCheckpoint("m.keras", save_freq="never")
    os.makedirs(tmp_path / "d.keras")
    cb = ModelCheckpoint(str(tmp_path / "d.keras"))
    with pytest.raises(IOError, match="non-directory filepath"):
        fit(regression_model(), [cb], epochs=1)
