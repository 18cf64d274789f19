"""`DropoutRNNCell`: dropout masks drawn once per sequence, reused each step.

Keras's recurrent dropout (Gal & Ghahramani) drops the same input and
recurrent units at every timestep of a sequence: the masks are created on
the first step of a call and cleared by the RNN layer when the call ends.
"""
from kerasish import ops
from kerasish.backend import random


class DropoutRNNCell:
    """Mixin holding the dropout-mask cache of an RNN cell.

    The cell provides `dropout`, `recurrent_dropout` (rates in [0, 1]) and
    a `seed_generator`; `dropout_mask_count`, when set, asks for one mask
    per gate (Keras's `implementation=1`, used with recurrent dropout).
    """

    def _create_dropout_mask(self, step_input, rate):
        ones = ops.ones_like(step_input)
        count = getattr(self, "dropout_mask_count", None)
        if count is None:
            return random.dropout(ones, rate, seed=self.seed_generator)
        return [random.dropout(ones, rate, seed=self.seed_generator)
                for _ in range(count)]

    def get_dropout_mask(self, step_input):
        """The input mask of the current sequence (created on first use)."""
        if getattr(self, "_dropout_mask", None) is None and self.dropout > 0:
            mask = self._create_dropout_mask(step_input, self.dropout)
            object.__setattr__(self, "_dropout_mask", mask)
        return getattr(self, "_dropout_mask", None)

    def get_recurrent_dropout_mask(self, step_input):
        """The recurrent-state mask of the current sequence."""
        if getattr(self, "_recurrent_dropout_mask", None) is None and \
                self.recurrent_dropout > 0:
            mask = self._create_dropout_mask(step_input,
                                             self.recurrent_dropout)
            object.__setattr__(self, "_recurrent_dropout_mask", mask)
        return getattr(self, "_recurrent_dropout_mask", None)

    def reset_dropout_mask(self):
        """Forget the input mask (the RNN layer calls this after a call)."""
        object.__setattr__(self, "_dropout_mask", None)

    def reset_recurrent_dropout_mask(self):
        object.__setattr__(self, "_recurrent_dropout_mask", None)
