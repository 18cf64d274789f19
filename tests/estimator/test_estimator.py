"""Estimator: train/evaluate/predict, resume, checkpoints, results."""
import json
import os

import numpy as np
import pytest

import kerasish as keras
from kerasish import estimator
from tests.estimator.util import X, Y, data, make, regression_model_fn


def test_train_evaluate_predict(tmp_path):
    est = make(tmp_path)
    assert est.train(data, steps=200) is est
    results = est.evaluate(data)
    assert sorted(results) == ["global_step", "loss", "mae"]
    assert results["global_step"] == 200 and results["loss"] < 1e-3
    predictions = list(est.predict(lambda: {"x": X}))
    assert len(predictions) == 4 and set(predictions[0]) == {"y"}
    np.testing.assert_allclose([p["y"][0] for p in predictions], Y[:, 0],
                               atol=0.05)


def test_second_train_continues_from_the_saved_step(tmp_path):
    est = make(tmp_path)
    est.train(data, steps=100)
    est.train(data, steps=100)
    assert est.get_variable_value("global_step") == 200
    # A new Estimator on the same folder resumes too.
    make(tmp_path).train(data, steps=10)
    assert int(make(tmp_path).get_variable_value("global_step")) == 210


def test_resumed_training_equals_uninterrupted_training(tmp_path):
    keras.utils.set_random_seed(3)
    split = make(tmp_path / "a", tf_random_seed=7)
    split.train(data, steps=20)
    split.train(data, steps=20)
    whole = make(tmp_path / "b", tf_random_seed=7)
    whole.train(data, steps=40)
    for name in whole.get_variable_names():
        np.testing.assert_array_equal(split.get_variable_value(name),
                                      whole.get_variable_value(name))


def test_max_steps_stops_and_skips_when_already_reached(tmp_path):
    est = make(tmp_path)
    est.train(data, max_steps=30)
    est.train(data, max_steps=30)
    assert est.get_variable_value("global_step") == 30
    est.train(data, max_steps=45)
    assert est.get_variable_value("global_step") == 45


def test_checkpoints_and_names(tmp_path):
    est = make(tmp_path, save_checkpoints_steps=10, keep_checkpoint_max=2)
    est.train(data, steps=30)
    assert est.latest_checkpoint() == str(tmp_path / "model.ckpt-30")
    files = sorted(f for f in os.listdir(tmp_path) if f.startswith("model"))
    assert files == ["model.ckpt-20.weights.h5", "model.ckpt-30.weights.h5"]
    assert est.get_variable_names() == [
        "adam/iteration", "adam/learning_rate",
        "adam/linear_bias_momentum", "adam/linear_bias_velocity",
        "adam/linear_kernel_momentum", "adam/linear_kernel_velocity",
        "global_step", "linear/bias", "linear/kernel"]
    assert est.get_variable_value("linear/kernel").shape == (2, 1)
    graph = json.loads((tmp_path / "graph.json").read_text())
    assert graph["variables"]["linear/kernel"] == {"shape": [2, 1],
                                                   "dtype": "float32"}
    with pytest.raises(ValueError, match="not in checkpoint"):
        est.get_variable_value("nope")


def test_no_checkpoint_errors_and_fresh_evaluation(tmp_path):
    est = make(tmp_path)
    with pytest.raises(ValueError, match="Could not find trained model"):
        est.get_variable_names()
    results = est.evaluate(data)   # initialized variables, as TF
    assert results["global_step"] == 0


def test_evaluation_record_and_named_dirs(tmp_path):
    est = make(tmp_path)
    est.train(data, steps=5)
    est.evaluate(data, name="validation", steps=2)
    records = estimator.read_eval_results(est.eval_dir("validation"))
    assert est.eval_dir("validation") == str(tmp_path / "eval_validation")
    assert records[0]["global_step"] == 5
    assert records[0]["checkpoint_path"] == str(tmp_path / "model.ckpt-5")
    assert set(records[0]) == {"global_step", "checkpoint_path", "loss",
                               "mae"}


def test_evaluate_steps_and_a_given_checkpoint(tmp_path):
    est = make(tmp_path, save_checkpoints_steps=5)
    est.train(data, steps=10)
    batches = [({"x": X}, Y), ({"x": X * 0}, Y * 0 + 100.0)]
    first_only = est.evaluate(lambda: iter(batches), steps=1)
    both = est.evaluate(lambda: iter(batches))
    assert first_only["loss"] < both["loss"]
    older = est.evaluate(data, checkpoint_path=str(tmp_path /
                                                   "model.ckpt-5"))
    assert older["global_step"] == 5


def test_evaluation_metrics_restart_at_each_evaluation(tmp_path):
    est = make(tmp_path)
    est.train(data, steps=3)
    first = est.evaluate(data)
    second = est.evaluate(data)
    assert first == second


