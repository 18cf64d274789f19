"""Exporters: what `train_and_evaluate` does with evaluated checkpoints.

TF's exporters wrote SavedModels; kerasish's export the evaluated
checkpoint itself: `export/<name>/<global step>/` holds a copy of the
checkpoint (`model.ckpt-<step>.weights.h5` and a `checkpoint` index) and
`eval_results.json`. Such a folder is a complete starting point: restore
it with `Estimator(model_fn, warm_start_from=<folder>)` or read it with
`get_variable_value`-style helpers (`checkpoints.load_variable`).
"""
import abc
import json
import os
import shutil

from kerasish.estimator.checkpoints import checkpoint_file
from kerasish.estimator.evaluation import _jsonable
from kerasish.saving import file_utils
from kerasish.train.checkpoint import write_checkpoint_state


class Exporter(abc.ABC):
    """Base of exporters (TF's interface).

    A subclass gives a `name` (its folder under `model_dir/export/`) and
    `export(estimator, export_path, checkpoint_path, eval_result,
    is_the_final_export)`, called by `train_and_evaluate` after each
    evaluation; what `export` returns is collected in the export results.

    Example:

    >>> import os
    >>> from kerasish import estimator
    >>> class StepExporter(estimator.Exporter):
    ...     name = "steps"
    ...     def export(self, estimator, export_path, checkpoint_path,
    ...                eval_result, is_the_final_export):
    ...         return (os.path.basename(checkpoint_path),
    ...                 is_the_final_export)
    >>> def model_fn(features, labels, mode):
    ...     layer = kerasish.layers.Dense(1)
    ...     loss = kerasish.ops.mean((layer(features["x"]) - labels) ** 2)
    ...     train_op = None
    ...     if mode == estimator.ModeKeys.TRAIN:
    ...         train_op = kerasish.optimizers.SGD(0.1).minimize(
    ...             loss, layer.trainable_variables)
    ...     return estimator.EstimatorSpec(mode, loss=loss,
    ...                                    train_op=train_op)
    >>> data = ({"x": np.ones((4, 2), "float32")},
    ...         np.ones((4, 1), "float32"))
    >>> _, exports = estimator.train_and_evaluate(
    ...     estimator.Estimator(model_fn, model_dir="est"),
    ...     estimator.TrainSpec(lambda: data, max_steps=3),
    ...     estimator.EvalSpec(lambda: data, steps=1,
    ...                        exporters=StepExporter()))
    >>> exports
    [('model.ckpt-3', True)]
    >>> estimator.Exporter()
    Traceback (most recent call last):
    ...
    TypeError: Can't instantiate abstract class Exporter ...
    """

    @property
    @abc.abstractmethod
    def name(self):
        """Folder name under `model_dir/export/`."""

    @abc.abstractmethod
    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        """Export after an evaluation; returns the export folder or None."""


def _loss_smaller(best_eval_result, current_eval_result):
    """TF's default `compare_fn`: True if the current loss is smaller."""
    for result in (best_eval_result, current_eval_result):
        if not result or "loss" not in result:
            raise ValueError("best_eval_result and current_eval_result "
                             "cannot be empty or no loss is found in it.")
    return best_eval_result["loss"] > current_eval_result["loss"]


class _CheckpointExporter(Exporter):
    def __init__(self, name, exports_to_keep):
        if not name:
            raise ValueError("An exporter needs a non-empty name.")
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be a "
                             "positive number. Got "
                             f"{exports_to_keep}")
        self._name = name
        self._exports_to_keep = exports_to_keep

    @property
    def name(self):
        return self._name

    def _export_checkpoint(self, export_path, checkpoint_path, eval_result):
        step = int(eval_result["global_step"])
        folder = os.path.join(export_path, str(step))
        os.makedirs(export_path, exist_ok=True)
        file_utils.clean_stale_temporaries(export_path)
        # Built under a temporary name and renamed into place: a killed
        # export never leaves a half-copied `<step>` folder.
        tmp = file_utils.temporary_name(folder)
        try:
            os.mkdir(tmp)
            self._write_export(tmp, step, checkpoint_path, eval_result)
            if not os.path.exists(folder):
                os.replace(tmp, folder)
            elif not file_utils.exchange_paths(tmp, folder):
                shutil.rmtree(folder)
                os.replace(tmp, folder)
        finally:
            if os.path.exists(tmp):
                shutil.rmtree(tmp)
            file_utils.release(tmp)
        self._garbage_collect(export_path)
        return folder

    def _write_export(self, folder, step, checkpoint_path, eval_result):
        source = checkpoint_file(checkpoint_path)
        shutil.copyfile(source, os.path.join(folder,
                                             os.path.basename(source)))
        prefix = os.path.join(folder, f"model.ckpt-{step}")
        write_checkpoint_state(folder, prefix, [prefix])
        file_utils.write_bytes(
            os.path.join(folder, "eval_results.json"),
            json.dumps({k: _jsonable(v)
                        for k, v in eval_result.items()}).encode())

    def _garbage_collect(self, export_path):
        if self._exports_to_keep is None:
            return
        steps = sorted(int(d) for d in os.listdir(export_path) if d.isdigit())
        for step in steps[:-self._exports_to_keep]:
            shutil.rmtree(os.path.join(export_path, str(step)),
                          ignore_errors=True)


class LatestExporter(_CheckpointExporter):
    """Export every evaluated checkpoint, keeping the newest few.

    Args:
        name: Folder name under `model_dir/export/`.
        exports_to_keep: Newest exports kept (None: all). Defaults to 5.

    Example:

    >>> LatestExporter("latest").name
    'latest'
    """

    def __init__(self, name, exports_to_keep=5):
        super().__init__(name, exports_to_keep)

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        return self._export_checkpoint(export_path, checkpoint_path,
                                       eval_result)


class FinalExporter(_CheckpointExporter):
    """Export only the final evaluated checkpoint.

    Example:

    >>> FinalExporter("final").name
    'final'
    """

    def __init__(self, name):
        super().__init__(name, None)

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        if not is_the_final_export:
            return None
        return self._export_checkpoint(export_path, checkpoint_path,
                                       eval_result)


class BestExporter(_CheckpointExporter):
    """Export a checkpoint when its evaluation beats every earlier one.

    Args:
        name: Folder name under `model_dir/export/`.
        compare_fn: `compare_fn(best_eval_result, current_eval_result)`,
            True when the current is better; default: smaller `loss`.
        exports_to_keep: Newest exports kept (None: all). Defaults to 5.

    Example:

    >>> exporter = BestExporter()
    >>> exporter.is_better({"loss": 0.5})
    True
    """

    def __init__(self, name="best_exporter", compare_fn=_loss_smaller,
                 exports_to_keep=5):
        super().__init__(name, exports_to_keep)
        if not callable(compare_fn):
            raise ValueError("`compare_fn` must be callable.")
        self._compare_fn = compare_fn
        self._best_eval_result = None

    def is_better(self, eval_result):
        """Whether `eval_result` beats the best seen so far."""
        return self._best_eval_result is None or self._compare_fn(
            best_eval_result=self._best_eval_result,
            current_eval_result=eval_result)

    def export(self, estimator, export_path, checkpoint_path, eval_result,
               is_the_final_export):
        if not self.is_better(eval_result):
            return None
        self._best_eval_result = dict(eval_result)
        return self._export_checkpoint(export_path, checkpoint_path,
                                       eval_result)
