import json

import numpy as np
import pytest

import kerasish
from kerasish import layers, ops


def two_heads():
    a = kerasish.Input((4,), name="a")
    b = kerasish.Input((3,), name="b")
    x = ops.concatenate([layers.Dense(5, name="proj")(a), b], axis=-1)
    reg = layers.Dense(2, name="reg")(x)
    cls = layers.Dense(3, activation="softmax", name="cls")(x)
    return kerasish.Model([a, b], [reg, cls], name="two_heads")


def test_multi_input_multi_output_call_and_structure():
    model = two_heads()
    out = model([np.ones((2, 4), "float32"), np.ones((2, 3), "float32")])
    assert [o.shape for o in out] == [(2, 2), (2, 3)]
    out_d = model({"a": np.ones((2, 4)), "b": np.ones((2, 3))})
    np.testing.assert_allclose(out[0].numpy(), out_d[0].numpy())
    assert model.output_names == ["reg", "cls"]
    assert model.input_names == ["a", "b"]
    assert [l.name for l in model.layers] == ["a", "proj", "b", "reg", "cls"]


def test_layer_order_matches_keras_depth_first_rule():
    # Same graph as in Keras, whose model.layers is
    # ['a', 'b', 'concatenate', 'reg', 'cls'] (checked with Keras 3.15).
    a, b = kerasish.Input((4,), name="a"), kerasish.Input((3,), name="b")
    x = ops.concatenate([a, b], axis=-1)
    model = kerasish.Model([a, b], [layers.Dense(2, name="reg")(x),
                                    layers.Dense(3, name="cls")(x)])
    assert [op.name for op in model._operations] == \
        ["a", "b", "concatenate", "reg", "cls"]


def test_dict_inputs_and_outputs():
    a = kerasish.Input((2,), name="left")
    b = kerasish.Input((2,), name="right")
    model = kerasish.Model({"left": a, "right": b},
                           {"sum": ops.add(a, b), "diff": a - b})
    out = model({"left": np.ones((1, 2)), "right": np.full((1, 2), 3.0)})
    assert set(out) == {"sum", "diff"}
    np.testing.assert_array_equal(out["diff"].numpy(), [[-2, -2]])
    with pytest.raises(ValueError, match='Missing data for input "right"'):
        model({"left": np.ones((1, 2))})


def test_shared_layer_called_twice():
    shared = layers.Dense(3, name="shared")
    a, b = kerasish.Input((4,)), kerasish.Input((4,))
    model = kerasish.Model([a, b], ops.add(shared(a), shared(b)))
    assert len(shared._inbound_nodes) == 2
    assert len(model.weights) == 2
    x = np.ones((2, 4), "float32")
    np.testing.assert_allclose(model([x, x]).numpy(),
                               2 * shared(x).numpy(), rtol=1e-6)


def test_model_used_as_layer_inside_another():
    inner_in = kerasish.Input((4,))
    inner = kerasish.Model(inner_in, layers.Dense(2)(inner_in), name="inner")
    outer_in = kerasish.Input((4,))
    outer = kerasish.Model(outer_in, layers.Dense(1)(inner(outer_in)))
    x = np.random.rand(3, 4).astype("float32")
    expected = outer.layers[-1](inner(x)).numpy()
    np.testing.assert_allclose(outer(x).numpy(), expected, rtol=1e-6)
    assert len(outer.weights) == 4


def test_config_round_trip_rebuilds_the_same_function():
    model = two_heads()
    clone = kerasish.Model.from_config(model.get_config())
    clone.set_weights(model.get_weights())
    xs = [np.random.rand(2, 4).astype("float32"),
          np.random.rand(2, 3).astype("float32")]
    for a, b in zip(model(xs), clone(xs)):
        np.testing.assert_allclose(a.numpy(), b.numpy())
    again = kerasish.models.model_from_json(model.to_json())
    assert [l.name for l in again.layers] == [l.name for l in model.layers]
    json.dumps(model.get_config())


def test_graph_disconnected_and_bad_outputs():
    a, b = kerasish.Input((2,)), kerasish.Input((2,))
    with pytest.raises(ValueError, match="not connected to `inputs`"):
        kerasish.Model(a, ops.add(a, b))
    with pytest.raises(ValueError, match="KerasTensors"):
        kerasish.Model(a, np.ones(2))


