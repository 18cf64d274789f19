"""keras.config switches: interactive logging, traceback filtering, flash
attention, epoch/step caps, set_backend, is_nnx_enabled; utils.Config."""
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

import kerasish as keras
from kerasish.backend.common import global_state as config_utils


@pytest.fixture(autouse=True)
def _restore_switches():
    yield
    keras.config.enable_interactive_logging()
    keras.config.enable_traceback_filtering()
    keras.config.enable_flash_attention()
    keras.config.set_max_epochs(None)
    keras.config.set_max_steps_per_epoch(None)


def _tiny_model():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
        1, kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(0.1), "mse")
    return model


def _data():
    x = np.arange(40, dtype="float32").reshape(20, 2) / 40
    return x, x.sum(1, keepdims=True)


# -- interactive logging ------------------------------------------------------
def test_interactive_logging_switch_is_shared_by_config_and_utils():
    assert keras.utils.is_interactive_logging_enabled()
    keras.utils.disable_interactive_logging()
    assert not keras.config.is_interactive_logging_enabled()
    keras.config.enable_interactive_logging()
    assert keras.utils.is_interactive_logging_enabled()


def test_summary_goes_to_logging_when_not_interactive(capsys, caplog):
    model = _tiny_model()
    keras.config.disable_interactive_logging()
    with caplog.at_level(logging.INFO, logger="kerasish"):
        model.summary()
    assert capsys.readouterr().out == ""
    assert "Total params: 3" in caplog.text
    keras.config.enable_interactive_logging()
    model.summary()
    assert "Total params: 3" in capsys.readouterr().out


def test_fit_progress_goes_to_logging_when_not_interactive(capsys, caplog):
    x, y = _data()
    keras.config.disable_interactive_logging()
    with caplog.at_level(logging.INFO, logger="kerasish"):
        _tiny_model().fit(x, y, batch_size=10, epochs=2, verbose=1)
    assert capsys.readouterr().out == ""
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == "Epoch 1/2"
    assert messages[1].startswith("2/2 - ") and " - loss: " in messages[1]
    assert messages[2] == "Epoch 2/2"


def test_callback_messages_go_to_logging_when_not_interactive(capsys,
                                                             caplog):
    x, y = _data()
    stop = keras.callbacks.EarlyStopping("loss", patience=0, mode="max",
                                         verbose=1)
    keras.config.disable_interactive_logging()
    with caplog.at_level(logging.INFO, logger="kerasish"):
        _tiny_model().fit(x, y, batch_size=10, epochs=5, verbose=0,
                          callbacks=[stop])
    assert capsys.readouterr().out == ""
    assert "Epoch 2: early stopping" in caplog.text


def test_print_msg_writes_stdout_when_interactive(capsys):
    config_utils.print_msg("a", line_break=False)
    config_utils.print_msg("b")
    assert capsys.readouterr().out == "ab\n"


# -- traceback filtering and flash attention ----------------------------------
def test_traceback_filtering_is_recorded():
    assert keras.config.is_traceback_filtering_enabled()
    keras.config.disable_traceback_filtering()
    assert not keras.config.is_traceback_filtering_enabled()
    keras.config.enable_traceback_filtering()
    assert keras.config.is_traceback_filtering_enabled()


def test_flash_attention_switch_values_as_keras():
    # Keras: enabling resets to None ("if possible"), disabling is False.
    assert keras.config.is_flash_attention_enabled() is None
    keras.config.disable_flash_attention()
    assert keras.config.is_flash_attention_enabled() is False
    keras.config.enable_flash_attention()
    assert keras.config.is_flash_attention_enabled() is None


def test_enabled_flash_attention_computes_attention_normally():
    x = np.random.default_rng(0).normal(size=(2, 3, 4)).astype("float32")
    plain = keras.layers.MultiHeadAttention(2, 4, seed=1)
    expected = plain(x, x)
    keras.config.enable_flash_attention()
    layer = keras.layers.MultiHeadAttention(2, 4, seed=1)
    layer(x, x)
    layer.set_weights(plain.get_weights())
    np.testing.assert_allclose(layer(x, x), expected, rtol=1e-6)


def test_explicit_flash_attention_raises_numpy_backend_error():
    x = np.ones((1, 3, 4), "float32")
    layer = keras.layers.MultiHeadAttention(2, 4, flash_attention=True)
    with pytest.raises(ValueError, match="not supported in numpy backend"):
        layer(x, x)
    with pytest.raises(ValueError, match="Returning attention scores"):
        layer(x, x, return_attention_scores=True)
    with pytest.raises(ValueError, match="Dropout is not supported"):
        keras.layers.MultiHeadAttention(2, 4, flash_attention=True,
                                        dropout=0.1)


def test_flash_attention_unused_on_the_unfused_path():
    # 4-D inputs take the einsum path in Keras, so no flash error there.
    x = np.ones((1, 2, 3, 4), "float32")
    layer = keras.layers.MultiHeadAttention(2, 4, flash_attention=True,
                                            attention_axes=(1, 2))
    assert layer(x, x).shape == (1, 2, 3, 4)


