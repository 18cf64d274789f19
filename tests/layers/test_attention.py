"""Attention, AdditiveAttention, MultiHeadAttention and EinsumDense: layer
checks, parity with real Keras 3 (rnn_attention_fixtures/), masks."""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.ops.operation import infer_output_spec
from tests.layers.harness import run_layer_test
from tests.layers.rnn_attention_fixtures import reference


def _call_from_case(case):
    spec = case["spec"]
    layer = getattr(layers, spec["layer"]["class"])(**spec["layer"]["kwargs"])
    call = spec["call"]
    kwargs = dict(call.get("kwargs", {}))
    for key, arrays in case["arrays"].items():
        kwargs[key] = list(arrays) if call.get("mask_list") else arrays[0]
    args = [list(case["inputs"])] if call.get("list_input") \
        else list(case["inputs"])
    return layer, args, kwargs


@pytest.mark.parametrize("name", reference.case_names("Attention_") +
                         reference.case_names("AdditiveAttention_") +
                         [n for n in reference.case_names("MHA_")
                          if n != "MHA_embedding_mask"] +
                         reference.case_names("EinsumDense_"))
def test_matches_keras(name):
    case = reference.load(name)
    layer, args, kwargs = _call_from_case(case)
    layer(*args, **kwargs)
    layer.set_weights(case["weights"])
    outputs = kerasish.tree.flatten(layer(*args, **kwargs))
    assert len(outputs) == len(case["outputs"])
    for got, want in zip(outputs, case["outputs"]):
        assert got.shape == want.shape
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5,
                                   atol=2e-6)


def test_mha_keras_masks_from_embedding():
    """Keras's Embedding(mask_zero) -> MHA(x, x): the query and value masks
    come from the inputs' Keras masks; the output carries the query mask."""
    case = reference.load("MHA_embedding_mask")
    ids = case["inputs"][0]
    table, mha_weights = case["weights"][0], case["weights"][1:]
    x = kerasish.ops.convert_to_tensor(table[ids])
    x._keras_mask = kerasish.ops.convert_to_tensor(ids != 0)
    mha = layers.MultiHeadAttention(2, 3)
    mha(x, x)
    mha.set_weights(mha_weights)
    out = mha(x, x)
    np.testing.assert_allclose(out.numpy(), case["outputs"][0], rtol=1e-5,
                               atol=2e-6)
    np.testing.assert_array_equal(out._keras_mask.numpy(), ids != 0)


def test_mha_loads_keras_weights_file():
    case = reference.load("file_mha")
    q = kerasish.Input((4, 6))
    out = layers.MultiHeadAttention(2, 3, output_shape=5)(
        q, q, use_causal_mask=True)
    model = kerasish.Model(q, out)
    model.load_weights(reference.weights_file("mha_model.weights.h5"))
    np.testing.assert_allclose(model(case["inputs"][0]).numpy(),
                               case["outputs"][0], rtol=1e-5, atol=2e-6)


# -- layer checks -------------------------------------------------------------
@kerasish.saving.register_keras_serializable(package="test_attention")
class SelfMHA(layers.MultiHeadAttention):
    """Self-attention, so the one-input harness can drive MHA."""

    def call(self, query, **kwargs):
        return super().call(query, query, **kwargs)

    def _maybe_build(self, args, kwargs):
        if not self.built:
            self.build(tuple(args[0].shape), tuple(args[0].shape))

    def compute_output_spec(self, query, **kwargs):
        return infer_output_spec(self.__call__, (query,), kwargs)

    def compute_output_shape(self, query_shape):
        return super().compute_output_shape(query_shape, query_shape)


@pytest.mark.parametrize("kwargs,shape,out", [
    ({"num_heads": 2, "key_dim": 3}, (2, 4, 5), (2, 4, 5)),
    ({"num_heads": 2, "key_dim": 3, "use_bias": False, "value_dim": 2,
      "output_shape": 7}, (2, 4, 5), (2, 4, 7)),
    ({"num_heads": 1, "key_dim": 2, "attention_axes": (1, 2)},
     (2, 3, 2, 4), (2, 3, 2, 4)),
    ({"num_heads": 2, "key_dim": 2, "use_gate": True}, (2, 3, 4), (2, 3, 4)),
])
def test_mha_layer(kwargs, shape, out, tmp_path):
    n_dense = 4 + bool(kwargs.get("use_gate"))
    n = n_dense * (2 if kwargs.get("use_bias", True) else 1)
    run_layer_test(SelfMHA, kwargs, input_shape=shape,
                   expected_output_shape=out,
                   expected_num_trainable_weights=n, tmp_path=tmp_path)


