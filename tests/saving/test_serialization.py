"""Public serialization API: user classes and functions, JSON, sharing."""
import json

import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.saving import (custom_object_scope, deserialize_keras_object,
                             get_custom_objects, get_registered_name,
                             get_registered_object,
                             register_keras_serializable,
                             serialize_keras_object)


@register_keras_serializable(package="test_serialization")
class Scale(layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def call(self, x):
        return x * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@register_keras_serializable(package="test_serialization")
def cube(x):
    return x * x * x


def plain_square(x):
    return x * x


def _model(activation):
    inputs = kerasish.Input((3,))
    x = layers.Dense(4, activation=activation)(inputs)
    return kerasish.Model(inputs, Scale(3.0)(x))


X = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)


def test_registered_names():
    assert get_registered_name(Scale) == "test_serialization>Scale"
    assert get_registered_object("test_serialization>cube") is cube
    assert get_custom_objects()["test_serialization>Scale"] is Scale


def test_register_requires_get_config():
    class NoConfig:
        pass

    with pytest.raises(ValueError, match="get_config"):
        register_keras_serializable()(NoConfig)


def test_serialized_forms_match_keras():
    config = serialize_keras_object(Scale(1.5, name="s"))
    assert config["class_name"] == "Scale"
    assert config["registered_name"] == "test_serialization>Scale"
    assert config["config"]["factor"] == 1.5
    # Keras 3 writes every function as a name under module "builtins".
    assert serialize_keras_object(cube) == {
        "module": "builtins", "class_name": "function",
        "config": "test_serialization>cube", "registered_name": "function"}


@pytest.mark.parametrize("ext", [".keras", ".h5"])
def test_registered_objects_save_and_load(tmp_path, ext):
    model = _model(cube)
    path = str(tmp_path / f"m{ext}")
    model.save(path)
    loaded = kerasish.models.load_model(path)
    assert isinstance(loaded.layers[-1], Scale)
    assert loaded.layers[1].activation is cube
    np.testing.assert_allclose(loaded.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)


@pytest.mark.parametrize("ext", [".keras", ".h5"])
def test_unregistered_function_needs_custom_objects(tmp_path, ext):
    model = _model(plain_square)
    path = str(tmp_path / f"m{ext}")
    model.save(path)
    with pytest.raises(ValueError, match="Could not locate function "
                                         "'plain_square'"):
        kerasish.models.load_model(path)
    loaded = kerasish.models.load_model(
        path, custom_objects={"plain_square": plain_square})
    assert loaded.layers[1].activation is plain_square
    with custom_object_scope({"plain_square": plain_square}):
        scoped = kerasish.models.load_model(path)
    np.testing.assert_allclose(scoped.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)


def test_unregistered_class_needs_custom_objects():
    class Local(layers.Layer):
        def call(self, x):
            return x + 1.0

    config = serialize_keras_object(Local(name="local"))
    # TypeError as Keras's serialization_lib, ValueError as its legacy path.
    with pytest.raises(ValueError, match="Could not locate class 'Local'"):
        deserialize_keras_object({"module": None, "class_name": "Local",
                                  "registered_name": "pkg>Local",
                                  "config": {"name": "l"}})
    with pytest.raises(TypeError, match="Could not locate class 'Local'"):
        deserialize_keras_object(config)
    layer = deserialize_keras_object(config, custom_objects={"Local": Local})
    assert isinstance(layer, Local) and layer.name == "local"


def test_registered_name_resolves_bare_custom_object():
    # A file written where the class was registered as "pkg>Local" loads
    # where the user passes it by its bare name.
    class Local(layers.Layer):
        pass

    config = {"module": "elsewhere", "class_name": "Local",
              "registered_name": "pkg>Local", "config": {"name": "l"}}
    assert isinstance(deserialize_keras_object(
        config, custom_objects={"Local": Local}), Local)


def test_to_json_and_model_from_json():
    model = _model("relu")
    text = model.to_json(indent=1)
    assert json.loads(text)["class_name"] == "Functional"
    clone = kerasish.models.model_from_json(text)
    assert [type(layer) for layer in clone.layers] == \
        [type(layer) for layer in model.layers]
    assert clone.get_config() == model.get_config()
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone.predict(X, verbose=0),
                               model.predict(X, verbose=0), rtol=1e-6)


def test_model_from_json_of_a_compiled_model_is_compiled():
    # As Keras: the JSON carries compile_config, and reading it compiles.
    model = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(1)])
    model.compile(kerasish.optimizers.Adam(0.01), "mse", metrics=["mae"])
    clone = kerasish.models.model_from_json(model.to_json())
    assert clone.compiled
    assert clone.get_compile_config() == model.get_compile_config()
    history = clone.fit(np.ones((4, 3)), np.ones((4, 1)), verbose=0)
    assert sorted(history.history) == ["loss", "mae"]
    uncompiled = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(1)])
    assert not kerasish.models.model_from_json(
        uncompiled.to_json()).compiled


