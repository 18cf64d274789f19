"""Weight initializers (`keras.initializers`), same names, configs, rules.

An unseeded random initializer draws its seed once, when constructed (from
the global seed), so calling the same instance twice repeats its values, as
in Keras 3.
"""
import math

import numpy as np

from kerasish.backend import dtypes, random
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import deserialize_keras_object
from kerasish.backend.common.naming import to_snake_case

_MODULE = "keras.initializers"


def _value(t):
    return t._value if hasattr(t, "_value") else np.asarray(t)


class Initializer:
    """Base class: `initializer(shape, dtype) -> array`.

    Example:

    >>> class Halves(kerasish.initializers.Initializer):
    ...     def __call__(self, shape, dtype=None):
    ...         return np.full(shape, 0.5, dtype=dtype or "float32")
    >>> layer = kerasish.layers.Dense(2, kernel_initializer=Halves())
    >>> kerasish.ops.convert_to_numpy(layer(np.ones((1, 3)))).tolist()
    [[1.5, 1.5]]
    """

    def __call__(self, shape, dtype=None):
        raise NotImplementedError(
            "Initializer subclasses must implement `__call__()`.")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return type(self).from_config(self.get_config())


@builtin(_MODULE, "constant")
class Constant(Initializer):
    """Fill with `value`.

    >>> Constant(2.0)((2,), "float32")
    array([2., 2.], dtype=float32)
    """

    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return np.full(shape, self.value, dtypes.standardize_dtype(dtype))

    def get_config(self):
        return {"value": serialize_keras_object(self.value)}

    @classmethod
    def from_config(cls, config):
        return cls(deserialize_keras_object(config["value"]))


@builtin(_MODULE, "zeros", "zero")
class Zeros(Initializer):
    """Fill with zeros.

    Example:

    >>> np.asarray(kerasish.initializers.Zeros()(shape=(2, 2)))
    array([[0., 0.],
           [0., 0.]], dtype=float32)
    """

    def __call__(self, shape, dtype=None):
        return np.zeros(shape, dtypes.standardize_dtype(dtype))


@builtin(_MODULE, "ones", "one")
class Ones(Initializer):
    """Fill with ones.

    Example:

    >>> np.asarray(kerasish.initializers.Ones()(shape=(2, 2)))
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """

    def __call__(self, shape, dtype=None):
        return np.ones(shape, dtypes.standardize_dtype(dtype))


@builtin(_MODULE, "identity", "IdentityInitializer")
class Identity(Initializer):
    """`gain` times the identity matrix (2-D shapes only).

    Example:

    >>> initializer = kerasish.initializers.Identity(gain=2.0)
    >>> np.asarray(initializer(shape=(2, 3)))
    array([[2., 0., 0.],
           [0., 2., 0.]], dtype=float32)
    """

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError(
                "Identity matrix initializer can only be used for 2D "
                f"matrices. Received: shape={shape} of rank {len(shape)}.")
        return (self.gain * np.eye(*shape)).astype(
            dtypes.standardize_dtype(dtype))

    def get_config(self):
        return {"gain": self.gain}


class RandomInitializer(Initializer):
    """Base of the random initializers; owns the `seed`."""

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = random.make_default_seed()
        elif not isinstance(seed, (int, random.SeedGenerator)):
            raise ValueError(
                "`seed` argument should be an instance of "
                "`kerasish.random.SeedGenerator()` or an integer. "
                f"Received: seed={seed}")
        self.seed = seed

    def get_config(self):
        seed = self._init_seed
        if isinstance(seed, random.SeedGenerator):
            seed = serialize_keras_object(seed)
        return {"seed": seed}