def test_mha_weights_layout_and_config(rng):
    mha = layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=4,
                                    output_shape=5)
    q, v = rng.standard_normal((2, 4, 6)), rng.standard_normal((2, 3, 8))
    mha(q.astype("float32"), v.astype("float32"))
    assert [(w.path, w.shape) for w in mha.weights] == [
        ("multi_head_attention/query/kernel", (6, 2, 3)),
        ("multi_head_attention/query/bias", (2, 3)),
        ("multi_head_attention/key/kernel", (8, 2, 3)),
        ("multi_head_attention/key/bias", (2, 3)),
        ("multi_head_attention/value/kernel", (8, 2, 4)),
        ("multi_head_attention/value/bias", (2, 4)),
        ("multi_head_attention/attention_output/kernel", (2, 4, 5)),
        ("multi_head_attention/attention_output/bias", (5,))]
    config = mha.get_config()
    assert sorted(config) == sorted([
        "name", "trainable", "dtype", "num_heads", "key_dim", "value_dim",
        "dropout", "use_bias", "use_gate", "output_shape", "attention_axes",
        "sliding_window", "kernel_initializer", "bias_initializer",
        "kernel_regularizer", "bias_regularizer", "activity_regularizer",
        "kernel_constraint", "bias_constraint", "seed"])
    assert config["attention_axes"] == (1,)
    assert mha.get_build_config() == {"shapes_dict": {
        "query_shape": (2, 4, 6), "value_shape": (2, 3, 8)}}
    clone = layers.MultiHeadAttention.from_config(config)
    clone.build_from_config(mha.get_build_config())
    assert [w.shape for w in clone.weights] == [w.shape for w in mha.weights]


def test_mha_symbolic_shapes():
    q, v = kerasish.Input((4, 6)), kerasish.Input((7, 8))
    out, scores = layers.MultiHeadAttention(3, 2)(
        q, v, return_attention_scores=True)
    assert out.shape == (None, 4, 6) and scores.shape == (None, 3, 4, 7)
    model = kerasish.Model([q, v], out)
    y = model([np.ones((2, 4, 6), "float32"), np.ones((2, 7, 8), "float32")])
    assert y.shape == (2, 4, 6)


def test_mha_masks_combine(rng):
    """query/value masks and attention_mask combine with a logical AND; a
    fully masked query row gets zero attention."""
    mha = layers.MultiHeadAttention(1, 2)
    x = rng.standard_normal((1, 3, 4)).astype("float32")
    q_mask = np.array([[True, True, False]])
    v_mask = np.array([[True, False, True]])
    _, scores = mha(x, x, query_mask=q_mask, value_mask=v_mask,
                    return_attention_scores=True)
    scores = scores.numpy()[0, 0]
    np.testing.assert_array_equal(scores[2], 0)
    np.testing.assert_array_equal(scores[:2, 1], 0)
    np.testing.assert_allclose(scores[:2].sum(-1), 1, rtol=1e-6)
    _, causal = mha(x, x, use_causal_mask=True,
                    attention_mask=np.ones((1, 3, 3), bool),
                    return_attention_scores=True)
    np.testing.assert_array_equal(np.triu(causal.numpy()[0, 0], 1), 0)


def test_mha_dropout_only_in_training(rng):
    mha = layers.MultiHeadAttention(2, 4, dropout=0.5, seed=3)
    x = rng.standard_normal((2, 5, 8)).astype("float32")
    a, b = mha(x, x).numpy(), mha(x, x).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(mha(x, x, training=True).numpy(), a)


@pytest.mark.parametrize("kwargs,match", [
    ({"num_heads": 0, "key_dim": 2}, "num_heads"),
    ({"num_heads": 2, "key_dim": -1}, "key_dim"),
    ({"num_heads": 2, "key_dim": 2, "value_dim": 0}, "value_dim"),
    ({"num_heads": 2, "key_dim": 2, "attention_axes": "x"}, "attention_axes"),
    ({"num_heads": 2, "key_dim": 2, "sliding_window": 0}, "sliding_window"),
])
def test_mha_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.MultiHeadAttention(**kwargs)


def test_mha_key_value_shape_mismatch():
    with pytest.raises(ValueError, match="`value` and `key`"):
        layers.MultiHeadAttention(2, 2)(np.ones((1, 3, 4), "float32"),
                                        np.ones((1, 5, 4), "float32"),
                                        np.ones((1, 6, 4), "float32"))


def test_mha_sliding_window(rng):
    mha = layers.MultiHeadAttention(1, 2, sliding_window=2)
    x = rng.standard_normal((1, 5, 3)).astype("float32")
    _, scores = mha(x, x, return_attention_scores=True)
    band = np.abs(np.subtract.outer(np.arange(5), np.arange(5))) < 2
    np.testing.assert_array_equal(scores.numpy()[0, 0][~band], 0)


