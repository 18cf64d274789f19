"""compile(): loss as str/callable/Loss/list/dict, loss_weights,
metrics forms, regularization losses, accepted compatibility arguments and
the errors for bad configurations."""
import numpy as np
import pytest

import kerasish
from kerasish import layers, losses, metrics

RNG = np.random.default_rng(6)
X = RNG.normal(size=(10, 3)).astype("float32")
Y = RNG.normal(size=(10, 1)).astype("float32")
LABELS = RNG.integers(0, 3, size=(10,))


def two_outputs():
    inputs = kerasish.Input((3,))
    reg = layers.Dense(1, name="reg")(inputs)
    cls = layers.Dense(3, activation="softmax", name="cls")(inputs)
    return kerasish.Model(inputs, [reg, cls])


def single(units=1, activation=None, regularizer=None):
    return kerasish.Sequential([kerasish.Input((3,)), layers.Dense(
        units, activation=activation, kernel_regularizer=regularizer)])


def _mse(model, x=X, y=Y):
    return float(np.mean(np.square(model.predict(x, verbose=0) - y)))


@pytest.mark.parametrize("loss", ["mse", "mean_squared_error", "MSE",
                                  losses.mean_squared_error,
                                  losses.MeanSquaredError(),
                                  losses.MeanSquaredError])
def test_loss_forms(loss):
    model = single()
    model.compile("sgd", loss=loss)
    assert model.evaluate(X, Y, verbose=0) == pytest.approx(_mse(model),
                                                            rel=1e-5)


def test_custom_loss_function_and_its_name():
    def doubled(y_true, y_pred):
        return 2.0 * kerasish.ops.mean(kerasish.ops.square(y_true - y_pred),
                                       axis=-1)

    model = two_outputs()
    model.compile("sgd", loss=[doubled, "sparse_categorical_crossentropy"])
    logs = model.evaluate(X, [Y, LABELS], verbose=0, return_dict=True)
    assert logs["reg_loss"] == pytest.approx(2 * _mse_of(model, 0),
                                             rel=1e-5)


def _mse_of(model, index):
    return float(np.mean(np.square(model.predict(X, verbose=0)[index] - Y)))