def test_predict_options(tmp_path):
    est = make(tmp_path)
    est.train(data, steps=3)
    batches = list(est.predict(lambda: {"x": X},
                               yield_single_examples=False))
    assert len(batches) == 1 and batches[0]["y"].shape == (4, 1)
    assert set(next(est.predict(data, predict_keys=["y"]))) == {"y"}
    with pytest.raises(ValueError, match="at least one output"):
        next(est.predict(data, predict_keys=["z"]))
    generator = est.predict(lambda: iter([{"x": X}, {"x": X[:1]}]))
    assert len(list(generator)) == 5


def test_dataset_and_generator_inputs(tmp_path):
    est = make(tmp_path)
    ds = keras.data.Dataset.from_tensor_slices(({"x": X}, Y)).batch(2)
    est.train(lambda: ds.repeat(3))
    assert est.get_variable_value("global_step") == 6
    est.train(lambda: (batch for batch in [({"x": X}, Y)] * 4))
    assert est.get_variable_value("global_step") == 10
    fn = estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=3,
                                         shuffle=False)
    assert est.evaluate(fn)["global_step"] == 10


def test_empty_input_warns_that_no_step_ran(tmp_path):
    est = make(tmp_path)
    with pytest.warns(UserWarning, match="made no steps"):
        est.train(lambda: iter([]))
    with pytest.raises(ValueError, match="no batches to evaluate"):
        est.evaluate(lambda: iter([]))


def test_params_and_config_are_given_to_model_fn(tmp_path):
    seen = {}

    def model_fn(features, labels, mode, params, config):
        seen.update(params=params, config=config)
        return regression_model_fn(features, labels, mode, params)
    est = estimator.Estimator(model_fn, str(tmp_path),
                              params={"learning_rate": 0.5})
    est.train(data, steps=1)
    assert seen["params"] == {"learning_rate": 0.5}
    assert seen["config"].model_dir == str(tmp_path)


def test_constructor_errors(tmp_path):
    with pytest.raises(ValueError, match="must include features"):
        estimator.Estimator(lambda x: x)
    with pytest.raises(ValueError, match="does not include params"):
        estimator.Estimator(lambda features: 0, params={"a": 1})
    with pytest.raises(ValueError, match="not expected args"):
        estimator.Estimator(lambda features, other: 0)
    with pytest.raises(ValueError, match="set both in constructor and"):
        estimator.Estimator(regression_model_fn, str(tmp_path / "a"),
                            config=estimator.RunConfig(str(tmp_path / "b")))
    with pytest.raises(ValueError, match="instance of `RunConfig`"):
        estimator.Estimator(regression_model_fn, config={})


def test_steps_arguments_and_hook_types(tmp_path):
    est = make(tmp_path)
    with pytest.raises(ValueError, match="both steps and max_steps"):
        est.train(data, steps=1, max_steps=2)
    with pytest.raises(ValueError, match="steps > 0"):
        est.train(data, steps=0)
    with pytest.raises(ValueError, match="max_steps > 0"):
        est.train(data, max_steps=-1)
    with pytest.raises(TypeError, match="SessionRunHook instances"):
        est.train(data, steps=1, hooks=["not a hook"])
    with pytest.raises(ValueError, match="steps > 0"):
        est.evaluate(data, steps=0)


def test_temporary_model_dir_when_none_given():
    est = estimator.Estimator(regression_model_fn, params={})
    assert os.path.isdir(est.model_dir)


def test_outside_layer_is_checkpointed_and_restored(tmp_path):
    layer = keras.layers.Dense(1, name="outside")
    layer.build((None, 2))

    def model_fn(features, labels, mode):
        y = layer(features["x"])
        loss = keras.ops.mean((y - labels) ** 2)
        op = keras.optimizers.SGD(0.1).minimize(
            loss, layer.trainable_variables) \
            if mode == estimator.ModeKeys.TRAIN else None
        return estimator.EstimatorSpec(mode, loss=loss, train_op=op)
    est = estimator.Estimator(model_fn, str(tmp_path))
    est.train(data, steps=20)
    trained = layer.get_weights()
    layer.set_weights([np.zeros_like(w) for w in trained])
    assert "outside/kernel" in est.get_variable_names()
    est.evaluate(data)
    np.testing.assert_allclose(layer.get_weights()[0], trained[0])


def test_train_distribute_strategy_runs_the_training_steps(tmp_path):
    from kerasish.distribute.runtime import LocalRuntime
    from kerasish.distribute.strategy import Strategy

    class Counting(LocalRuntime):
        steps = 0

        def train_step(self, model, batch):
            Counting.steps += 1
            return super().train_step(model, batch)
    est = make(tmp_path, train_distribute=Strategy(Counting()))
    est.train(data, steps=4)
    assert Counting.steps == 4


def test_summaries_are_written_when_tensorboardx_is_installed(tmp_path):
    pytest.importorskip("tensorboardX")
    est = make(tmp_path, save_summary_steps=1)
    est.train(data, steps=3)
    est.evaluate(data, name="holdout")
    assert any(f.startswith("events.out") for f in os.listdir(tmp_path))
    assert any(f.startswith("events.out")
               for f in os.listdir(tmp_path / "eval_holdout"))