@builtin(_MODULE, "random_normal", "normal")
class RandomNormal(RandomInitializer):
    """Normal with `mean` and `stddev` (default 0.05).

    Example:

    >>> initializer = kerasish.initializers.RandomNormal()
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return _value(random.normal(shape, self.mean, self.stddev, dtype,
                                    self.seed))

    def get_config(self):
        return {**super().get_config(), "mean": self.mean,
                "stddev": self.stddev}


@builtin(_MODULE, "random_uniform", "uniform")
class RandomUniform(RandomInitializer):
    """Uniform on `[minval, maxval)` (default ±0.05).

    Example:

    >>> initializer = kerasish.initializers.RandomUniform()
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval = minval, maxval
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return _value(random.uniform(shape, self.minval, self.maxval, dtype,
                                     self.seed))

    def get_config(self):
        return {**super().get_config(), "minval": self.minval,
                "maxval": self.maxval}


@builtin(_MODULE, "truncated_normal")
class TruncatedNormal(RandomInitializer):
    """Normal truncated to two standard deviations.

    Example:

    >>> initializer = kerasish.initializers.TruncatedNormal()
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        return _value(random.truncated_normal(shape, self.mean, self.stddev,
                                              dtype, self.seed))

    def get_config(self):
        return {**super().get_config(), "mean": self.mean,
                "stddev": self.stddev}


def compute_fans(shape, input_axes=None, output_axes=None):
    """`(fan_in, fan_out)` of a weight shape, as Keras computes them.

    Example:

    >>> kerasish.initializers.compute_fans((3, 3, 16, 32))
    (144, 288)
    """
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return (int(np.prod([shape[a] for a in input_axes])),
                int(np.prod([shape[a] for a in output_axes])))
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    if len(shape) == 2:
        return int(shape[0]), int(shape[1])
    receptive = int(np.prod(shape[:-2]))
    return int(shape[-2] * receptive), int(shape[-1] * receptive)


@builtin(_MODULE, "variance_scaling")
class VarianceScaling(RandomInitializer):
    """Scale by fan-in/fan-out; the family behind Glorot, He and LeCun.

    Args:
        scale: Positive scaling factor.
        mode: `"fan_in"`, `"fan_out"` or `"fan_avg"`.
        distribution: `"truncated_normal"`, `"untruncated_normal"` or
            `"uniform"`.
        seed: Int, SeedGenerator or None.

    Example:

    >>> initializer = kerasish.initializers.VarianceScaling(
    ...     scale=2.0, mode="fan_in", distribution="uniform")
    >>> values = kerasish.ops.convert_to_numpy(initializer(shape=(200, 100)))
    >>> bool(np.abs(values).max() <= np.sqrt(3 * 2.0 / 200))
    True
    """

    def __init__(self, scale=1.0, mode="fan_in",
                 distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        if scale <= 0.0:
            raise ValueError("Argument `scale` must be positive float. "
                             f"Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(
                f"Invalid `mode` argument: {mode}. Please use one of "
                "{'fan_in', 'fan_out', 'fan_avg'}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal",
                                "untruncated_normal"):
            raise ValueError(
                f"Invalid `distribution` argument: {distribution}. Please "
                "use one of {'uniform', 'truncated_normal', "
                "'untruncated_normal'}")
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = compute_fans(shape, self.input_axes,
                                       self.output_axes)
        scale = self.scale
        if self.mode == "fan_in":
            scale /= max(1.0, fan_in)
        elif self.mode == "fan_out":
            scale /= max(1.0, fan_out)
        else:
            scale /= max(1.0, (fan_in + fan_out) / 2.0)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978
            out = random.truncated_normal(shape, 0.0, stddev, dtype,
                                          self.seed)
        elif self.distribution == "untruncated_normal":
            out = random.normal(shape, 0.0, math.sqrt(scale), dtype,
                                self.seed)
        else:
            limit = math.sqrt(3.0 * scale)
            out = random.uniform(shape, -limit, limit, dtype, self.seed)
        return _value(out)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale,
                "mode": self.mode, "distribution": self.distribution,
                "input_axes": self.input_axes,
                "output_axes": self.output_axes}


def _preset(name, scale, mode, distribution, doc):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(self, scale=scale, mode=mode,
                                 distribution=distribution, seed=seed,
                                 input_axes=input_axes,
                                 output_axes=output_axes)

    def get_config(self):
        return {"seed": self._init_seed, "input_axes": self.input_axes,
                "output_axes": self.output_axes}
    cls = type(name, (VarianceScaling,), {
        "__init__": __init__, "get_config": get_config, "__doc__": doc,
        "__module__": __name__})
    return builtin(_MODULE, to_snake_case(name))(cls)


GlorotUniform = _preset("GlorotUniform", 1.0, "fan_avg", "uniform",
    """Uniform within ±sqrt(6 / (fan_in + fan_out)).

    Args:
        seed: Optional int or `SeedGenerator`; an int gives the same values
            on every call.
        input_axes, output_axes: Optional axes counted as fan-in and
            fan-out (for kernels of more than 2 dimensions).

    Example:

    >>> initializer = kerasish.initializers.GlorotUniform(seed=0)
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """)
GlorotNormal = _preset("GlorotNormal", 1.0, "fan_avg", "truncated_normal",
    """Truncated normal, stddev sqrt(2 / (fan_in + fan_out)).

    Args:
        seed: Optional int or `SeedGenerator`; an int gives the same values
            on every call.
        input_axes, output_axes: Optional axes counted as fan-in and
            fan-out (for kernels of more than 2 dimensions).

    Example:

    >>> initializer = kerasish.initializers.GlorotNormal(seed=0)
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """)
HeNormal = _preset("HeNormal", 2.0, "fan_in", "truncated_normal",
    """Truncated normal, stddev sqrt(2 / fan_in).

    Args:
        seed: Optional int or `SeedGenerator`; an int gives the same values
            on every call.
        input_axes, output_axes: Optional axes counted as fan-in and
            fan-out (for kernels of more than 2 dimensions).

    Example:

    >>> initializer = kerasish.initializers.HeNormal(seed=0)
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """)
HeUniform = _preset("HeUniform", 2.0, "fan_in", "uniform",
    """Uniform within ±sqrt(6 / fan_in).

    Args:
        seed: Optional int or `SeedGenerator`; an int gives the same values
            on every call.
        input_axes, output_axes: Optional axes counted as fan-in and
            fan-out (for kernels of more than 2 dimensions).

    Example:

    >>> initializer = kerasish.initializers.HeUniform(seed=0)
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """)
LecunNormal = _preset("LecunNormal", 1.0, "fan_in", "truncated_normal",
    """Truncated normal, stddev sqrt(1 / fan_in).

    Args:
        seed: Optional int or `SeedGenerator`; an int gives the same values
            on every call.
        input_axes, output_axes: Optional axes counted as fan-in and
            fan-out (for kernels of more than 2 dimensions).

    Example:

    >>> initializer = kerasish.initializers.LecunNormal(seed=0)
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """)
LecunUniform = _preset("LecunUniform", 1.0, "fan_in", "uniform",
    """Uniform within ±sqrt(3 / fan_in).

    Args:
        seed: Optional int or `SeedGenerator`; an int gives the same values
            on every call.
        input_axes, output_axes: Optional axes counted as fan-in and
            fan-out (for kernels of more than 2 dimensions).

    Example:

    >>> initializer = kerasish.initializers.LecunUniform(seed=0)
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """)


@builtin(_MODULE, "orthogonal", "OrthogonalInitializer")
class Orthogonal(RandomInitializer):
    """A (semi-)orthogonal matrix times `gain`, from a QR decomposition.

    Example:

    >>> initializer = kerasish.initializers.Orthogonal()
    >>> values = initializer(shape=(64, 32))
    >>> values.shape, str(values.dtype)
    ((64, 32), 'float32')
    """

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed=seed)

    def __call__(self, shape, dtype=None):
        if len(shape) < 2:
            raise ValueError(
                "The tensor to initialize must be at least two-dimensional. "
                f"Received: shape={shape} of rank {len(shape)}.")
        rows = int(np.prod(shape[:-1]))
        cols = int(shape[-1])
        flat = (max(rows, cols), min(rows, cols))
        a = _value(random.normal(flat, dtype="float64", seed=self.seed))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q.reshape(shape)).astype(
            dtypes.standardize_dtype(dtype))

    def get_config(self):
        return {**super().get_config(), "gain": self.gain}
