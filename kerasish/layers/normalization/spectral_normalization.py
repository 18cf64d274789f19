"""`SpectralNormalization`: constrain a layer's kernel to spectral norm 1."""
import numpy as np

from kerasish import initializers, ops
from kerasish.backend.common import call_context
from kerasish.engine.input_spec import InputSpec
from kerasish.layers.rnn.wrapper import Wrapper
from kerasish.saving.object_registration import builtin


def _unit(x):
    return ops.normalize(x, axis=None).numpy()


@builtin("keras.layers")
class SpectralNormalization(Wrapper):
    """Divide the wrapped layer's kernel by its largest singular value
    (Miyato et al., 2018), estimated by power iteration on a persistent
    vector `vector_u`.

    In training, each call runs `power_iterations` steps, then rescales the
    kernel in place (`kernel / sigma`) before the wrapped layer computes;
    at inference the kernel is used as it is. An all-zero kernel is left
    unchanged. Works with any layer that has a `kernel` (Dense, Conv) or
    `embeddings` (Embedding).

    Args:
        layer: The layer to wrap.
        power_iterations: Number of power iterations per training call.
            Defaults to 1.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = SpectralNormalization(kerasish.layers.Dense(3))
    >>> _ = layer(np.ones((2, 4), "float32"), training=True)
    >>> sigma = np.linalg.svd(layer.layer.kernel.numpy(), compute_uv=False)
    >>> bool(sigma[0] < 1.5)
    True
    """

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError(
                "`power_iterations` should be greater than zero. Received: "
                f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(
                f"{type(self.layer).__name__} object has no attribute "
                "'kernel' nor 'embeddings'")
        self.kernel_shape = tuple(self.kernel.shape)
        self.vector_u = self.add_weight(
            shape=(1, self.kernel_shape[-1]), name="vector_u",
            initializer=initializers.TruncatedNormal(stddev=0.02),
            trainable=False, dtype=self.kernel.dtype)

    def call(self, inputs, training=False):
        if training and not call_context.in_trace() and \
                np.any(self.kernel.numpy() != 0):
            vector_u, kernel = self.normalized_weights()
            self.vector_u.assign(vector_u)
            self.kernel.assign(kernel)
        output = self.layer(inputs)
        return ops.cast(output, inputs.dtype)

    def normalized_weights(self):
        """`(new vector_u, kernel / sigma)` after the power iterations."""
        kernel = self.kernel.numpy()
        weights = kernel.reshape(-1, self.kernel_shape[-1])
        vector_u = self.vector_u.numpy()
        for _ in range(self.power_iterations):
            vector_v = _unit(vector_u @ weights.T)
            vector_u = _unit(vector_v @ weights)
        sigma = (vector_v @ weights) @ vector_u.T
        new_kernel = (kernel / sigma).reshape(self.kernel_shape)
        return (vector_u.astype(self.vector_u.dtype),
                new_kernel.astype(self.kernel.dtype))

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["power_iterations"] = self.power_iterations
        return config
