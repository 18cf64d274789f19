"""Random numbers: `SeedGenerator`, the global seed, and the draw functions.

As in Keras 3, an int `seed` is stateless (the same numbers on every call),
a `SeedGenerator` advances with each draw, and `seed=None` draws from the
global generator that `kerasish.utils.set_random_seed` resets. A generator's
state can be read and restored exactly (`get_state`/`set_state`), which is
what a bit-exact resume needs.
"""
import random as _pyrandom

import numpy as np

from kerasish.backend import dtypes
from kerasish.backend.tensor import Tensor
from kerasish.backend.capture import note_escape, traced_draw


class SeedGenerator:
    """Stateful source of random numbers.

    Args:
        seed: Optional int; `None` draws one from Python's `random`, as
            Keras does (`set_random_seed` makes it reproducible).

    Example:

    >>> from kerasish import random
    >>> gen = random.SeedGenerator(1)
    >>> a = random.normal((2,), seed=gen)
    >>> b = random.normal((2,), seed=gen)
    >>> bool((a.numpy() != b.numpy()).all())
    True
    """

    def __init__(self, seed=None, name=None, **kwargs):
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError(
                "Argument `seed` must be an integer or None. "
                f"Received: seed={seed!r}")
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        self.name = name or "seed_generator"
        self.rng = np.random.default_rng(seed)

    def next(self):
        """The underlying `np.random.Generator` (advanced by each draw)."""
        note_escape("a random draw inside the step")
        return self.rng

    def get_state(self):
        return self.rng.bit_generator.state

    def set_state(self, state):
        self.rng.bit_generator.state = state

    def get_config(self):
        return {"seed": self._initial_seed}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def make_default_seed():
    """A seed for an unseeded generator or initializer, drawn from Python's
    `random` as Keras draws it (so `set_random_seed` fixes it, and a
    PyDataset's shuffle sees the same Python RNG as under Keras)."""
    return _pyrandom.randint(1, int(1e9))


_GLOBAL = [None]


def global_generator():
    """The generator used when `seed=None` (made on first use after
    `set_random_seed`, as Keras's global `SeedGenerator`)."""
    note_escape("a random draw inside the step")
    if _GLOBAL[0] is None:
        _GLOBAL[0] = SeedGenerator(name="global_seed_generator")
    return _GLOBAL[0]


def global_generator_state():
    """The global generator's state, or None if it was not made yet."""
    return None if _GLOBAL[0] is None else _GLOBAL[0].get_state()


def set_global_generator_state(state):
    if state is None:
        _GLOBAL[0] = None
    else:
        global_generator().set_state(state)


def set_random_seed(seed):
    """Seed Python's `random` and numpy's global RNG, as Keras does.

    kerasish's global generator (behind `seed=None` draws) is reset and made
    again, from Python's `random`, at its next use.

    After this call, model weights, shuffling and dropout are reproducible.

    Example:

    >>> kerasish.utils.set_random_seed(42)
    >>> first = np.asarray(kerasish.random.uniform((3,)))
    >>> kerasish.utils.set_random_seed(42)
    >>> bool((np.asarray(kerasish.random.uniform((3,))) == first).all())
    True
    """
    if not isinstance(seed, (int, np.integer)):
        raise ValueError(
            "Expected `seed` argument to be an integer. "
            f"Received: seed={seed!r} (of type {type(seed)})")
    _pyrandom.seed(int(seed))
    np.random.seed(int(seed) % 2**32)
    _GLOBAL[0] = None


def numpy_global_state():
    """numpy's legacy global RNG state (`np.random.get_state()`), as a list
    that JSON and HDF5 attributes can hold."""
    name, keys, pos, has_gauss, cached = np.random.get_state()
    return [name, np.array(keys), int(pos), int(has_gauss), float(cached)]


def _numpy_state(state):
    name, keys, pos, has_gauss, cached = state
    return name, np.asarray(keys, np.uint32), pos, has_gauss, cached


def numpy_rng_from(state):
    """A private `np.random.RandomState` at `state` (from
    `numpy_global_state`)."""
    rng = np.random.RandomState()
    rng.set_state(_numpy_state(state))
    return rng


def set_numpy_global_state(state):
    np.random.set_state(_numpy_state(state))


def python_global_state():
    """Python's `random` state, as nested lists."""
    version, internal, gauss = _pyrandom.getstate()
    return [version, list(internal), gauss]


def _python_state(state):
    version, internal, gauss = state
    return version, tuple(internal), gauss


def python_rng_from(state):
    """A private `random.Random` at `state` (from `python_global_state`)."""
    rng = _pyrandom.Random()
    rng.setstate(_python_state(state))
    return rng


def set_python_global_state(state):
    _pyrandom.setstate(_python_state(state))


def make_rng(seed):
    """Resolve a `seed` argument to a numpy Generator."""
    note_escape("a random draw inside the step")
    if seed is None:
        return global_generator().rng
    if isinstance(seed, SeedGenerator):
        return seed.rng
    if isinstance(seed, (int, np.integer)):
        return np.random.default_rng(int(seed))
    if isinstance(seed, np.random.Generator):
        return seed
    raise ValueError(
        "Argument `seed` must be an int, a `SeedGenerator` or None. "
        f"Received: seed={seed!r}")