# -- Attention / AdditiveAttention --------------------------------------------
class _SelfAttendMixin:
    """[x, x] attention from one input, for the one-input harness."""

    def call(self, inputs, **kwargs):
        if not isinstance(inputs, list):
            inputs = [inputs, inputs]
        return super().call(inputs, **kwargs)

    def build(self, input_shape):
        if not isinstance(input_shape, list):
            input_shape = [input_shape, input_shape]
        super().build(input_shape)

    def compute_output_spec(self, inputs, **kwargs):
        return infer_output_spec(self.__call__, (inputs,), kwargs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def compute_mask(self, inputs, mask=None):
        return mask


@kerasish.saving.register_keras_serializable(package="test_attention")
class SelfAttention(_SelfAttendMixin, layers.Attention):
    pass


@kerasish.saving.register_keras_serializable(package="test_attention")
class SelfAdditiveAttention(_SelfAttendMixin, layers.AdditiveAttention):
    pass


@pytest.mark.parametrize("cls,kwargs,n", [
    (SelfAttention, {}, 0),
    (SelfAttention, {"use_scale": True}, 1),
    (SelfAttention, {"score_mode": "concat", "use_scale": True}, 2),
    (SelfAdditiveAttention, {}, 1),
    (SelfAdditiveAttention, {"use_scale": False}, 0),
])
def test_attention_layers(cls, kwargs, n, tmp_path):
    run_layer_test(cls, kwargs, input_shape=(2, 3, 4),
                   expected_output_shape=(2, 3, 4),
                   expected_num_trainable_weights=n, tmp_path=tmp_path)


def test_attention_masks_from_inputs(rng):
    q = kerasish.ops.convert_to_tensor(
        rng.standard_normal((1, 2, 3)).astype("float32"))
    v = kerasish.ops.convert_to_tensor(
        rng.standard_normal((1, 4, 3)).astype("float32"))
    q._keras_mask = kerasish.ops.convert_to_tensor(np.array([[True, False]]))
    v._keras_mask = kerasish.ops.convert_to_tensor(
        np.array([[True, True, False, True]]))
    out, scores = layers.Attention()([q, v], return_attention_scores=True)
    np.testing.assert_array_equal(out.numpy()[0, 1], 0)
    np.testing.assert_allclose(scores.numpy()[0, :, 2], 0, atol=1e-12)
    np.testing.assert_array_equal(out._keras_mask.numpy(), [[True, False]])


def test_attention_symbolic_and_config():
    q, v = kerasish.Input((3, 4)), kerasish.Input((5, 4))
    out, scores = layers.Attention(use_scale=True)(
        [q, v], return_attention_scores=True)
    assert out.shape == (None, 3, 4) and scores.shape == (None, 3, 5)
    config = layers.AdditiveAttention(dropout=0.1).get_config()
    assert sorted(config) == sorted(["name", "trainable", "dtype",
                                     "use_scale", "dropout", "seed"])
    assert layers.Attention().get_config()["score_mode"] == "dot"


def test_attention_bad_input():
    with pytest.raises(ValueError, match="score_mode"):
        layers.Attention(score_mode="general")
    with pytest.raises(ValueError, match="list of inputs"):
        layers.Attention()(np.ones((1, 2, 3), "float32"))
    with pytest.raises(ValueError, match="length 2 or 3"):
        layers.Attention()([np.ones((1, 2, 3), "float32")])
    with pytest.raises(ValueError, match="mask must be a list"):
        x = np.ones((1, 2, 3), "float32")
        layers.Attention()([x, x], mask=np.ones((1, 2), bool))


# -- EinsumDense --------------------------------------------------------------
@pytest.mark.parametrize("kwargs,shape,out,n", [
    ({"equation": "ab,bc->ac", "output_shape": 4, "bias_axes": "c"},
     (2, 3), (2, 4), 2),
    ({"equation": "abc,cde->abde", "output_shape": (None, 2, 3),
      "bias_axes": "de", "activation": "relu"}, (2, 4, 5), (2, 4, 2, 3), 2),
    ({"equation": "...b,bc->...c", "output_shape": 3}, (2, 4, 5, 2),
     (2, 4, 5, 3), 1),
    ({"equation": "ab...,bc->ac...", "output_shape": 4,
      "bias_axes": "c"}, (2, 3, 5), (2, 4, 5), 2),
])
def test_einsum_dense_layer(kwargs, shape, out, n, tmp_path):
    run_layer_test(layers.EinsumDense, kwargs, input_shape=shape,
                   expected_output_shape=out,
                   expected_num_trainable_weights=n, tmp_path=tmp_path)


def test_einsum_dense_config_and_shapes():
    layer = layers.EinsumDense("abc,cd->abd", output_shape=(None, 4),
                               bias_axes="d")
    assert layer.compute_output_shape((None, 3, 5)) == (None, 3, 4)
    layer.build((None, 3, 5))
    assert [w.shape for w in layer.weights] == [(5, 4), (4,)]
    assert sorted(layer.get_config()) == sorted([
        "name", "trainable", "dtype", "output_shape", "equation",
        "activation", "bias_axes", "kernel_initializer", "bias_initializer",
        "kernel_regularizer", "bias_regularizer", "activity_regularizer",
        "kernel_constraint", "bias_constraint", "quantization_config"])


@pytest.mark.parametrize("kwargs,shape,match", [
    ({"equation": "ab->b", "output_shape": 2}, (1, 2), "Invalid einsum"),
    ({"equation": "ab,bc->ac", "output_shape": 2, "bias_axes": "x"}, (1, 2),
     "Bias dimension 'x'"),
    ({"equation": "ab,bcq->ac", "output_shape": 2}, (1, 2),
     "Weight dimension 'q'"),
    ({"equation": "ab,bc->acz", "output_shape": (2, 3)}, (1, 2),
     "Dimension 'z'"),
    ({"equation": "abc,cd->abd", "output_shape": (5, 4)}, (1, 3, 2),
     "do not match at shared dimension 'b'"),
])
def test_einsum_dense_bad_equations(kwargs, shape, match):
    with pytest.raises(ValueError, match=match):
        layers.EinsumDense(**kwargs).build(shape)


def test_attention_dropout_only_in_training(rng):
    layer = layers.Attention(dropout=0.5, seed=2)
    q = rng.standard_normal((2, 3, 4)).astype("float32")
    v = rng.standard_normal((2, 6, 4)).astype("float32")
    _, scores = layer([q, v], return_attention_scores=True)
    np.testing.assert_allclose(scores.numpy().sum(-1), 1, rtol=1e-6)
    out, dropped = layer([q, v], return_attention_scores=True,
                         training=True)
    assert set(np.unique(dropped.numpy()[scores.numpy() > 0] /
                         scores.numpy()[scores.numpy() > 0]).round(5)) <= \
        {0.0, 2.0}


def test_multi_head_attention_rank_and_axes_errors():
    with pytest.raises(ValueError, match=r"expects `query` of rank 3 or more"
                       r".*query_shape=\(2, 4\)"):
        layers.MultiHeadAttention(2, 4)(np.ones((2, 4), "float32"),
                                        np.ones((2, 4), "float32"))
    q = np.ones((2, 3, 4), "float32")
    with pytest.raises(ValueError, match=r"`attention_axes` must be axes of "
                       r"the inputs, which have rank 3. Received: "
                       r"attention_axes=\(5,\)"):
        layers.MultiHeadAttention(2, 4, attention_axes=5)(q, q)
    with pytest.raises(ValueError, match="attention_axes"):
        layers.MultiHeadAttention(2, 4, attention_axes=(-4,))(q, q)
    # In range: both signs name the time axis.
    for axes in (1, -2):
        out = layers.MultiHeadAttention(2, 4, attention_axes=axes)(q, q)
        assert out.shape == (2, 3, 4)


@pytest.mark.parametrize("cls", [layers.Attention, layers.AdditiveAttention])
def test_attention_needs_steps_and_features(cls):
    flat = np.ones((2, 4), "float32")
    with pytest.raises(ValueError, match=r"expects `query` of shape \(batch, "
                       r"steps, features\). Received: query of shape \(2, 4\)"):
        cls()([flat, flat])
    with pytest.raises(ValueError, match=r"`value` of shape .* \(None, 4\)"):
        cls()([kerasish.Input((3, 4)), kerasish.Input((4,))])


@pytest.mark.parametrize("cls", [layers.Attention, layers.AdditiveAttention])
def test_attention_with_masked_inputs_builds_a_functional_model(cls):
    # The query's mask (a graph tensor) becomes the output's mask.
    query_ids = kerasish.Input((4,), dtype="int32")
    value_ids = kerasish.Input((5,), dtype="int32")
    embed = layers.Embedding(10, 3, mask_zero=True)
    attention = cls()
    out = attention([embed(query_ids), embed(value_ids)])
    model = kerasish.Model([query_ids, value_ids], out)
    q = np.array([[1, 2, 0, 0]])
    v = np.array([[3, 4, 5, 0, 0]])
    result = model.predict([q, v], verbose=0)
    assert result.shape == (1, 4, 3)
    eager = attention([embed(q), embed(v)], mask=[q != 0, v != 0])
    np.testing.assert_allclose(result, kerasish.ops.convert_to_numpy(eager),
                               rtol=1e-6)
