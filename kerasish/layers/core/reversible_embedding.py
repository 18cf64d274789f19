"""`ReversibleEmbedding`: an embedding that also projects back to ids."""
from kerasish import ops
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.layers.core.embedding import Embedding
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class ReversibleEmbedding(Embedding):
    """An `Embedding` that can be called in reverse, for language models.

    Called normally it looks ids up, as `Embedding`. Called with
    `reverse=True` it projects `(..., output_dim)` hidden states to
    `(..., input_dim)` logits with the transposed table (weights "tied",
    Press & Wolf 2016) or, with `tie_weights=False`, with a separate
    trainable `reverse_embeddings` matrix `(output_dim, input_dim)`. There
    is no bias.

    Args:
        input_dim: Size of the vocabulary (largest id + 1).
        output_dim: Size of each vector.
        tie_weights: Reverse through the transposed `embeddings`. Defaults
            to `True`.
        embeddings_initializer: Defaults to `"uniform"` (also initializes
            `reverse_embeddings`).
        embeddings_regularizer: Optional regularizer of the table.
        embeddings_constraint: Optional constraint of the table.
        mask_zero: Whether id 0 is padding (masked). Defaults to `False`.
        reverse_dtype: dtype of the reverse projection (inputs and kernel
            are cast to it). Defaults to `None`: the compute dtype.
        logit_soft_cap: If set, reverse logits become `tanh(logits / cap)
            * cap`. Defaults to `None`.
        **kwargs: Base layer arguments (`name`, `dtype`, ...).

    Call arguments:
        inputs: Integer ids, or with `reverse=True` hidden states.
        reverse: Project back to vocabulary logits. Defaults to `False`.

    Example:

    >>> import kerasish
    >>> embedding = kerasish.layers.ReversibleEmbedding(100, 8)
    >>> hidden = embedding(np.array([[3, 14, 15]]))
    >>> hidden.shape, embedding(hidden, reverse=True).shape
    ((1, 3, 8), (1, 3, 100))
    """

    def __init__(self, input_dim, output_dim, tie_weights=True,
                 embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None,
                 mask_zero=False, reverse_dtype=None, logit_soft_cap=None,
                 **kwargs):
        super().__init__(input_dim, output_dim,
                         embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint,
                         mask_zero=mask_zero, **kwargs)
        if logit_soft_cap is not None and not logit_soft_cap > 0:
            raise ValueError(
                "`logit_soft_cap` must be `None` or a positive number. "
                f"Received: logit_soft_cap={logit_soft_cap!r}")
        self.tie_weights = tie_weights
        self.reverse_dtype = reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        if self.built:
            return
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer,
                name="reverse_embeddings", trainable=True)

    def call(self, inputs, reverse=False):
        if not reverse:
            outputs = super().call(inputs)
            if self.mask_zero:
                outputs._keras_mask = super().compute_mask(inputs)
            return outputs
        self._check_hidden(inputs)
        kernel = ops.transpose(self.embeddings) if self.tie_weights \
            else self.reverse_embeddings
        if self.reverse_dtype is not None:
            inputs = ops.cast(inputs, self.reverse_dtype)
            kernel = ops.cast(kernel, self.reverse_dtype)
        logits = ops.matmul(inputs, kernel)
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = ops.multiply(ops.tanh(ops.divide(logits, cap)), cap)
        return logits

    def _check_hidden(self, inputs):
        if inputs.shape[-1] != self.output_dim:
            raise ValueError(
                f"Layer '{self.name}' (ReversibleEmbedding) called with "
                f"`reverse=True` expects inputs whose last dimension is "
                f"output_dim={self.output_dim}. Received inputs of shape "
                f"{tuple(inputs.shape)}")

    def compute_mask(self, inputs, mask=None):
        # The mask of a lookup is attached in `call`; logits carry none.
        return None

    def compute_output_shape(self, input_shape, reverse=False):
        shape = list(input_shape)
        if reverse:
            shape[-1] = self.input_dim
        else:
            shape.append(self.output_dim)
        return tuple(shape)

    def compute_output_spec(self, inputs, reverse=False):
        dtype = self.compute_dtype
        if reverse and self.reverse_dtype is not None:
            dtype = self.reverse_dtype
        return KerasTensor(self.compute_output_shape(inputs.shape, reverse),
                           dtype=dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"tie_weights": self.tie_weights,
                       "reverse_dtype": self.reverse_dtype,
                       "logit_soft_cap": self.logit_soft_cap})
        return config
