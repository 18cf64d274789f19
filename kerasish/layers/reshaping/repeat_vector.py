"""`RepeatVector`: repeat a `(batch, features)` input `n` times."""
from kerasish import ops
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RepeatVector(Layer):
    """Repeat the input `n` times: `(batch, f)` -> `(batch, n, f)`.

    Args:
        n: Positive int, the number of repetitions.

    Example:

    >>> RepeatVector(3)(np.array([[1.0, 2.0]], "float32")).numpy()
    array([[[1., 2.],
            [1., 2.],
            [1., 2.]]], dtype=float32)
    """

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(
                f"RepeatVector: expected an integer value for `n`, got "
                f"{type(n).__name__}. Received: n={n!r}")
        if n <= 0:
            raise ValueError(
                "RepeatVector: argument `n` should be a positive integer. "
                f"Received: n={n}")
        self.n = n
        self.input_spec = InputSpec(ndim=2)

    def call(self, inputs):
        return ops.repeat(ops.expand_dims(inputs, 1), self.n, axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config
