"""`GroupQueryAttention` (Ainslie et al. 2023), Keras's layout."""
import math

import numpy as np

from kerasish import constraints, initializers, ops, regularizers
from kerasish.engine.layer import Layer
from kerasish.ops.operation import infer_output_spec
from kerasish.layers.activations.softmax import Softmax
from kerasish.layers.attention.multi_head_attention import (_bool,
                                                            _keras_mask,
                                                            _masks_hidden)
from kerasish.layers.core.einsum_dense import EinsumDense
from kerasish.layers.regularization.dropout import Dropout
from kerasish.saving.object_registration import builtin
from kerasish.backend.common import global_state as config_utils


def _check_heads(name, value):
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) \
            or value <= 0:
        raise ValueError(
            f"Received an invalid value for argument `{name}`, expected a "
            f"positive integer. Received: {name}={value!r}")
    return int(value)


# Keras exports this class as `keras.layers.GroupQueryAttention` (the name
# its configs carry) but names it `GroupedQueryAttention` (the name its
# default layer names and weight-file paths derive from).
@builtin("keras.layers", "GroupQueryAttention")
class GroupedQueryAttention(Layer):
    """Grouped-query attention: query heads share key/value heads.

    `num_query_heads` query heads attend in groups of `num_query_heads //
    num_key_value_heads` over the same key/value head; one key/value head
    is multi-query attention, as many as query heads is multi-head
    attention. Projections are EinsumDense sublayers `query` (kernel
    `(dim, num_query_heads, head_dim)`), `key`, `value` (`(dim,
    num_key_value_heads, head_dim)`) and `attention_output`
    (`(num_query_heads, head_dim, dim)`).

    Args:
        head_dim: Size of each attention head.
        num_query_heads: Number of query heads.
        num_key_value_heads: Number of key/value heads; must divide
            `num_query_heads`.
        dropout: Dropout rate of the attention probabilities. Default 0.
        use_bias: Whether the projections have biases. Default `True`.
        sliding_window: Optional positive int: a query attends only to keys
            less than `sliding_window` steps away. Default `None`.
        flash_attention: `None` (default: follow
            `keras.config.is_flash_attention_enabled()`) or `False`; the
            numpy runtime has no flash kernel, so `True` raises on call.
        kernel_initializer: Defaults to `"glorot_uniform"`.
        bias_initializer: Defaults to `"zeros"`.
        kernel_regularizer, bias_regularizer, activity_regularizer,
        kernel_constraint, bias_constraint: For the projections. Default
            `None`.
        use_gate: Gate the attention output with a sigmoid projection of
            the query (sublayer `gate`). Default `False`.
        seed: Random seed of the dropout. Default `None`.

    Call arguments:
        query: `(B, T, dim)`. value: `(B, S, dim)`. key: optional
            `(B, S, dim)`, defaults to `value`.
        query_mask, value_mask, key_mask: Optional `(B, T)` / `(B, S)`
            boolean masks (taken from the inputs' Keras masks if omitted).
        attention_mask: Optional boolean `(B, T, S)` mask; False blocks.
        return_attention_scores: Also return the attention probabilities
            `(B, num_query_heads, T, S)`. Default `False`.
        training: Enables dropout.
        use_causal_mask: Step `t` attends only to steps `s <= t`.

    Example:

    >>> import kerasish
    >>> gqa = kerasish.layers.GroupQueryAttention(
    ...     head_dim=4, num_query_heads=4, num_key_value_heads=2)
    >>> q = np.ones((3, 8, 16), "float32")
    >>> v = np.ones((3, 5, 16), "float32")
    >>> out, scores = gqa(q, v, return_attention_scores=True)
    >>> out.shape, scores.shape
    ((3, 8, 16), (3, 4, 8, 5))
    """

    _keras_class_name = "GroupQueryAttention"

    def __init__(self, head_dim, num_query_heads, num_key_value_heads,
                 dropout=0.0, use_bias=True, sliding_window=None,
                 flash_attention=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None,
                 use_gate=False, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.head_dim = _check_heads("head_dim", head_dim)
        self.num_query_heads = _check_heads("num_query_heads",
                                            num_query_heads)
        self.num_key_value_heads = _check_heads("num_key_value_heads",
                                                num_key_value_heads)
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError(
                "`num_query_heads` must be divisible by `num_key_value_heads`"
                f". Received: num_query_heads={num_query_heads}, "
                f"num_key_value_heads={num_key_value_heads}")
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout, self.use_bias, self.use_gate = dropout, use_bias, \
            use_gate
        if sliding_window is not None and (
                not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError(
                "`sliding_window` must be `None` or a positive integer. "
                f"Received: sliding_window={sliding_window}")
        self.sliding_window = sliding_window
        self._flash_attention = flash_attention or \
            config_utils.is_flash_attention_enabled()
        if self._flash_attention and dropout > 0.0:
            raise ValueError(
                "Dropout is not supported when flash attention is enabled. "
                "Please set dropout to 0.0 to use flash attention.")
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(self.head_dim))

    # -- building -------------------------------------------------------------
    def _maybe_build(self, args, kwargs):
        if self.built:
            return
        named = dict(zip(("query", "value", "key"), args))
        named.update({k: kwargs[k] for k in ("query", "value", "key")
                      if k in kwargs})
        self.build(**{f"{k}_shape": tuple(v.shape)
                      for k, v in named.items() if v is not None})

    def build(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        self._query_dense = self._projection(
            "bqm,muh->bquh", self.num_query_heads, "query", query_shape)
        self._key_dense = self._projection(
            "bkm,mvh->bkvh", self.num_key_value_heads, "key", key_shape)
        if self.use_gate:
            self._gate_dense = self._projection(
                "bqm,muh->bquh", self.num_query_heads, "gate", query_shape,
                activation="sigmoid")
        self._value_dense = self._projection(
            "bkm,mvh->bkvh", self.num_key_value_heads, "value", value_shape)
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout,
                                      dtype=self.dtype_policy, seed=self.seed)
        self._output_dense = EinsumDense(
            "bquh,uhm->bqm", output_shape=(None, self.feature_dim),
            bias_axes="m" if self.use_bias else None,
            name="attention_output", **self._sublayer_kwargs())
        self._output_dense.build(
            (None, None, self.num_query_heads, self.head_dim))

    def _projection(self, equation, heads, name, shape, activation=None):
        layer = EinsumDense(
            equation, output_shape=(None, heads, self.head_dim),
            bias_axes=equation[-2:] if self.use_bias else None,
            activation=activation, name=name, **self._sublayer_kwargs())
        layer.build(tuple(shape))
        return layer

    def _sublayer_kwargs(self):
        # Fresh initializer copies: one unseeded initializer object shared
        # by the projections would give them all the same values.
        def fresh(init):
            return type(init).from_config(init.get_config())
        return dict(kernel_regularizer=self.kernel_regularizer,
                    bias_regularizer=self.bias_regularizer,
                    activity_regularizer=self.activity_regularizer,
                    kernel_constraint=self.kernel_constraint,
                    bias_constraint=self.bias_constraint,
                    dtype=self.dtype_policy,
                    kernel_initializer=fresh(self.kernel_initializer),
                    bias_initializer=fresh(self.bias_initializer))

    # -- calling --------------------------------------------------------------
    def call(self, query, value, key=None, query_mask=None, value_mask=None,
             key_mask=None, attention_mask=None,
             return_attention_scores=False, training=None,
             use_causal_mask=False):
        if key is None:
            key = value
        else:
            key_mask = _keras_mask(key, key_mask)
        query_mask = _keras_mask(query, query_mask)
        value_mask = _keras_mask(value, value_mask)
        mask = self._attention_mask(query, value, query_mask, value_mask,
                                    key_mask, attention_mask,
                                    use_causal_mask)
        with _masks_hidden(query, value, key):
            gate = self._gate_dense(query) if self.use_gate else None
            output, scores = self._compute_attention(
                self._query_dense(query), self._key_dense(key),
                self._value_dense(value), mask, training,
                return_attention_scores)
            if gate is not None:
                output = ops.multiply(output, gate)
            output = self._output_dense(output)
        if return_attention_scores:
            return output, scores
        return output

    def _attention_mask(self, query, value, query_mask, value_mask, key_mask,
                        attention_mask, use_causal_mask):
        """One boolean mask broadcastable to `(B, T, S)`, or None."""
        auto = None
        for m, axis in ((query_mask, -1), (value_mask, -2), (key_mask, -2)):
            if m is not None:
                m = np.expand_dims(_bool(m), axis)
                auto = m if auto is None else auto & m
        t, s = query.shape[1], value.shape[1]
        if use_causal_mask:
            causal = np.tril(np.ones((1, t, s), bool))
            auto = causal if auto is None else auto & causal
        if self.sliding_window is not None:
            rows, cols = np.arange(t)[:, None], np.arange(s)[None, :]
            window = (np.abs(rows - cols) < self.sliding_window)[None]
            auto = window if auto is None else auto & window
        if attention_mask is not None:
            attention_mask = _bool(attention_mask)
            return attention_mask if auto is None else attention_mask & auto
        return auto

    def _compute_attention(self, query, key, value, mask, training,
                           return_attention_scores):
        """Fused `dot_product_attention` unless scores or dropout are
        needed, as Keras chooses (the two differ on fully masked rows:
        uniform weights there, zeros here)."""
        if self._flash_attention and return_attention_scores:
            raise ValueError(
                "Returning attention scores is not supported when flash "
                "attention is enabled. Please disable flash attention to "
                "access attention scores.")
        if mask is not None:
            mask = mask[:, None] if mask.ndim == 3 else mask
        if not (self.dropout > 0.0 or return_attention_scores):
            output = ops.dot_product_attention(
                query, key, value, mask=mask,
                scale=self._inverse_sqrt_head_dim,
                flash_attention=self._flash_attention)
            return output, None
        key = ops.repeat(key, self.num_repeats, axis=2)
        value = ops.repeat(value, self.num_repeats, axis=2)
        query = ops.multiply(query, ops.cast(self._inverse_sqrt_head_dim,
                                             query.dtype))
        scores = ops.einsum("bquh,bkuh->buqk", query, key)
        scores = self._softmax(scores, mask=mask)
        dropped = self._dropout_layer(scores, training=training) \
            if self.dropout > 0.0 else scores
        return ops.einsum("buqk,bkuh->bquh", dropped, value), scores

    # -- shapes and config ----------------------------------------------------
    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        if query_shape[-1] != value_shape[-1]:
            raise ValueError(
                "The last dimension of `query_shape` and `value_shape` must "
                f"be equal, but are {query_shape[-1]}, {value_shape[-1]}. "
                f"Received: query_shape={tuple(query_shape)}, "
                f"value_shape={tuple(value_shape)}")
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError(
                "All dimensions of `value` and `key`, except the last one, "
                f"must be equal. Received: value_shape={tuple(value_shape)} "
                f"and key_shape={tuple(key_shape)}")
        return tuple(query_shape)

    def compute_output_spec(self, query, value, key=None, **kwargs):
        return infer_output_spec(self.__call__, (query, value, key), kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({
            "head_dim": self.head_dim,
            "num_query_heads": self.num_query_heads,
            "num_key_value_heads": self.num_key_value_heads,
            "use_bias": self.use_bias, "use_gate": self.use_gate,
            "sliding_window": self.sliding_window, "dropout": self.dropout,
            "kernel_initializer":
                initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer":
                regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer":
                regularizers.serialize(self.activity_regularizer),
            "kernel_constraint":
                constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "seed": self.seed})
        return config


GroupQueryAttention = GroupedQueryAttention
