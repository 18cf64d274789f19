"""Shared helpers of the session tests."""
import numpy as np

import kerasish as keras
from kerasish import train


def model(optimizer="sgd"):
    m = keras.Sequential([keras.Input((3,), name="x"),
                          keras.layers.Dense(4, activation="relu",
                                             name="hidden"),
                          keras.layers.Dense(1, name="out")])
    m.compile(optimizer, "mse", metrics=["mae"])
    return m


def batches(n=5, size=4, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        x = rng.random((size, 3)).astype("float32")
        out.append((x, x.sum(axis=1, keepdims=True)))
    return out


class RecordingHook(train.SessionRunHook):
    """Appends `(tag, event)` to a shared list for every hook call."""

    def __init__(self, trace, tag="hook", fetches=None):
        self.trace, self.tag, self.fetches = trace, tag, fetches
        self.results = []

    def begin(self):
        self.trace.append((self.tag, "begin"))

    def after_create_session(self, session, coord):
        self.trace.append((self.tag, "after_create_session"))

    def before_run(self, run_context):
        self.trace.append((self.tag, "before_run"))
        if self.fetches is not None:
            return train.SessionRunArgs(self.fetches)
        return None

    def after_run(self, run_context, run_values):
        self.trace.append((self.tag, "after_run"))
        self.results.append(run_values.results)

    def end(self, session):
        self.trace.append((self.tag, "end"))
