"""Runtimes: where variables live and who runs and applies a step.

The loops never run a step themselves; they call the model's runtime:

    begin(model, mode)           before a fit / evaluate / predict loop
    train_step / test_step / predict_step(model, batch)   one step
    sync()                       wait for steps still in flight
    end(model, mode)             after the loop (also when it raised)

and the model makes its variables in `variable_scope()`. A runtime also
owns what a parameter server needs: `reduce_logs` (per-replica logs into
one), `save(directory)` / `restore(directory)` of state it holds away
from the driver, and `shutdown()`. `LocalRuntime` runs everything in this
process; `kerasish.distribute.ParameterServerStrategy` brings one that
runs on Ray actors.
"""
import contextlib

import numpy as np


class Runtime:
    """Interface of runtimes (see module docstring)."""

    def variable_scope(self):
        """The context models build their variables in."""
        return contextlib.nullcontext()

    def begin(self, model, mode):
        """Before a `fit` / `evaluate` / `predict` loop starts."""

    def end(self, model, mode):
        """After the loop (also when it raised)."""

    def sync(self):
        """Return once every step handed over so far has been applied."""

    def train_step(self, model, batch):
        raise NotImplementedError(
            f"{type(self).__name__} must implement train_step().")

    def test_step(self, model, batch):
        raise NotImplementedError(
            f"{type(self).__name__} must implement test_step().")

    def predict_step(self, model, batch):
        raise NotImplementedError(
            f"{type(self).__name__} must implement predict_step().")

    def reduce_logs(self, replica_logs, weights=None):
        """One logs dict from per-replica ones: each key's mean (weighted
        by `weights`, the replicas' sample counts, when given).

        Example:

        >>> LocalRuntime().reduce_logs([{"loss": 1.0}, {"loss": 3.0}],
        ...                            weights=[3, 1])
        {'loss': 1.5}
        """
        if not replica_logs:
            return {}
        weights = np.ones(len(replica_logs)) if weights is None else \
            np.asarray(weights, dtype=np.float64)
        keys = [k for k in replica_logs[0]
                if all(k in logs for logs in replica_logs)]
        return {k: float(np.average([float(logs[k]) for logs in
                                     replica_logs], weights=weights))
                for k in keys}

    def save(self, directory):
        """Write state held away from the driver; the local runtime holds
        none (returns None)."""

    def restore(self, directory):
        """Read back what `save` wrote (nothing for the local runtime)."""

    def shutdown(self):
        """Release what the runtime started (processes, actors)."""


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
        with quiet_numpy():
            return model.train_step(batch)

    def test_step(self, model, batch):
        with quiet_numpy():
            return model.test_step(batch)

    def predict_step(self, model, batch):
        with quiet_numpy():
            return model.predict_step(batch)


def quiet_numpy():
    """numpy's floating-point warnings off (as compiled steps run)."""
    return np.errstate(over="ignore", under="ignore", invalid="ignore",
                       divide="ignore")
