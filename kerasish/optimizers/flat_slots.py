"""Small variables updated together: their slots in one flat buffer.

An elementwise update rule costs a dozen numpy calls per variable. For a
bias of 10 floats that is all call overhead, and a model has many such
variables. `FlatSlots` lays the slots of a group of small variables (say
Adam's momentums and velocities) out in one buffer each, so that the rule
runs once over the whole group: the slot variables' values become views
into the buffers, the gradients are copied into one buffer, and each
variable takes its slice of the result. Elementwise rules give every
element the same arithmetic either way, so the numbers are unchanged.

A slot variable whose value was replaced (a stateless scope swaps values
in and out) no longer points into the buffer; `linked()` notices, and the
owner lays the group out again from the current values. Slot values that
something else also holds (an estimator's variable store shares arrays
between the variables it creates for each batch) are never moved into a
buffer: `movable()` says so, and the owner updates them one by one.
"""
import sys

import numpy as np

# Below this many elements a variable's update is mostly call overhead,
# and copying its gradient costs less than a dozen calls.
SMALL = 16384


def is_small(gradient, variable):
    """Whether `variable` (with a dense `gradient`) belongs in a group."""
    return type(gradient) is np.ndarray and variable.size <= SMALL


def movable(slot_variables):
    """Whether each variable's value array is held by the variable alone
    (so giving it a new array loses nobody's reference)."""
    # The attribute and getrefcount's own argument: 2.
    return all(sys.getrefcount(v._value) <= 2 for v in slot_variables)


class FlatSlots:
    """The slots of `variables` in flat buffers (see the module docstring).

    Args:
        variables: The variables updated together (one dtype).
        slots: One list of slot variables per kind (such as momentums and
            velocities), aligned with `variables`.
        scratch: How many temporary buffers of the group's size to keep.
        key: What the owner identifies the group by.

    Attributes:
        slots: One flat array per kind of slot.
        gradient: The buffer `gather` fills.
        scratch: The temporary buffers.
    """

    def __init__(self, variables, slots, scratch=2, key=None):
        self.key = key
        self.variables = list(variables)
        self._slot_variables = [list(kind) for kind in slots]
        sizes = [v.size for v in self.variables]
        self._bounds = list(zip(np.cumsum([0] + sizes[:-1]).tolist(),
                                np.cumsum(sizes).tolist()))
        dtype = self.variables[0].dtype
        total = sum(sizes)
        self.slots = []
        self._views = []
        for kind in self._slot_variables:
            flat = np.empty(total, dtype)
            views = []
            for slot, (start, stop) in zip(kind, self._bounds):
                view = flat[start:stop].reshape(slot.shape)
                view[...] = slot._value
                slot._value = view
                views.append(view)
            self.slots.append(flat)
            self._views.append(views)
        self.gradient = np.empty(total, dtype)
        self.scratch = [np.empty(total, dtype) for _ in range(scratch)]

    def linked(self):
        """Whether every slot variable still holds its view of the buffer
        (a copied optimizer's views are copies of their own)."""
        return all(slot._value is view and view.base is flat
                   for kind, views, flat in zip(self._slot_variables,
                                                self._views, self.slots)
                   for slot, view in zip(kind, views))

    def gather(self, gradients):
        """Copy the variables' gradients into `self.gradient`."""
        np.concatenate([g.reshape(-1) for g in gradients],
                       out=self.gradient)
        return self.gradient

    def subtract(self, update):
        """`variable -= update` for each variable, with its slice of the
        flat `update`."""
        for variable, (start, stop) in zip(self.variables, self._bounds):
            variable._value -= update[start:stop].reshape(variable.shape)
