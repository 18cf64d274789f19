"""Control flow of `keras.ops.core`, run eagerly (Python loops over ops).

Loop bodies may use any op, so gradients flow through every iteration.
Values are nested structures (lists, tuples, dicts) of tensors, as in
Keras. `associative_scan` combines in O(log n) vectorised rounds, as
`jax.lax.associative_scan` does.
"""
import builtins

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from kerasish import tree
from kerasish.backend import shape as S
from kerasish.backend.primitive import to_array
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_join import concatenate, stack
from kerasish.ops.numpy_shape import flip
from kerasish.ops.symbolic import keras_op
from kerasish.ops.spec_ops import spec_op


def cond(pred, true_fn, false_fn):
    """Call `true_fn()` if `pred` holds, else `false_fn()`.

    Args:
        pred: Boolean scalar.
        true_fn: Callable without arguments.
        false_fn: Callable without arguments.

    Returns:
        The output of the branch taken.

    Example:

    >>> cond(3 > 2, lambda: "yes", lambda: "no")
    'yes'
    """
    return true_fn() if bool(np.asarray(to_array(pred))) else false_fn()


@keras_op
def switch(index, branches, *operands):
    """Apply `branches[index](*operands)`; `index` is clamped into range.

    Args:
        index: Integer scalar.
        branches: Sequence of callables.
        *operands: Arguments of the branch.

    Returns:
        The branch's output.

    Example:

    >>> float(switch(5, [lambda x: x + 1, lambda x: x * 10], 2.0))
    20.0
    """
    if not branches:
        raise ValueError("`branches` must not be empty.")
    index = int(np.clip(int(np.asarray(to_array(index))), 0,
                        len(branches) - 1))
    return branches[index](*operands)


def _as_spec(x):
    if isinstance(x, KerasTensor):
        return x
    x = convert_to_tensor(x)
    return KerasTensor(x.shape, str(x.dtype))


def _loop_spec(cond, body, loop_vars, maximum_iterations=None):
    spec = tree.map_structure(_as_spec, loop_vars)
    return tuple(spec) if isinstance(loop_vars, list) else spec


@spec_op(_loop_spec)
def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Run `loop_vars = body(*loop_vars)` while `cond(*loop_vars)` holds.

    Args:
        cond: Callable returning a boolean scalar.
        body: Callable returning new loop variables (same structure).
        loop_vars: A tensor, or a tuple/list of (nested) tensors, passed
            positionally to `cond` and `body`.
        maximum_iterations: Optional cap on the number of iterations.

    Returns:
        The final loop variables (a tuple when `loop_vars` is a sequence).

    Example:

    >>> while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), (0, 0))
    (4, 6)
    """
    is_tuple = isinstance(loop_vars, (list, tuple))
    state = tuple(loop_vars) if is_tuple else (loop_vars,)
    steps = 0
    while maximum_iterations is None or steps < maximum_iterations:
        if not bool(np.asarray(to_array(cond(*state)))):
            break
        out = body(*state)
        state = tuple(out) if is_tuple else (out,)
        steps += 1
    return state if is_tuple else state[0]


@spec_op(lambda lower, upper, body_fun, init_val: tree.map_structure(
    _as_spec, init_val))
def fori_loop(lower, upper, body_fun, init_val):
    """`val = body_fun(i, val)` for `i` in `range(lower, upper)`.

    Args:
        lower: First loop index.
        upper: End of the loop (exclusive).
        body_fun: Callable `(i, val) -> val`.
        init_val: Initial state (any nested structure).

    Returns:
        The final state.

    Example:

    >>> fori_loop(0, 5, lambda i, s: s + i, 0)
    10
    """
    val = init_val
    for i in range(int(to_array(lower)), int(to_array(upper))):
        val = body_fun(i, val)
    return val


def _leading(structure, name):
    leaves = [convert_to_tensor(x) for x in tree.flatten(structure)]
    sizes = {x.shape[0] if x.ndim else None for x in leaves}
    if None in sizes or len(sizes) != 1:
        raise ValueError(f"All tensors of `{name}` must share their leading "
                         f"axis. Received shapes {[x.shape for x in leaves]}")
    return leaves, sizes.pop()


def _stack_structures(results):
    return tree.map_structure(lambda *xs: stack(list(xs)), *results)


@keras_op
def map(f, xs):
    """Apply `f` to each slice of `xs` along axis 0 and stack the results.

    Args:
        f: Callable on one slice (structures allowed in and out).
        xs: Tensor or nested structure of tensors with a common leading
            axis.

    Returns:
        The stacked outputs.

    Example:

    >>> map(lambda x: x * x, np.arange(4)).numpy()
    array([0, 1, 4, 9])
    """
    leaves, n = _leading(xs, "xs")
    results = [f(tree.pack_sequence_as(xs, [leaf[i] for leaf in leaves]))
               for i in range(n)]
    if not results:
        raise ValueError("`map` needs a non-empty leading axis.")
    return _stack_structures(results)


@keras_op
def vectorized_map(function, elements):
    """`function` applied to each slice of `elements` along axis 0.

    Same results as `map` (the numpy runtime runs the slices one by one).

    Args:
        function: Callable on one slice (structures allowed).
        elements: Tensor or structure of tensors with a common leading
            axis.

    Returns:
        The stacked outputs.

    Example:

    >>> vectorized_map(lambda x: x[0] + x[1], np.ones((3, 2))).numpy()
    array([2., 2., 2.])
    """
    return map(function, elements)


@keras_op
def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Loop `carry, y = f(carry, x)` over the leading axis of `xs`.

    Args:
        f: Callable `(carry, x) -> (carry, y)`.
        init: Initial carry (any structure).
        xs: Optional tensor or structure scanned along axis 0.
        length: Number of iterations when `xs` is `None` (must match
            otherwise).
        reverse: Scan from the end. Defaults to `False`.
        unroll: Accepted for compatibility (positive int or bool).

    Returns:
        `(final carry, stacked ys)` (`ys` is `None` if `f` returns `None`).

    Example:

    >>> carry, ys = scan(lambda c, x: (c + x, c * x), 0, np.arange(1, 4))
    >>> int(carry), ys.numpy().tolist()
    (6, [0, 2, 9])
    """
    if not isinstance(unroll, bool) and (not isinstance(unroll, int)
                                         or unroll < 1):
        raise ValueError("`unroll` must be an positive integer or boolean. "
                         f"Received: unroll={unroll}")
    leaves, n = (None, length) if xs is None else _leading(xs, "xs")
    if n is None:
        raise ValueError("`scan` needs `xs` or `length`.")
    if length is not None and n != length:
        raise ValueError(f"`length`={length} does not match the leading "
                         f"axis of `xs` ({n}).")
    carry, ys = init, [None] * n
    for i in (range(n - 1, -1, -1) if reverse else range(n)):
        x = None if xs is None else tree.pack_sequence_as(
            xs, [leaf[i] for leaf in leaves])
        carry, ys[i] = f(carry, x)
        if i == (n - 1 if reverse else 0):
            _check_carry(init, carry)
    if n == 0 or all(y is None for y in tree.flatten(ys[0])):
        return carry, None
    return carry, _stack_structures(ys)


