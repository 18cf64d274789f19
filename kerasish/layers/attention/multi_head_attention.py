"""`MultiHeadAttention` (Vaswani et al. 2017), Keras's layout."""
import contextlib
import math

import numpy as np

from kerasish import constraints, initializers, ops, regularizers
from kerasish.engine.layer import Layer
from kerasish.ops.operation import infer_output_spec
from kerasish.layers.attention import attention_equations as eqs
from kerasish.layers.core.einsum_dense import EinsumDense
from kerasish.layers.regularization.dropout import Dropout
from kerasish.saving.object_registration import builtin
from kerasish.backend.common import global_state as config_utils


@builtin("keras.layers")
class MultiHeadAttention(Layer):
    """Multi-head attention: `num_heads` scaled dot-product attentions.

    `query`, `key` and `value` are projected (EinsumDense sublayers
    `query_dense`, `key_dense`, `value_dense`, kernels `(dim, heads,
    key_dim)`) into heads, attended over `attention_axes`, and the heads
    are projected back (`output_dense`, kernel `(heads, value_dim, out)`).

    Args:
        num_heads: Number of attention heads.
        key_dim: Size of each head for query and key.
        value_dim: Size of each head for value. Defaults to `key_dim`.
        dropout: Dropout rate on the attention probabilities. Default 0.
        use_bias: Whether the projections have biases. Default `True`.
        output_shape: Shape of the output without batch and sequence axes.
            Defaults to the query's last dimension.
        attention_axes: Axes over which attention is applied (all axes
            but batch, heads and features by default).
        sliding_window: Optional int: attend only within that distance.
        flash_attention: `None` (default: follow
            `keras.config.is_flash_attention_enabled()`; the numpy runtime
            then computes attention normally). `True` raises, as on Keras's
            numpy backend, when the fused path would be taken.
        kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, activity_regularizer, kernel_constraint,
        bias_constraint: For the projection sublayers.
        use_gate: Gate the attention output with a sigmoid projection of
            the query. Default `False`.
        seed: Random seed for dropout.

    Call arguments:
        query: `(B, T, dim)`. value: `(B, S, dim)`. key: optional `(B, S,
            dim)`, defaults to `value`.
        query_mask, value_mask, key_mask: Optional `(B, T)` / `(B, S)`
            boolean masks (taken from the inputs' Keras masks when not
            given).
        attention_mask: Optional boolean `(B, T, S)` mask; False blocks.
        return_attention_scores: Also return the attention probabilities
            `(B, heads, T, S)`.
        training: Enables dropout.
        use_causal_mask: Step `i` attends only to steps `j <= i`.

    Example:

    >>> import kerasish
    >>> mha = kerasish.layers.MultiHeadAttention(num_heads=2, key_dim=4)
    >>> q = np.ones((3, 8, 16), "float32")
    >>> v = np.ones((3, 4, 16), "float32")
    >>> out, scores = mha(q, v, return_attention_scores=True)
    >>> out.shape, scores.shape
    ((3, 8, 16), (3, 2, 8, 4))
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0,
                 use_bias=True, output_shape=None, attention_axes=None,
                 sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None,
                 use_gate=False, seed=None, **kwargs):
        _check_positive("num_heads", num_heads)
        _check_positive("key_dim", key_dim)
        if value_dim is not None:
            _check_positive("value_dim", value_dim, "or `None`")
        super().__init__(**kwargs)
        self.supports_masking = True
        self._num_heads, self._key_dim = num_heads, key_dim
        self._value_dim = value_dim if value_dim else key_dim
        self._dropout, self._use_bias, self._use_gate = (dropout, use_bias,
                                                         use_gate)
        self._output_shape = _output_shape_arg(output_shape)
        self._flash_attention = flash_attention or \
            config_utils.is_flash_attention_enabled()
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)
        self._kernel_regularizer = regularizers.get(kernel_regularizer)
        self._bias_regularizer = regularizers.get(bias_regularizer)
        self._activity_regularizer = regularizers.get(activity_regularizer)
        self._kernel_constraint = constraints.get(kernel_constraint)
        self._bias_constraint = constraints.get(bias_constraint)
        self._attention_axes = _attention_axes_arg(attention_axes)
        if sliding_window is not None and (
                not isinstance(sliding_window, int) or sliding_window <= 0):
            raise ValueError(
                "`sliding_window` must be `None` or a positive integer. "
                f"Received: sliding_window={sliding_window}")
        self._sliding_window = sliding_window
        self.seed = seed
        self._inverse_sqrt_key_dim = 1.0 / math.sqrt(float(key_dim))
        if self._flash_attention and dropout > 0.0:
            raise ValueError(
                "Dropout is not supported when flash attention is enabled. "
                "Please set dropout to 0.0 to use flash attention.")

    num_heads = property(lambda self: self._num_heads)
    key_dim = property(lambda self: self._key_dim)
    value_dim = property(lambda self: self._value_dim)
    dropout = property(lambda self: self._dropout)
    use_bias = property(lambda self: self._use_bias)
    attention_axes = property(lambda self: self._attention_axes)
    query_dense = property(lambda self: self._query_dense)
    key_dense = property(lambda self: self._key_dense)
    value_dense = property(lambda self: self._value_dense)
    output_dense = property(lambda self: self._output_dense)

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
        for name, shape in (("query", query_shape), ("value", value_shape),
                            ("key", key_shape)):
            if len(shape) < 3:
                raise ValueError(
                    f"Layer '{self.name}' (MultiHeadAttention) expects "
                    f"`{name}` of rank 3 or more, (batch, ..., features). "
                    f"Received: {name}_shape={tuple(shape)}")
        self._check_attention_axes(len(value_shape))
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError(
                "All dimensions of `value` and `key`, except the last one, "
                f"must be equal. Received: value_shape={value_shape} and "
                f"key_shape={key_shape}")
        self._query_dense = self._projection(query_shape, self._key_dim,
                                             "query")
        self._key_dense = self._projection(key_shape, self._key_dim, "key")
        if self._use_gate:
            self._gate_dense = self._projection(
                query_shape, self._value_dim, "gate", "sigmoid")
        self._value_dense = self._projection(value_shape, self._value_dim,
                                             "value")
        self._build_attention(len(value_shape) + 1)
        self._output_dense = self._make_output_dense(query_shape)

    def _projection(self, shape, head_dim, name, activation=None):
        equation, bias_axes, rank = eqs.projection_equation(
            len(shape) - 1, 1, 2)
        layer = EinsumDense(
            equation, output_shape=[None] * (rank - 3) + [self._num_heads,
                                                          head_dim],
            bias_axes=bias_axes if self._use_bias else None,
            activation=activation, name=name, **self._sublayer_kwargs())
        layer.build(tuple(shape))
        return layer

    def _make_output_dense(self, query_shape):
        out = self._output_shape or (query_shape[-1],)
        equation, bias_axes, rank = eqs.projection_equation(
            len(query_shape) - 1, 2, len(out))
        layer = EinsumDense(
            equation, output_shape=[None] * (rank - 1 - len(out)) +
            list(out), bias_axes=bias_axes if self._use_bias else None,
            name="attention_output", **self._sublayer_kwargs())
        heads_shape = tuple(query_shape[:-1]) + (self._num_heads,
                                                 self._value_dim)
        layer.build(heads_shape)
        return layer

    def _sublayer_kwargs(self):
        # Fresh initializer copies: a shared unseeded initializer object
        # would give every projection the same values.
        def fresh(init):
            return type(init).from_config(init.get_config())
        return dict(kernel_regularizer=self._kernel_regularizer,
                    bias_regularizer=self._bias_regularizer,
                    activity_regularizer=self._activity_regularizer,
                    kernel_constraint=self._kernel_constraint,
                    bias_constraint=self._bias_constraint,
                    dtype=self.dtype_policy,
                    kernel_initializer=fresh(self._kernel_initializer),
                    bias_initializer=fresh(self._bias_initializer))

    def _check_attention_axes(self, rank):
        """Each attention axis must be an axis of the inputs."""
        for axis in self._attention_axes or ():
            if not -rank <= axis < rank:
                raise ValueError(
                    f"Layer '{self.name}' (MultiHeadAttention): "
                    f"`attention_axes` must be axes of the inputs, which "
                    f"have rank {rank}. Received: "
                    f"attention_axes={self._attention_axes}")

    def _build_attention(self, rank):
        if self._attention_axes is None:
            self._attention_axes = tuple(range(1, rank - 2))
        else:
            self._attention_axes = tuple(
                a if a >= 0 else (rank - 1) + a for a in self._attention_axes)
        (self._dot_product_equation, self._combine_equation,
         scores_rank) = eqs.attention_equations(rank, self._attention_axes)
        self._norm_axes = tuple(range(scores_rank - len(self._attention_axes),
                                      scores_rank))
        self._dropout_layer = Dropout(rate=self._dropout,
                                      dtype=self.dtype_policy, seed=self.seed)

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
        mask = self._compute_attention_mask(
            query, value, query_mask, value_mask, key_mask, attention_mask,
            use_causal_mask)
        with _masks_hidden(query, value, key):
            gate = self._gate_dense(query) if self._use_gate else None
            output, scores = self._compute_attention(
                self._query_dense(query), self._key_dense(key),
                self._value_dense(value), mask, training,
                return_attention_scores)
        output = self._output_dense(output if gate is None
                                    else ops.multiply(output, gate))
        if query_mask is not None:
            output._keras_mask = ops.convert_to_tensor(query_mask)
        if return_attention_scores:
            return output, scores
        return output

    def _compute_attention(self, query, key, value, attention_mask=None,
                           training=None, return_attention_scores=False):
        """Scaled dot products, masked softmax, dropout, weighted values."""
        if self._flash_attention and return_attention_scores:
            raise ValueError(
                "Returning attention scores is not supported when flash "
                "attention is enabled. Please disable flash attention to "
                "access attention scores.")
        if self._flash_attention and not (
                self._dropout > 0 or return_attention_scores or
                query.ndim != 4):
            # Keras's numpy backend has no flash kernel for the fused path.
            raise ValueError(
                "Flash attention is not supported in numpy backend.")
        query = ops.multiply(query, ops.cast(self._inverse_sqrt_key_dim,
                                             query.dtype))
        scores = ops.einsum(self._dot_product_equation, key, query)
        # Keras's fused kernel (no dropout, no scores returned, 3-D inputs)
        # leaves a fully masked row uniform; its softmax path zeroes it.
        zero_rows = self._dropout > 0 or return_attention_scores or \
            query.ndim != 4
        scores = self._masked_softmax(scores, attention_mask, zero_rows)
        probs = self._dropout_layer(scores, training=training) \
            if self._dropout > 0 else scores
        output = ops.einsum(self._combine_equation, probs, value)
        return output, scores

    def _masked_softmax(self, scores, mask=None, zero_masked_rows=True):
        if mask is not None:
            mask = np.asarray(mask, bool)
            axis = -len(self._attention_axes) * 2 - 1
            while mask.ndim < scores.ndim:
                mask = np.expand_dims(mask, axis)
            scores = ops.where(mask, scores, ops.full_like(scores, -1e9))
        probs = _softmax_over(scores, self._norm_axes)
        if mask is not None and zero_masked_rows:
            probs = ops.where(mask, probs, ops.zeros_like(probs))
        return probs

    def _compute_attention_mask(self, query, value, query_mask, value_mask,
                                key_mask, attention_mask, use_causal_mask):
        """Merge the masks into one boolean `(B, T, S)`-like mask."""
        auto = None
        for m, axis in ((query_mask, -1), (value_mask, -2),
                        (key_mask, -2)):
            if m is not None:
                m = np.expand_dims(_bool(m), axis)
                auto = m if auto is None else auto & m
        t, s = query.shape[1], value.shape[1]
        if use_causal_mask:
            causal = np.tril(np.ones((1, t, s), bool))
            auto = causal if auto is None else auto & causal
        if self._sliding_window is not None:
            rows, cols = np.arange(t)[:, None], np.arange(s)[None, :]
            window = (np.abs(rows - cols) < self._sliding_window)[None]
            auto = window if auto is None else auto & window
        if attention_mask is not None:
            attention_mask = _bool(attention_mask)
            return attention_mask if auto is None else attention_mask & auto
        return auto

    # -- shapes and config ----------------------------------------------------
    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError(
                "All dimensions of `value` and `key`, except the last one, "
                f"must be equal. Received: value_shape={tuple(value_shape)} "
                f"and key_shape={tuple(key_shape)}")
        if self._output_shape:
            return tuple(query_shape[:-1]) + tuple(self._output_shape)
        return tuple(query_shape)

    def compute_output_spec(self, query, value, key=None, **kwargs):
        return infer_output_spec(self.__call__, (query, value, key), kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({
            "num_heads": self._num_heads, "key_dim": self._key_dim,
            "value_dim": self._value_dim, "dropout": self._dropout,
            "use_bias": self._use_bias, "use_gate": self._use_gate,
            "output_shape": self._output_shape,
            "attention_axes": self._attention_axes,
            "sliding_window": self._sliding_window,
            "kernel_initializer":
                initializers.serialize(self._kernel_initializer),
            "bias_initializer":
                initializers.serialize(self._bias_initializer),
            "kernel_regularizer":
                regularizers.serialize(self._kernel_regularizer),
            "bias_regularizer":
                regularizers.serialize(self._bias_regularizer),
            "activity_regularizer":
                regularizers.serialize(self._activity_regularizer),
            "kernel_constraint":
                constraints.serialize(self._kernel_constraint),
            "bias_constraint": constraints.serialize(self._bias_constraint),
            "seed": self.seed})
        return config


def _softmax_over(scores, axes):
    """Softmax jointly over trailing `axes` (one axis: a plain softmax)."""
    if len(axes) == 1:
        return ops.softmax(scores, axis=axes[0])
    shape = tuple(scores.shape)
    flat = ops.reshape(scores, shape[:axes[0]] + (-1,))
    return ops.reshape(ops.softmax(flat, axis=-1), shape)


@contextlib.contextmanager
def _masks_hidden(*tensors):
    """Hide the inputs' Keras masks from the projections (which do not
    support masking), as Keras does; restore them afterwards."""
    saved = [(t, t._keras_mask) for t in tensors
             if getattr(t, "_keras_mask", None) is not None]
    for t, _ in saved:
        t._keras_mask = None
    try:
        yield
    finally:
        for t, m in saved:
            t._keras_mask = m


def _keras_mask(tensor, explicit):
    return explicit if explicit is not None else \
        getattr(tensor, "_keras_mask", None)


def _bool(mask):
    value = np.asarray(getattr(mask, "_value", mask))
    return value if value.dtype == bool else value > 0.5


def _check_positive(name, value, extra=""):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(
            f"Received an invalid value for argument `{name}`, expected a "
            f"positive integer{' ' + extra if extra else ''}. Received: "
            f"{name}={value}")


def _output_shape_arg(output_shape):
    if not output_shape:
        return None
    if isinstance(output_shape, int):
        return (output_shape,)
    try:
        return tuple(output_shape)
    except TypeError:
        raise ValueError(
            f"Invalid `output_shape`: {output_shape}. When specified, the "
            "`output_shape` should be of type tuple, list, or int.") from None


def _attention_axes_arg(axes):
    if isinstance(axes, int):
        return (axes,)
    if axes is not None and not isinstance(axes, (list, tuple)):
        raise ValueError("`attention_axes` must be an int, list, or tuple."
                         f"Received: attention_axes={axes}")
    return tuple(axes) if axes is not None else None
