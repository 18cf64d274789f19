"""Runtimes: what executes a training/test/predict step for the loops.

The loops in `engine/fit_loop.py` never run a step themselves; they call
`runtime.train_step(model, batch)` (and `test_step`, `predict_step`), with
`begin(model, mode)` / `end(model, mode)` around each loop. A runtime that
keeps parameters elsewhere (a parameter-server runtime) pulls and pushes
them in these methods; `LocalRuntime` just calls the model in-process.
"""
import numpy as np


class Runtime:
    """Interface of runtimes (see module docstring)."""

    def begin(self, model, mode):
        """Before a `fit` / `evaluate` / `predict` loop starts."""

    def end(self, model, mode):
        """After the loop (also when it raised)."""

    def train_step(self, model, batch):
        raise NotImplementedError(
            f"{type(self).__name__} must implement train_step().")

    def test_step(self, model, batch):
        raise NotImplementedError(
            f"{type(self).__name__} must implement test_step().")

    def predict_step(self, model, batch):
        raise NotImplementedError(
            f"{type(self).__name__} must implement predict_step().")


class LocalRuntime(Runtime):
    """Run every step in this process on the numpy backend.

    Steps run with numpy's floating-point warnings off: a diverging run
    gives `inf`/`nan` losses (which `TerminateOnNaN` watches) silently, as
    Keras's compiled steps do, instead of numpy's "overflow encountered"
    warnings.

    Example:

    >>> type(kerasish.distribute.get_strategy().runtime).__name__
    'LocalRuntime'
    """

    def train_step(self, model, batch):
        with np.errstate(**_QUIET):
            return model.train_step(batch)

    def test_step(self, model, batch):
        with np.errstate(**_QUIET):
            return model.test_step(batch)

    def predict_step(self, model, batch):
        with np.errstate(**_QUIET):
            return model.predict_step(batch)


_QUIET = dict(over="ignore", under="ignore", invalid="ignore",
              divide="ignore")
