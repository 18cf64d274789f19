"""RunConfig: TF's defaults, validation, TF_CONFIG and replace."""
import json

import pytest

from kerasish.estimator import RunConfig, TaskType


def test_defaults():
    config = RunConfig()
    assert (config.save_checkpoints_secs, config.save_checkpoints_steps,
            config.save_summary_steps, config.keep_checkpoint_max,
            config.log_step_count_steps) == (600, None, 100, 5, 100)
    assert (config.is_chief, config.task_type, config.task_id,
            config.num_ps_replicas, config.num_worker_replicas,
            config.global_id_in_cluster) == (True, "worker", 0, 0, 1, 0)


def test_checkpoint_frequency_choices():
    assert RunConfig(save_checkpoints_steps=5).save_checkpoints_secs is None
    assert RunConfig(save_checkpoints_secs=None).save_checkpoints_steps is \
        None
    with pytest.raises(ValueError, match="Can not provide both"):
        RunConfig(save_checkpoints_steps=5, save_checkpoints_secs=5)
    with pytest.raises(ValueError, match="non-negative"):
        RunConfig(keep_checkpoint_max=-1)
    with pytest.raises(ValueError, match="tf_random_seed"):
        RunConfig(tf_random_seed=1.5)


def test_tf_config_cluster(monkeypatch):
    cluster = {"chief": ["c:1"], "worker": ["w0:1", "w1:1"], "ps": ["p:1"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": cluster, "task": {"type": "worker", "index": 1}}))
    config = RunConfig()
    assert (config.task_type, config.task_id, config.is_chief) == \
        ("worker", 1, False)
    assert (config.num_ps_replicas, config.num_worker_replicas) == (1, 3)
    assert config.global_id_in_cluster == 2
    assert config.master == "grpc://w1:1"
    assert config.cluster_spec == cluster
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": cluster, "task": {"type": TaskType.CHIEF}}))
    assert RunConfig().is_chief
    monkeypatch.setenv("TF_CONFIG", json.dumps(
        {"cluster": {"worker": ["a:1"]}, "task": {"type": "ps"}}))
    with pytest.raises(ValueError, match="not a job of its cluster"):
        RunConfig()


def test_replace():
    config = RunConfig(save_checkpoints_steps=10, tf_random_seed=1)
    other = config.replace(save_checkpoints_secs=30, model_dir="/tmp/x")
    assert (other.save_checkpoints_steps, other.save_checkpoints_secs,
            other.tf_random_seed, other.model_dir) == (None, 30, 1, "/tmp/x")
    assert config.save_checkpoints_steps == 10
    with pytest.raises(ValueError, match="not supported"):
        config.replace(task_type="ps")
