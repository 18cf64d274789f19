"""Masks in the functional graph (`Layer._symbolic_call`).

As in Keras 3, a layer called on KerasTensors computes its output mask
symbolically (Embedding's mask is a `NotEqual` node) and the next layer's
node records it as its `mask=` argument, with `training` from its call
signature. Expected configs, layer orders and op names are what Keras 3.15
(JAX backend) gives for the same code, checked by running it.
"""
import numpy as np
import pytest

import kerasish
from kerasish import layers


def _nodes(model):
    """{layer name: (class name, [(n args, kwargs)])} with tensor kwargs
    as the `keras_history` they point to."""
    def plain(v):
        return v["config"]["keras_history"] if isinstance(v, dict) else v
    return {
        layer["name"]: (layer["class_name"], [
            (len(n["args"]), {k: plain(v) for k, v in n["kwargs"].items()})
            for n in layer["inbound_nodes"]])
        for layer in model.get_config()["layers"]}


def _masked_model():
    tokens = kerasish.Input((None,), dtype="int32")
    embedded = layers.Embedding(10, 4, mask_zero=True)(tokens)
    dropped = layers.Dropout(0.1)(embedded)
    seq = layers.LSTM(3, return_sequences=True)(dropped)
    pooled = layers.GlobalAveragePooling1D()(layers.Dense(2)(seq))
    frames = kerasish.Input((5, 2))
    state = layers.GRU(2)(layers.Masking()(frames))
    out = layers.Concatenate()([pooled, state])
    return kerasish.Model([tokens, frames], out), embedded


def test_mask_is_a_graph_tensor_recorded_by_the_next_node():
    model, embedded = _masked_model()
    assert embedded._keras_mask.shape == (None, None)
    assert str(embedded._keras_mask.dtype) == "bool"
    assert _nodes(model) == {
        "input_layer": ("InputLayer", []),
        "embedding": ("Embedding", [(1, {})]),
        "dropout": ("Dropout", [(1, {"training": False})]),
        "not_equal": ("NotEqual", [(2, {})]),
        "input_layer_1": ("InputLayer", []),
        "lstm": ("LSTM", [(1, {"training": False,
                                "mask": ["not_equal", 0, 0]})]),
        "not_equal_1": ("NotEqual", [(2, {})]),
        "dense": ("Dense", [(1, {})]),
        "masking": ("Masking", [(1, {})]),
        "any": ("Any", [(1, {})]),
        "global_average_pooling1d": ("GlobalAveragePooling1D",
                                     [(1, {"mask": ["not_equal", 0, 0]})]),
        "gru": ("GRU", [(1, {"training": False, "mask": ["any", 0, 0]})]),
        "concatenate": ("Concatenate", [(1, {})]),
    }
    # The mask ops lengthen the Masking branch: Keras's layer order.
    assert [layer.name for layer in model.layers] == [
        "input_layer", "embedding", "dropout", "input_layer_1", "lstm",
        "dense", "masking", "global_average_pooling1d", "gru", "concatenate"]


def test_a_mask_argument_is_recorded_even_when_there_is_no_mask():
    x = kerasish.Input((4, 3))
    model = kerasish.Model(x, layers.BatchNormalization()(layers.LSTM(2)(x)
                                                          [:, None]))
    nodes = _nodes(model)
    assert nodes["lstm"] == ("LSTM", [(1, {"training": False,
                                           "mask": None})])
    assert nodes["batch_normalization"] == ("BatchNormalization",
                                            [(1, {"mask": None})])


def test_concatenate_mask_ops_match_keras():
    tokens = kerasish.Input((None,), dtype="int32")
    joined = layers.Concatenate()([
        layers.Embedding(10, 4, mask_zero=True)(tokens),
        layers.Embedding(10, 4)(tokens)])
    model = kerasish.Model(tokens, layers.LSTM(2)(joined))
    classes = [c for c, _ in _nodes(model).values()]
    assert classes == ["InputLayer", "Embedding", "NotEqual", "Embedding",
                       "ExpandDims", "ZerosLike", "LogicalOr", "OnesLike",
                       "Concatenate", "Concatenate", "Any", "LSTM"]


def test_masked_model_runs_saves_and_trains_as_its_layers(tmp_path):
    model, _ = _masked_model()
    tokens = np.array([[1, 2, 0, 0], [3, 0, 0, 0]])
    frames = np.ones((2, 5, 2), "float32")
    frames[:, 3:] = 0
    out = model.predict([tokens, frames], verbose=0)
    # The same layers called eagerly, masks carried on the tensors.
    by_name = {layer.name: layer for layer in model.layers}
    seq = by_name["lstm"](by_name["dropout"](by_name["embedding"](tokens)))
    pooled = by_name["global_average_pooling1d"](by_name["dense"](seq))
    state = by_name["gru"](by_name["masking"](frames))
    np.testing.assert_allclose(out, np.concatenate([pooled, state], -1),
                               rtol=1e-6)
    path = str(tmp_path / "masked.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    assert loaded.get_config() == model.get_config()
    np.testing.assert_array_equal(loaded.predict([tokens, frames],
                                                 verbose=0), out)
    model.compile("sgd", "mse")
    history = model.fit([tokens, frames], np.zeros((2, 4)), epochs=2,
                        verbose=0).history
    assert np.isfinite(history["loss"]).all()


def test_summary_shows_the_mask_node(capsys):
    model, _ = _masked_model()
    model.summary()
    text = capsys.readouterr().out
    assert "not_equal" in text and "(NotEqual)" in text
    assert "Connected to" in text


def test_unsupported_masking_warns_when_the_graph_is_built():
    tokens = kerasish.Input((None,), dtype="int32")
    embedded = layers.Embedding(10, 4, mask_zero=True)(tokens)
    with pytest.warns(UserWarning, match="does not support masking"):
        layers.GlobalMaxPooling1D()(embedded)
