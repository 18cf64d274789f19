"""`RunConfig`: where and how an Estimator runs (TF's fields and defaults).

The cluster (for the parameter-server runtime) comes from the `TF_CONFIG`
environment variable, as in TF:

    {"cluster": {"chief": ["host0:2222"], "worker": ["host1:2222"],
                 "ps": ["host2:2222"]},
     "task": {"type": "worker", "index": 0}}

Without it, the process is the one chief worker of a local run.
"""
import copy
import json
import os

_USE_DEFAULT = object()
_DEFAULT_SECS = 600


class TaskType:
    """Names of the jobs of a cluster (`RunConfig.task_type` values).

    Example:

    >>> import json, os
    >>> from unittest import mock
    >>> cluster = {"chief": ["host0:2222"],
    ...            "worker": ["host1:2222", "host2:2222"]}
    >>> tf_config = {"cluster": cluster,
    ...              "task": {"type": "worker", "index": 1}}
    >>> with mock.patch.dict(os.environ,
    ...                      {"TF_CONFIG": json.dumps(tf_config)}):
    ...     config = RunConfig()
    >>> config.task_type == TaskType.WORKER, config.task_id
    (True, 1)
    >>> TaskType.CHIEF, TaskType.PS, TaskType.EVALUATOR
    ('chief', 'ps', 'evaluator')
    """

    MASTER = "master"
    PS = "ps"
    WORKER = "worker"
    CHIEF = "chief"
    EVALUATOR = "evaluator"


def _check_non_negative(name, value):
    if value is not None and (not isinstance(value, (int, float))
                              or value < 0):
        raise ValueError(f"{name} must be None or a non-negative number. "
                         f"Received: {name}={value!r}")


