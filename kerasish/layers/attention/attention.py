"""`Attention`: dot-product (Luong-style) attention over a value sequence."""
import numpy as np

from kerasish import ops
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.backend import random
from kerasish.engine.layer import Layer
from kerasish.ops.operation import infer_output_spec
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Attention(Layer):
    """Dot-product attention layer, a.k.a. Luong-style attention.

    With `query` `(batch, Tq, dim)`, `value` `(batch, Tv, dim)` and `key`
    (defaults to `value`): `scores = query @ key^T` (`"dot"`) or
    `sum(tanh(query + key))` (`"concat"`), masked, softmaxed over `Tv`,
    then `scores @ value`.

    Args:
        use_scale: Learn a scalar that multiplies the scores. Default
            `False`.
        score_mode: `"dot"` (default) or `"concat"`.
        dropout: Fraction of the attention scores to drop in training.
        seed: Random seed for dropout.

    Call arguments:
        inputs: `[query, value]` or `[query, value, key]`.
        mask: Optional `[query_mask, value_mask]` (taken from the inputs'
            Keras masks when not given): value steps that are masked get no
            attention, masked query steps output zeros.
        training: Enables dropout.
        return_attention_scores: Also return the scores after softmax.
        use_causal_mask: Step `i` attends only to value steps `j <= i`.

    Example:

    >>> import kerasish
    >>> q = np.ones((2, 3, 4), "float32")
    >>> v = np.ones((2, 5, 4), "float32")
    >>> out, scores = kerasish.layers.Attention()(
    ...     [q, v], return_attention_scores=True)
    >>> out.shape, scores.shape
    ((2, 3, 4), (2, 3, 5))
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0,
                 seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(
                "Invalid value for argument score_mode. Expected one of "
                f"{{'dot', 'concat'}}. Received: score_mode={score_mode}")
        if not 0 <= dropout <= 1:
            raise ValueError(
                "Argument `dropout` must be a float between 0 and 1. "
                f"Received: dropout={dropout}")
        self.use_scale = use_scale
        self.score_mode = score_mode
        self.dropout = dropout
        self.seed = seed
        if dropout > 0:
            self.seed_generator = random.SeedGenerator(seed)
        self.supports_masking = True

    def build(self, input_shape):
        self._validate_inputs(input_shape)
        self._check_ranks(input_shape)
        self.scale = None
        self.concat_score_weight = None
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=(),
                                         initializer="ones")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(
                name="concat_score_weight", shape=(), initializer="ones")

    def _calculate_scores(self, query, key):
        """`(batch, Tq, Tv)` scores of each query step against each key."""
        if self.score_mode == "dot":
            scores = ops.matmul(query, ops.swapaxes(key, -2, -1))
            return scores if self.scale is None else scores * self.scale
        pairs = ops.expand_dims(query, -2) + ops.expand_dims(key, -3)
        if self.scale is not None:
            pairs = self.scale * pairs
        return self.concat_score_weight * ops.sum(ops.tanh(pairs), axis=-1)

    def _apply_scores(self, scores, value, scores_mask=None, training=False):
        """Mask, softmax (and dropout) the scores; weight the values."""
        if scores_mask is not None:
            # Keras subtracts a large number (rather than replacing), so a
            # fully masked row still gets a uniform distribution.
            big = 65504.0 if scores.dtype == np.float16 else 1.0e9
            scores = ops.where(scores_mask, scores, scores - big)
        weights = ops.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = random.dropout(weights, self.dropout,
                                     seed=self.seed_generator)
        return ops.matmul(weights, value), weights

    def _score_mask(self, scores, value_mask, use_causal_mask):
        mask = None
        if value_mask is not None:
            mask = np.expand_dims(_as_bool(value_mask), -2)
        if use_causal_mask:
            tq, tv = scores.shape[-2], scores.shape[-1]
            causal = np.tril(np.ones((1, tq, tv), bool))
            mask = causal if mask is None else mask & causal
        return mask

    def call(self, inputs, mask=None, training=False,
             return_attention_scores=False, use_causal_mask=False):
        self._validate_inputs(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._calculate_scores(query, key)
        output, weights = self._apply_scores(
            scores, value, self._score_mask(scores, v_mask, use_causal_mask),
            training)
        if q_mask is not None:
            output = ops.where(np.expand_dims(_as_bool(q_mask), -1), output,
                               ops.zeros_like(output))
        if return_attention_scores:
            return output, weights
        return output

    def compute_mask(self, inputs, mask=None):
        self._validate_inputs(inputs, mask)
        if mask is None or mask[0] is None:
            return None
        if isinstance(mask[0], KerasTensor):      # a functional model's
            return mask[0]
        return ops.convert_to_tensor(mask[0])

    def compute_output_shape(self, input_shape):
        return (*input_shape[0][:-1], input_shape[1][-1])

    def compute_output_spec(self, inputs, **kwargs):
        self._validate_inputs(inputs, kwargs.get("mask"))
        return infer_output_spec(self.__call__, (inputs,), kwargs)

    def _check_ranks(self, input_shapes):
        """Query, value and key are `(batch, steps, features)`."""
        for name, shape in zip(("query", "value", "key"), input_shapes):
            if len(shape) < 3:
                raise ValueError(
                    f"Layer '{self.name}' ({type(self).__name__}) expects "
                    f"`{name}` of shape (batch, steps, features). Received: "
                    f"{name} of shape {tuple(shape)}")

    def _validate_inputs(self, inputs, mask=None):
        name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(
                f"{name} layer must be called on a list of inputs, namely "
                "[query, value] or [query, value, key]. "
                f"Received: inputs={inputs}.")
        if not 2 <= len(inputs) <= 3:
            raise ValueError(
                f"{name} layer accepts inputs list of length 2 or 3, namely "
                "[query, value] or [query, value, key]. Received length: "
                f"{len(inputs)}.")
        if mask is not None:
            if not isinstance(mask, list):
                raise ValueError(
                    f"{name} layer mask must be a list, namely [query_mask, "
                    f"value_mask]. Received: mask={mask}.")
            if not 2 <= len(mask) <= 3:
                raise ValueError(
                    f"{name} layer accepts mask list of length 2 or 3. "
                    f"Received: inputs={inputs}, mask={mask}.")

    def get_config(self):
        config = super().get_config()
        config.update({"use_scale": self.use_scale,
                       "score_mode": self.score_mode,
                       "dropout": self.dropout, "seed": self.seed})
        return config


def _as_bool(mask):
    value = np.asarray(getattr(mask, "_value", mask))
    return value if value.dtype == bool else value > 0.5

