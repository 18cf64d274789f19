"""`Permute`: reorder the non-batch axes."""
from kerasish import ops
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Permute(Layer):
    """Permute the dimensions of the input (the batch axis stays first).

    Args:
        dims: Tuple of ints, a permutation of `1..rank-1` (indexing starts
            at 1; the batch axis is not included). `(2, 1)` swaps the two
            axes of a rank-3 input.

    Example:

    >>> Permute((2, 1))(np.zeros((4, 10, 64), "float32")).shape
    (4, 64, 10)
    """

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        try:
            self.dims = tuple(int(d) for d in dims)
        except (TypeError, ValueError):
            raise ValueError(
                "Permute: `dims` must be a tuple of ints. "
                f"Received: dims={dims!r}") from None
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(
                "Invalid permutation argument `dims` for Permute Layer. The "
                "set of indices in `dims` must be consecutive and start "
                f"from 1. Received dims={dims}")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)

    def call(self, inputs):
        return ops.transpose(inputs, (0,) + self.dims)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config
