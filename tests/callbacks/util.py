"""Small models and data shared by the callback tests."""
import numpy as np

import kerasish as keras


def data(n=40, features=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.random((n, features)).astype("float32")
    y = x.sum(axis=1, keepdims=True).astype("float32")
    return x, y


def regression_model(optimizer="sgd", metrics=("mae",), dropout=0.0):
    layers = [keras.Input((3,)), keras.layers.Dense(4, activation="relu")]
    if dropout:
        layers.append(keras.layers.Dropout(dropout))
    layers.append(keras.layers.Dense(1))
    model = keras.Sequential(layers)
    model.compile(optimizer, "mse", metrics=list(metrics))
    return model


def weights_bytes(model):
    arrays = [w for w in model.get_weights()]
    arrays += [v.numpy() for v in model.optimizer.variables]
    return [np.asarray(a).tobytes() for a in arrays]


class Recorder(keras.callbacks.Callback):
    """Records every hook call as `(name, arg)` pairs."""

    def __init__(self):
        super().__init__()
        self.events = []

    def _add(self, name, arg=None):
        self.events.append(name if arg is None else (name, arg))


def _make(name, with_arg):
    if with_arg:
        def hook(self, arg, logs=None):
            self._add(name, arg)
    else:
        def hook(self, logs=None):
            self._add(name)
    return hook


for _name in ("on_train_begin", "on_train_end", "on_test_begin",
              "on_test_end", "on_predict_begin", "on_predict_end"):
    setattr(Recorder, _name, _make(_name, False))
for _name in ("on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
              "on_train_batch_end", "on_test_batch_begin",
              "on_test_batch_end", "on_predict_batch_begin",
              "on_predict_batch_end"):
    setattr(Recorder, _name, _make(_name, True))
