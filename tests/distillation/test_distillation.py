"""keras.distillation: Distiller, LogitsDistillation, FeatureDistillation.

Reference histories, weights and fixtures/distiller.keras come from
fixtures/make_distiller.py run with real Keras 3.15.1 (jax backend); the
same script's `train` builds the kerasish runs here.
"""
import importlib.util
import json
import os

import h5py
import numpy as np
import pytest

import kerasish
from kerasish import distillation as D

HERE = os.path.dirname(__file__)
FIXTURE = os.path.join(HERE, "fixtures", "distiller.keras")
_spec = importlib.util.spec_from_file_location(
    "make_distiller", os.path.join(HERE, "fixtures", "make_distiller.py"))
_maker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_maker)
MAKER = vars(_maker)

KERAS_HISTORY = {
    "logits": {"accuracy": [0.375, 0.25],
               "distillation_loss": [2.6391134, 2.6391125],
               "loss": [2.1770577, 2.1768601],
               "student_loss": [1.098928, 1.0982711],
               "total_loss": [2.1770577, 2.1768601]},
    "both": {"accuracy": [0.375, 0.25],
             "distillation_loss": [0.006996, 0.0063134],
             "loss": [0.3345755, 0.3339043],
             "student_loss": [1.098928, 1.0982829],
             "total_loss": [0.3345755, 0.3339043]},
    "feature": {"accuracy": [0.375, 0.25],
                "distillation_loss": [0.0069927, 0.0063013],
                "loss": [0.3345733, 0.3338915],
                "student_loss": [1.098928, 1.0982687],
                "total_loss": [0.3345733, 0.3338915]},
}
KERAS_STUDENT = {  # hidden kernel[0, 0], logits bias
    "logits": (0.05000198632478714, [0.0048544141463935375,
                                     0.004999552387744188,
                                     -0.009848336689174175]),
    "both": (0.052729349583387375, [0.004515266977250576,
                                    0.004986386280506849,
                                    -0.009501631371676922]),
    "feature": (0.052729375660419464, [0.004851591773331165,
                                       0.004996608477085829,
                                       -0.009848199784755707]),
}


@pytest.mark.parametrize("kind", ["logits", "both", "feature"])
def test_training_matches_keras(kind):
    distiller, history = MAKER["train"](kerasish, kind)
    assert sorted(history) == sorted(KERAS_HISTORY[kind])
    for key, values in KERAS_HISTORY[kind].items():
        np.testing.assert_allclose(history[key], values, rtol=2e-5,
                                   atol=1e-7, err_msg=key)
    kernel00, bias = KERAS_STUDENT[kind]
    weights = distiller.student.get_weights()
    np.testing.assert_allclose(weights[0][0, 0], kernel00, rtol=1e-5)
    np.testing.assert_allclose(weights[3], bias, rtol=1e-4, atol=1e-7)
    teacher_kernel = distiller.teacher.get_weights()[0]
    np.testing.assert_array_equal(teacher_kernel, np.float32(0.1))  # frozen
    assert not distiller.teacher.trainable
    assert len(distiller.trainable_weights) == 4


def test_call_is_the_student_and_evaluate_reports_the_parts():
    distiller, _ = MAKER["train"](kerasish, "logits")
    x, y = MAKER["data"]()
    np.testing.assert_allclose(distiller.predict(x, verbose=0),
                               distiller.student.predict(x, verbose=0))
    logs = distiller.evaluate(x, y, verbose=0, return_dict=True)
    # Keras: distillation_loss 2.6391122, loss 2.1765721.
    np.testing.assert_allclose(logs["distillation_loss"], 2.6391122,
                               rtol=1e-5)
    np.testing.assert_allclose(logs["loss"], 2.1765721, rtol=1e-5)


def test_keras_written_file_loads_with_keras_layout(tmp_path):
    with pytest.warns(UserWarning, match="`compile\\(\\)` was not called"):
        loaded = kerasish.models.load_model(FIXTURE)
    assert type(loaded) is D.Distiller and not loaded.compiled
    np.testing.assert_allclose(loaded.student.get_weights()[3],
                               KERAS_STUDENT["feature"][1], rtol=1e-6)
    assert loaded.distillation_losses[0].teacher_layer_name == "hidden"
    path = str(tmp_path / "d.weights.h5")
    loaded.save_weights(path)
    names = []
    with h5py.File(path) as f:
        f.visititems(lambda n, o: names.append(n)
                     if isinstance(o, h5py.Dataset) else None)
    # Keras's layout: the distiller's `layers` (teacher, student) by class.
    assert names == ["layers/functional/layers/dense/vars/0",
                     "layers/functional/layers/dense/vars/1",
                     "layers/functional/layers/dense_1/vars/0",
                     "layers/functional/layers/dense_1/vars/1",
                     "layers/functional_1/layers/dense/vars/0",
                     "layers/functional_1/layers/dense/vars/1",
                     "layers/functional_1/layers/dense_1/vars/0",
                     "layers/functional_1/layers/dense_1/vars/1"]


