"""Context managers of Keras's top level: `name_scope`, `device`,
`RematScope`/`remat`, `StatelessScope` and `SymbolicScope`.

`StatelessScope` works by substitution: on entry each mapped variable's
array is swapped for a copy of the given value, and any `assign*` on a
variable inside the scope goes to such a copy (copy-on-write); on exit the
final arrays are recorded (`get_current_value`) and the originals put back,
so no variable changes. Optimizers and metrics write their own variables'
arrays directly (not through `assign`): give those variables in the
mapping, or they are updated in place.
"""
import threading

import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common import (call_context, naming,
                                     variable as variable_lib)

_local = threading.local()


class name_scope:
    """Open a sub-namespace for the paths of variables created inside.

    Args:
        name: Name of the scope (a string without `/`).
        caller: Optional object opening the scope; with `deduplicate`, a
            scope reopened by the same caller under the same name as the
            innermost one adds nothing.
        deduplicate: See `caller`. Defaults to `True`.
        override_parent: Optional absolute path replacing the scopes opened
            so far.

    Example:

    >>> with kerasish.name_scope("block"):
    ...     v = kerasish.Variable(1.0, name="w")
    >>> v.path
    'block/w'
    >>> with kerasish.name_scope("head", override_parent="net"):
    ...     kerasish.Variable(1.0, name="b").path
    'net/head/b'
    """

    def __init__(self, name, caller=None, deduplicate=True,
                 override_parent=None):
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain "
                f"character `/`. Received: name={name}")
        self.name = name
        self.caller = caller
        self.deduplicate = deduplicate
        self.override_parent = override_parent
        if override_parent is None and deduplicate and \
                getattr(caller, "_parent_path", None) is not None:
            self.override_parent = caller._parent_path
        self._pop_on_exit = False

    def __enter__(self):
        stack = naming._stack()
        top = stack[-1] if stack else None
        if self.deduplicate and self.caller is not None and \
                getattr(top, "caller", None) is self.caller and \
                getattr(top, "name", None) == self.name:
            return self
        stack.append(self)
        self._pop_on_exit = True
        return self

    def __exit__(self, *exc):
        if self._pop_on_exit:
            naming._stack().pop()
            self._pop_on_exit = False

    def __str__(self):
        return self.name


class device:
    """Place computations on a device: only the CPU exists in kerasish.

    `"cpu"` and `"cpu:<n>"` (any case) are accepted and change nothing;
    other devices raise a `ValueError`, since the numpy runtime cannot
    honour them.

    Args:
        device_name: Device string such as `"cpu:0"`.

    Example:

    >>> with kerasish.device("cpu:0"):
    ...     x = kerasish.ops.ones((2,))
    >>> kerasish.device("gpu:0")
    Traceback (most recent call last):
      ...
    ValueError: kerasish runs on the CPU only. Received: device_name='gpu:0'
    """

    def __init__(self, device_name):
        name = device_name.lower() if isinstance(device_name, str) else None
        kind, _, index = (name or "").partition(":")
        if kind != "cpu" or (index and not index.isdigit()):
            raise ValueError(
                "kerasish runs on the CPU only. "
                f"Received: device_name={device_name!r}")
        self.device_name = device_name

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


_REMAT_MODES = ("full", "activations", "larger_than", "list_of_layers", None)


class RematScope:
    """Request rematerialization (gradient checkpointing) for layer calls.

    Rematerialization recomputes activations in the backward pass to save
    memory. kerasish records the request (`get_current_remat_mode`) and
    computes normally: numbers and gradients are the same, only the memory
    saving is not made.

    Args:
        mode: `"full"` (default), `"activations"`, `"larger_than"`,
            `"list_of_layers"` or `None`.
        output_size_threshold: For `"larger_than"`. Defaults to 1024.
        layer_names: For `"list_of_layers"`. Defaults to `[]`.

    Example:

    >>> with kerasish.RematScope(mode="larger_than") as scope:
    ...     y = kerasish.layers.Dense(2)(np.ones((1, 3)))
    >>> scope.mode, scope.output_size_threshold, y.shape
    ('larger_than', 1024, (1, 2))
    """

    def __init__(self, mode="full", output_size_threshold=1024,
                 layer_names=None):
        if mode not in _REMAT_MODES:
            raise ValueError(
                f"Invalid mode '{mode}'. Supported modes are: 'full', "
                "'activations', 'larger_than', 'list_of_layers', or  None.")
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = layer_names or []

    def __enter__(self):
        _stack("remat").append(self)
        return self

    def __exit__(self, *exc):
        _stack("remat").pop()