def test_input_shape_mismatch_is_reported_with_shapes():
    model = two_heads()
    with pytest.raises(ValueError, match=r"expected shape=\(None, 4\), "
                                         r"found shape=\(2, 5\)"):
        model([np.ones((2, 5)), np.ones((2, 3))])
    with pytest.raises(ValueError, match="expects 2 input"):
        model(np.ones((2, 4)))


def test_functional_subclass_with_inputs_outputs():
    class MyModel(kerasish.Model):
        def __init__(self):
            x = kerasish.Input((3,))
            super().__init__(inputs=x, outputs=layers.Dense(2)(x))

    model = MyModel()
    assert isinstance(model, kerasish.models.Functional)
    assert model(np.ones((1, 3))).shape == (1, 2)


def test_symbolic_ops_keep_shapes():
    x = kerasish.Input((None, 4))
    y = ops.mean(ops.exp(x) * 2, axis=1)
    assert y.shape == (None, 4)
    model = kerasish.Model(x, y)
    out = model(np.zeros((2, 5, 4), "float32"))
    np.testing.assert_allclose(out.numpy(), 2 * np.ones((2, 4)))


def test_one_element_output_list_returns_the_tensor_as_keras():
    x = kerasish.Input((3,))
    model = kerasish.Model([x], [layers.Dense(2)(x)])
    out = model.predict(np.ones((4, 3)), verbose=0)
    assert isinstance(out, np.ndarray) and out.shape == (4, 2)


def test_model_training_flag_overrides_recorded_one():
    x = kerasish.Input((200,))
    model = kerasish.Model(x, layers.Dropout(0.5, seed=1)(x, training=True))
    ones = np.ones((2, 200), "float32")
    np.testing.assert_array_equal(model(ones, training=False).numpy(), ones)
    assert (model(ones).numpy() == 0).any()


def test_dict_inputs_with_mismatched_names_warn():
    a = kerasish.Input((2,), name="a")
    with pytest.warns(UserWarning, match="keys in the dict must match"):
        kerasish.Model({"b": a}, layers.Dense(1)(a))


def test_string_inputs_flow_to_lookup_layers(tmp_path):
    x = kerasish.Input((1,), dtype="string")
    assert x.dtype == "string"
    ids = layers.StringLookup(vocabulary=["a", "b", "c"])(x)
    model = kerasish.Model(x, layers.Flatten()(layers.Embedding(5, 2)(ids)))
    assert model(np.array([["a"], ["zz"]])).shape == (2, 2)
    path = str(tmp_path / "text.keras")
    model.save(path)
    again = kerasish.models.load_model(path)
    np.testing.assert_allclose(again(np.array([["b"]])).numpy(),
                               model(np.array([["b"]])).numpy())
    with pytest.raises(ValueError, match="expects data of dtype string"):
        model(np.ones((2, 1)))


def test_subclassed_model_passes_text_but_dense_refuses_it():
    class Text(kerasish.Model):
        def __init__(self):
            super().__init__()
            self.lookup = layers.StringLookup(vocabulary=["a", "b"])
            self.dense = layers.Dense(1)

        def call(self, x):
            return self.dense(ops.cast(self.lookup(x), "float32"))

    assert Text()(np.array([["a"], ["b"]])).shape == (2, 1)
    with pytest.raises(ValueError, match="Layer 'dense.*expects numeric"):
        layers.Dense(1)(np.array([["a"]]))


def test_functional_add_loss_raises_as_keras():
    # Keras 3.15's Functional.add_loss raises NotImplementedError (symbolic
    # and eager alike); losses come from layers' calls instead.
    inputs = kerasish.Input((2,))
    outputs = kerasish.layers.Dense(1)(inputs)
    model = kerasish.Model(inputs, outputs)
    with pytest.raises(NotImplementedError, match="add_loss"):
        model.add_loss(kerasish.ops.mean(outputs))
    with pytest.raises(NotImplementedError, match="add_loss"):
        model.add_loss(kerasish.ops.convert_to_tensor(1.0))


def test_keras_tensor_repr_names_sparse_and_ragged():
    # Keras 3.15 prints: <KerasTensor shape=(None, 3), dtype=float32,
    # sparse=False, ragged=False, name=img>
    x = kerasish.Input((3,), name="img")
    assert repr(x) == ("<KerasTensor shape=(None, 3), dtype=float32, "
                       "sparse=False, ragged=False, name=img>")
