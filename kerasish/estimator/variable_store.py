"""The Estimator's variables, by name: TF1's variable store, define-by-run.

kerasish runs `model_fn` again for every batch, so the layers, optimizers
and metrics it creates are new Python objects each time. A `VariableStore`
makes them share state, as TF1's `get_variable(..., reuse=AUTO_REUSE)` did:
while `store.scope()` is active,

* object names restart from scratch (`dense`, `dense_1`, ...) at every
  call, as in a fresh TF1 graph, so the same code gives the same variable
  paths (`dense/kernel`) at every call and in every process;
* a `Variable` created at a path the store knows shares the store's array
  (no initializer runs), so weights, optimizer slots, metric totals and
  random-generator states carry over from call to call.

Variables are checkpointed by path (`VariableStore.save`): an HDF5 file
with one dataset per variable, as a TF checkpoint maps names to tensors.
Metric state is "local" (`mark_local`): never saved, and fresh at every
evaluation, as TF1's local variables.
"""
import contextlib

import numpy as np

from kerasish.backend import dtypes
from kerasish.backend.common import naming
from kerasish.backend.common import variable as variable_module
from kerasish.backend.common.variable import Variable
import h5py
from kerasish.saving.file_utils import atomic_h5
from kerasish.saving.h5_store import safe_dataset

FORMAT = "kerasish.estimator.checkpoint"


class VariableStore:
    """Variables by path, shared by every call of a model function.

    Example:

    >>> import kerasish as keras
    >>> store = VariableStore()
    >>> for _ in range(2):
    ...     with store.scope():
    ...         layer = keras.layers.Dense(2)
    ...         _ = layer(np.ones((1, 3), "float32"))
    >>> store.names()
    ['dense/bias', 'dense/kernel']
    """

    def __init__(self):
        self._arrays = {}
        self._variables = {}
        self._local = set()
        self._pending = {}
        self._memo = {}
        self._call_paths = None
        self._sandbox = None

    def create_global_step(self):
        """Create the int64 `global_step` variable (TF's name)."""
        with self.scope():
            self.global_step = Variable(np.zeros((), np.int64),
                                        dtype="int64", trainable=False,
                                        name="global_step")
        return self.global_step

    # -- the creation hook (backend/common/variable.py) --------------------------------
    def lookup(self, path, shape, dtype):
        """The array a new variable at `path` shares, or None."""
        array = self._arrays.get(path)
        if array is None:
            return None
        if shape is not None and tuple(shape) != array.shape:
            raise ValueError(
                f"Trying to share variable {path}, but specified shape "
                f"{tuple(shape)} and found shape {array.shape}.")
        if dtype is not None and \
                dtypes.standardize_dtype(dtype) != array.dtype.name:
            raise ValueError(
                f"Trying to share variable {path}, but specified dtype "
                f"{dtypes.standardize_dtype(dtype)} and found dtype "
                f"{array.dtype.name}.")
        return array

    def add(self, variable):
        """Record `variable` (new, or sharing an array already held)."""
        path = variable.path
        if self._call_paths is not None:
            if path in self._call_paths:
                raise ValueError(
                    f"The model function created two variables named "
                    f"'{path}' in one call. Give the objects that own them "
                    "distinct names.")
            self._call_paths.add(path)
        shared = self._arrays.get(path)
        if shared is not None and variable._value is not shared:
            raise ValueError(
                f"Variable {path} already exists with shape {shared.shape} "
                f"and dtype {shared.dtype}; a new variable of shape "
                f"{variable.shape} and dtype {variable.dtype} cannot share "
                "its name.")
        self._variables[path] = variable
        if shared is None:
            self._arrays[path] = variable._value
            self._on_new(path, variable)

    def _on_new(self, path, variable):
        if self._sandbox is not None:
            self._sandbox[path] = variable._value.copy()
        pending = self._pending.pop(path, None)
        if pending is not None:
            _assign(path, variable._value, pending)

    def adopt(self, variables, names=None):
        """Hold variables created elsewhere (e.g. a built Keras model's),
        under their paths or the given `names`."""
        names = names or [v.path for v in variables]
        held = {id(array) for array in self._arrays.values()}
        for name, variable in zip(names, variables):
            if name not in self._arrays and id(variable._value) not in held:
                self._arrays[name] = variable._value
                self._variables[name] = variable
                held.add(id(variable._value))
                self._on_new(name, variable)

    # -- scopes ----------------------------------------------------------------
    @contextlib.contextmanager
    def scope(self):
        """Run a model function: fresh object names, shared variables."""
        previous = getattr(variable_module._store, "active", None)
        saved_uids = dict(naming._uids)
        naming._uids.clear()
        variable_module._store.active = self
        self._call_paths = set()
        try:
            yield self
        finally:
            self._call_paths = None
            variable_module._store.active = previous
            naming._uids.clear()
            naming._uids.update(saved_uids)

    @contextlib.contextmanager
    def sandbox(self):
        """Undo every change to the variables made inside the block
        (variables created inside keep their initial values)."""
        self._sandbox = {path: array.copy()
                         for path, array in self._arrays.items()}
        try:
            yield self
        finally:
            saved, self._sandbox = self._sandbox, None
            for path, value in saved.items():
                np.copyto(self._arrays[path], value)

    def memo(self, key, factory):
        """`factory()` once per store (objects reused by later calls)."""
        if key not in self._memo:
            self._memo[key] = factory()
        return self._memo[key]

    # -- reading ---------------------------------------------------------------
    def mark_local(self, variables):
        """Keep these variables (metric state) out of checkpoints."""
        self._local.update(v.path for v in variables)

    def names(self):
        """Sorted paths of the saved (non-local) variables."""
        return sorted(p for p in self._arrays if p not in self._local)

    def variable(self, path):
        """The latest `Variable` object created at `path`."""
        return self._variables[path]

    def value(self, path):
        """A copy of the value at `path`."""
        return np.array(self._arrays[path], copy=True)

    def __contains__(self, path):
        return path in self._arrays

    # -- checkpoints -----------------------------------------------------------
    def save(self, filepath, attributes=None):
        """Write every saved variable to an HDF5 file, by path."""
        write_checkpoint(filepath, {p: self._arrays[p] for p in self.names()},
                         attributes)

    def restore(self, filepath, paths=None):
        """Load values by path: variables the store holds are assigned in
        place; the others are applied when they are created.

        Args:
            filepath: An HDF5 checkpoint written by `save`.
            paths: Optional predicate `paths(name) -> bool` choosing which
                values to load (warm starting); default: all.

        Returns:
            The paths found in the file.
        """
        values = read_checkpoint(filepath)
        missing = [p for p in self.names() if p not in values]
        if missing and paths is None:
            raise ValueError(
                f"The checkpoint {filepath} lacks variables the model "
                f"function creates: {missing}. Was it written by another "
                "model function (or with other feature columns / layer "
                "names)?")
        for path, value in values.items():
            if path in self._local or (paths is not None and
                                       not paths(path)):
                continue
            if path in self._arrays:
                _assign(path, self._arrays[path], value)
            else:
                self._pending[path] = value
        return sorted(values)


