"""`Discretization`: bucket continuous values by boundaries."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.layers.preprocessing import adapt_utils, quantiles
from kerasish.layers.preprocessing.encoding import (encode_categorical,
                                                    encoded_shape)
from kerasish.saving.object_registration import builtin

_MODES = ("int", "one_hot", "multi_hot", "count")


@builtin("keras.layers")
class Discretization(Layer):
    """Map each value to the index of its bucket.

    With boundaries `[b0, b1, ...]` the buckets are `(-inf, b0)`,
    `[b0, b1)`, ..., `[b_last, inf)`. Give `bin_boundaries`, or `num_bins`
    and call `adapt(data)` to pick quantile boundaries (an approximate
    quantile summary with error about `epsilon`, as in Keras).

    Args:
        bin_boundaries: Sorted list of boundaries, or None.
        num_bins: Number of buckets to learn in `adapt`, or None.
        epsilon: Quantile error tolerance of `adapt`. Defaults to 0.01.
        output_mode: `"int"` (bucket indices, int32), `"one_hot"`,
            `"multi_hot"` or `"count"`. Defaults to `"int"`.
        sparse: Accepted for compatibility (outputs are dense).
        dtype, name: Base layer arguments.

    Example:

    >>> layer = Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    >>> layer(np.array([[-1.5, 1.0, 3.4, 0.5]])).numpy()
    array([[0, 2, 3, 1]], dtype=int32)
    >>> layer = Discretization(num_bins=4, epsilon=0.01)
    >>> layer.adapt(np.arange(100.0))
    >>> [round(b, 3) for b in layer.bin_boundaries]
    [24.0, 49.0, 74.0]
    """

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01,
                 output_mode="int", sparse=False, dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        if sparse and output_mode == "int":
            raise ValueError(
                "`sparse=True` may only be used if `output_mode` is "
                "`'one_hot'`, `'multi_hot'`, or `'count'`. Received: "
                f"sparse={sparse} and output_mode={output_mode}")
        if output_mode not in _MODES:
            raise ValueError(
                f"Unknown value for `output_mode`. Allowed values are: "
                f"{_MODES}. Received: output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError(
                "`num_bins` must be greater than or equal to 0. Received: "
                f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(
                "Both `num_bins` and `bin_boundaries` should not be set. "
                f"Received: `num_bins={num_bins}` and "
                f"`bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError(
                "You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries = bin_boundaries
        self.num_bins, self.epsilon = num_bins, epsilon
        self.output_mode, self.sparse = output_mode, sparse
        self.summary = None if bin_boundaries else quantiles.empty()
        self._convert_input_args = False

    @property
    def output_dtype(self):
        return self.compute_dtype if self.output_mode != "int" else "int32"

    def adapt(self, data, steps=None):
        """Learn `num_bins` quantile boundaries from `data` (an array or an
        iterable of batches; at most `steps` batches)."""
        if self.num_bins is None:
            raise ValueError(
                "Cannot adapt a Discretization layer that has been "
                "initialized with `bin_boundaries`, use `num_bins` instead.")
        self.reset_state()
        _, batches = adapt_utils.peek_batches(data)
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            self.update_state(batch)
        self.finalize_state()

    def update_state(self, data):
        data = np.asarray(data, dtype="float32")
        self.summary = quantiles.merge(quantiles.summarize(data, self.epsilon),
                                       self.summary, self.epsilon)

    def finalize_state(self):
        if self.num_bins is not None:
            self.bin_boundaries = quantiles.boundaries(
                self.summary, self.num_bins).tolist()

    def reset_state(self):
        if self.num_bins is not None:
            self.summary = quantiles.empty()

    def _depth(self):
        return (len(self.bin_boundaries) + 1 if self.bin_boundaries
                is not None else self.num_bins)

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError(
                "You need to either pass the `bin_boundaries` argument at "
                "construction time or call `adapt(dataset)` before you can "
                "start using the `Discretization` layer.")
        values = inputs._value if isinstance(inputs, Tensor) else \
            np.asarray(inputs)
        if values.dtype.kind not in "biuf":
            raise ValueError(
                f"Layer '{self.name}' (Discretization) buckets numbers; it "
                f"received inputs of dtype {values.dtype} and shape "
                f"{values.shape}.")
        indices = np.digitize(values, np.asarray(self.bin_boundaries,
                                                 values.dtype if
                                                 values.dtype.kind == "f"
                                                 else "float32"))
        return Tensor(encode_categorical(
            indices, self.output_mode, self._depth(),
            dtype=self.output_dtype))

    def compute_output_shape(self, input_shape):
        if self.output_mode in ("multi_hot", "count") and \
                len(input_shape) >= 2:
            # Keras reduces axis 1 for these modes and keeps the rest.
            return (input_shape[0],) + tuple(input_shape[2:]) + \
                (self._depth(),)
        return encoded_shape(input_shape, self.output_mode, self._depth())

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape),
                           dtype=self.output_dtype)

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries,
                "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse,
                "name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = config["dtype"]["config"]["name"]
        if config.get("bin_boundaries") is not None and \
                config.get("num_bins") is not None:
            # An adapted layer has both; __init__ accepts only one.
            boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = boundaries
            return layer
        return cls(**config)
