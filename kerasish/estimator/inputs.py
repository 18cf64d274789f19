"""What an `input_fn` may return, and `numpy_input_fn`.

An `input_fn` returns one of:

* a `kerasish.data.Dataset` whose elements are `(features, labels)` (or
  `features` alone): one pass over it per `train`/`evaluate`/`predict`;
* a generator or iterator of such batches (one pass);
* one batch, `(features, labels)` or `features`, of arrays: as TF's
  constant tensors, it is served again at every training step (stop with
  `steps`/`max_steps`) and once for evaluation and prediction.

`features` is a dict of arrays (feature columns read it by key) or a single
array; `labels` an array, a dict of arrays, or None.
"""
import inspect
import itertools

import numpy as np

from kerasish.estimator.mode_keys import ModeKeys
from kerasish.data import Dataset

_EXPECTED = ("an `input_fn` must return `(features, labels)` or `features` "
             "(features: a dict of arrays or an array; labels: an array, a "
             "dict of arrays or None), a kerasish.data.Dataset of such "
             "elements, or a generator/iterator of such batches")


def fn_args(fn):
    """Names of `fn`'s parameters (through `functools.partial`)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return ()
    return tuple(name for name, p in params.items()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))


def call_input_fn(input_fn, mode, params, config):
    """Call `input_fn` with the arguments it takes (mode/params/config)."""
    if not callable(input_fn):
        raise TypeError(f"input_fn must be callable. Received: {input_fn!r}")
    args = fn_args(input_fn)
    kwargs = {name: value for name, value in
              [("mode", mode), ("params", params), ("config", config)]
              if name in args}
    return input_fn(**kwargs)


def _is_array_like(value):
    if hasattr(value, "_value"):
        return True
    if isinstance(value, np.ndarray) or np.isscalar(value):
        return True
    return isinstance(value, (list, tuple)) and all(
        np.isscalar(v) or isinstance(v, (list, tuple, np.ndarray))
        for v in value)


def _as_array(value, where):
    array = np.asarray(getattr(value, "_value", value)) \
        if _is_array_like(value) else None
    if array is None or array.ndim == 0:
        raise ValueError(f"{where} must be an array with a batch (first) "
                         f"axis. Received: {type(value).__name__} "
                         f"{value!r:.100}; {_EXPECTED}.")
    return array


def _check_part(part, where, allow_none):
    if part is None:
        if allow_none:
            return None
        raise ValueError(f"{where} is None; {_EXPECTED}.")
    if isinstance(part, dict):
        return {key: _as_array(value, f"{where}[{key!r}]")
                for key, value in part.items()}
    return _as_array(part, where)


def check_batch(batch):
    """`(features, labels)` of numpy arrays from one input element."""
    if isinstance(batch, (tuple, list)):
        if len(batch) != 2:
            raise ValueError(
                "input_fn should return (features, labels) as a len 2 "
                f"tuple. Received a {type(batch).__name__} of length "
                f"{len(batch)}; {_EXPECTED}.")
        features, labels = batch
    else:
        features, labels = batch, None
    return (_check_part(features, "features", allow_none=False),
            _check_part(labels, "labels", allow_none=True))


def batches(result, mode):
    """An iterator of checked `(features, labels)` batches."""
    if isinstance(result, Dataset):
        return (check_batch(element) for element in result)
    if hasattr(result, "__next__"):
        return (check_batch(element) for element in result)
    if result is None or isinstance(result, (str, bytes)):
        raise ValueError(f"Received {result!r}; {_EXPECTED}.")
    single = check_batch(result)
    if mode == ModeKeys.TRAIN:
        return itertools.repeat(single)
    return iter([single])


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None,
                   queue_capacity=1000, num_threads=1):
    """An `input_fn` feeding dicts of numpy arrays (TF's v1 helper).

    Args:
        x: Dict of feature arrays (or one array), sliced along axis 0.
        y: Label array (or dict of arrays), or None.
        batch_size: Batch size. Defaults to 128.
        num_epochs: Passes over the data; `None` repeats forever.
        shuffle: Whether to shuffle (must be given, as in TF).
        queue_capacity: Shuffle buffer size. Defaults to 1000.
        num_threads: Accepted for TF compatibility.

    Returns:
        An `input_fn` returning a `kerasish.data.Dataset`.

    Example:

    >>> fn = numpy_input_fn({"a": np.arange(5.0)}, np.arange(5), batch_size=2,
    ...                     shuffle=False)
    >>> [len(labels) for features, labels in fn()]
    [2, 2, 1]
    """
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided explicitly as a bool, it "
                         f"is {shuffle!r}")
    if not isinstance(x, dict) and not _is_array_like(x):
        raise TypeError(f"x must be a dict or array; got {type(x).__name__}")
    if isinstance(x, dict) and isinstance(y, dict):
        common = sorted(set(x) & set(y))
        if common:
            raise ValueError(f"{common} duplicate keys are found in both x "
                             "and y. Duplicate keys in x and y are not "
                             "allowed.")
    if batch_size is None or int(batch_size) < 1:
        raise ValueError("batch_size must be a positive int. Received: "
                         f"batch_size={batch_size!r}")

    def input_fn():
        ds = Dataset.from_tensor_slices(x if y is None else (x, y))
        if shuffle:
            ds = ds.shuffle(queue_capacity)
        return ds.repeat(num_epochs).batch(batch_size)
    return input_fn
