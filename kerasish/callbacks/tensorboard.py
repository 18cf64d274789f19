"""`TensorBoard`: write TensorBoard event files during training."""
import json
import os
import time

import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.callbacks.summary_writer import (SummaryWriter,
                                               require_tensorboardx)
from kerasish.saving import file_utils
from kerasish.saving.object_registration import builtin
from kerasish.callbacks.reduce_lr_on_plateau import \
    log_learning_rates
import gzip


def _profile_range(profile_batch):
    message = ("profile_batch must be a non-negative integer or 2-tuple of "
               "positive integers. A pair of positive integers signifies a "
               f"range of batches to profile. Found: {profile_batch}")
    if isinstance(profile_batch, str):
        try:
            profile_batch = [int(p) for p in profile_batch.split(",")]
        except ValueError:
            raise ValueError(message) from None
        if len(profile_batch) == 1:
            profile_batch = profile_batch[0]
    if isinstance(profile_batch, int) and not isinstance(profile_batch,
                                                         bool):
        start = stop = profile_batch
    elif isinstance(profile_batch, (tuple, list)) and len(profile_batch) == 2:
        start, stop = profile_batch
    else:
        raise ValueError(message)
    if start < 0 or stop < start:
        raise ValueError(message)
    return start, stop


@builtin("keras.callbacks")
class TensorBoard(Callback):
    """Write training curves, weight histograms and the graph for TensorBoard.

    Event files go to `<log_dir>/train` and `<log_dir>/validation`, with
    Keras's tags: `epoch_<name>` at step=epoch (validation values lose
    their `val_` prefix and go to the validation writer;
    `epoch_learning_rate` to train), `batch_<name>` every `update_freq`
    batches (step = batches seen in this `fit`),
    `evaluation_<name>_vs_iterations` at the end of each evaluation (step =
    optimizer iterations), `<weight path>/histogram` (and `/image`) every
    `histogram_freq` epochs, and the model as a `keras` conceptual graph
    plus a layer graph. Read them with `tensorboard --logdir <log_dir>`.

    Needs the optional `tensorboardX` package (`pip install
    'kerasish[tensorboard]'`); without it, creating the callback raises an
    ImportError saying so.

    Args:
        log_dir: Root folder of the event files. Defaults to `"logs"`.
        histogram_freq: Epoch frequency of weight histograms (0 = never).
        write_graph: Write the model graph. Defaults to `True`.
        write_images: Also write weights as images with the histograms.
        write_steps_per_second: Log `steps_per_second` per epoch and
            `batch_steps_per_second` per batch.
        update_freq: `"epoch"` (default), `"batch"` (= 1), or an int N:
            write batch-level scalars every N batches.
        profile_batch: Batch (1-based, counted across the `fit`) or
            `(start, stop)` range to profile; 0 disables. kerasish writes a
            Chrome trace of per-layer forward/backward times to
            `<log_dir>/train/plugins/profile/<run>/<host>.trace.json.gz`
            (open it in Perfetto or chrome://tracing).
        embeddings_freq: Epoch frequency of embedding checkpoints
            (`keras_embedding.ckpt-<epoch>.weights.h5` in the train folder).
        embeddings_metadata: Metadata file name(s) for embedding layers
            (a string, or a dict from layer name to file name).

    Example:

    >>> import os, tempfile
    >>> import numpy as np
    >>> import kerasish as keras
    >>> log_dir = tempfile.mkdtemp()
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0,
    ...               callbacks=[keras.callbacks.TensorBoard(log_dir)])
    >>> sorted(os.listdir(log_dir))
    ['train']
    """

    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True,
                 write_images=False, write_steps_per_second=False,
                 update_freq="epoch", profile_batch=0, embeddings_freq=0,
                 embeddings_metadata=None):
        super().__init__()
        require_tensorboardx("keras.callbacks.TensorBoard")
        if update_freq != "epoch" and update_freq != "batch" and not (
                isinstance(update_freq, int) and update_freq > 0):
            raise ValueError(
                "`update_freq` must be 'epoch', 'batch' or a positive int. "
                f"Received: update_freq={update_freq!r}")
        self.log_dir = os.fspath(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.embeddings_freq = embeddings_freq
        self.embeddings_metadata = embeddings_metadata
        self._start_batch, self._stop_batch = _profile_range(profile_batch)
        self._global_train_batch = 0
        self._global_test_batch = 0
        self._writers = {}
        self._trace = []
        self._in_fit = False

    # -- writers -------------------------------------------------------------
    def set_model(self, model):
        super().set_model(model)
        self._train_dir = os.path.join(self.log_dir, "train")
        self._val_dir = os.path.join(self.log_dir, "validation")
        self._close_writers()
        self._graph_pending = bool(self.write_graph)

    def _writer(self, which):
        if which not in self._writers:
            folder = self._train_dir if which == "train" else self._val_dir
            self._writers[which] = SummaryWriter(
                folder, "keras.callbacks.TensorBoard")
        return self._writers[which]

    def _close_writers(self):
        for writer in getattr(self, "_writers", {}).values():
            writer.close()
        self._writers = {}

    def _write_graph(self):
        self._graph_pending = False
        model = self.model
        if type(model).__name__ not in ("Functional", "Sequential"):
            return
        writer = self._writer("train")
        writer.keras_model("keras", model, step=0)
        writer.layer_graph(model)

    # -- training ------------------------------------------------------------
    def on_train_begin(self, logs=None):
        self._in_fit = True
        self._global_train_batch = 0
        self._epoch_start = time.time()
        self._epoch_iterations = 0
        if self.embeddings_freq:
            self._write_projector_config()

    def on_train_end(self, logs=None):
        self._in_fit = False
        self._finish_trace()
        self._close_writers()

    def on_epoch_begin(self, epoch, logs=None):
        self._epoch_start = time.time()
        self._epoch_iterations = self._iterations()

    def _iterations(self):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is None:
            return 0
        return int(np.asarray(optimizer.iterations.numpy()))

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        self._batch_start = time.time()
        if self._profiling():
            runner = getattr(getattr(self.model, "_fit_state", None),
                             "runner", None)
            if runner is not None:
                self._request = runner.request(timing=True)

    def _profiling(self):
        return self._start_batch > 0 and \
            self._start_batch <= self._global_train_batch <= self._stop_batch

    def on_train_batch_end(self, batch, logs=None):
        if self._graph_pending:
            self._write_graph()
        step = self._global_train_batch
        if self._profiling():
            self._record_trace(step)
        if self.update_freq == "epoch" or step % self.update_freq:
            return
        writer = self._writer("train")
        if self.write_steps_per_second:
            elapsed = max(time.time() - self._batch_start, 1e-9)
            writer.scalar("batch_steps_per_second", 1.0 / elapsed, step)
        for name, value in (logs or {}).items():
            writer.scalar(f"batch_{name}", value, step)

    def on_test_begin(self, logs=None):
        pass

    def on_test_batch_begin(self, batch, logs=None):
        self._global_test_batch += 1

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is None or not logs:
            return
        writer = self._writer("validation")
        step = self._iterations()
        for name, value in logs.items():
            writer.scalar(f"evaluation_{name}_vs_iterations", value, step)
        if not self._in_fit:
            # A standalone evaluate() never reaches on_train_end's close:
            # closing makes its values readable now (a flush leaves them in
            # tensorboardX's queue); a later write opens a new file.
            self._writers.pop("validation").close()

    def on_epoch_end(self, epoch, logs=None):
        self._log_epoch_metrics(epoch, logs or {})
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)
        if self.embeddings_freq and epoch % self.embeddings_freq == 0:
            self.model.save_weights(os.path.join(
                self._train_dir, f"keras_embedding.ckpt-{epoch}.weights.h5"))

    def _log_epoch_metrics(self, epoch, logs):
        if not logs:
            return
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        optimizer = getattr(self.model, "optimizer", None)
        optimizer = getattr(optimizer, "inner_optimizer", optimizer)
        if optimizer is not None:
            log_learning_rates(optimizer, train)
        if self.write_steps_per_second:
            elapsed = max(time.time() - self._epoch_start, 1e-9)
            train["steps_per_second"] = \
                (self._iterations() - self._epoch_iterations) / elapsed
        for which, values in (("train", train), ("validation", val)):
            if values:
                writer = self._writer(which)
                for name, value in values.items():
                    writer.scalar(f"epoch_{name}", value, epoch)

    def _log_weights(self, epoch):
        writer = self._writer("train")
        for layer in self.model.layers:
            for weight in layer.weights:
                name = weight.path.replace(":", "_")
                value = weight.numpy()
                writer.histogram(f"{name}/histogram", value, epoch)
                if self.write_images:
                    image = _weight_image(value)
                    if image is not None:
                        writer.image(f"{name}/image", image, epoch)
        writer.flush()

    # -- embeddings ------------------------------------------------------------
    def _write_projector_config(self):
        metadata = self.embeddings_metadata
        remaining = dict(metadata) if isinstance(metadata, dict) else None
        lines = []
        for layer in self.model.layers:
            if type(layer).__name__ != "Embedding":
                continue
            lines.append("embeddings {\n  tensor_name: \"layer_with_weights-0"
                         "/embeddings/.ATTRIBUTES/VARIABLE_VALUE\"")
            path = metadata if isinstance(metadata, str) else \
                (remaining or {}).pop(layer.name, None)
            if path:
                lines.append(f"  metadata_path: \"{path}\"")
            lines.append("}")
        if remaining:
            raise ValueError(
                "Unrecognized `Embedding` layer names passed to "
                "`keras.callbacks.TensorBoard` `embeddings_metadata` "
                f"argument: {remaining.keys()}")
        os.makedirs(self.log_dir, exist_ok=True)
        file_utils.write_bytes(
            os.path.join(self.log_dir, "projector_config.pbtxt"),
            ("\n".join(lines) + ("\n" if lines else "")).encode())

    # -- profiling ------------------------------------------------------------
    def _record_trace(self, step):
        request = getattr(self, "_request", None)
        runner = getattr(getattr(self.model, "_fit_state", None), "runner",
                         None)
        if request is None or runner is None or runner.last is None:
            return
        self._request = None
        self._trace.extend(chrome_events(runner.last, step))
        if step >= self._stop_batch:
            self._finish_trace()

    def _finish_trace(self):
        if not self._trace:
            return
        run = time.strftime("%Y_%m_%d_%H_%M_%S")
        folder = os.path.join(self._train_dir, "plugins", "profile", run)
        os.makedirs(folder, exist_ok=True)
        import socket  # lazy: kept out of `import kerasish`
        path = os.path.join(folder, f"{socket.gethostname()}.trace.json.gz")
        text = json.dumps({"traceEvents": self._trace,
                           "displayTimeUnit": "ms"})
        file_utils.write_bytes(path, gzip.compress(text.encode()))
        self._trace = []

    def get_state(self):
        return {"global_train_batch": self._global_train_batch}

    def set_state(self, state):
        self._global_train_batch = state["global_train_batch"]


