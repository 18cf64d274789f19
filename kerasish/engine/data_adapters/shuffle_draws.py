"""Where a pass's shuffle comes from: the global RNGs Keras draws from.

Keras shuffles arrays with numpy's global RNG (`np.random.permutation`,
drawn when a pass yields its first batch) and a PyDataset's batch order
with Python's `random.shuffle`. `set_random_seed` seeds both, so the same
seed gives the batch order Keras gives.

To resume a pass exactly, `ShuffleDraws` remembers the RNG state from
just before the pass's first draw and how many draws the pass has made.
A restored pass replays those draws from a private copy of that state, so
the global RNG (restored separately) is left where the capture found it.
"""
import random as _pyrandom

import numpy as np

from kerasish.backend import random as krandom

_KINDS = {
    "numpy": (np.random, krandom.numpy_global_state, krandom.numpy_rng_from),
    "python": (_pyrandom, krandom.python_global_state,
               krandom.python_rng_from),
}


class ShuffleDraws:
    """The shuffle draws of an adapter's current pass.

    Args:
        kind: `"numpy"` (draws with `np.random`) or `"python"` (with
            `random`).
    """

    def __init__(self, kind):
        self._live, self._state_of_global, self._private = _KINDS[kind]
        self._start = None
        self._draws = 0
        self._replay = None
        self._replay_rng = None
        self._replay_left = 0

    def new_pass(self):
        """Forget the last pass: the next draw is the new pass's first."""
        self._start, self._draws = None, 0
        self._replay_rng, self._replay_left = None, 0
        if self._replay is not None:
            self._start, self._replay_left = self._replay
            self._replay_rng = self._private(self._start)
            self._replay = None

    def rng(self):
        """The generator to make the pass's next draw with."""
        if self._start is None:
            self._start = self._state_of_global()
        self._draws += 1
        if self._replay_left:
            self._replay_left -= 1
            return self._replay_rng
        return self._live

    def get_state(self):
        """What replays this pass's draws so far (None before any)."""
        if self._start is None or not self._draws:
            return None
        return {"start": self._start, "draws": self._draws}

    def replay(self, state):
        """Make the next pass repeat the draws `state` recorded."""
        self._replay = (state["start"], int(state["draws"]))