def test_configs_as_keras():
    ser = kerasish.saving.serialize_keras_object
    assert ser(D.LogitsDistillation()) == {
        "module": "keras.distillation", "class_name": "LogitsDistillation",
        "config": {"temperature": 3.0, "loss": {
            "module": "builtins", "class_name": "function",
            "config": "kl_divergence", "registered_name": "function"}},
        "registered_name": None}
    assert ser(D.FeatureDistillation(teacher_layer_name="a"))["config"] == {
        "loss": {"module": "builtins", "class_name": "function",
                 "config": "mean_squared_error",
                 "registered_name": "function"},
        "teacher_layer_name": "a", "student_layer_name": None}
    distiller, _ = MAKER["train"](kerasish, "both")
    config = distiller.get_config()
    assert sorted(config) == ["distillation_loss_weights",
                              "distillation_losses", "dtype", "name",
                              "student", "student_loss_weight", "teacher",
                              "trainable"]
    clone = D.Distiller.from_config(json.loads(json.dumps(ser(distiller)))
                                    ["config"])
    assert [type(loss).__name__ for loss in clone.distillation_losses] == \
        ["LogitsDistillation", "FeatureDistillation"]
    assert isinstance(clone.distillation_losses[0].loss,
                      kerasish.losses.KLDivergence)


def test_save_load_round_trip(tmp_path):
    distiller, _ = MAKER["train"](kerasish, "feature")
    path = str(tmp_path / "d.keras")
    distiller.save(path)
    with pytest.warns(UserWarning, match="was not called"):
        loaded = kerasish.models.load_model(path)
    x, _ = MAKER["data"]()
    np.testing.assert_allclose(loaded.predict(x, verbose=0),
                               distiller.predict(x, verbose=0), rtol=1e-6)


def test_argument_errors():
    teacher, student = MAKER["models"](kerasish)
    logits = D.LogitsDistillation()
    with pytest.raises(ValueError, match="Teacher must be a keras.Model"):
        D.Distiller(kerasish.layers.Dense(2), student, logits)
    with pytest.raises(ValueError, match="between 0.0 and 1.0, got 2"):
        D.Distiller(teacher, student, logits, student_loss_weight=2)
    with pytest.raises(ValueError, match="cannot be `None`"):
        D.Distiller(teacher, student, None)
    with pytest.raises(ValueError, match=r"Number of distillation_loss_"
                                         r"weights \(1\) must match"):
        D.Distiller(teacher, student, [logits, logits], [1.0])
    narrow = kerasish.Sequential([kerasish.Input((4,)),
                                  kerasish.layers.Dense(2)])
    with pytest.raises(ValueError, match="output shapes are incompatible"):
        D.Distiller(teacher, narrow, logits)
    with pytest.raises(ValueError, match="In student model: .*nope"):
        D.Distiller(teacher, student, D.FeatureDistillation(
            teacher_layer_name="hidden", student_layer_name="nope"))
    distiller = D.Distiller(teacher, student, logits)
    with pytest.raises(ValueError, match="'loss' cannot be `None`"):
        distiller.compile()
    with pytest.raises(ValueError, match="metrics must be a list"):
        distiller.compile(loss="mse", metrics="mae")
    with pytest.raises(ValueError, match="temperature must be positive"):
        D.LogitsDistillation(temperature=0)
    with pytest.raises(ValueError, match="At least one loss"):
        D.LogitsDistillation(loss=[None])
    with pytest.raises(ValueError, match="at least one non-`None`"):
        D.FeatureDistillation(loss=None)
    with pytest.raises(ValueError, match="Could not interpret loss"):
        D.FeatureDistillation(loss="nope")


def test_logits_kl_instance_uses_softmax_and_temperature_squared():
    loss = D.LogitsDistillation(temperature=2.0,
                                loss=kerasish.losses.KLDivergence())
    t = np.array([[1.0, 2.0, 0.5]], "float32")
    s = np.array([[0.0, 1.0, 2.0]], "float32")

    def softmax(z):
        e = np.exp(z - z.max())
        return e / e.sum()
    p, q = softmax(t / 2.0), softmax(s / 2.0)
    expected = np.sum(p * np.log(p / q)) * 4.0
    np.testing.assert_allclose(float(loss.compute_loss(t, s)), expected,
                               rtol=1e-5)
    skipping = D.LogitsDistillation(loss=["kl_divergence", None])
    assert float(skipping.compute_loss([t, t], [t, s])) == 0.0
