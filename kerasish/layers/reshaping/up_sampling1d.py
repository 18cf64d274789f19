"""`UpSampling1D`: repeat each step `size` times."""
from kerasish import ops
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class UpSampling1D(Layer):
    """Upsample `(batch, steps, features)` by repeating each step.

    Args:
        size: Positive int, the upsampling factor. Defaults to 2.

    Example:

    >>> x = np.array([[[1.0], [2.0]]], "float32")
    >>> UpSampling1D(3)(x).numpy().ravel()
    array([1., 1., 1., 2., 2., 2.], dtype=float32)
    """

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(
                "UpSampling1D: expected an integer value for `size`, got "
                f"{type(size).__name__}. Received: size={size!r}")
        if size <= 0:
            raise ValueError(
                "UpSampling1D: argument `size` should be a positive integer. "
                f"Received: size={size}")
        self.size = size
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        return ops.repeat(inputs, self.size, axis=1)

    def compute_output_shape(self, input_shape):
        steps = None if input_shape[1] is None else \
            input_shape[1] * self.size
        return (input_shape[0], steps, input_shape[2])

    def get_config(self):
        config = super().get_config()
        config["size"] = self.size
        return config
