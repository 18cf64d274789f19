"""`ShardedVariable`: the driver's view of a variable held by ps shards.

Variables made in a `ParameterServerStrategy.scope()` (layer weights and
optimizer state) are `ShardedVariable`s: a `Variable` that knows which ps
task holds it (`device`, `"/job:ps/task:K"`, or one device per part for a
variable split by rows) and, once training runs, reads through to the
shards. Training updates the shards only; the driver's copy is brought up
to date when something reads it (`numpy()`, `get_weights`, saving,
callbacks), one pull for every stale variable at once. A write on the
driver (`assign`, `set_weights`, loading) is pushed to the shards before
the next step.

The link to the runtime is any object with `version` (bumped whenever the
shards change), `refresh()` (pull every stale variable) and
`mark_dirty(variable)`.
"""
from kerasish.backend.tensor import Tensor
from kerasish.distribute.placement import ps_device
from kerasish.backend.common.variable import Variable

_VALUE = Tensor.__dict__["_value"]


class ShardedVariable(Variable):
    """A variable whose value lives on parameter-server shards.

    `parts` is a list of `(start_row, stop_row, task)`; an unsplit
    variable has one part covering it.
    """

    __slots__ = ("parts", "_link", "_seen", "creation_index")

    def __init__(self, initializer, parts=None, creation_index=None,
                 **kwargs):
        super().__init__(initializer, **kwargs)
        self.parts = list(parts or [])
        self.creation_index = creation_index
        self._link = None
        self._seen = None

    @property
    def device(self):
        """`"/job:ps/task:K"`; a split variable gives one per part."""
        if not self.parts:
            return Variable.device.fget(self)
        devices = tuple(ps_device(task) for _, _, task in self.parts)
        return devices[0] if len(devices) == 1 else devices

    @property
    def _value(self):
        link = self._link
        if link is not None and self._seen != link.version:
            link.refresh()
        return _VALUE.__get__(self, Tensor)

    @_value.setter
    def _value(self, value):
        _VALUE.__set__(self, value)

    def _local_array(self):
        """The driver's array, without pulling (the runtime writes it)."""
        return _VALUE.__get__(self, Tensor)

    def _rows_source(self, ids):
        return self._value

    def assign(self, value):
        super().assign(value)
        self._dirty()
        return self

    def assign_add(self, value):
        super().assign_add(value)
        self._dirty()
        return self

    def assign_sub(self, value):
        super().assign_sub(value)
        self._dirty()
        return self

    def _dirty(self):
        if self._link is not None:
            self._link.mark_dirty(self)

    def __repr__(self):
        return (f"<ShardedVariable path={self.path}, shape={self.shape}, "
                f"dtype={self.dtype}, device={self.device!r}>")
