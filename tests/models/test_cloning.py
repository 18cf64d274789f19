"""`models.clone_model`: clone_function, call_function, input_tensors,
recursive, as Keras 3 (expected layer lists/names come from Keras 3.15)."""
import numpy as np
import pytest

import kerasish
from kerasish import layers as L


def two_input_model():
    a = kerasish.Input((3,), name="a")
    b = kerasish.Input((3,), name="b")
    shared = L.Dense(2, name="shared")
    h = L.Add(name="add")([shared(a), shared(b)])
    h = L.Dropout(0.5, seed=1, name="drop")(h)
    out = L.Dense(1, name="out")(h * 2.0)
    return kerasish.Model([a, b], out, name="fm")


def nested_model():
    ia = kerasish.Input((3,), name="ia")
    inner = kerasish.Model(ia, L.Dense(2, name="inner_d")(ia), name="inner")
    seq = kerasish.Sequential([L.Dense(2, name="sq_d")], name="sq")
    a = kerasish.Input((3,), name="a")
    return kerasish.Model(a, L.Add(name="add")([inner(a), seq(a)]),
                          name="outer")


X = [np.ones((2, 3), "float32"), np.full((2, 3), 0.5, "float32")]


def names(model):
    return [layer.name for layer in model.layers]


def test_default_clone_has_new_layers_and_same_graph():
    model = two_input_model()
    clone = kerasish.models.clone_model(model)
    assert names(clone) == ["a", "b", "shared", "add", "drop", "out"]
    assert clone.name == "fm" and len(clone.weights) == 4
    assert all(c is not m for c, m in zip(clone.layers, model.layers))
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(X, verbose=0),
                               model.predict(X, verbose=0))


def test_clone_function_sees_every_operation_once():
    seen = []

    def clone_function(layer):
        seen.append(layer.name)
        return layer

    kerasish.models.clone_model(two_input_model(),
                                clone_function=clone_function)
    # Keras 3.15: the shared layer once; the `* 2.0` op too.
    assert seen[:3] == ["shared", "add", "drop"] and seen[4] == "out"
    assert seen[3].startswith("multiply")


def test_identity_clone_function_reuses_layers():
    model = two_input_model()
    clone = kerasish.models.clone_model(model, clone_function=lambda l: l)
    assert clone.get_layer("shared") is model.get_layer("shared")
    np.testing.assert_allclose(clone.predict(X, verbose=0),
                               model.predict(X, verbose=0))


def test_clone_function_can_replace_layers():
    def clone_function(layer):
        if isinstance(layer, L.Dropout):
            return L.Activation("relu", name="relu_instead")
        return layer

    clone = kerasish.models.clone_model(two_input_model(),
                                        clone_function=clone_function)
    assert names(clone) == ["a", "b", "shared", "add", "relu_instead",
                            "out"]


def test_call_function_inserts_layers():
    def call_function(layer, *args, **kwargs):
        out = layer(*args, **kwargs)
        if isinstance(layer, L.Dense):
            out = L.Activation("tanh", name=f"act_{layer.name}_"
                               f"{len(layer._inbound_nodes)}")(out)
        return out

    clone = kerasish.models.clone_model(
        two_input_model(), clone_function=lambda l: l,
        call_function=call_function)
    # Layer order from Keras 3.15.
    assert names(clone) == ["a", "b", "shared", "act_shared_3",
                            "act_shared_4", "add", "drop", "out",
                            "act_out_2"]


def test_input_tensors():
    model = two_input_model()
    new = [kerasish.Input((3,), name="new_a"),
           kerasish.Input((3,), name="new_b")]
    clone = kerasish.models.clone_model(model, input_tensors=new)
    assert names(clone)[:2] == ["new_a", "new_b"]
    assert clone.inputs[0] is new[0]
    with pytest.raises(ValueError, match="same structure as model.input"):
        kerasish.models.clone_model(model, input_tensors=[new[0]])
    with pytest.raises(ValueError, match="must be KerasTensors"):
        kerasish.models.clone_model(model, input_tensors=[X[0], X[1]])


