"""train_and_evaluate, specs and exporters."""
import json
import os

import pytest

from kerasish import estimator
from kerasish.estimator import training
from tests.estimator.util import data, make


def evaluate_every(tmp_path, steps, max_steps, **spec):
    est = make(tmp_path, save_checkpoints_steps=steps)
    spec.setdefault("throttle_secs", 1e-6)
    return est, estimator.train_and_evaluate(
        est, estimator.TrainSpec(data, max_steps=max_steps),
        estimator.EvalSpec(data, steps=None, **spec))


def test_evaluates_each_new_checkpoint_and_the_last(tmp_path):
    est, (metrics, exports) = evaluate_every(tmp_path, 10, 25)
    steps = [r["global_step"] for r in
             estimator.read_eval_results(est.eval_dir())]
    assert steps == [10, 20, 25]  # not the checkpoint made at step 0
    assert metrics["global_step"] == 25 and exports == []


def test_throttle_secs_zero_evaluates_every_new_checkpoint(tmp_path):
    # TF 2.15 accepts throttle_secs=0 locally (make_tf1_reference.py,
    # throttle_zero: evaluations at steps [4, 8, 10]).
    est, (metrics, _) = evaluate_every(tmp_path, 4, 10, throttle_secs=0)
    steps = [r["global_step"] for r in
             estimator.read_eval_results(est.eval_dir())]
    assert steps == [4, 8, 10] and metrics["global_step"] == 10


def test_throttle_skips_evaluations(tmp_path):
    est, (metrics, _) = evaluate_every(tmp_path, 5, 20, throttle_secs=3600,
                                       name="slow")
    steps = [r["global_step"] for r in
             estimator.read_eval_results(est.eval_dir("slow"))]
    assert steps == [5, 20]
    assert metrics["global_step"] == 20


def test_exporters(tmp_path):
    est, (_, exports) = evaluate_every(
        tmp_path, 10, 30, exporters=[
            estimator.LatestExporter("latest", exports_to_keep=2),
            estimator.BestExporter(), estimator.FinalExporter("final")])
    latest = sorted(os.listdir(tmp_path / "export" / "latest"))
    assert latest == ["20", "30"]
    assert os.listdir(tmp_path / "export" / "final") == ["30"]
    folder = tmp_path / "export" / "final" / "30"
    assert json.loads((folder / "eval_results.json").read_text())[
        "global_step"] == 30
    # An export is a checkpoint folder: an Estimator can start from it.
    warm = make(tmp_path / "warm")
    warm._warm_start_settings = estimator.WarmStartSettings(
        str(folder), vars_to_warm_start=[".*"])
    warm.train(data, steps=1)
    assert exports[0].endswith(os.path.join("latest", "30"))


def test_training_already_done_still_evaluates(tmp_path):
    est = make(tmp_path)
    est.train(data, max_steps=5)
    metrics, _ = estimator.train_and_evaluate(
        est, estimator.TrainSpec(data, max_steps=5),
        estimator.EvalSpec(data, throttle_secs=1))
    assert metrics["global_step"] == 5


def test_evaluator_task_evaluates_until_the_last_step(tmp_path,
                                                      monkeypatch):
    make(tmp_path).train(data, max_steps=7)
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["a:1"], "worker": ["b:1"]},
        "task": {"type": "evaluator", "index": 0}}))
    est = make(tmp_path)
    metrics, _ = estimator.train_and_evaluate(
        est, estimator.TrainSpec(data, max_steps=7),
        estimator.EvalSpec(data, start_delay_secs=0, throttle_secs=1))
    assert metrics["global_step"] == 7
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["a:1"], "ps": ["p:1"]},
        "task": {"type": "ps", "index": 0}}))
    with pytest.raises(ValueError, match="parameter servers are served"):
        estimator.train_and_evaluate(
            make(tmp_path), estimator.TrainSpec(data),
            estimator.EvalSpec(data))


def test_spec_validation(tmp_path):
    with pytest.raises(TypeError, match="must be callable"):
        estimator.TrainSpec(None)
    with pytest.raises(ValueError, match="max_steps > 0"):
        estimator.TrainSpec(data, max_steps=0)
    with pytest.raises(ValueError, match="steps > 0"):
        estimator.EvalSpec(data, steps=0)
    with pytest.raises(TypeError, match="`name` must be string"):
        estimator.EvalSpec(data, name=3)
    with pytest.raises(ValueError, match="throttle_secs >= 0"):
        estimator.EvalSpec(data, throttle_secs=-1)
    with pytest.raises(ValueError, match="unique names"):
        estimator.EvalSpec(data, exporters=[estimator.BestExporter(),
                                            estimator.BestExporter()])
    with pytest.raises(TypeError, match="must have type"):
        estimator.train_and_evaluate(None, estimator.TrainSpec(data),
                                     estimator.EvalSpec(data))
    assert training.EvalSpec(data).steps == 100


def test_a_failed_export_leaves_no_half_copied_folder(tmp_path,
                                                      monkeypatch):
    from kerasish.estimator import exporter
    est = make(tmp_path, save_checkpoints_steps=10)
    est.train(data, max_steps=10)
    latest = estimator.LatestExporter("latest")
    export_path = str(tmp_path / "export" / "latest")
    result = {"global_step": 10, "loss": 1.0}
    assert latest.export(est, export_path, est.latest_checkpoint(), result,
                         False).endswith("10")
    before = sorted(os.listdir(os.path.join(export_path, "10")))

    def full_disk(*args):
        raise OSError(28, "No space left on device")
    est.train(data, max_steps=20)
    monkeypatch.setattr(exporter, "write_checkpoint_state", full_disk)
    for step in (10, 20):      # over an export, and a new one
        with pytest.raises(OSError, match="No space left"):
            latest.export(est, export_path, est.latest_checkpoint(),
                          {"global_step": step, "loss": 0.5}, False)
    assert os.listdir(export_path) == ["10"]
    assert sorted(os.listdir(os.path.join(export_path, "10"))) == before
    assert json.loads((tmp_path / "export" / "latest" / "10" /
                       "eval_results.json").read_text())["loss"] == 1.0
