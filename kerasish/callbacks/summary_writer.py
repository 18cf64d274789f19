"""TensorBoard event files, through the optional `tensorboardX` library.

Shared by the `TensorBoard` callback and the session hooks that write
summaries (`SummarySaverHook`, `StepCounterHook`). Importing this module
never needs tensorboardX; creating a writer does, and says how to get it.
"""
import contextlib
import itertools
import json
import os
import time

import numpy as np

from kerasish.saving import file_utils

_INSTALL = ("pip install 'kerasish[tensorboard]'  (or: pip install "
            "tensorboardX)")


def require_tensorboardx(what):
    """Import tensorboardX or raise an ImportError naming the pip command."""
    try:
        import tensorboardX  # lazy: optional dependency
    except ImportError:
        raise ImportError(
            f"{what} writes TensorBoard event files with the `tensorboardX` "
            f"package, which is not installed. Install it with: {_INSTALL}"
        ) from None
    return tensorboardX


_FILE_NUMBERS = itertools.count()


def _unique_suffix():
    # tensorboardX names files `events.out.tfevents.<second>.<host>`: a
    # writer reopened within the same second (evaluate right after fit, two
    # quick fits) would truncate the earlier file. TensorFlow appends the
    # process id and a counter; so do we.
    return f".{os.getpid()}.{next(_FILE_NUMBERS)}"


class SummaryWriter:
    """Write scalars, histograms, images, text and graphs to `logdir`.

    Args:
        logdir: Folder of the event file (created on first write).
        what: Name used in the ImportError if tensorboardX is missing.
    """

    def __init__(self, logdir, what="This writer"):
        self._tbx = require_tensorboardx(what)
        self.logdir = logdir
        self._writer = None

    @property
    def writer(self):
        if self._writer is None:
            self._writer = _writer_class(self._tbx)(
                logdir=self.logdir, flush_secs=10,
                filename_suffix=_unique_suffix())
        return self._writer

    def scalar(self, tag, value, step):
        self.writer.add_scalar(tag, float(np.asarray(value)), int(step))

    def histogram(self, tag, values, step):
        values = np.asarray(values, dtype=np.float64).ravel()
        if values.size and np.isfinite(values).all():
            self.writer.add_histogram(tag, values, int(step))

    def image(self, tag, images, step):
        """`images`: NHWC array with C in (1, 3, 4), values scaled to 0..1."""
        images = np.asarray(images, np.float32)
        low, high = float(images.min()), float(images.max())
        scaled = (images - low) / (high - low) if high > low else \
            np.zeros_like(images)
        self.writer.add_images(tag, scaled, int(step), dataformats="NHWC")

    def text(self, tag, text, step):
        self.writer.add_text(tag, text, int(step))

    def string_tensor(self, tag, text, step):
        """A bare string tensor under `tag` itself, as TF's Estimator
        writes `checkpoint_path` (`add_text` appends `/text_summary`)."""
        # lazy: optional dependency (tensorboardX)
        from tensorboardX.proto import summary_pb2, tensor_pb2
        tensor = tensor_pb2.TensorProto(dtype="DT_STRING",
                                        string_val=[text.encode()])
        summary = summary_pb2.Summary(
            value=[summary_pb2.Summary.Value(tag=tag, tensor=tensor)])
        self.writer._get_file_writer().add_summary(summary, int(step))

    def keras_model(self, tag, model, step=0):
        """The model's JSON config with TensorBoard's `graph_keras_model`
        plugin data, which its Graphs tab draws as a conceptual graph (what
        Keras writes under the tag `keras`)."""
        # lazy: optional dependency
        # lazy: optional dependency (tensorboardX)
        from tensorboardX.proto import summary_pb2, tensor_pb2
        metadata = summary_pb2.SummaryMetadata()
        metadata.plugin_data.plugin_name = "graph_keras_model"
        metadata.plugin_data.content = b"1"
        tensor = tensor_pb2.TensorProto(
            dtype="DT_STRING", string_val=[model.to_json().encode()])
        summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(
            tag=tag, metadata=metadata, tensor=tensor)])
        self.writer._get_file_writer().add_summary(summary, int(step))

    def layer_graph(self, model):
        """An op-level GraphDef with one node per layer (Graphs tab)."""
        # lazy: optional dependency
        from tensorboardX.proto import (event_pb2, graph_pb2, node_def_pb2,
                                        versions_pb2)
        nodes = []
        for name, op, inputs, config in _layer_nodes(model):
            node = node_def_pb2.NodeDef(name=name, op=op, input=inputs)
            node.attr["config"].s = json.dumps(config).encode()
            nodes.append(node)
        graph = graph_pb2.GraphDef(node=nodes, versions=versions_pb2.
                                   VersionDef(producer=22))
        event = event_pb2.Event(graph_def=graph.SerializeToString())
        self.writer._get_file_writer().add_event(event)

    def flush(self):
        if self._writer is not None:
            self._writer.flush()

    def close(self):
        if self._writer is not None:
            self._writer.close()
            self._writer = None


