"""Keras 2 serialization (keras.utils.legacy, keras.legacy.saving) and the
other keras.utils/keras.backend names of this round. Expected dicts were
printed by keras.legacy.saving.serialize_keras_object under Keras 3.15.1."""
import json

import numpy as np
import pytest

import kerasish as keras
from kerasish.utils.legacy import (deserialize_keras_object,
                                   serialize_keras_object)


class Holder(keras.layers.Layer):
    """A layer whose config holds objects, not serialized dicts."""

    def __init__(self, init=None, fn=None, **kwargs):
        super().__init__(**kwargs)
        self.init = keras.initializers.get(init)
        self.fn = fn

    def get_config(self):
        return {**super().get_config(), "init": self.init, "fn": self.fn}


def test_namespaces_share_the_functions():
    assert keras.legacy.saving.serialize_keras_object is \
        serialize_keras_object
    assert keras.utils.legacy.deserialize_keras_object is \
        deserialize_keras_object


def test_serialize_matches_keras():
    dense = serialize_keras_object(keras.layers.Dense(2, activation="relu"))
    assert json.dumps(dense) == (
        '{"class_name": "Dense", "config": {"name": "dense", "trainable": '
        'true, "dtype": {"module": "keras", "class_name": "DTypePolicy", '
        '"config": {"name": "float32"}, "registered_name": null}, "units": '
        '2, "activation": "relu", "use_bias": true, "kernel_initializer": '
        '{"module": "keras.initializers", "class_name": "GlorotUniform", '
        '"config": {"seed": null, "input_axes": null, "output_axes": null}, '
        '"registered_name": null}, "bias_initializer": {"module": '
        '"keras.initializers", "class_name": "Zeros", "config": {}, '
        '"registered_name": null}, "kernel_regularizer": null, '
        '"bias_regularizer": null, "kernel_constraint": null, '
        '"bias_constraint": null, "quantization_config": null}}')
    assert serialize_keras_object(keras.initializers.GlorotUniform(seed=1)) \
        == {"class_name": "GlorotUniform",
            "config": {"seed": 1, "input_axes": None, "output_axes": None}}
    assert serialize_keras_object(keras.activations.relu) == "relu"
    assert serialize_keras_object(keras.losses.MeanSquaredError()) == {
        "class_name": "MeanSquaredError",
        "config": {"name": "mean_squared_error",
                   "reduction": "sum_over_batch_size"}}
    assert serialize_keras_object(None) is None


def test_serialize_marks_passive_objects_and_round_trips():
    config = serialize_keras_object(Holder(init="ones",
                                           fn=keras.activations.relu))
    assert config["config"]["init"] == {
        "class_name": "Ones", "config": {}, "__passive_serialization__": True}
    assert config["config"]["fn"] == "relu"
    layer = deserialize_keras_object(
        config, module_objects={"Ones": keras.initializers.Ones,
                                "relu": keras.activations.relu},
        custom_objects={"Holder": Holder})
    assert isinstance(layer.init, keras.initializers.Ones)
    assert layer.fn is keras.activations.relu
    assert layer.name == "holder"
    assert "__passive_serialization__" in config["config"]["init"]


def test_serialize_rejects_objects_without_config():
    class Plain:
        pass
    with pytest.raises(ValueError, match="because it doesn't implement "
                                         "`get_config\\(\\)`"):
        serialize_keras_object(Plain())


def test_deserialize_lookups_and_errors():
    table = {"Dense": keras.layers.Dense, "relu": keras.activations.relu}
    layer = deserialize_keras_object(
        {"class_name": "Dense", "config": {"units": 3}},
        module_objects=table)
    assert layer.units == 3
    with pytest.raises(ValueError, match="Unknown object: 'Dense'"):
        deserialize_keras_object({"class_name": "Dense",
                                  "config": {"units": 3}})
    with pytest.raises(ValueError, match="Unknown layer: 'Nope'"):
        deserialize_keras_object("Nope", printable_module_name="layer")
    with pytest.raises(ValueError, match="Improper config format"):
        deserialize_keras_object({"class_name": "Dense"})
    with pytest.raises(ValueError, match="Could not interpret serialized "
                                         "object: 3"):
        deserialize_keras_object(3)
    assert deserialize_keras_object("relu", module_objects=table) is \
        keras.activations.relu
    # A class named by a string is instantiated without arguments.
    assert isinstance(deserialize_keras_object(
        "Zeros", custom_objects={"Zeros": keras.initializers.Zeros}),
        keras.initializers.Zeros)
    assert deserialize_keras_object(keras.activations.relu) is \
        keras.activations.relu
    assert deserialize_keras_object(None) is None
    with keras.utils.custom_object_scope({"Dense": keras.layers.Dense}):
        assert deserialize_keras_object(
            {"class_name": "Dense", "config": {"units": 4}}).units == 4


def test_deserialize_function_class_with_kwargs_and_no_mutation():
    def make(units):
        return {"made": units}
    config = {"class_name": "make", "config": {"units": 2}}
    assert deserialize_keras_object(config, custom_objects={"make": make}) \
        == {"made": 2}
    assert config == {"class_name": "make", "config": {"units": 2}}


def test_model_round_trip_through_legacy_format():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    config = serialize_keras_object(model)
    assert config["class_name"] == "Sequential"
    rebuilt = deserialize_keras_object(
        config, module_objects={"Sequential": keras.Sequential})
    assert rebuilt.output_shape == (None, 2)


# -- other keras.utils / keras.backend names ----------------------------------
def test_utils_serialization_functions_are_keras3s():
    config = keras.utils.serialize_keras_object(keras.initializers.Ones())
    assert config["module"] == "keras.initializers"
    assert isinstance(keras.utils.deserialize_keras_object(config),
                      keras.initializers.Ones)
    with keras.utils.CustomObjectScope({"Holder": Holder}):
        assert keras.saving.get_registered_object("Holder") is Holder


def test_is_keras_tensor_and_standardize_dtype():
    assert keras.utils.is_keras_tensor(keras.Input((2,)))
    assert keras.backend.is_keras_tensor(keras.KerasTensor((2,)))
    assert not keras.utils.is_keras_tensor(np.ones(2))
    assert keras.utils.standardize_dtype("float") == "float32"
    assert keras.utils.standardize_dtype(np.int64) == "int64"


def test_get_uid_and_clear_session():
    keras.layers.Dense(1)
    keras.layers.Dense(1)
    assert keras.backend.get_uid("dense") == 3      # as Keras
    assert keras.layers.Dense(1).name == "dense_3"
    assert keras.backend.get_uid() == 1
    keras.config.disable_interactive_logging()
    keras.config.disable_traceback_filtering()
    keras.config.disable_flash_attention()
    keras.config.set_dtype_policy("mixed_float16")
    keras.config.set_max_epochs(3)
    try:
        keras.utils.clear_session()
        # Keras resets the global state, but not module settings.
        assert keras.config.is_interactive_logging_enabled()
        assert keras.config.is_traceback_filtering_enabled()
        assert keras.config.is_flash_attention_enabled() is None
        assert keras.config.dtype_policy().name == "float32"
        assert keras.config.max_epochs() == 3
        assert keras.layers.Dense(1).name == "dense"
        assert keras.backend.get_uid("x") == 1
    finally:
        keras.config.set_max_epochs(None)
        keras.config.set_dtype_policy(None)
