"""Where each variable lives: TF1's placement strategies for ps tasks.

`replica_device_setter` in TF1 put every variable on a ps task chosen by a
*ps strategy* in creation order. The two TF1 offered are here, as plain
functions of the variable (its name, shape and dtype), so the
parameter-server runtime and `kerasish.train.replica_device_setter` place
alike:

* `RoundRobinStrategy(num_tasks)`: task 0, 1, ..., num_tasks - 1, 0, ...
  (TF1's default: `w_0, b_0, w_1, b_1` on three tasks land on 0, 1, 2, 0);
* `GreedyLoadBalancingStrategy(num_tasks, load_fn)`: the least-loaded task,
  the load of a variable given by `load_fn` (`byte_size_load_fn`: bytes),
  ties to the lowest task index.
"""
import numpy as np


def ps_device(task, job="ps"):
    """The device string of a ps task, as TF writes it.

    Example:

    >>> ps_device(2)
    '/job:ps/task:2'
    """
    return f"/job:{job}/task:{int(task)}"


def _check_num_tasks(num_tasks):
    if isinstance(num_tasks, bool) or not isinstance(
            num_tasks, (int, np.integer)) or num_tasks < 1:
        raise ValueError("A ps strategy expected a positive number of "
                         f"tasks. Received: num_tasks={num_tasks!r}")
    return int(num_tasks)


class RoundRobinStrategy:
    """Place variables on ps tasks in turn, in creation order.

    Args:
        num_tasks: Number of ps tasks.

    Example:

    >>> place = RoundRobinStrategy(3)
    >>> [place(name) for name in ("w_0", "b_0", "w_1", "b_1")]
    [0, 1, 2, 0]
    """

    def __init__(self, num_tasks):
        self._num_tasks = _check_num_tasks(num_tasks)
        self._next = 0

    def __call__(self, variable):
        task = self._next
        self._next = (self._next + 1) % self._num_tasks
        return task


def byte_size_load_fn(variable):
    """The load of a variable on its task: its size in bytes (TF contrib's
    load function for `GreedyLoadBalancingStrategy`).

    `variable` is anything with `shape` and `dtype` (a `Variable`, a
    `VariableOp`, an array) or a `(shape, dtype)` pair; strings count 16
    bytes as in TF.

    Example:

    >>> import numpy as np
    >>> byte_size_load_fn(np.zeros((10, 4), "float32"))
    160
    """
    shape, dtype = _shape_dtype(variable)
    if shape is None or any(d is None for d in shape):
        raise ValueError(
            "byte_size_load_fn expected a fully defined shape. Received: "
            f"shape={shape!r} for {getattr(variable, 'name', variable)!r}")
    return int(np.prod(shape, dtype=np.int64)) * _itemsize(dtype)


def _itemsize(dtype):
    dtype = str(dtype)
    if dtype == "bfloat16":
        return 2
    if dtype in ("string", "str", "object") or np.dtype(dtype).kind in "OSU":
        return 16
    return np.dtype(dtype).itemsize


def _shape_dtype(variable):
    if isinstance(variable, tuple) and len(variable) == 2 and \
            not hasattr(variable, "shape"):
        return tuple(variable[0]), variable[1]
    shape = getattr(variable, "shape", None)
    dtype = getattr(variable, "dtype", "float32")
    return (None if shape is None else tuple(shape)), str(dtype)


class GreedyLoadBalancingStrategy:
    """Place each variable on the ps task with the least load so far.

    Args:
        num_tasks: Number of ps tasks.
        load_fn: `load_fn(variable)` -> a number; `byte_size_load_fn` by
            default.

    Example:

    >>> import numpy as np
    >>> place = GreedyLoadBalancingStrategy(2)
    >>> [place(np.zeros(n, "float32")) for n in (100, 10, 10, 100)]
    [0, 1, 1, 1]
    """

    def __init__(self, num_tasks, load_fn=None):
        self._num_tasks = _check_num_tasks(num_tasks)
        self._load_fn = load_fn or byte_size_load_fn
        self._loads = [0] * self._num_tasks

    def __call__(self, variable):
        # The least-loaded task, the lowest index among equals.
        task = min(range(self._num_tasks), key=lambda t: self._loads[t])
        self._loads[task] += self._load_fn(variable)
        return task


def make_ps_strategy(placement, num_tasks):
    """The placement strategy named `placement` (or a callable as is)."""
    if callable(placement) and not isinstance(placement, str):
        return placement
    if placement == "round_robin":
        return RoundRobinStrategy(num_tasks)
    if placement == "greedy":
        return GreedyLoadBalancingStrategy(num_tasks)
    raise ValueError(
        "`placement` must be 'round_robin', 'greedy' or a callable "
        f"returning a task index. Received: placement={placement!r}")
