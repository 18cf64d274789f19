"""Estimator checkpoints: kerasish.train's naming, variables by name.

`model_dir` holds `model.ckpt-<global step>.weights.h5` files and the TF1
`checkpoint` index naming the latest, exactly as `kerasish.train` writes
them (so `train.latest_checkpoint(model_dir)` and `MonitoredTrainingSession`
resume work unchanged). The content maps each variable's name to its value
(`dnn/hiddenlayer_0/kernel`, `global_step`, ...), as a TF checkpoint does:
the Estimator's variables belong to a `model_fn`, not to one Keras model.
"""
import os

from kerasish.estimator.variable_store import read_checkpoint
from kerasish.train.checkpoint import (SUFFIX, Saver, latest_checkpoint,
                                      logger)


class EstimatorSaver(Saver):
    """A `Saver` writing an Estimator session's variables by name.

    Args:
        max_to_keep: Newest checkpoints kept. Defaults to 5.
        keep_checkpoint_every_n_hours: Also keep one per this many hours.

    The Estimator makes one from its `RunConfig`; a `model_fn` may give its
    own through the spec's `kerasish.train.Scaffold`.

    Example:

    >>> import os
    >>> from kerasish import estimator
    >>> def model_fn(features, labels, mode):
    ...     layer = kerasish.layers.Dense(1)
    ...     loss = kerasish.ops.mean((layer(features["x"]) - labels) ** 2)
    ...     train_op = kerasish.optimizers.SGD(0.1).minimize(
    ...         loss, layer.trainable_variables)
    ...     saver = estimator.EstimatorSaver(max_to_keep=2)
    ...     return estimator.EstimatorSpec(
    ...         mode, loss=loss, train_op=train_op,
    ...         scaffold=kerasish.train.Scaffold(saver=saver))
    >>> config = estimator.RunConfig(model_dir="est",
    ...                              save_checkpoints_steps=1)
    >>> est = estimator.Estimator(model_fn, config=config)
    >>> data = ({"x": np.ones((4, 2), "float32")},
    ...         np.ones((4, 1), "float32"))
    >>> _ = est.train(lambda: data, steps=4)
    >>> sorted(f for f in os.listdir("est") if f.startswith("model.ckpt"))
    ['model.ckpt-3.weights.h5', 'model.ckpt-4.weights.h5']
    """

    def save(self, sess, save_path, global_step=None, write_state=True):
        """Write a checkpoint of the session's variable store; returns its
        prefix (`save_path-<global_step>`)."""
        model = getattr(sess, "model", sess)
        if global_step is not None:
            step = global_step.numpy() if hasattr(global_step, "numpy") \
                else global_step
            save_path = f"{save_path}-{int(step)}"
        folder = os.path.dirname(os.path.abspath(save_path))
        os.makedirs(folder, exist_ok=True)
        store = model.store
        store.save(save_path + SUFFIX,
                   {"global_step": int(store.global_step.numpy())})
        self._record(folder, save_path, write_state)
        return save_path

    def restore(self, sess, save_path):
        """Load the checkpoint `save_path` (a prefix) into the store."""
        model = getattr(sess, "model", sess)
        path = checkpoint_file(save_path)
        logger.info("Restoring parameters from %s", save_path)
        model.store.restore(path)


def checkpoint_file(prefix):
    """The file of a checkpoint prefix (or directory: its latest)."""
    prefix = os.fspath(prefix)
    if os.path.isdir(prefix):
        latest = latest_checkpoint(prefix)
        if latest is None:
            raise ValueError(f"Could not find a checkpoint in {prefix}.")
        prefix = latest
    path = prefix if prefix.endswith(SUFFIX) else prefix + SUFFIX
    if not os.path.exists(path):
        raise ValueError(f"The passed save_path is not a valid checkpoint: "
                         f"{prefix}")
    return path


def checkpoint_step(prefix):
    """The global step a checkpoint was written at."""
    return int(read_checkpoint(checkpoint_file(prefix))["global_step"])


def list_variables(prefix):
    """`[(name, shape)]` of a checkpoint (or a directory's latest).

    Example:

    >>> import tempfile
    >>> from kerasish.estimator.variable_store import write_checkpoint
    >>> folder = tempfile.mkdtemp()
    >>> write_checkpoint(folder + "/model.ckpt-0.weights.h5",
    ...                  {"dense/kernel": np.zeros((2, 3))})
    >>> list_variables(folder + "/model.ckpt-0")
    [('dense/kernel', (2, 3))]
    """
    values = read_checkpoint(checkpoint_file(prefix))
    return sorted((name, tuple(v.shape)) for name, v in values.items())


def load_variable(prefix, name):
    """The value of variable `name` in a checkpoint."""
    values = read_checkpoint(checkpoint_file(prefix))
    if name not in values:
        raise ValueError(f"Variable {name!r} is not in checkpoint {prefix}. "
                         f"Available: {sorted(values)}")
    return values[name]
