"""`AdditiveAttention`: Bahdanau-style attention."""
from kerasish import ops
from kerasish.layers.attention.attention import Attention
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class AdditiveAttention(Attention):
    """Additive attention layer, a.k.a. Bahdanau-style attention.

    `scores = sum(scale * tanh(query + key), axis=-1)` for every
    (query step, key step) pair, then masked softmax over the value steps
    and a weighted sum of the values, as in `Attention`.

    Args:
        use_scale: Learn a `(dim,)` scale vector. Defaults to `True`.
        dropout: Fraction of the attention scores to drop in training.

    Call arguments:
        Same as `Attention` (`inputs`, `mask`, `training`,
        `return_attention_scores`, `use_causal_mask`).

    Example:

    >>> import kerasish
    >>> q = np.ones((2, 3, 4), "float32")
    >>> v = np.ones((2, 5, 4), "float32")
    >>> kerasish.layers.AdditiveAttention()([q, v]).shape
    (2, 3, 4)
    """

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self._check_ranks(input_shape)
        self.scale = None
        if self.use_scale:
            self.scale = self.add_weight(
                name="scale", shape=(input_shape[0][-1],),
                initializer="glorot_uniform")

    def _calculate_scores(self, query, key):
        pairs = ops.tanh(ops.expand_dims(query, -2) +
                         ops.expand_dims(key, -3))
        if self.scale is not None:
            pairs = self.scale * pairs
        return ops.sum(pairs, axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        return config
