"""`vectorize`: lift a function on scalars (or core arrays) to tensors."""
import re

import numpy as np

from kerasish import tree
from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_join import stack
from kerasish.ops.numpy_shape import broadcast_to, reshape

_DIMS = r"\(\s*(?:\w+(?:\s*,\s*\w+)*)?\s*\)"


def _parse_signature(signature):
    """`"(m,n),(n)->(m)"` -> `([["m", "n"], ["n"]], [["m"]])`."""
    pattern = rf"^{_DIMS}(?:\s*,\s*{_DIMS})*\s*->\s*{_DIMS}" \
              rf"(?:\s*,\s*{_DIMS})*$"
    if not re.match(pattern, signature):
        raise ValueError("Invalid `signature`: expected e.g. "
                         f"'(m,n),(n)->(m)'. Received: {signature!r}")
    sides = signature.split("->")
    return [[[d for d in re.split(r"\s*,\s*", group.strip()) if d]
             for group in re.findall(r"\(([^)]*)\)", side)]
            for side in sides]


def _core_sizes(args, cores):
    sizes = {}
    for arg, core in zip(args, cores):
        if len(core) > arg.ndim:
            raise ValueError(f"An input of shape {arg.shape} has fewer axes "
                             f"than its core dimensions {core}.")
        for name, n in zip(core, arg.shape[arg.ndim - len(core):]):
            if sizes.setdefault(name, n) != n:
                raise ValueError(f"Inconsistent size for core dimension "
                                 f"'{name}': {sizes[name]} and {n}.")
    return sizes


def _apply(pyfunc, args, cores, fixed):
    loops = [a.shape[:a.ndim - len(c)] for a, c in zip(args, cores)]
    loop = np.broadcast_shapes(*loops) if loops else ()
    args = [broadcast_to(a, loop + a.shape[a.ndim - len(c):])
            for a, c in zip(args, cores)]
    results = []
    for index in np.ndindex(*loop):
        results.append(pyfunc(*[a[index] if index else a for a in args],
                              **fixed))
    if not loop:
        return results[0]
    first = results[0]

    def collect(*leaves):
        return reshape(stack(list(leaves)), loop + tuple(
            convert_to_tensor(leaves[0]).shape))
    return tree.map_structure(collect, *results) if results else first


def vectorize(pyfunc, *, excluded=None, signature=None):
    """Turn `pyfunc` into a function broadcasting over its tensor inputs.

    Without `signature`, `pyfunc` is called on scalar entries; with one
    (numpy's generalized ufunc syntax, e.g. `"(n),(n)->()"`) on the
    trailing core dimensions. Results are stacked back, so gradients flow
    through `pyfunc`'s ops.

    Args:
        pyfunc: Function to vectorize.
        excluded: Optional set of positional indices or keyword names that
            are passed through unchanged.
        signature: Optional generalized ufunc signature.

    Returns:
        The vectorized function.

    Example:

    >>> f = vectorize(lambda a, b: a * b + 1)
    >>> f([1.0, 2.0], [[3.0], [4.0]]).numpy()
    array([[4., 7.],
           [5., 9.]], dtype=float32)
    """
    if not callable(pyfunc):
        raise ValueError("Expected argument `pyfunc` to be a callable. "
                         f"Received: pyfunc={pyfunc}")
    excluded = set(excluded or ())
    in_cores = None
    if signature is not None:
        in_cores = _parse_signature(signature)[0]

    def wrapped(*args, **kwargs):
        fixed = {k: v for k, v in kwargs.items() if k in excluded}
        mapped = {k: v for k, v in kwargs.items() if k not in excluded}
        if mapped:
            raise ValueError("Keyword arguments of a vectorized function "
                             "must be listed in `excluded`. Received: "
                             f"{sorted(mapped)}")
        free = [i for i in range(len(args)) if i not in excluded]
        tensors = [convert_to_tensor(args[i]) for i in free]
        cores = in_cores if in_cores is not None else [[]] * len(free)
        if len(cores) != len(free):
            raise ValueError(f"`signature` has {len(cores)} inputs but the "
                             f"function received {len(free)}.")
        _core_sizes(tensors, cores)

        def call(*sliced, **kw):
            full = list(args)
            for i, t in zip(free, sliced):
                full[i] = t
            return pyfunc(*full, **kw)
        return _apply(call, tensors, cores, fixed)
    return wrapped
