"""`Normalization`: feature-wise standardization with adapted statistics."""
import numpy as np

from kerasish import backend, ops
from kerasish.engine.layer import Layer
from kerasish.layers.preprocessing import adapt_utils
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Normalization(Layer):
    """Shift and scale inputs to zero mean and unit variance per feature:
    `(x - mean) / sqrt(var)` (or the inverse with `invert=True`).

    The statistics come from `mean`/`variance` arguments or from
    `adapt(data)`, which computes them over every axis but `axis`. Adapted
    statistics are the non-trainable weights `mean`, `variance` and `count`
    (saved with the model; `count` stays 0, as in Keras 3).

    Args:
        axis: Int, tuple of ints or None: the axes with separate statistics.
            Defaults to -1 (per feature); `None` gives one scalar mean and
            variance.
        mean, variance: Optional statistics (both or neither), broadcast to
            the kept axes.
        invert: Undo the normalization instead. Defaults to False.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = Normalization()
    >>> layer.adapt(np.array([[1.0, 10.0], [3.0, 30.0]], "float32"))
    >>> layer(np.array([[2.0, 20.0]], "float32")).numpy()
    array([[0., 0.]], dtype=float32)
    >>> Normalization(mean=2.0, variance=4.0)(np.array([4.0])).numpy()
    array([1.], dtype=float32)
    """

    def __init__(self, axis=-1, mean=None, variance=None, invert=False,
                 **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, int):
            axis = (axis,)
        self.axis = tuple(axis)
        self.input_mean, self.input_variance = mean, variance
        self.invert = invert
        self.supports_masking = True
        self._build_input_shape = None
        self._given_stats = None    # (mean, variance) from arguments
        if (mean is not None) != (variance is not None):
            raise ValueError(
                "When setting values directly, both `mean` and `variance` "
                f"must be set. Received: mean={mean} and variance={variance}")
        if mean is not None:
            if np.shape(mean) != np.shape(variance):
                raise ValueError(
                    "When setting values directly, `mean` and `variance` "
                    "must have the same shape. Received: mean shape "
                    f"{np.shape(mean)} and variance shape "
                    f"{np.shape(variance)}")
            if np.ndim(mean) > len(self.axis):
                raise ValueError(
                    "The rank of `mean` must be less than or equal to the "
                    f"number of axes ({len(self.axis)}). Received: mean "
                    f"shape {np.shape(mean)} for axis {self.axis}")

    def build(self, input_shape):
        if input_shape is None:
            return
        ndim = len(input_shape)
        self._build_input_shape = tuple(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(
                "All `axis` values must be in the range [-ndim, ndim). "
                f"Received inputs with ndim={ndim}, while axis={self.axis}")
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        for d in self._keep_axis:
            if input_shape[d] is None:
                raise ValueError(
                    "All `axis` values to be kept must have a known shape. "
                    f"Received axis={self.axis}, inputs.shape={input_shape}, "
                    f"with unknown axis at index {d}")
        self._reduce_axis = tuple(d for d in range(ndim)
                                  if d not in self._keep_axis)
        self._broadcast_shape = tuple(
            input_shape[d] if d in self._keep_axis else 1
            for d in range(ndim))
        self._mean_and_var_shape = tuple(input_shape[d]
                                         for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(
                name="mean", shape=self._mean_and_var_shape,
                initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight(
                name="variance", shape=self._mean_and_var_shape,
                initializer="ones", trainable=False)
            # Keras 3 keeps `count` only so older files load; it stays 0.
            self.count = self.add_weight(
                name="count", shape=(), dtype="int32", initializer="zeros",
                trainable=False)
        else:
            self._given_stats = (self._given(self.input_mean),
                                 self._given(self.input_variance))
        self.built = True

    def _given(self, value):
        """A user statistic aligned right-to-left with the kept axes."""
        value = np.asarray(value, dtype=self.compute_dtype)
        expanded = [1] * len(self._broadcast_shape)
        for i in range(1, value.ndim + 1):
            expanded[self._keep_axis[-i]] = value.shape[-i]
        return np.broadcast_to(value.reshape(expanded),
                               self._broadcast_shape)

    @property
    def mean(self):
        """The mean in the inputs' broadcast shape (a tensor once built,
        else None), as Keras's attribute: adapted, loaded or given."""
        return self._statistic(0)

    @property
    def variance(self):
        """The variance, like `mean`."""
        return self._statistic(1)

    def _statistic(self, index):
        if not self._ready():
            return None
        return ops.convert_to_tensor(self._statistics()[index])

    def _ready(self):
        return self.built and (self.input_mean is None or
                               self._given_stats is not None)

    def _statistics(self):
        if self.input_mean is not None:
            return self._given_stats
        # Read the variables on every call: loading weights or adapting
        # again must take effect without any extra step.
        dtype = self.compute_dtype
        mean = self.adapt_mean.numpy().reshape(self._broadcast_shape)
        var = self.adapt_variance.numpy().reshape(self._broadcast_shape)
        return mean.astype(dtype), var.astype(dtype)

    def adapt(self, data):
        """Compute the mean and variance of `data` over the reduced axes.

        Args:
            data: A numpy array or tensor, or an iterable of batches (a
                list, a generator, a `PyDataset`), possibly `(x, y)` pairs.
        """
        first, batches = adapt_utils.peek_batches(data)
        dtype = np.asarray(first).dtype
        if dtype.kind not in "biuf":
            raise ValueError(
                f"Layer '{self.name}' (Normalization) adapts to numbers; it "
                f"received data of dtype {dtype} and shape "
                f"{tuple(first.shape)}.")
        if not self.built:
            self.build(tuple(first.shape))
        else:
            for d in self._keep_axis:
                if first.shape[d] != self._build_input_shape[d]:
                    raise ValueError(
                        "The layer was built with input_shape="
                        f"{self._build_input_shape}, but adapt() is being "
                        "called with data with an incompatible shape, "
                        f"data.shape={tuple(first.shape)}")
        mean, var, _ = adapt_utils.streaming_moments(
            batches, self._reduce_axis, self._keep_axis,
            self._build_input_shape)
        if self.input_mean is None:
            self.adapt_mean.assign(mean.reshape(self._mean_and_var_shape))
            self.adapt_variance.assign(var.reshape(self._mean_and_var_shape))

    def finalize_state(self):
        """Kept for API compatibility: statistics are read at call time."""

    def call(self, inputs):
        if not self._ready():
            raise ValueError("You must call `.build(input_shape)` on the "
                             "layer before using it.")
        mean, variance = self._statistics()
        inputs = ops.cast(inputs, self.compute_dtype)
        scale = np.maximum(np.sqrt(variance), backend.epsilon()).astype(
            self.compute_dtype)
        if self.invert:
            return ops.add(ops.multiply(inputs, scale), mean)
        return ops.divide(ops.subtract(inputs, mean), scale)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({
            "axis": self.axis,
            "invert": self.invert,
            "mean": np.array(self.input_mean).tolist(),
            "variance": np.array(self.input_variance).tolist(),
        })
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("mean", "variance"):
            if config.get(key) is None:
                config[key] = None
        return super().from_config(config)

    def get_build_config(self):
        if self._build_input_shape:
            return {"input_shape": tuple(self._build_input_shape)}
        return None

    def build_from_config(self, config):
        if config:
            self.build(tuple(config["input_shape"]))
