"""Generate the reference values of the recurrent and attention layer tests.

Run with real Keras 3 (JAX backend), from the repository root:

    KERAS_BACKEND=jax /work/kvenv/bin/python \
        tests/layers/rnn_attention_fixtures/make_reference.py

Each case builds one Keras layer, sets seeded random weights, calls it on
seeded random inputs (and masks / initial states), and stores in
`reference.npz`: `<case>/w<i>` (weights in `layer.weights` order),
`<case>/x<i>` (call inputs, flattened), `<case>/k_<arg><i>` (array call
arguments such as masks), `<case>/y<i>` (outputs) and, as JSON in
`<case>/spec`, how to rebuild the layer and call it. It also writes Keras
weights files (`*.weights.h5`) that the tests load into kerasish models.
"""
import json
import zlib
import os

import numpy as np

import keras
from keras import layers

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = {}


def _rand(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype("float32")


def _mask(rng, batch, steps):
    mask = rng.random((batch, steps)) > 0.3
    mask[0, -2:] = False        # trailing padding
    mask[1, :2] = False         # leading padding
    return mask


def record(name, layer_spec, call_spec, layer, inputs, call_kwargs=None):
    """Run `layer(*inputs, **call_kwargs)`, store weights, inputs, outputs."""
    call_kwargs = dict(call_kwargs or {})
    outputs = layer(*inputs, **call_kwargs)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    weights = [_rand(rng, w.shape, 0.5) for w in layer.weights]
    layer.set_weights(weights)
    outputs = layer(*inputs, **call_kwargs)
    outputs = keras.tree.flatten(outputs)
    for i, w in enumerate(weights):
        OUT[f"{name}/w{i}"] = w
    for i, x in enumerate(keras.tree.flatten(inputs)):
        OUT[f"{name}/x{i}"] = np.asarray(x)
    for key, value in call_kwargs.items():
        if not isinstance(value, (bool, int, float, str)):
            for i, m in enumerate(keras.tree.flatten(value)):
                OUT[f"{name}/k_{key}{i}"] = np.asarray(m)
    for i, y in enumerate(outputs):
        OUT[f"{name}/y{i}"] = np.asarray(y)
    OUT[f"{name}/spec"] = np.asarray(json.dumps(
        {"layer": layer_spec, "call": call_spec}))


def recurrent_cases(rng):
    x = _rand(rng, (3, 6, 4))
    mask = _mask(rng, 3, 6)
    h0, c0 = _rand(rng, (3, 5)), _rand(rng, (3, 5))
    variants = {
        "plain": ({}, {}),
        "seq_state": ({"return_sequences": True, "return_state": True}, {}),
        "backwards": ({"return_sequences": True, "go_backwards": True}, {}),
        "masked": ({"return_sequences": True, "return_state": True},
                   {"mask": mask}),
        "masked_backwards": ({"return_sequences": True, "go_backwards": True,
                              "return_state": True}, {"mask": mask}),
        "masked_zero_output": ({"return_sequences": True,
                                "zero_output_for_mask": True},
                               {"mask": mask}),
    }
    kinds = {"LSTM": [h0, c0], "GRU": [h0], "SimpleRNN": [h0]}
    for kind, states in kinds.items():
        for vname, (kwargs, call) in variants.items():
            spec = {"class": kind, "kwargs": dict(kwargs, units=5)}
            call_spec = {"array_kwargs": sorted(call)}
            record(f"{kind}_{vname}", spec, call_spec,
                   getattr(layers, kind)(**spec["kwargs"]), [x],
                   {k: call[k] for k in sorted(call)})
        spec = {"class": kind, "kwargs": {"units": 5, "return_state": True}}
        call_spec = {"initial_state": len(states)}
        layer = getattr(layers, kind)(**spec["kwargs"])
        record(f"{kind}_initial_state", spec, call_spec, layer,
               [x, list(states)])
    for kwargs in ({"reset_after": False}, {"activation": "relu"},
                   {"recurrent_activation": "hard_sigmoid"}):
        spec = {"class": "GRU", "kwargs": dict(kwargs, units=5,
                                               return_sequences=True)}
        tag = "_".join(f"{k}_{v}" for k, v in kwargs.items())
        record(f"GRU_{tag}", spec, {"array_kwargs": ["mask"]},
               layers.GRU(**spec["kwargs"]), [x], {"mask": mask})
    spec = {"class": "LSTM", "kwargs": {"units": 5, "use_bias": False,
                                        "activation": "relu"}}
    record("LSTM_nobias_relu", spec, {}, layers.LSTM(**spec["kwargs"]), [x])


def wrapper_cases(rng):
    x = _rand(rng, (3, 6, 4))
    mask = _mask(rng, 3, 6)
    for mode in ("concat", "sum", "mul", "ave", None):
        spec = {"class": "Bidirectional", "merge_mode": mode,
                "inner": {"class": "LSTM", "kwargs": {
                    "units": 3, "return_sequences": True}}}
        layer = layers.Bidirectional(layers.LSTM(3, return_sequences=True),
                                     merge_mode=mode)
        record(f"Bidirectional_{mode}", spec, {"array_kwargs": ["mask"]},
               layer, [x], {"mask": mask})
    spec = {"class": "Bidirectional", "merge_mode": "concat",
            "inner": {"class": "GRU", "kwargs": {"units": 3,
                                                 "return_state": True}}}
    record("Bidirectional_gru_state", spec, {},
           layers.Bidirectional(layers.GRU(3, return_state=True)), [x])
    spec = {"class": "StackedRNN"}
    layer = layers.RNN([layers.LSTMCell(3), layers.GRUCell(2),
                        layers.SimpleRNNCell(4)], return_sequences=True,
                       return_state=True)
    record("StackedRNN", spec, {"array_kwargs": ["mask"]}, layer, [x],
           {"mask": mask})


def attention_cases(rng):
    q, v, k = _rand(rng, (2, 4, 6)), _rand(rng, (2, 5, 6)), \
        _rand(rng, (2, 5, 6))
    q_mask, v_mask = _mask(rng, 2, 4), _mask(rng, 2, 5)
    v_mask[:, 0] = True
    for name, kwargs in {"dot": {}, "scaled": {"use_scale": True},
                         "concat": {"score_mode": "concat"},
                         "concat_scaled": {"score_mode": "concat",
                                           "use_scale": True}}.items():
        spec = {"class": "Attention", "kwargs": kwargs}
        record(f"Attention_{name}", spec, {
            "list_input": True,
            "kwargs": {"return_attention_scores": True}},
               layers.Attention(**kwargs), [[q, v, k]],
               {"return_attention_scores": True})
    spec = {"class": "Attention", "kwargs": {}}
    record("Attention_masked_causal", spec, {
        "list_input": True, "mask_list": True,
        "kwargs": {"use_causal_mask": True,
                   "return_attention_scores": True}},
        layers.Attention(), [[q, q]],
        {"mask": [q_mask, q_mask], "use_causal_mask": True,
         "return_attention_scores": True})
    spec = {"class": "AdditiveAttention", "kwargs": {}}
    record("AdditiveAttention_masked", spec,
           {"list_input": True, "mask_list": True,
            "kwargs": {"return_attention_scores": True}},
           layers.AdditiveAttention(), [[q, v]],
           {"mask": [q_mask, v_mask], "return_attention_scores": True})


def mha_cases(rng):
    q, v = _rand(rng, (2, 4, 6)), _rand(rng, (2, 5, 8))
    att_mask = rng.random((2, 4, 5)) > 0.3
    att_mask[:, :, 0] = True
    cases = {
        "self": ({"num_heads": 2, "key_dim": 3}, [q, q], {}),
        "cross_scores": ({"num_heads": 3, "key_dim": 2, "value_dim": 4},
                         [q, v], {"return_attention_scores": True}),
        "attention_mask": ({"num_heads": 2, "key_dim": 3}, [q, v],
                           {"attention_mask": att_mask,
                            "return_attention_scores": True}),
        "causal": ({"num_heads": 2, "key_dim": 3, "use_bias": False},
                   [q, q], {"use_causal_mask": True}),
        "output_shape": ({"num_heads": 2, "key_dim": 3,
                          "output_shape": (2, 5)}, [q, v, v * 0.5], {}),
    }
    for name, (kwargs, inputs, call) in cases.items():
        spec = {"class": "MultiHeadAttention", "kwargs": kwargs}
        array_kwargs = [k for k in call if k == "attention_mask"]
        record(f"MHA_{name}", spec, {
            "array_kwargs": array_kwargs,
            "kwargs": {k: c for k, c in call.items()
                       if k not in array_kwargs}},
            layers.MultiHeadAttention(**kwargs), inputs, call)
    x4 = _rand(rng, (2, 3, 4, 5))
    spec = {"class": "MultiHeadAttention", "kwargs": {
        "num_heads": 2, "key_dim": 2, "attention_axes": [1, 2]}}
    record("MHA_axes", spec, {"kwargs": {"return_attention_scores": True}},
           layers.MultiHeadAttention(**spec["kwargs"]), [x4, x4],
           {"return_attention_scores": True})


def masked_mha_model(rng):
    """Keras masks flowing into MHA: Embedding(mask_zero) -> MHA; and a
    weights file of a functional model around one MHA."""
    ids = rng.integers(1, 10, size=(2, 5))
    ids[0, 3:] = 0
    ids[1, 4:] = 0
    inp = keras.Input((5,), dtype="int32")
    emb = layers.Embedding(10, 6, mask_zero=True)(inp)
    out = layers.MultiHeadAttention(2, 3)(emb, emb)
    model = keras.Model(inp, out)
    weights = [_rand(rng, w.shape, 0.5) for w in model.weights]
    model.set_weights(weights)
    for i, w in enumerate(weights):
        OUT[f"MHA_embedding_mask/w{i}"] = w
    OUT["MHA_embedding_mask/x0"] = ids
    OUT["MHA_embedding_mask/y0"] = np.asarray(model(ids))
    q_in = keras.Input((4, 6))
    mha = layers.MultiHeadAttention(2, 3, output_shape=5)
    model = keras.Model(q_in, mha(q_in, q_in, use_causal_mask=True))
    weights = [_rand(rng, w.shape, 0.5) for w in model.weights]
    model.set_weights(weights)
    x = _rand(rng, (2, 4, 6))
    OUT["file_mha/x0"] = x
    OUT["file_mha/y0"] = np.asarray(model(x))
    model.save_weights(os.path.join(HERE, "mha_model.weights.h5"))


def einsum_dense_cases(rng):
    cases = {
        "matrix": ("ab,bc->ac", 4, None, (2, 3)),
        "bias": ("ab,bc->ac", 4, "c", (2, 3)),
        "3d": ("abc,cd->abd", (5, 4), "d", (2, 5, 3)),
        "heads": ("abc,cde->abde", (None, 2, 4), "de", (2, 5, 3)),
        "ellipsis": ("...b,bc->...c", 4, "c", (2, 3, 5, 3)),
        "right_ellipsis": ("ab...,bc->ac...", (4, 5), "c", (2, 3, 5)),
    }
    for name, (eq, out_shape, bias_axes, in_shape) in cases.items():
        kwargs = {"equation": eq, "output_shape": out_shape,
                  "bias_axes": bias_axes}
        spec = {"class": "EinsumDense", "kwargs": kwargs}
        record(f"EinsumDense_{name}", spec, {},
               layers.EinsumDense(**kwargs), [_rand(rng, in_shape)])


def keras_weight_files(rng):
    """Weights files written by Keras, for loading into kerasish."""
    model = keras.Sequential([
        keras.Input((6, 4)),
        layers.Bidirectional(layers.LSTM(3, return_sequences=True)),
        layers.GRU(2), layers.Dense(1)])
    weights = [_rand(rng, w.shape, 0.5) for w in model.weights]
    model.set_weights(weights)
    x = _rand(rng, (3, 6, 4))
    OUT["file_rnn/x0"] = x
    OUT["file_rnn/y0"] = np.asarray(model(x))
    model.save_weights(os.path.join(HERE, "rnn_model.weights.h5"))


def main():
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    recurrent_cases(rng)
    wrapper_cases(rng)
    attention_cases(rng)
    mha_cases(rng)
    einsum_dense_cases(rng)
    masked_mha_model(rng)
    keras_weight_files(rng)
    np.savez_compressed(os.path.join(HERE, "reference.npz"), **OUT)
    print(f"wrote {len(OUT)} arrays")


if __name__ == "__main__":
    main()