def _check_carry(init, carry):
    """The carry must keep its leaves and their shapes from step to step
    (lists and tuples are interchangeable, as leaves are compared)."""
    def shapes(value):
        return [tuple(np.shape(to_array(v))) for v in tree.flatten(value)]
    if shapes(init) != shapes(carry):
        raise ValueError("`scan`: `f` must return a carry with the "
                         "structure and shapes of `init`. Received: init "
                         f"shapes {shapes(init)}, carry shapes "
                         f"{shapes(carry)}")


def _interleave(even, odd, axis):
    """Entries `even[0], odd[0], even[1], ...` along `axis`."""
    n_odd = odd.shape[axis]
    pairs = stack([_take(even, 0, n_odd, axis), odd], axis=axis + 1)
    shape = list(odd.shape)
    shape[axis] = 2 * n_odd
    merged = S.reshape(pairs, shape=tuple(shape))
    if even.shape[axis] > n_odd:
        merged = concatenate([merged, _take(even, n_odd, None, axis)], axis)
    return merged


def _take(x, start, stop, axis, step=None):
    key = [builtins.slice(None)] * x.ndim
    key[axis] = builtins.slice(start, stop, step)
    return S.getitem(x, key=tuple(key))


def _assoc(f, elems, treedef, axis):
    n = elems[0].shape[axis]
    if n < 2:
        return elems

    def combine(a, b):
        out = f(tree.pack_sequence_as(treedef, a),
                tree.pack_sequence_as(treedef, b))
        return [convert_to_tensor(v) for v in tree.flatten(out)]
    pairs = combine([_take(e, 0, -1, axis, 2) for e in elems],
                    [_take(e, 1, None, axis, 2) for e in elems])
    odd = _assoc(f, pairs, treedef, axis)
    stop = -1 if n % 2 == 0 else None
    even = combine([_take(o, 0, stop, axis) for o in odd],
                   [_take(e, 2, None, axis, 2) for e in elems])
    even = [concatenate([_take(e, 0, 1, axis), v], axis)
            for e, v in zip(elems, even)]
    return [_interleave(e, o, axis) for e, o in zip(even, odd)]


@keras_op
def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan with an associative binary `f`, in parallel rounds.

    `f(a, b)` must be associative and act elementwise over `axis`
    (it receives slices holding many positions at once).

    Args:
        f: Associative callable on two structures like `elems`.
        elems: Tensor or structure of tensors sharing the `axis` length.
        reverse: Scan from the end. Defaults to `False`.
        axis: Axis to scan. Defaults to 0.

    Returns:
        The running combinations, with the structure of `elems`.

    Example:

    >>> associative_scan(lambda a, b: a + b, np.arange(1, 6)).numpy()
    array([ 1,  3,  6, 10, 15])
    """
    leaves = [convert_to_tensor(x) for x in tree.flatten(elems)]
    # AxisError: a ValueError (as Keras) and an IndexError.
    axis = normalize_axis_index(axis, leaves[0].ndim)
    sizes = {x.shape[axis] for x in leaves}
    if len(sizes) != 1:
        raise ValueError("All tensors of `elems` must have the same size "
                         f"along axis {axis}. Received shapes "
                         f"{[x.shape for x in leaves]}")
    if reverse:
        leaves = [flip(x, axis) for x in leaves]
    out = _assoc(f, leaves, elems, axis)
    if reverse:
        out = [flip(x, axis) for x in out]
    return tree.pack_sequence_as(elems, out)