# -- epoch and step caps ------------------------------------------------------
def test_caps_limit_fit_evaluate_predict_with_keras_warnings_and_numbers():
    # Reference: the same script under Keras 3.15.1 (JAX backend) printed
    # loss [0.08129, 0.31323], val_loss [0.04187, 0.08499], predict (6, 1).
    x, y = _data()
    model = _tiny_model()
    keras.config.set_max_epochs(2)
    keras.config.set_max_steps_per_epoch(3)
    with pytest.warns(UserWarning) as record:
        history = model.fit(x, y, batch_size=2, epochs=5, verbose=0,
                            shuffle=False, validation_data=(x, y))
    assert [str(w.message) for w in record] == [
        "Limiting epochs to 2", "Limiting steps_per_epoch to 3",
        "Limiting steps_per_epoch to 3"]
    assert history.epoch == [0, 1]
    assert history.params == {"verbose": 0, "epochs": 2, "steps": 3}
    np.testing.assert_allclose(history.history["loss"], [0.08129, 0.31323],
                               atol=1e-5)
    np.testing.assert_allclose(history.history["val_loss"],
                               [0.04187, 0.08499], atol=1e-5)
    with pytest.warns(UserWarning, match="Limiting steps_per_epoch to 3"):
        assert model.predict(x, batch_size=2, verbose=0).shape == (6, 1)
    with pytest.warns(UserWarning, match="Limiting steps_per_epoch to 3"):
        loss = model.evaluate(x, y, batch_size=2, verbose=0)
    assert loss == pytest.approx(0.08499, abs=1e-5)


def test_caps_above_the_request_change_nothing():
    # Keras 3.15.1 printed loss [1.08328, 0.33343, 0.17103] here too (it
    # warns and sets steps=50, but each epoch still ends with the data).
    x, y = _data()
    keras.config.set_max_epochs(10)
    keras.config.set_max_steps_per_epoch(50)
    history = _tiny_model().fit(x, y, batch_size=10, epochs=3, verbose=0,
                                shuffle=False)
    assert history.params["epochs"] == 3 and history.params["steps"] == 2
    np.testing.assert_allclose(history.history["loss"],
                               [1.08328, 0.33343, 0.17103], atol=1e-5)


@pytest.mark.parametrize("variable, getter", [
    ("KERAS_MAX_EPOCHS", "max_epochs"),
    ("KERAS_MAX_STEPS_PER_EPOCH", "max_steps_per_epoch")])
def test_caps_read_from_environment(variable, getter):
    env = dict(os.environ, **{variable: "4"})
    out = subprocess.run(
        [sys.executable, "-c",
         f"import kerasish; print(kerasish.config.{getter}())"],
        env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "4"


# -- backend ------------------------------------------------------------------
def test_set_backend_accepts_numpy_only(monkeypatch):
    monkeypatch.delenv("KERAS_BACKEND", raising=False)
    keras.config.set_backend("numpy")
    assert os.environ["KERAS_BACKEND"] == "numpy"
    assert keras.config.backend() == "numpy"
    with pytest.raises(ValueError, match="numpy backend only.*backend=jax"):
        keras.config.set_backend("jax")
    with pytest.raises(ValueError, match="Unable to import backend : foo"):
        keras.config.set_backend("foo")


def test_nnx_is_never_enabled():
    assert keras.config.is_nnx_enabled() is False


# -- keras.utils.Config -------------------------------------------------------
def test_config_attribute_and_item_access_and_json():
    config = keras.utils.Config(learning_rate=0.1, momentum=0.9)
    config.use_ema = True
    config["seed"] = 3
    assert config.seed == 3 and config["use_ema"] is True
    assert list(config) == ["learning_rate", "momentum", "seed", "use_ema"]
    assert len(config) == 4 and "seed" in config
    assert config.as_dict() == {"learning_rate": 0.1, "momentum": 0.9,
                                "use_ema": True, "seed": 3}
    assert config.to_json() == ('{"learning_rate": 0.1, "momentum": 0.9, '
                                '"use_ema": true, "seed": 3}')
    assert config.get("missing", 5) == 5
    assert config.pop("seed") == 3
    del config["use_ema"]
    config.update(momentum=0.5)
    assert repr(config) == "<Config {'learning_rate': 0.1, 'momentum': 0.5}>"


def test_config_freeze_and_unknown_attributes():
    config = keras.utils.Config(learning_rate=0.1)
    config.freeze()
    assert config.frozen
    for mutate in (lambda: setattr(config, "a", 1),
                   lambda: config.__setitem__("a", 1),
                   lambda: config.update(a=1), lambda: config.pop("a", 0)):
        with pytest.raises(ValueError, match="config is frozen"):
            mutate()
    config.unfreeze()
    config.a = 1
    with pytest.raises(AttributeError,
                       match="Unknown attribute: 'learning_rat'. Did you "
                             "mean 'learning_rate'?"):
        config.learning_rat
