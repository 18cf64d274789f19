"""`CategoryEncoding`: integer ids -> one-hot, multi-hot or count vectors."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.layers.preprocessing.encoding import (encode_categorical,
                                                    encoded_shape)
from kerasish.saving.object_registration import builtin


def _numpy(x):
    return x._value if isinstance(x, Tensor) else np.asarray(x)


@builtin("keras.layers")
class CategoryEncoding(Layer):
    """Encode integer ids in `[0, num_tokens)` as dense vectors.

    * `"one_hot"`: one vector per id (a trailing axis of size 1 is
      replaced by `num_tokens`);
    * `"multi_hot"` (default): one vector per row, 1 where an id occurs;
    * `"count"`: one vector per row counting each id (or summing
      `count_weights`).

    Args:
        num_tokens: The number of distinct ids.
        output_mode: `"one_hot"`, `"multi_hot"` or `"count"` (`"binary"` is
            the old name of `"multi_hot"`). Defaults to `"multi_hot"`.
        sparse: Accepted for compatibility; outputs are dense arrays.
        **kwargs: Base layer arguments.

    Call arguments:
        inputs: Integer ids, rank 0 to 2.
        count_weights: Optional weights of the ids (`"count"` only).

    Example:

    >>> CategoryEncoding(4)(np.array([[0, 1], [0, 0]])).numpy()
    array([[1., 1., 0., 0.],
           [1., 0., 0., 0.]], dtype=float32)
    >>> CategoryEncoding(4, output_mode="count")(np.array([[0, 0, 3]])).numpy()
    array([[2., 0., 0., 1.]], dtype=float32)
    """

    def __init__(self, num_tokens=None, output_mode="multi_hot",
                 sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError(
                "num_tokens must be set to use this layer. If the number of "
                "tokens is not known beforehand, use the IntegerLookup "
                "layer instead.")
        if num_tokens < 1:
            raise ValueError(
                "`num_tokens` must be >= 1. "
                f"Received: num_tokens={num_tokens}.")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse
        self._convert_input_args = False
        self.built = True

    def call(self, inputs, count_weights=None):
        if count_weights is not None and self.output_mode != "count":
            raise ValueError(
                "`count_weights` is not used when `output_mode` is not "
                f"`'count'`. Received `count_weights={count_weights}`.")
        weights = None if count_weights is None else \
            _numpy(count_weights).astype(self.compute_dtype)
        ids = _numpy(inputs)
        if weights is not None and weights.shape != ids.shape:
            raise ValueError(
                f"Layer '{self.name}' (CategoryEncoding) needs one count "
                f"weight per id: `count_weights` has shape {weights.shape} "
                f"and the inputs have shape {ids.shape}.")
        return Tensor(encode_categorical(
            ids, self.output_mode, self.num_tokens,
            dtype=self.compute_dtype, count_weights=weights,
            what=f"Layer '{self.name}' (CategoryEncoding)"))

    def compute_output_shape(self, input_shape):
        return encoded_shape(input_shape, self.output_mode, self.num_tokens)

    def compute_output_spec(self, inputs, count_weights=None):
        return KerasTensor(self.compute_output_shape(inputs.shape),
                           dtype=self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"num_tokens": self.num_tokens,
                       "output_mode": self.output_mode})
        return config
