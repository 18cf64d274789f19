"""`Identity`: a placeholder layer returning its input unchanged."""
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.saving.object_registration import builtin
from kerasish import tree


@builtin("keras.layers")
class Identity(Layer):
    """Return the input (any structure of tensors) unchanged; masks pass
    through.

    Args:
        **kwargs: Base layer arguments.

    Example:

    >>> Identity()(np.array([1.0, 2.0], "float32")).numpy()
    array([1., 2.], dtype=float32)
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def compute_output_spec(self, inputs, *args, **kwargs):
        return tree.map_structure(
            lambda x: KerasTensor(x.shape, dtype=x.dtype), inputs)
