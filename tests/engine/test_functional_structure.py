"""Functional models' input/output structure, as Keras 3.15 (behaviour
checked side by side with Keras 3.15.1)."""
import warnings

import numpy as np
import pytest

import kerasish
from kerasish import layers, ops

X = np.ones((2, 3), "float32")


def two_inputs():
    return (kerasish.Input((3,), name="a"), kerasish.Input((3,), name="b"))


def test_tuple_inputs_and_outputs_stay_tuples():
    a, b = two_inputs()
    model = kerasish.Model((a, b), (layers.Dense(2)(a), layers.Dense(2)(b)))
    assert isinstance(model.input, tuple) and isinstance(model.output, tuple)
    assert isinstance(model((X, X)), tuple)
    assert isinstance(model.predict((X, X), verbose=0), tuple)


def test_input_and_output_shapes_are_flat():
    a, b = two_inputs()
    model = kerasish.Model({"a": a, "b": b},
                           {"x": layers.Dense(2)(a), "y": layers.Dense(4)(b)})
    assert model.input_shape == [(None, 3), (None, 3)]
    assert model.output_shape == [(None, 2), (None, 4)]
    a = kerasish.Input((3,), name="a")
    model = kerasish.Model([a], [layers.Dense(2)(a)])
    assert model.input_shape == (None, 3) and model.output_shape == (None, 2)


def test_input_spec_is_a_list():
    a = kerasish.Input((3,), name="a")
    spec = kerasish.Model(a, layers.Dense(2)(a)).input_spec
    assert isinstance(spec, list) and [s.name for s in spec] == ["a"]
    a, b = two_inputs()
    with pytest.warns(UserWarning, match="keys in the dict must match"):
        model = kerasish.Model({"k2": b, "k1": a}, layers.Add()([a, b]))
    # By sorted key, named by key.
    assert [s.name for s in model.input_spec] == ["k1", "k2"]


def test_a_model_that_fails_to_build_takes_no_name():
    a = kerasish.Input((3,), name="a")
    with pytest.raises(ValueError, match="must be KerasTensors"):
        kerasish.Model(a, np.zeros((2,)))
    assert kerasish.Model(a, layers.Dense(2)(a)).name == "functional"


@pytest.mark.parametrize("make_inputs", [
    lambda: (X,),                           # tuple for a single Input
    lambda: [X],                            # list for a single Input
    lambda: {"a": X},                       # dict for a single Input
])
def test_single_input_model_warns_on_other_structures(make_inputs):
    a = kerasish.Input((3,), name="a")
    model = kerasish.Model(a, layers.Dense(2)(a))
    with pytest.warns(UserWarning, match="The structure of `inputs` doesn't "
                      "match the expected structure.\nExpected: a\n"):
        model(make_inputs())


def test_reconcilable_structures_do_not_warn():
    a, b = two_inputs()
    model = kerasish.Model([a, b], layers.Subtract()([a, b]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model((X, 2 * X))                               # tuple for a list
        np.testing.assert_allclose(
            model({"b": 2 * X, "a": X, "c": X}), -X)    # dict by name
        a = kerasish.Input((3,), name="a")
        kerasish.Model([a], layers.Dense(2)(a))(X)      # tensor for [a]


def test_dict_model_structures():
    a, b = two_inputs()
    model = kerasish.Model({"a": a, "b": b}, layers.Subtract()([a, b]))
    with pytest.warns(UserWarning, match=r"Received: inputs=\{'a': "
                      r"'Tensor\(shape=\(2, 3\)\)', 'b'.*'c'"):
        model({"a": X, "b": X, "c": X})
    with pytest.warns(UserWarning, match="doesn't match"):
        np.testing.assert_allclose(model([X, 2 * X]), -X)
    a, b = two_inputs()
    unsorted = kerasish.Model({"b": b, "a": a}, layers.Subtract()([a, b]))
    # Keys not in sorted order: a sequence cannot be matched to them.
    with pytest.raises(ValueError, match="doesn't match the expected"):
        unsorted([X, 2 * X])


def test_a_model_can_start_at_an_intermediate_tensor():
    # Keras 3.15 gives such a model its own InputLayer and shares the
    # layers with the original graph.
    a = kerasish.Input((3,), name="a")
    h = layers.Dense(4, name="h")(a)
    out = layers.Dense(2, name="o")(h)
    head = kerasish.Model(h, out)
    assert [type(layer).__name__ for layer in head.layers] == [
        "InputLayer", "Dense"]
    assert head.get_layer("o") is out._keras_history[0]
    assert head.input_shape == (None, 4)
    features = np.ones((2, 4), "float32")
    dense = head.get_layer("o")
    np.testing.assert_allclose(head(features), dense(features))
    # The original model still runs from `a`.
    full = kerasish.Model(a, out)
    assert [layer.name for layer in full.layers] == ["a", "h", "o"]
    again = kerasish.Model.from_config(head.get_config())
    assert [type(layer).__name__ for layer in again.layers] == [
        "InputLayer", "Dense"]


def test_other_keyword_arguments_are_ignored():
    a = kerasish.Input((3,))
    model = kerasish.Model(inputs=a, outputs=layers.Dense(2)(a), foo=1,
                           trainable=False)
    assert not model.trainable


def test_compute_output_shape_traces_the_given_shapes():
    # Keras 3.15: (None, 7, 3) -> [(None, 7, 2), (None, 3)].
    a = kerasish.Input((None, 3), name="a")
    model = kerasish.Model(a, [layers.Dense(2)(a),
                               layers.GlobalAveragePooling1D()(a)])
    assert model.compute_output_shape((None, 7, 3)) == [(None, 7, 2),
                                                         (None, 3)]
    x = kerasish.Input((3,), name="x", dtype="int32")
    typed = kerasish.Model(x, ops.cast(x, "float16") * 2)
    assert typed.compute_output_shape((5, 3)) == (5, 3)