def test_loss_weights_list_and_dict():
    model = two_outputs()
    model.compile("sgd", loss=["mse", "sparse_categorical_crossentropy"],
                  loss_weights=[0.5, 2.0])
    logs = model.evaluate(X, [Y, LABELS], verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(
        0.5 * logs["reg_loss"] + 2.0 * logs["cls_loss"], rel=1e-5)
    model.compile("sgd", loss={"reg": "mse",
                               "cls": "sparse_categorical_crossentropy"},
                  loss_weights={"cls": 1.0, "reg": 3.0})
    logs = model.evaluate(X, {"reg": Y, "cls": LABELS}, verbose=0,
                          return_dict=True)
    assert logs["loss"] == pytest.approx(
        3.0 * logs["reg_loss"] + logs["cls_loss"], rel=1e-5)


def test_loss_for_one_output_only():
    model = two_outputs()
    model.compile("sgd", loss=[None, "sparse_categorical_crossentropy"],
                  metrics={"cls": ["accuracy"]})
    logs = model.evaluate(X, LABELS, verbose=0, return_dict=True)
    assert sorted(logs) == ["cls_accuracy", "loss"]
    predicted = np.argmax(model.predict(X, verbose=0)[1], axis=-1)
    assert logs["cls_accuracy"] == pytest.approx(
        float(np.mean(predicted == LABELS)))
    by_name = model.evaluate(X, {"cls": LABELS}, verbose=0,
                             return_dict=True)
    assert by_name == pytest.approx(logs)
    with pytest.warns(UserWarning, match="Gradients do not exist"):
        model.fit(X, LABELS, epochs=1, verbose=0)


@pytest.mark.parametrize("units, labels, expected", [
    (1, (Y > 0).astype("float32"), "binary_crossentropy"),
    (3, LABELS, "sparse_categorical_crossentropy"),
    (3, np.eye(3)[LABELS], "categorical_crossentropy")])
def test_crossentropy_and_accuracy_resolve_from_shapes(units, labels,
                                                       expected):
    model = single(units, "sigmoid" if units == 1 else "softmax")
    model.compile("sgd", loss="crossentropy", metrics=["accuracy", "acc"])
    logs = model.evaluate(X, labels, verbose=0, return_dict=True)
    direct = getattr(losses, expected)(labels, model.predict(X, verbose=0))
    assert logs["loss"] == pytest.approx(float(np.mean(direct)), rel=1e-5)
    assert sorted(logs) == ["acc", "accuracy", "loss"]


def test_metrics_dict_nested_and_objects():
    model = two_outputs()
    model.compile("sgd", loss=["mse", "sparse_categorical_crossentropy"],
                  metrics={"reg": [metrics.MeanAbsoluteError(name="l1"),
                                   "mse"],
                           "cls": metrics.SparseCategoricalAccuracy()})
    logs = model.evaluate(X, [Y, LABELS], verbose=0, return_dict=True)
    assert sorted(logs) == ["cls_loss", "cls_sparse_categorical_accuracy",
                            "loss", "reg_l1", "reg_loss", "reg_mse"]


def test_regularization_losses_are_added_to_the_loss():
    regularizer = kerasish.regularizers.L2(0.1)
    model = single(regularizer=regularizer)
    model.compile("sgd", loss="mse")
    penalty = 0.1 * float(np.sum(np.square(model.layers[0].kernel.numpy())))
    assert model.evaluate(X, Y, verbose=0) == pytest.approx(
        _mse(model) + penalty, rel=1e-5)
    assert len(model.losses) == 1


def test_compatibility_arguments_are_accepted():
    model = single()
    model.compile("sgd", "mse", run_eagerly=True, jit_compile=False,
                  steps_per_execution=4, auto_scale_loss=False)
    assert model.run_eagerly and not model.jit_compile
    assert model.steps_per_execution == 4
    model.fit(X, Y, epochs=1, verbose=0)


def test_model_must_be_compiled():
    with pytest.raises(ValueError, match="must call `compile\\(\\)`"):
        single().fit(X, Y, verbose=0)


def test_unknown_names_raise_clear_errors():
    with pytest.raises(ValueError, match="Could not interpret optimizer "
                                         "identifier: adamm"):
        single().compile("adamm", "mse")
    model = single()
    model.compile("sgd", loss="msee")
    with pytest.raises(ValueError, match="Could not interpret loss "
                                         "identifier: msee"):
        model.fit(X, Y, verbose=0)
    model.compile("sgd", loss="mse", metrics=["accurcy"])
    with pytest.raises(ValueError, match="Could not interpret metric "
                                         "identifier: accurcy"):
        model.fit(X, Y, verbose=0)


@pytest.mark.parametrize("compile_kwargs, message", [
    (dict(loss=["mse", "mse", "mse"]), "one entry per model output"),
    (dict(loss={"reg": "mse", "clss": "mse"}), "Expected keys"),
    (dict(loss=["mse", "sparse_categorical_crossentropy"],
          metrics=["mae"]), "as many entries"),
    (dict(loss=["mse", "sparse_categorical_crossentropy"],
          metrics={"regg": ["mae"]}), "Expected keys"),
    (dict(loss=["mse", "sparse_categorical_crossentropy"],
          loss_weights=[1.0]), "must match the number of losses, got 2 "
                               "losses and 1 weights"),
    # Keras 3.15: a single loss shared by the outputs takes one weight.
    (dict(loss="mse", loss_weights=[0.5, 2.0]),
     "must match the number of losses, got 1 losses and 2 weights"),
    (dict(loss=["mse", "mse"], loss_weights={"reg": 0.5}),
     "must match the number of losses, got 2 losses and 1 weights"),
])
def test_bad_multi_output_configurations(compile_kwargs, message):
    model = two_outputs()
    model.compile("sgd", **compile_kwargs)
    with pytest.raises(ValueError, match=message):
        model.fit(X, [Y, LABELS], verbose=0)


@pytest.mark.parametrize("compile_kwargs, message", [
    (dict(loss="mse", metrics="mae"), "Expected `metrics` argument"),
    (dict(loss="mse", weighted_metrics="mae"),
     "Expected `weighted_metrics` argument"),
    (dict(loss="mse", loss_weights="heavy"), "Expected `loss_weights`"),
])
def test_bad_argument_types_raise_at_compile(compile_kwargs, message):
    with pytest.raises(ValueError, match=message):
        single().compile("sgd", **compile_kwargs)


@kerasish.saving.register_keras_serializable(package="test_compile_api")
class _OwnCompile(kerasish.Model):
    """A subclassed model whose `compile` takes its own arguments."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)

    def compile(self, learning_rate=0.1, **kwargs):
        super().compile(optimizer=kerasish.optimizers.SGD(learning_rate),
                        loss="mse")


def test_compile_from_config_leaves_a_custom_compile_to_the_user(
        tmp_path):
    model = _OwnCompile()
    model.compile(learning_rate=0.5)
    model(X)
    with pytest.warns(UserWarning, match="`compile\\(\\)` was not called"):
        model.compile_from_config(model.get_compile_config())
    # Untouched: still the user's own compile.
    assert model.optimizer.learning_rate.numpy() == pytest.approx(0.5)
    model.save(tmp_path / "own.keras")
    with pytest.warns(UserWarning, match="method is custom"):
        loaded = kerasish.saving.load_model(tmp_path / "own.keras")
    assert not loaded.compiled
    np.testing.assert_array_equal(loaded.predict(X, verbose=0),
                                  model.predict(X, verbose=0))
    with pytest.warns(UserWarning, match="method is custom"):
        assert not kerasish.models.clone_model(model).compiled


def test_compile_from_config_on_a_plain_model_compiles_it(recwarn):
    model = single()
    model.compile(optimizer="sgd", loss="mae", metrics=["mse"])
    clone = kerasish.models.clone_model(model)
    assert clone.compiled and clone.optimizer is not model.optimizer
    assert clone.loss == "mae"
    assert not [w for w in recwarn if "was not called" in str(w.message)]


def test_a_loss_dict_for_dict_outputs_orders_the_loss_trackers():
    # Keras 3.15 tracks (and lists) the per-output losses in the loss
    # dict's key order: evaluate() -> [loss, out_b_loss, out_a_loss, ...].
    inputs = kerasish.Input((3,))
    model = kerasish.Model(inputs, {
        "out_a": layers.Dense(2, name="out_a")(inputs),
        "out_b": layers.Dense(1, name="out_b")(inputs)})
    model.compile("sgd", loss={"out_b": "mae", "out_a": "mse"},
                  metrics={"out_b": ["mse", "mae"], "out_a": ["mae"]})
    y = {"out_a": np.ones((4, 2)), "out_b": np.zeros((4, 1))}
    x = np.linspace(0, 1, 12).reshape(4, 3)
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    values = model.evaluate(x, y, verbose=0)
    assert [m.name for m in model.metrics] == [
        "loss", "compile_metrics", "out_b_loss", "out_a_loss"]
    order = ["loss", "out_b_loss", "out_a_loss", "out_a_mae", "out_b_mae",
             "out_b_mse"]
    np.testing.assert_allclose(values, [logs[k] for k in order], rtol=1e-6)


def test_compiling_again_without_loss_or_metrics_keeps_them():
    # Keras: `compile` replaces the loss only when one is given, and the
    # metrics only when `metrics` or `weighted_metrics` is given.
    x = np.ones((8, 3), "float32")
    y = np.zeros((8, 1), "float32")
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(1)])
    model.compile("sgd", "mae", metrics=["mse"])
    model.compile("adam")
    history = model.fit(x, y, epochs=1, verbose=0)
    assert sorted(history.history) == ["loss", "mse"]
    assert model.loss == "mae"
    model.compile("sgd", "mse", metrics=[])
    assert sorted(model.fit(x, y, epochs=1, verbose=0).history) == ["loss"]


def test_run_eagerly_disables_jit_compile_with_keras_warning():
    model = kerasish.Sequential([kerasish.Input((2,)),
                                 kerasish.layers.Dense(1)])
    with pytest.warns(UserWarning, match="cannot also be True"):
        model.compile("sgd", "mse", run_eagerly=True, jit_compile=True)
    assert model.jit_compile is False and model.run_eagerly is True
    assert model.get_compile_config()["jit_compile"] is False
