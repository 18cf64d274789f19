"""Functional models whose layers compute shapes from their configuration,
built on inputs with an unknown batch size.

Keras builds such a model symbolically (its batch dim is a symbol on
JAX), so a layer may reshape to a size it was configured with — the
Switch Transformer's `ops.reshape(inputs, [tokens_per_batch, dim])` —
and the model runs at the batch size that size was computed from. The
layers here follow that pattern (a router with top-1 dispatch to a fixed
capacity per expert, experts applied per slot, the result reshaped back
to the batch); expected shapes are those Keras 3.15 (JAX) gives.
"""
import numpy as np
import pytest

import kerasish as keras
from kerasish import layers, ops

BATCH, TOKENS, DIM, EXPERTS = 4, 6, 8, 2


class Router(layers.Layer):
    def __init__(self, num_experts, capacity, **kwargs):
        super().__init__(**kwargs)
        self.num_experts, self.capacity = num_experts, capacity
        self.route = layers.Dense(num_experts)

    def call(self, inputs):
        probs = ops.softmax(self.route(inputs), axis=-1)
        gate, index = ops.top_k(probs, k=1)
        mask = ops.one_hot(index[:, 0], self.num_experts)
        self.add_loss(ops.mean(ops.sum(mask, axis=0) * ops.mean(probs, 0)))
        position = ops.cast(ops.cumsum(mask, axis=0) * mask, "int32")
        mask = mask * ops.cast(ops.less(position, self.capacity), "float32")
        kept = ops.sum(mask, axis=-1)
        slots = ops.one_hot(ops.sum(position, axis=-1), self.capacity)
        combine = ops.expand_dims(gate[:, 0] * kept, -1)[:, :, None] * \
            mask[:, :, None] * slots[:, None, :]
        return combine


class Switch(layers.Layer):
    """Mixture of experts over all tokens of a batch of a fixed size."""

    def __init__(self, num_experts, dim, tokens_per_batch, **kwargs):
        super().__init__(**kwargs)
        self.dim, self.tokens_per_batch = dim, tokens_per_batch
        self.capacity = tokens_per_batch // num_experts
        self.router = Router(num_experts, self.capacity)
        self.experts = [layers.Dense(dim, activation="relu")
                        for _ in range(num_experts)]

    def call(self, inputs):
        batch_size, tokens = ops.shape(inputs)[0], ops.shape(inputs)[1]
        flat = ops.reshape(inputs, [self.tokens_per_batch, self.dim])
        combine = self.router(flat)
        dispatched = ops.einsum("td,tec->ecd", flat, combine)
        outputs = ops.stack([expert(x) for expert, x in zip(
            self.experts, ops.unstack(dispatched, axis=0))], axis=0)
        merged = ops.einsum("ecd,tec->td", outputs, combine)
        return ops.reshape(merged, [batch_size, tokens, self.dim])


def _model():
    inputs = keras.Input((TOKENS,))
    x = layers.Embedding(20, DIM)(inputs)
    switch = Switch(EXPERTS, DIM, BATCH * TOKENS)
    x = layers.LayerNormalization()(x + switch(x))
    x = layers.GlobalAveragePooling1D()(x)
    return keras.Model(inputs, layers.Dense(3, activation="softmax")(x)), \
        switch


def test_switch_layer_builds_on_an_unknown_batch_with_keras_shapes():
    model, switch = _model()
    assert switch.output.shape == (None, TOKENS, DIM)
    assert model.output_shape == (None, 3)
    # Built inside on the configured size, as in Keras.
    assert switch.router.route.kernel.shape == (DIM, EXPERTS)
    assert switch.experts[0].kernel.shape == (DIM, DIM)


def test_switch_model_trains_and_predicts_at_the_configured_batch():
    model, _ = _model()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    rng = np.random.default_rng(0)
    x = rng.integers(0, 20, (3 * BATCH, TOKENS))
    y = rng.integers(0, 3, (3 * BATCH,))
    history = model.fit(x, y, batch_size=BATCH, epochs=2, verbose=0)
    assert np.all(np.isfinite(history.history["loss"]))
    assert model.predict(x, batch_size=BATCH, verbose=0).shape == \
        (3 * BATCH, 3)


class Reshaping(layers.Layer):
    def __init__(self, shape, **kwargs):
        super().__init__(**kwargs)
        self.shape = shape

    def call(self, x):
        return ops.reshape(x, self.shape)


# Keras (JAX) accepts any fully given shape over a symbolic size, even
# one no batch size could fill ([7, 3] from (None, 5, 4)).
@pytest.mark.parametrize("shape, input_shape", [
    ([10, 4], (5, 4)), ([7, 3], (5, 4)), ([4, 5, 4], (None, 4))])
def test_reshape_to_a_configured_size_in_a_layer_gives_keras_shape(
        shape, input_shape):
    out = Reshaping(shape)(keras.Input(input_shape))
    assert out.shape == tuple(shape)


# Where Keras (JAX) fails too: sizes that are all known, or a -1 that an
# unknown batch size cannot fill.
@pytest.mark.parametrize("shape, inputs", [
    ([3, 3], lambda: keras.Input((4,), batch_size=2)),
    ([-1, 7], lambda: keras.Input((4,), batch_size=3)),
    ([-1, 7], lambda: keras.Input((4,)))])
def test_reshape_keras_cannot_infer_still_fails_at_build(shape, inputs):
    with pytest.raises(ValueError, match="reshape"):
        Reshaping(shape)(inputs())


def test_the_wrong_real_batch_size_fails_as_in_keras():
    model, _ = _model()
    with pytest.raises(ValueError, match="reshape"):
        model.predict(np.zeros((BATCH + 1, TOKENS)), batch_size=BATCH + 1,
                      verbose=0)