def test_dict_inputs_and_outputs_keep_their_structure():
    a = kerasish.Input((3,), name="a")
    b = kerasish.Input((3,), name="b")
    model = kerasish.Model({"a": a, "b": b},
                           {"o": L.Dense(1, name="o")(
                               L.Concatenate()([a, b]))})
    clone = kerasish.models.clone_model(model)
    assert sorted(clone.input) == ["a", "b"] and list(clone.output) == ["o"]


def test_sequential_clone_function_and_input_tensors():
    model = kerasish.Sequential([kerasish.Input((3,), name="si"),
                                 L.Dense(2, name="d1"),
                                 L.Dropout(0.2, name="dr")], name="sq")
    seen = []

    def clone_function(layer):
        seen.append(layer.name)
        return layer.__class__.from_config(layer.get_config())

    clone = kerasish.models.clone_model(model, clone_function=clone_function)
    assert seen == ["d1", "dr"] and clone.built
    assert clone.inputs[0].shape == (None, 3)
    tensor = kerasish.Input((3,), name="zz")
    clone = kerasish.models.clone_model(model, input_tensors=tensor)
    assert clone.inputs[0] is tensor
    with pytest.raises(ValueError, match="not supported with Sequential"):
        kerasish.models.clone_model(
            model, call_function=lambda l, *a, **k: l(*a, **k))


def test_unbuilt_sequential_clone_stays_unbuilt():
    model = kerasish.Sequential([L.Dense(2, name="d1")], name="sq")
    clone = kerasish.models.clone_model(model)
    assert not clone.built and names(clone) == ["d1"]


@pytest.mark.parametrize("recursive, expected", [
    # What clone_function received, from Keras 3.15.
    (False, [["Functional", "inner"], ["Sequential", "sq"], ["Add", "add"]]),
    (True, [["Dense", "inner_d"], ["Dense", "sq_d"], ["Add", "add"]]),
])
def test_recursive(recursive, expected):
    model = nested_model()
    seen = []

    def clone_function(layer):
        seen.append([type(layer).__name__, layer.name])
        return layer.__class__.from_config(layer.get_config())

    clone = kerasish.models.clone_model(model, clone_function=clone_function,
                                        recursive=recursive)
    assert seen == expected
    assert names(clone) == ["a", "inner", "sq", "add"]
    assert names(clone.get_layer("inner")) == ["ia", "inner_d"]


def test_compiled_model_clone_is_compiled_with_a_new_optimizer():
    model = two_input_model()
    model.compile(optimizer="adam", loss="mse", metrics=["mae"])
    clone = kerasish.models.clone_model(model)
    assert clone.compiled and clone.optimizer is not model.optimizer


def test_subclassed_model_errors_and_config_clone():
    class Sub(kerasish.Model):
        def __init__(self, units=2, **kwargs):
            super().__init__(**kwargs)
            self.units = units
            self.dense = L.Dense(units)

        def call(self, x):
            return self.dense(x)

        def get_config(self):
            return {**super().get_config(), "units": self.units}

    model = Sub(units=3)
    with pytest.raises(ValueError, match="only supported for Sequential"):
        kerasish.models.clone_model(model, clone_function=lambda l: l)
    with pytest.raises(ValueError, match="only supported for Functional"):
        kerasish.models.clone_model(
            model, call_function=lambda l, *a, **k: l(*a, **k))
    clone = kerasish.models.clone_model(model)   # not registered: found
    assert type(clone) is Sub and clone.units == 3


def test_unexpected_keyword():
    with pytest.raises(ValueError, match=r"Unexpected keyword argument\(s\)"
                       r": \('foo',\)"):
        kerasish.models.clone_model(two_input_model(), foo=1)