class RunConfig:
    """Configuration of an Estimator's runs.

    Args:
        model_dir: Folder of checkpoints and summaries (the Estimator's
            `model_dir` argument overrides it; they must agree if both set).
        tf_random_seed: Seed set (`kerasish.utils.set_random_seed`) at the
            start of every `train`/`evaluate`/`predict`.
        save_summary_steps: Write summaries every that many steps (needs
            tensorboardX). Defaults to 100.
        save_checkpoints_steps: Save every that many steps...
        save_checkpoints_secs: ...or every that many seconds (not both;
            600 seconds when neither is given; both `None`: no saving).
        session_config: Accepted for TF compatibility.
        keep_checkpoint_max: Newest checkpoints kept. Defaults to 5.
        keep_checkpoint_every_n_hours: Also keep one checkpoint per this many
            hours. Defaults to 10000.
        log_step_count_steps: Log the loss and the step rate every that many
            steps. Defaults to 100; `None` disables.
        train_distribute: A `kerasish.distribute` strategy whose runtime
            runs the training steps.
        device_fn, protocol, eval_distribute, experimental_distribute,
        experimental_max_worker_delay_secs: Accepted for TF compatibility.
        session_creation_timeout_secs: How long a worker waits for the
            chief. Defaults to 7200.
        checkpoint_save_graph_def: Write `graph.json` (the variables'
            names, shapes and dtypes) beside the checkpoints.

    Example:

    >>> config = RunConfig(save_checkpoints_steps=50, keep_checkpoint_max=2)
    >>> config.save_checkpoints_steps, config.save_checkpoints_secs
    (50, None)
    >>> config.is_chief, config.task_type, config.task_id
    (True, 'worker', 0)
    """

    def __init__(self, model_dir=None, tf_random_seed=None,
                 save_summary_steps=100,
                 save_checkpoints_steps=_USE_DEFAULT,
                 save_checkpoints_secs=_USE_DEFAULT, session_config=None,
                 keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 log_step_count_steps=100, train_distribute=None,
                 device_fn=None, protocol=None, eval_distribute=None,
                 experimental_distribute=None,
                 experimental_max_worker_delay_secs=None,
                 session_creation_timeout_secs=7200,
                 checkpoint_save_graph_def=True):
        steps, secs = _checkpoint_frequency(save_checkpoints_steps,
                                            save_checkpoints_secs)
        for name, value in [("save_summary_steps", save_summary_steps),
                            ("save_checkpoints_steps", steps),
                            ("save_checkpoints_secs", secs),
                            ("keep_checkpoint_max", keep_checkpoint_max),
                            ("keep_checkpoint_every_n_hours",
                             keep_checkpoint_every_n_hours),
                            ("log_step_count_steps", log_step_count_steps)]:
            _check_non_negative(name, value)
        if tf_random_seed is not None and not isinstance(tf_random_seed,
                                                         int):
            raise ValueError("tf_random_seed must be an int or None. "
                             f"Received: tf_random_seed={tf_random_seed!r}")
        self._model_dir = os.fspath(model_dir) if model_dir else None
        self._tf_random_seed = tf_random_seed
        self._save_summary_steps = save_summary_steps
        self._save_checkpoints_steps = steps
        self._save_checkpoints_secs = secs
        self._session_config = session_config
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._log_step_count_steps = log_step_count_steps
        self._train_distribute = train_distribute
        self._eval_distribute = eval_distribute
        self._device_fn = device_fn
        self._protocol = protocol
        self._experimental_distribute = experimental_distribute
        self._experimental_max_worker_delay_secs = \
            experimental_max_worker_delay_secs
        self._session_creation_timeout_secs = session_creation_timeout_secs
        self._checkpoint_save_graph_def = checkpoint_save_graph_def
        self._init_cluster(os.environ.get("TF_CONFIG"))

    def _init_cluster(self, tf_config):
        spec = json.loads(tf_config) if tf_config else {}
        cluster = {job: list(tasks) for job, tasks in
                   spec.get("cluster", {}).items()}
        task = spec.get("task", {})
        self._cluster_spec = cluster
        if not cluster:
            self._task_type, self._task_id = TaskType.WORKER, 0
            self._is_chief, self._num_ps_replicas = True, 0
            self._num_worker_replicas, self._master = 1, ""
            return
        self._task_type = task.get("type", TaskType.WORKER)
        self._task_id = int(task.get("index", 0))
        if self._task_type not in cluster and \
                self._task_type != TaskType.EVALUATOR:
            raise ValueError(
                f"TF_CONFIG names task type {self._task_type!r}, which is "
                f"not a job of its cluster {sorted(cluster)}.")
        has_chief = TaskType.CHIEF in cluster or TaskType.MASTER in cluster
        self._is_chief = self._task_type in (TaskType.CHIEF,
                                             TaskType.MASTER) or (
            not has_chief and self._task_type == TaskType.WORKER and
            self._task_id == 0)
        self._num_ps_replicas = len(cluster.get(TaskType.PS, []))
        self._num_worker_replicas = sum(
            len(cluster.get(job, [])) for job in
            (TaskType.CHIEF, TaskType.MASTER, TaskType.WORKER))
        addresses = cluster.get(self._task_type, [])
        self._master = (f"grpc://{addresses[self._task_id]}"
                        if self._task_id < len(addresses) else "")

    # -- properties ------------------------------------------------------------
    model_dir = property(lambda self: self._model_dir)
    tf_random_seed = property(lambda self: self._tf_random_seed)
    save_summary_steps = property(lambda self: self._save_summary_steps)
    save_checkpoints_steps = property(
        lambda self: self._save_checkpoints_steps)
    save_checkpoints_secs = property(lambda self: self._save_checkpoints_secs)
    session_config = property(lambda self: self._session_config)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_every_n_hours = property(
        lambda self: self._keep_checkpoint_every_n_hours)
    log_step_count_steps = property(lambda self: self._log_step_count_steps)
    train_distribute = property(lambda self: self._train_distribute)
    eval_distribute = property(lambda self: self._eval_distribute)
    device_fn = property(lambda self: self._device_fn)
    protocol = property(lambda self: self._protocol)
    session_creation_timeout_secs = property(
        lambda self: self._session_creation_timeout_secs)
    checkpoint_save_graph_def = property(
        lambda self: self._checkpoint_save_graph_def)
    cluster_spec = property(lambda self: copy.deepcopy(self._cluster_spec))
    task_type = property(lambda self: self._task_type)
    task_id = property(lambda self: self._task_id)
    is_chief = property(lambda self: self._is_chief)
    num_ps_replicas = property(lambda self: self._num_ps_replicas)
    num_worker_replicas = property(lambda self: self._num_worker_replicas)
    master = property(lambda self: self._master)
    evaluation_master = property(lambda self: "")
    service = property(lambda self: None)

    @property
    def global_id_in_cluster(self):
        """This task's index over the chief, workers, then ps tasks."""
        order = [TaskType.CHIEF, TaskType.MASTER, TaskType.WORKER,
                 TaskType.PS]
        offset = 0
        for job in order:
            if job == self._task_type:
                return offset + self._task_id
            offset += len(self._cluster_spec.get(job, []))
        return None if self._cluster_spec else 0

    def replace(self, **kwargs):
        """A copy with some arguments changed (TF's `RunConfig.replace`).

        Example:

        >>> RunConfig().replace(tf_random_seed=3).tf_random_seed
        3
        """
        allowed = {"model_dir", "tf_random_seed", "save_summary_steps",
                   "save_checkpoints_steps", "save_checkpoints_secs",
                   "session_config", "keep_checkpoint_max",
                   "keep_checkpoint_every_n_hours", "log_step_count_steps",
                   "train_distribute", "device_fn", "protocol",
                   "eval_distribute", "experimental_distribute",
                   "experimental_max_worker_delay_secs",
                   "session_creation_timeout_secs",
                   "checkpoint_save_graph_def"}
        unknown = set(kwargs) - allowed
        if unknown:
            raise ValueError(f"Replacing {sorted(unknown)} is not supported. "
                             f"Allowed properties are {sorted(allowed)}.")
        args = {name: getattr(self, f"_{name}") for name in allowed}
        if "save_checkpoints_steps" in kwargs or \
                "save_checkpoints_secs" in kwargs:
            args["save_checkpoints_steps"] = kwargs.pop(
                "save_checkpoints_steps", None)
            args["save_checkpoints_secs"] = kwargs.pop(
                "save_checkpoints_secs", None)
        args.update(kwargs)
        return RunConfig(**args)

    def __repr__(self):
        return (f"RunConfig(model_dir={self._model_dir!r}, "
                f"save_checkpoints_steps={self._save_checkpoints_steps}, "
                f"save_checkpoints_secs={self._save_checkpoints_secs}, "
                f"task_type={self._task_type!r}, task_id={self._task_id})")


def _checkpoint_frequency(steps, secs):
    if steps is _USE_DEFAULT and secs is _USE_DEFAULT:
        return None, _DEFAULT_SECS
    steps = None if steps is _USE_DEFAULT else steps
    secs = None if secs is _USE_DEFAULT else secs
    if steps is not None and secs is not None:
        raise ValueError("Can not provide both save_checkpoints_steps and "
                         "save_checkpoints_secs.")
    return steps, secs
