"""A bound on the weights a model may create while it is loaded.

A config declares sizes (`Dense(units=10**12)`, `Embedding(10**12, 8)`)
that become arrays as soon as the model is rebuilt, before any weight is
read. A loader knows how many weight bytes its file actually holds, and a
config cannot declare more weights than that: inside `LoadBudget(...)`
every new variable is charged against the bound before its initializer
allocates it, and one that would exceed it is refused with an error
naming the variable (its path starts with the layer's name).
"""
import contextlib
import math
import threading

import numpy as np

_state = threading.local()

#: Bytes allowed beyond twice the weights file's size: variables no file
#: stores (metrics, seed states) and small files.
SLACK_BYTES = 64 * 2 ** 20


@contextlib.contextmanager
def load_budget(weight_bytes, source):
    """Bound the variables created in the block by the weight bytes of the
    file `source` (twice them plus `SLACK_BYTES`); None: no bound."""
    saved = getattr(_state, "budget", None)
    _state.budget = None if weight_bytes is None else [
        2 * int(weight_bytes) + SLACK_BYTES, 0, source, int(weight_bytes)]
    try:
        yield
    finally:
        _state.budget = saved


def charge(path, shape, dtype):
    """Count a variable about to be allocated; raise if over the bound."""
    budget = getattr(_state, "budget", None)
    if budget is None or shape is None:
        return
    try:
        dims = [int(d) for d in shape]
    except (TypeError, ValueError):
        return          # the initializer reports a malformed shape
    try:
        itemsize = np.dtype(dtype or "float32").itemsize
    except TypeError:   # bfloat16, float8 without ml_dtypes: at most 4
        itemsize = 4
    nbytes = math.prod(dims) * itemsize
    limit, used, source, weight_bytes = budget
    if used + nbytes > limit:
        raise ValueError(
            f"Cannot load {source!r}: its config declares variable "
            f"'{path}' of shape {tuple(dims)} ({nbytes} bytes), more than "
            f"the file's weights can hold ({weight_bytes} bytes of weights; "
            f"the bound is {limit} bytes for all variables, {used} already "
            "used). The file is corrupted or was crafted.")
    budget[1] = used + nbytes