class _EventFile:
    """tensorboardX's `EventFileWriter` without its writer thread.

    tensorboardX writes events on a thread: when a write fails (a full
    disk) the thread dies, its queue fills and the next `add_*` blocks
    forever. Here events are written in the caller's thread, so the
    failure is a clear `OSError` in the training loop; the file keeps
    every complete record (readers skip a torn last one).
    """

    def __init__(self, logdir, filename_suffix, flush_secs):
        # lazy: optional dependency (tensorboardX)
        from tensorboardX.event_file_writer import EventsWriter
        os.makedirs(logdir, exist_ok=True)
        self._logdir, self._flush_secs = logdir, flush_secs
        self._events = self._guard(
            lambda: EventsWriter(os.path.join(logdir, "events"),
                                 filename_suffix))
        self._next_flush = time.monotonic() + flush_secs
        self._closed = self._broken = False

    def _guard(self, write):
        try:
            return write()
        except OSError as e:
            self._broken = True
            events = getattr(self, "_events", None)
            path = self._logdir if events is None else events._file_name
            if events is not None:
                # No more writes: release the file now (EventsWriter.close
                # would flush, and fail, first).
                with contextlib.suppress(OSError):
                    events._py_recordio_writer.close()
            error = file_utils.full_disk_error(
                e, path, "The event file keeps its complete records; no "
                "more are written to it.")
            if error is e:
                raise
            raise error from e

    def get_logdir(self):
        return self._logdir

    def add_event(self, event):
        if self._closed or self._broken:
            return
        self._guard(lambda: self._events.write_event(event))
        if time.monotonic() >= self._next_flush:
            self.flush()

    def flush(self):
        if not (self._closed or self._broken):
            self._guard(self._events.flush)
            self._next_flush = time.monotonic() + self._flush_secs

    def close(self):
        if self._closed:
            return
        self._closed = True
        if not self._broken:
            self._guard(self._events.close)

    def reopen(self):
        """Nothing to do: a closed file is not reopened (tensorboardX makes
        a new file writer after `close`)."""

    def __del__(self):
        # A writer dropped unclosed (a hook whose `end` never ran because
        # training failed) still closes its file.
        with contextlib.suppress(Exception):
            self.close()


def _writer_class(tbx):
    """`tensorboardX.SummaryWriter` whose file writer is `_EventFile`."""
    class FileWriter(tbx.FileWriter):
        def __init__(self, logdir, filename_suffix, flush_secs):
            self.event_writer = _EventFile(str(logdir), filename_suffix,
                                           flush_secs)
            self._default_metadata = {}

    class Writer(tbx.SummaryWriter):
        def _get_file_writer(self):
            if self.file_writer is None:
                self.file_writer = FileWriter(
                    self.logdir, self._filename_suffix, self._flush_secs)
                self.all_writers = {self.logdir: self.file_writer}
            return self.file_writer
    return Writer


def _layer_nodes(model):
    """`(name, class, input names, config)` per layer of a functional or
    sequential model, following the graph's inbound nodes."""
    layers = list(getattr(model, "layers", []))
    names = {id(layer): f"{model.name}/{layer.name}" for layer in layers}
    previous = None
    for layer in layers:
        inputs = []
        for node in getattr(layer, "_inbound_nodes", []) or []:
            for parent in getattr(node, "parent_nodes", []) or []:
                op = getattr(parent, "operation", None)
                if id(op) in names:
                    inputs.append(names[id(op)])
        if not inputs and previous is not None and \
                type(model).__name__ == "Sequential":
            inputs = [previous]
        try:
            config = layer.get_config()
        except Exception:  # a config is decoration here, never fatal
            config = {}
        yield names[id(layer)], type(layer).__name__, inputs, config
        previous = names[id(layer)]