def _weight_image(value):
    """Keras's layout of a weight as an NHWC image, or None."""
    w = np.squeeze(value)
    if w.ndim == 1:
        w = w.reshape(1, w.shape[0], 1, 1)
    elif w.ndim == 2:
        if w.shape[0] > w.shape[1]:
            w = w.T
        w = w.reshape(1, w.shape[0], w.shape[1], 1)
    elif w.ndim == 3:
        w = np.transpose(w, (2, 0, 1))
        w = w.reshape(w.shape[0], w.shape[1], w.shape[2], 1)
    else:
        return None
    return w if w.shape[-1] in (1, 3, 4) else None


def chrome_events(result, step, origin=None):
    """Chrome-trace events of one step (`StepResult`): the step and each
    layer call's forward and backward spans, in microseconds."""
    origin = result.start if origin is None else origin

    def us(t):
        return round((t - origin) * 1e6, 3)

    events = [{"name": "train_step", "cat": "step", "ph": "X",
               "ts": us(result.start), "dur": us(result.end) -
               us(result.start), "pid": 0, "tid": 0,
               "args": {"step": int(step)}}]
    for name, category, start, end, depth in result.probe.spans():
        events.append({"name": name, "cat": category, "ph": "X",
                       "ts": us(start), "dur": us(end) - us(start),
                       "pid": 0, "tid": 1 if category == "forward" else 2,
                       "args": {"depth": depth, "step": int(step)}})
    return events