def active_store():
    """The store whose `scope()` is active on this thread, or None."""
    return getattr(variable_module._store, "active", None)


def _assign(path, target, value):
    if target.shape != value.shape:
        raise ValueError(
            f"Cannot restore variable {path}: it has shape {target.shape} "
            f"but the checkpoint holds shape {value.shape}.")
    np.copyto(target, value, casting="unsafe")


def write_checkpoint(filepath, arrays, attributes=None):
    """Write `{path: array}` to an HDF5 file (atomically)."""
    with atomic_h5(filepath) as f:
        f.attrs["format"] = FORMAT
        for key, value in (attributes or {}).items():
            f.attrs[key] = value
        for path, array in arrays.items():
            f.create_dataset(path, data=array)


def read_checkpoint(filepath):
    """`{path: array}` of an HDF5 checkpoint written by `write_checkpoint`."""
    try:
        f = h5py.File(filepath, "r")
    except OSError as e:
        raise ValueError(f"{filepath!r} is not a readable checkpoint "
                         f"({e}).") from None
    with f:
        if f.attrs.get("format") != FORMAT:
            raise ValueError(
                f"{filepath!r} is not an Estimator checkpoint (no "
                f"'format: {FORMAT}' attribute).")
        names = []
        f.visititems(lambda name, obj: names.append(name)
                     if isinstance(obj, h5py.Dataset) else None)
        return {name: safe_dataset(f, name) for name in names}
