"""Errors inside `call`/`build` name the layer and its arguments (Keras 3's
"Exception encountered when calling ..." rewriting)."""
import traceback

import numpy as np
import pytest

import kerasish as keras
from kerasish import layers


class Fails(layers.Layer):
    """Raises a given exception from `call` for a batch of `batch` (shape
    inference, which runs on other sizes, passes)."""

    def __init__(self, error, batch=None, **kwargs):
        super().__init__(**kwargs)
        self.error, self.batch = error, batch

    def call(self, inputs, scale=2.0):
        first = inputs[0] if isinstance(inputs, list) else inputs
        if self.batch is None or first.shape[0] == self.batch:
            raise self.error
        return inputs


def test_numpy_error_in_call_names_the_layer_and_argument_shapes():
    layer = layers.LayerNormalization()
    layer(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError) as info:
        layer(np.ones((2, 4), "float32"))
    message = str(info.value)
    assert message.startswith(
        "Exception encountered when calling LayerNormalization.call().")
    assert "cannot reshape array of size 3" in message
    assert "Arguments received by LayerNormalization.call():\n" \
        "  \u2022 inputs=Tensor(shape=(2, 4), dtype=float32)" in message


def test_all_arguments_are_listed_with_defaults():
    layer = Fails(ValueError("boom"))
    with pytest.raises(ValueError) as info:
        layer([np.zeros((2, 3), "float32"), None])
    message = str(info.value)
    assert "\x1b[1mboom\x1b[0m" in message
    assert ("  \u2022 inputs=[Tensor(shape=(2, 3), dtype=float32), None]\n"
            "  \u2022 scale=2.0") in message


def test_only_the_innermost_failing_call_is_named():
    model = keras.Sequential([keras.Input((3,)), layers.Dense(4),
                              Fails(ValueError("inner"), batch=2, name="bad")])
    with pytest.raises(ValueError) as info:
        model(np.ones((2, 3), "float32"))
    message = str(info.value)
    assert message.count("Exception encountered") == 1
    assert "Fails.call()" in message and "Sequential" not in message
    assert "inputs=Tensor(shape=(2, 4), dtype=float32)" in message


def test_symbolic_call_shows_the_keras_tensors_not_placeholders():
    query, value = keras.Input((3, 4)), keras.Input((5, 6))
    with pytest.raises(ValueError) as info:
        layers.Attention()([query, value])
    message = str(info.value)
    assert message.count("Exception encountered") == 1
    assert "Attention.call()" in message
    assert "<KerasTensor shape=(None, 3, 4)" in message
    assert "<KerasTensor shape=(None, 5, 6)" in message


def test_build_errors_name_the_layer_and_input_shape():
    with pytest.raises(ValueError) as info:
        layers.GroupNormalization(groups=3)(np.ones((2, 4), "float32"))
    message = str(info.value)
    assert "Exception encountered when calling GroupNormalization.build()" \
        in message
    assert "must be a divisor of the number of channels (4)" in message
    assert "  \u2022 input_shape=(2, 4)" in message


def test_type_and_traceback_are_kept():
    with pytest.raises(np.exceptions.AxisError) as info:
        layers.Softmax(axis=5)(np.ones((2, 3), "float32"))
    assert isinstance(info.value, ValueError)
    assert "Softmax.call()" in str(info.value)
    # The traceback still reaches the numpy call that failed.
    frames = traceback.extract_tb(info.value.__traceback__)
    assert "numpy" in frames[-1].filename
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_disabled_traceback_filtering_leaves_errors_alone():
    error = ValueError("plain")
    keras.config.disable_traceback_filtering()
    try:
        with pytest.raises(ValueError) as info:
            Fails(error)(np.ones((1,), "float32"))
    finally:
        keras.config.enable_traceback_filtering()
    assert info.value is error and str(info.value) == "plain"


def test_errors_of_other_libraries_and_users_pass_unchanged():
    class Custom(Exception):
        def __init__(self, code):
            super().__init__(f"code {code}")
            self.code = code

    error = Custom(7)
    with pytest.raises(Custom) as info:
        Fails(error)(np.ones((1,), "float32"))
    assert info.value is error and info.value.code == 7


def test_a_builtin_type_that_needs_more_arguments_is_reraised_as_is():
    error = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad byte")
    with pytest.raises(UnicodeDecodeError) as info:
        Fails(error)(np.ones((1,), "float32"))
    assert info.value is error


def test_the_input_spec_check_of_a_top_level_call_is_not_rewritten():
    # As in Keras: the incompatibility error is raised before `call`.
    layer = layers.Dense(2)
    layer(np.ones((2, 3), "float32"))
    with pytest.raises(ValueError) as info:
        layer(np.ones((2, 5), "float32"))
    assert not str(info.value).startswith("Exception encountered")
    assert "(2, 5)" in str(info.value)