def get_current_remat_mode():
    """The innermost `RematScope`, or None outside any."""
    stack = _stack("remat")
    return stack[-1] if stack else None


def remat(f):
    """Mark `f` for rematerialization; returns a function computing `f`.

    The result is the same as `f`'s, gradients included: kerasish keeps the
    activations instead of recomputing them (a memory optimization only).

    Args:
        f: A callable (function or layer).

    Example:

    >>> double = kerasish.remat(lambda x: 2 * x)
    >>> double(3)
    6
    """
    if not callable(f):
        raise TypeError(f"`remat` expects a callable. Received: f={f!r}")

    def rematerialized(*args, **kwargs):
        return f(*args, **kwargs)
    rematerialized.__wrapped__ = f
    rematerialized.__name__ = getattr(f, "__name__", "rematerialized")
    return rematerialized


class SymbolicScope:
    """Mark the symbolic stage: layers run on placeholders to infer shapes.

    Inside it, state updates such as BatchNormalization's moving averages
    are skipped, as during kerasish's own shape inference.

    Example:

    >>> with kerasish.SymbolicScope():
    ...     kerasish.backend.common.scopes.in_symbolic_scope()
    True
    """

    def __enter__(self):
        self._trace = call_context.trace_scope()
        self._trace.__enter__()
        _stack("symbolic").append(self)
        return self

    def __exit__(self, *exc):
        _stack("symbolic").pop()
        self._trace.__exit__(*exc)


def in_symbolic_scope():
    return bool(_stack("symbolic"))


class StatelessScope:
    """Run code without changing any variable: values come from a mapping.

    Inside the scope, each variable of `state_mapping` holds the given
    value, and assignments to variables update only the scope's copies;
    collect the final values with `get_current_value(variable)` after the
    block. Gradients recorded inside are those of the substituted values,
    with respect to the variables themselves.

    Args:
        state_mapping: List of `(variable, value)` pairs.
        collect_losses: Whether layer losses added inside are collected in
            `scope.losses`. Defaults to `False`.
        initialize_variables: Accepted for compatibility (kerasish
            initializes variables when they are created).

    Example:

    >>> v = kerasish.Variable([1.0, 2.0])
    >>> with kerasish.StatelessScope([(v, np.zeros(2))]) as scope:
    ...     _ = v.assign_add([5.0, 5.0])
    ...     inside = v.numpy()
    >>> inside, v.numpy(), scope.get_current_value(v).numpy()
    (array([5., 5.], dtype=float32), array([1., 2.], dtype=float32), \
array([5., 5.], dtype=float32))
    """

    def __init__(self, state_mapping=None, collect_losses=False,
                 initialize_variables=True):
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses = []
        self.state_mapping = {}
        self._variables = {}
        self._originals = {}
        for var, value in state_mapping or ():
            self._variables[id(var)] = var
            self.state_mapping[id(var)] = _checked_value(var, value)

    def __enter__(self):
        self._outer = variable_lib._write_guard.scope
        variable_lib._write_guard.scope = self
        for key, value in self.state_mapping.items():
            self._swap_in(self._variables[key], value._value)
        return self

    def _swap_in(self, var, array):
        if id(var) not in self._originals:
            self._originals[id(var)] = var._value
            self._variables[id(var)] = var
        var._value = np.array(array, dtype=var._value.dtype, copy=True)

    def protect(self, var):
        """Called before an in-place write: make it go to a copy."""
        if id(var) not in self._originals:
            self._swap_in(var, var._value)

    def add_loss(self, loss):
        self.losses.append(loss)

    def add_update(self, update):
        """Record `(variable, value)` as the variable's new value."""
        var, value = update
        self.protect(var)
        np.copyto(var._value, np.asarray(getattr(value, "_value", value)),
                  casting="unsafe")

    def get_current_value(self, variable):
        """The variable's value in the scope (inside or after), or None."""
        key = id(variable)
        if key in self._originals and variable_lib._write_guard.scope is \
                self:
            return Tensor(np.array(variable._value, copy=True))
        return self.state_mapping.get(key)

    def __exit__(self, *exc):
        for key, original in self._originals.items():
            var = self._variables[key]
            self.state_mapping[key] = Tensor(var._value)
            var._value = original
        self._originals = {}
        variable_lib._write_guard.scope = self._outer


