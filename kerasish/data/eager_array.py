"""`EagerArray`: a dataset element as a tf.data program sees it.

Programs written for `tf.data` read their batches through what eager
tensors offer: `batch.numpy()`, `batch.shape`, `batch.dtype` (and strings
as bytes: `text.numpy()[0].decode()`). Iterating a
`kerasish.data.Dataset` yields numpy arrays of this subclass, which add
`.numpy()` and are numpy arrays to every numpy function. Computing with
one gives a plain `np.ndarray` (ufuncs, reductions, `np.*` functions), so
the subclass never travels into model outputs, metrics or saved files;
indexing and slicing keep it, as `batch[0].numpy()` needs.
"""
import numpy as np


class EagerArray(np.ndarray):
    """A numpy array that also answers `.numpy()`, like an eager tensor.

    Example:

    >>> from kerasish.data.eager_array import EagerArray
    >>> batch = np.arange(6.0).reshape(2, 3).view(EagerArray)
    >>> batch.numpy().shape, type(batch.numpy()).__name__
    ((2, 3), 'ndarray')
    >>> type(batch * 2).__name__, batch[0].numpy().tolist()
    ('ndarray', [0.0, 1.0, 2.0])
    >>> np.array(["héllo", "a"]).view(EagerArray).numpy()
    array([b'h\\xc3\\xa9llo', b'a'], dtype=object)
    """

    def numpy(self):
        """The values as a plain numpy array (a view, no copy), a scalar
        for a 0-d array; strings come back as UTF-8 `bytes` (in a new
        object array), as `tf.Tensor.numpy()` gives them."""
        plain = self.view(np.ndarray)
        if plain.dtype.kind == "U":
            # tf.string tensors read as bytes: `text.numpy().decode()`.
            plain = np.char.encode(plain, "utf-8").astype(object)
        return plain[()] if plain.ndim == 0 else plain

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(_plain(x) for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(_plain(x) for x in kwargs["out"])
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        types = tuple(np.ndarray if issubclass(t, EagerArray) else t
                      for t in types)
        return _stripped(super().__array_function__(func, types, args,
                                                    kwargs))

    def __reduce__(self):
        # Pickled (multiprocessing, caches) as the plain array it holds.
        return self.view(np.ndarray).__reduce__()

    def __repr__(self):
        return repr(self.view(np.ndarray))


def _plain(x):
    return x.view(np.ndarray) if isinstance(x, EagerArray) else x


def _stripped(value):
    if isinstance(value, EagerArray):
        return value.view(np.ndarray)
    if isinstance(value, (tuple, list)):
        return type(value)(_stripped(v) for v in value)
    return value


def wrap(value):
    """`value` (an array or scalar) as an `EagerArray`; others unchanged."""
    if isinstance(value, EagerArray):
        return value
    if isinstance(value, np.ndarray):
        return value.view(EagerArray)
    if isinstance(value, np.generic):
        return np.asarray(value).view(EagerArray)
    return value
