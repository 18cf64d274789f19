"""keras.Function, keras.Operation and keras.utils.get_source_inputs.
Values were checked against the same script under Keras 3.15.1 (JAX)."""
import numpy as np
import pytest

import kerasish as keras


def _two_inputs():
    a = keras.KerasTensor((None, 2))
    b = keras.KerasTensor((None, 2))
    return a, b


def test_function_replays_graph_of_bare_keras_tensors():
    a, b = _two_inputs()
    fn = keras.Function([a, b], {"s": keras.ops.sigmoid(a + b), "p": a * b})
    out = fn([np.array([[1.0, 2.0]]), np.array([[3.0, -4.0]])])
    np.testing.assert_allclose(out["s"], [[0.98201, 0.1192]], atol=1e-5)
    np.testing.assert_allclose(out["p"], [[3.0, -8.0]])
    assert fn.compute_output_shape([(5, 2), (5, 2)]) == \
        {"s": (5, 2), "p": (5, 2)}
    assert [op.class_name for op in fn.operations] == \
        ["Add", "Multiply", "Sigmoid"]
    assert fn.inputs == [a, b] and len(fn.outputs) == 2


def test_function_on_layers_and_symbolic_inputs():
    inp = keras.Input((2,), name="inp")
    out = keras.layers.Dense(3, kernel_initializer="ones")(inp)
    fn = keras.Function(inp, out, name="f")
    np.testing.assert_allclose(fn(np.ones((1, 2))), [[2.0, 2.0, 2.0]])
    assert [type(op).__name__ for op in fn.operations] == \
        ["InputLayer", "Dense"]
    symbolic = fn(keras.Input((2,)))
    assert symbolic.shape == (None, 3)
    assert fn.name == "f"
    spec = fn.compute_output_spec(keras.KerasTensor((4, 2)))
    assert spec.shape == (4, 3)


def test_function_input_checks_as_keras():
    a, b = _two_inputs()
    fn = keras.Function([a, b], a + b)
    with pytest.raises(ValueError, match="Function was passed incompatible "
                                         "inputs.*expected shape \\(None, 2\\)"
                                         ", but received instead a tensor "
                                         "with shape \\(1, 3\\)"):
        fn([np.ones((1, 3)), np.ones((1, 2))])
    with pytest.raises(ValueError, match="Function was called with an "
                                         "invalid input structure"):
        fn(np.ones((1, 2)))
    with pytest.raises(ValueError, match="`inputs` argument cannot be empty"):
        keras.Function([], a)
    with pytest.raises(ValueError, match="`outputs` argument cannot be "
                                         "empty"):
        keras.Function([a], [])


def test_function_requires_connected_outputs():
    a, b = _two_inputs()
    c = keras.KerasTensor((None, 2))
    with pytest.raises(ValueError):
        keras.Function([a], a + c)


class Double(keras.Operation):
    def call(self, x):
        return keras.ops.multiply(x, 2.0)


class Scale(keras.Operation):
    def __init__(self, factor, name=None):
        super().__init__(name=name)
        self.factor = factor

    def call(self, x):
        return keras.ops.multiply(x, self.factor)


def test_operation_subclass_eager_symbolic_and_config():
    op = Double()
    np.testing.assert_allclose(op(np.ones(2)), [2.0, 2.0])
    x = keras.Input((3,))
    y = op(x)
    assert y.shape == (None, 3) and op.output is y and op.input is x
    assert op.get_config() == {"name": "double"}
    assert repr(op) == "<Operation name=double>"
    scale = Scale(3.0)
    config = scale.get_config()
    assert config == {"name": "scale", "factor": 3.0}
    assert Scale.from_config(config).factor == 3.0
    assert isinstance(keras.layers.Dense(1), keras.Operation)


def test_operation_errors():
    with pytest.raises(AttributeError, match="has never been called"):
        Double().output
    with pytest.raises(NotImplementedError, match="must implement"):
        keras.Operation()(np.ones(1))
    with pytest.raises(NotImplementedError, match="must override "
                                                  "`get_config\\(\\)`"):
        Scale(np.ones(2)).get_config()
    with pytest.raises(TypeError, match="Error when deserializing class "
                                        "'Scale'"):
        Scale.from_config({"nope": 1})


def test_get_source_inputs():
    a, b = keras.Input((2,)), keras.Input((2,))
    dense = keras.layers.Dense(2)(b)
    out = keras.layers.Add()([a, dense])
    sources = keras.utils.get_source_inputs(out)
    assert len(sources) == 2 and sources[0] is a and sources[1] is b
    assert keras.utils.get_source_inputs(a)[0] is a
    twice = keras.layers.Add()([out, dense])
    assert [s is t for s, t in zip(keras.utils.get_source_inputs(twice),
                                   [a, b])] == [True, True]
    bare = keras.KerasTensor((None, 2))
    assert keras.utils.get_source_inputs(bare) == [bare]
    assert keras.utils.get_source_inputs(3) == 3