def test_sequential_json_round_trip():
    model = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(2),
                                 Scale(0.5)], name="seq")
    clone = kerasish.models.model_from_json(model.to_json())
    assert clone.name == "seq"
    assert clone.get_config() == model.get_config()


def test_nested_user_objects_round_trip():
    class Stack(layers.Layer):
        def __init__(self, sublayers, **kwargs):
            super().__init__(**kwargs)
            self.sublayers = sublayers

        def call(self, x):
            for layer in self.sublayers:
                x = layer(x)
            return x

        def get_config(self):
            return {**super().get_config(),
                    "sublayers": serialize_keras_object(self.sublayers)}

        @classmethod
        def from_config(cls, config):
            config["sublayers"] = deserialize_keras_object(
                config["sublayers"])
            return cls(**config)

    model = kerasish.Sequential([Stack([layers.Dense(2, name="inner"),
                                        Scale(name="scale")])])
    text = model.to_json()
    assert "test_serialization>Scale" in text
    loaded = kerasish.models.model_from_json(
        text, custom_objects={"Stack": Stack})
    sublayers = loaded.layers[0].sublayers
    assert isinstance(sublayers[0], layers.Dense)
    assert sublayers[0].name == "inner"
    assert isinstance(sublayers[1], Scale)


def test_shared_object_stays_shared_through_keras_file(tmp_path):
    regularizer = kerasish.regularizers.L2(0.01)
    inputs = kerasish.Input((3,))
    x = layers.Dense(2, kernel_regularizer=regularizer)(inputs)
    outputs = layers.Dense(2, kernel_regularizer=regularizer)(x)
    model = kerasish.Model(inputs, outputs)
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = kerasish.models.load_model(path)
    first, second = loaded.layers[1], loaded.layers[2]
    assert first.kernel_regularizer is second.kernel_regularizer


def test_deserialize_plain_values_and_specials():
    assert deserialize_keras_object(None) is None
    assert deserialize_keras_object([1, "a"]) == [1, "a"]
    array = deserialize_keras_object(serialize_keras_object(
        np.arange(3, dtype="int32")))
    assert array.dtype == np.int32 and list(array) == [0, 1, 2]
    assert deserialize_keras_object(serialize_keras_object(b"x")) == b"x"
    assert deserialize_keras_object(
        serialize_keras_object(slice(1, None, 2))) == slice(1, None, 2)


def test_object_arrays_in_configs_are_refused():
    config = {"class_name": "__numpy__",
              "config": {"value": [1, 2], "dtype": "object"}}
    with pytest.raises(ValueError, match="Received: dtype='object'"):
        deserialize_keras_object(config)


class _Head(kerasish.Model):
    """A subclassed model with no get_config of its own."""

    def __init__(self, units, activation="relu", **kwargs):
        super().__init__(**kwargs)
        self.dense = layers.Dense(units, activation=activation)

    def call(self, x):
        return self.dense(x)


class _Wrapper(kerasish.Model):
    def __init__(self, inner, **kwargs):
        super().__init__(**kwargs)
        self.inner = inner

    def call(self, x):
        return self.inner(x)


def test_subclassed_model_without_get_config_saves_its_arguments(tmp_path):
    model = _Head(4, activation="tanh")
    model(X)
    config = model.get_config()
    assert (config["units"], config["activation"]) == (4, "tanh")
    path = str(tmp_path / "head.keras")
    model.save(path)
    loaded = kerasish.models.load_model(path,
                                        custom_objects={"_Head": _Head})
    np.testing.assert_allclose(loaded(X), model(X), rtol=1e-6)


def test_subclassed_model_with_object_arguments_must_write_get_config(
        tmp_path):
    # As Keras: NotImplementedError from get_config, so save() writes
    # nothing that could not be loaded.
    model = _Wrapper(layers.Dense(2))
    model(X)
    with pytest.raises(NotImplementedError, match="must override"):
        model.get_config()
    path = tmp_path / "wrapper.keras"
    with pytest.raises(NotImplementedError):
        model.save(str(path))
    assert not path.exists()


def test_a_builtin_class_name_deserializes_to_an_instance():
    # As Keras: a family's class named by a string comes back instantiated
    # (functions stay functions, custom objects stay as given).
    metric = kerasish.metrics.deserialize("mae")
    assert isinstance(metric, kerasish.metrics.MeanAbsoluteError)
    assert metric.name == "mean_absolute_error"
    assert isinstance(kerasish.initializers.deserialize("glorot_uniform"),
                      kerasish.initializers.GlorotUniform)
    assert isinstance(kerasish.losses.deserialize("Huber"),
                      kerasish.losses.Huber)
    assert kerasish.losses.deserialize("mean_absolute_error") is \
        kerasish.losses.mean_absolute_error
    assert kerasish.metrics.deserialize(
        "Mine", custom_objects={"Mine": kerasish.metrics.AUC}) is \
        kerasish.metrics.AUC
    assert kerasish.metrics.deserialize("no_such_metric") == "no_such_metric"