def _shape(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


@traced_draw
def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Samples from a normal distribution.

    Example:

    >>> x = kerasish.random.normal((2, 3), seed=1)
    >>> x.shape, str(x.dtype)
    ((2, 3), 'float32')
    """
    rng = make_rng(seed)
    x = rng.standard_normal(_shape(shape), dtype=np.float64)
    return Tensor((x * stddev + mean).astype(dtypes.standardize_dtype(dtype)))


@traced_draw
def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Samples from a uniform distribution on `[minval, maxval)`.

    Example:

    >>> x = kerasish.random.uniform((1000,), minval=2.0, maxval=3.0, seed=1)
    >>> x = kerasish.ops.convert_to_numpy(x)
    >>> bool(x.min() >= 2.0 and x.max() < 3.0)
    True
    """
    rng = make_rng(seed)
    dtype = dtypes.standardize_dtype(dtype)
    if np.dtype(dtype).kind in "iu":
        return Tensor(rng.integers(minval, maxval, _shape(shape))
                      .astype(dtype))
    x = rng.random(_shape(shape))
    return Tensor((minval + (maxval - minval) * x).astype(dtype))


@traced_draw
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples, redrawn until within two standard deviations.

    Example:

    >>> x = np.asarray(kerasish.random.truncated_normal((1000,), seed=1))
    >>> bool(np.abs(x).max() <= 2.0)
    True
    """
    rng = make_rng(seed)
    shape = _shape(shape)
    x = rng.standard_normal(shape)
    bad = np.abs(x) > 2
    while bad.any():
        x[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(x) > 2
    return Tensor((x * stddev + mean).astype(dtypes.standardize_dtype(dtype)))


@traced_draw
def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Random integers in `[minval, maxval)`.

    Example:

    >>> x = kerasish.random.randint((5,), minval=0, maxval=3, seed=1)
    >>> x.shape, bool((kerasish.ops.convert_to_numpy(x) < 3).all())
    ((5,), True)
    """
    rng = make_rng(seed)
    return Tensor(rng.integers(minval, maxval, _shape(shape))
                  .astype(dtypes.standardize_dtype(dtype)))


def shuffle(x, axis=0, seed=None):
    """A copy of `x` shuffled along `axis`.

    Example:

    >>> x = kerasish.random.shuffle(np.arange(5), seed=1)
    >>> sorted(kerasish.ops.convert_to_numpy(x).tolist())
    [0, 1, 2, 3, 4]
    """
    rng = make_rng(seed)
    arr = np.asarray(getattr(x, "_value", x))
    return Tensor(rng.permutation(arr, axis=axis))


def binary_mask(shape, rate, seed=None, dtype="float32"):
    """Bernoulli(1 - rate) keep-mask; used by the dropout family."""
    rng = make_rng(seed)
    return (rng.random(_shape(shape), dtype=np.float32) >= rate).astype(dtype)


@traced_draw
def _keep_mask(shape, rate, seed, dtype):
    return Tensor(binary_mask(shape, rate, seed, dtype))


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Draw class indices from unnormalised log-probabilities per row.

    Example:

    >>> logits = np.log(np.array([[0.0001, 0.9999]], "float32"))
    >>> kerasish.random.categorical(logits, 4, seed=1).shape
    (1, 4)
    """
    rng = make_rng(seed)
    logits = np.asarray(getattr(logits, "_value", logits), np.float64)
    p = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((logits.shape[0], num_samples, 1))
    idx = (u > cdf[:, None, :]).sum(-1)
    return Tensor(np.minimum(idx, logits.shape[-1] - 1).astype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zero entries with probability `rate` and scale the rest by 1/(1-rate).

    Example:

    >>> x = np.ones((1000,), "float32")
    >>> y = np.asarray(kerasish.random.dropout(x, 0.5, seed=1))
    >>> sorted(set(y.tolist()))
    [0.0, 2.0]
    """
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish import ops
    x = ops.convert_to_tensor(inputs)
    shape = x.shape if noise_shape is None else tuple(
        x.shape[i] if n is None else n for i, n in enumerate(noise_shape))
    keep = _keep_mask(shape, rate, seed, dtype=x.dtype)
    return x * (keep / np.asarray(1 - rate, x.dtype))


def gamma(shape, alpha, dtype=None, seed=None):
    """Samples of a Gamma distribution with shape parameter `alpha`.

    Args:
        shape: Output shape.
        alpha: Shape parameter (scale 1).
        dtype: Output dtype (default: floatx).
        seed: Optional int or `SeedGenerator`.

    Example:

    >>> x = kerasish.random.gamma((1000,), alpha=2.0, seed=1)
    >>> bool(np.asarray(x).min() > 0)
    True
    """
    rng = make_rng(seed)
    return Tensor(rng.gamma(alpha, size=_shape(shape))
                  .astype(dtypes.standardize_dtype(dtype)))


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Samples of Binomial(`counts`, `probabilities`) distributions.

    Args:
        shape: Output shape.
        counts: Number of trials (broadcast against `shape`).
        probabilities: Success probability of each trial.
        dtype: Output dtype (default: floatx).
        seed: Optional int or `SeedGenerator`.

    Example:

    >>> x = np.asarray(kerasish.random.binomial((100,), 10, 0.5, seed=1))
    >>> bool(x.min() >= 0 and x.max() <= 10)
    True
    """
    rng = make_rng(seed)
    return Tensor(rng.binomial(counts, probabilities, size=_shape(shape))
                  .astype(dtypes.standardize_dtype(dtype)))


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Samples of a Beta(`alpha`, `beta`) distribution, in [0, 1].

    Args:
        shape: Output shape.
        alpha, beta: The distribution's two shape parameters.
        dtype: Output dtype (default: floatx).
        seed: Optional int or `SeedGenerator`.

    Example:

    >>> x = np.asarray(kerasish.random.beta((100,), 2.0, 5.0, seed=1))
    >>> bool(x.min() >= 0.0 and x.max() <= 1.0)
    True
    """
    rng = make_rng(seed)
    return Tensor(rng.beta(alpha, beta, size=_shape(shape))
                  .astype(dtypes.standardize_dtype(dtype)))
