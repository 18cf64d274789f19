"""compile() for outputs nested deeper than one list, as Keras 3.15 (log
keys generated with Keras 3.15.1)."""
import numpy as np
import pytest

import kerasish
from kerasish import layers

X = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
Y1 = np.linspace(0, 1, 16, dtype="float32").reshape(8, 2)
Y2 = np.linspace(1, -1, 8, dtype="float32").reshape(8, 1)
Y3 = np.linspace(0.5, 1.5, 8, dtype="float32").reshape(8, 1)


def nested_model():
    inputs = kerasish.Input((3,), name="x")
    outs = [layers.Dense(units, name=name, kernel_initializer="ones")(inputs)
            for units, name in ((2, "o1"), (1, "o2"), (1, "o3"))]
    return kerasish.Model(inputs, [outs[0], [outs[1], outs[2]]])


def mse(y, p):
    return float(np.mean((y - p) ** 2))


def mae(y, p):
    return float(np.mean(np.abs(y - p)))


def predictions():
    total = X.sum(axis=1, keepdims=True)    # ones kernels, zero biases
    return np.repeat(total, 2, axis=1), total, total


@pytest.mark.parametrize("loss", [
    ["mse", ["mae", "mse"]],        # structured like the outputs
    ["mse", "mae", "mse"],          # one per flat output
])
def test_losses_follow_the_output_structure(loss):
    model = nested_model()
    model.compile("sgd", loss=loss, loss_weights=[1.0, [0.5, 2.0]],
                  metrics=["mae", [["mse"], []]])
    logs = model.evaluate(X, [Y1, [Y2, Y3]], verbose=0, return_dict=True)
    assert list(logs) == ["1/o2_loss", "1/o3_loss", "loss", "o1_loss",
                          "o1_mae", "o2_mse"]
    p1, p2, p3 = predictions()
    expected = {"o1_loss": mse(Y1, p1), "1/o2_loss": mae(Y2, p2),
                "1/o3_loss": mse(Y3, p3), "o1_mae": mae(Y1, p1),
                "o2_mse": mse(Y2, p2)}
    expected["loss"] = (expected["o1_loss"] + 0.5 * expected["1/o2_loss"]
                        + 2.0 * expected["1/o3_loss"])
    for key, value in expected.items():
        np.testing.assert_allclose(logs[key], value, rtol=1e-5)


def test_a_single_loss_applies_to_every_nested_output():
    model = nested_model()
    model.compile("sgd", loss="mse")
    history = model.fit(X, [Y1, [Y2, Y3]], epochs=1, verbose=0)
    assert sorted(history.history) == ["1/o2_loss", "1/o3_loss", "loss",
                                       "o1_loss"]


def test_none_skips_a_nested_output():
    model = nested_model()
    model.compile("sgd", loss=["mse", [None, "mse"]])
    logs = model.evaluate(X, [Y1, [Y2, Y3]], verbose=0, return_dict=True)
    assert sorted(logs) == ["1/o3_loss", "loss", "o1_loss"]


def test_mismatched_structure_is_a_clear_error():
    model = nested_model()
    model.compile("sgd", loss=["mse", ["mae", "mse", "mse"]])
    with pytest.raises(ValueError, match="`loss` must match the output "
                                         "structure of the model"):
        model.evaluate(X, [Y1, [Y2, Y3]], verbose=0)


def test_nested_dict_outputs_log_under_keras_names():
    # A dict holding a list: metrics take the layers' names (`o1_mae`),
    # nested losses their key path (Keras 3.15's keys).
    inputs = kerasish.Input((3,), name="x")
    outs = [layers.Dense(units, name=name)(inputs)
            for units, name in ((2, "o1"), (1, "o2"), (1, "o3"))]
    model = kerasish.Model(inputs, {"first": outs[0],
                                    "second": [outs[1], outs[2]]})
    model.compile("sgd", loss={"first": "mse", "second": ["mae", "mse"]},
                  metrics={"first": ["mae"], "second": ["mse", []]})
    logs = model.evaluate(X, {"first": Y1, "second": [Y2, Y3]}, verbose=0,
                          return_dict=True)
    assert sorted(logs) == ["first_loss", "loss", "o1_mae", "o2_mse",
                            "second/o2_loss", "second/o3_loss"]