def _checked_value(var, value):
    if not isinstance(var, variable_lib.Variable):
        raise ValueError(
            "Invalid reference variable in StatelessScope: all keys in "
            "argument `mapping` must be Variable instances. Received "
            f"instead: {var}")
    array = np.asarray(getattr(value, "_value", value), dtype=var.dtype)
    if array.shape != tuple(var.shape):
        raise ValueError(
            "Invalid variable value in StatelessScope: all values in "
            "argument `mapping` must be tensors with a shape that matches "
            f"the corresponding variable shape. For variable {var}, "
            f"received invalid value {value} with shape {array.shape}.")
    return Tensor(array)


def get_stateless_scope():
    """The innermost active `StatelessScope`, or None."""
    return variable_lib._write_guard.scope


def in_stateless_scope():
    return get_stateless_scope() is not None


def _stack(kind):
    stacks = getattr(_local, "stacks", None)
    if stacks is None:
        stacks = _local.stacks = {}
    return stacks.setdefault(kind, [])


def stateless_call(layer, trainable_variables, non_trainable_variables,
                   args, kwargs, return_losses=False):
    """`layer(*args, **kwargs)` with substituted variable values.

    The implementation of `Layer.stateless_call`: the values are mapped
    1:1 onto `layer.trainable_variables` and `layer.non_trainable_variables`
    in a `StatelessScope`; the layer's own state (variables and recorded
    losses) is left as it was.

    Example:

    >>> layer = kerasish.layers.Dense(1, kernel_initializer="ones")
    >>> _ = layer(np.ones((1, 2)))
    >>> kernel, bias = np.full((2, 1), 3.0), np.zeros(1)
    >>> out, _ = layer.stateless_call([kernel, bias], [], np.ones((1, 2)))
    >>> out.numpy(), layer.kernel.numpy().ravel()
    (array([[6.]], dtype=float32), array([1., 1.], dtype=float32))
    """
    name = type(layer).__name__
    if not layer.built:
        raise ValueError(
            f"To call stateless_call, {name} must be built (i.e. its "
            "variables must have been already created). You can build it "
            "by calling it on some data.")
    for what, given, own in (
            ("trainable_variables", trainable_variables,
             layer.trainable_variables),
            ("non_trainable_variables", non_trainable_variables,
             layer.non_trainable_variables)):
        if len(given) != len(own):
            raise ValueError(
                f"Argument `{what}` must be a list of tensors corresponding "
                f"1:1 to {name}().{what}. Received list with length "
                f"{len(given)}, but expected {len(own)} variables.")
    own_nt = layer.non_trainable_variables
    mapping = list(zip(layer.trainable_variables, trainable_variables)) + \
        list(zip(own_nt, non_trainable_variables))
    sublayers = layer._flatten_layers()
    saved_losses = [list(sub._losses) for sub in sublayers]
    try:
        with StatelessScope(mapping, collect_losses=return_losses) as scope:
            outputs = layer(*args, **kwargs)
            losses = list(layer.losses) if return_losses else None
    finally:
        for sub, kept in zip(sublayers, saved_losses):
            sub._losses[:] = kept
    new_values = [scope.get_current_value(v) for v in own_nt]
    if return_losses:
        return outputs, new_values, losses
    return outputs, new_values
