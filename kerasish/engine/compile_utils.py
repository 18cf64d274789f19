"""What `compile()` turns `loss`, `loss_weights` and `metrics` into.

`CompileLoss` maps losses to outputs (one loss for all, a list by position,
a dict by output name), weights them, and for several outputs tracks each
one as `<output>_loss`. `CompileMetrics` maps metrics the same way and
names them `<output>_<metric>` for multi-output models; `"accuracy"`
resolves to binary, sparse-categorical or categorical accuracy from the
shapes, as Keras does.
"""
import contextlib
from collections import OrderedDict

from kerasish import tree
from kerasish import losses as losses_module
from kerasish import metrics as metrics_module
from kerasish.backend.common import naming
from kerasish.engine import compile_nested
from kerasish.engine.compile_nested import is_deeply_nested


def is_binary_or_sparse_categorical(y_true, y_pred):
    y_t_rank, y_p_rank = len(y_true.shape), len(y_pred.shape)
    is_binary = y_pred.shape[-1] == 1
    is_sparse = y_t_rank < y_p_rank or (y_true.shape[-1] == 1 and
                                        y_pred.shape[-1] > 1)
    return is_binary, is_sparse


def _object_name(obj):
    if hasattr(obj, "name") and isinstance(obj.name, str):
        return obj.name
    name = getattr(obj, "__name__", None)
    return name if name else naming.to_snake_case(type(obj).__name__)


def get_metric(identifier, y_true, y_pred):
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() in ("accuracy", "acc"):
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true,
                                                               y_pred)
        cls = (metrics_module.BinaryAccuracy if is_binary else
               metrics_module.SparseCategoricalAccuracy if is_sparse else
               metrics_module.CategoricalAccuracy)
        metric = cls(name=str(identifier))
    else:
        metric = metrics_module.get(identifier)
    name = identifier if isinstance(identifier, str) else \
        _object_name(metric)
    if not isinstance(metric, metrics_module.Metric):
        metric = metrics_module.MeanMetricWrapper(metric)
    metric.name = name
    return metric


def get_loss(identifier, y_true, y_pred):
    if identifier is None:
        return None
    if str(identifier).lower() in ("crossentropy", "ce"):
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true,
                                                               y_pred)
        loss = (losses_module.binary_crossentropy if is_binary else
                losses_module.sparse_categorical_crossentropy if is_sparse
                else losses_module.categorical_crossentropy)
    else:
        loss = losses_module.get(identifier)
    if not isinstance(loss, losses_module.Loss):
        name = identifier if isinstance(identifier, str) else \
            _object_name(loss)
        loss = losses_module.LossFunctionWrapper(loss, name=name)
    return loss


def flat_outputs(y_pred, output_names):
    """`(flat_values, names)` of a model's outputs."""
    if isinstance(y_pred, dict) and not is_deeply_nested(y_pred):
        names = list(output_names) if output_names and \
            set(output_names) == set(y_pred) else sorted(y_pred)
        return [y_pred[n] for n in names], names
    flat = tree.flatten(y_pred)
    names = list(output_names) if output_names and \
        len(output_names) == len(flat) else [None] * len(flat)
    return flat, names


def by_output_name(values, names, what, needed=None):
    """`values[name]` per output name; clear errors for unknown or missing
    keys (`needed`: the names that must be present, default all)."""
    unknown = [k for k in values if k not in names]
    missing = [n for n in (names if needed is None else needed)
               if n not in values]
    if unknown or missing:
        raise ValueError(
            f"The keys of the `{what}` dict must be the model's output "
            f"names {list(names)}. Received keys {list(values)}"
            + (f"; unknown: {unknown}" if unknown else "")
            + (f"; missing: {missing}" if missing else "") + ".")
    return [values.get(n) for n in names]


def align(values, names, what):
    """Match `values` (single, list or dict) to the flat outputs."""
    n = len(names)
    if isinstance(values, dict):
        unknown = [k for k in values if k not in names]
        if unknown:
            raise ValueError(
                f"Expected keys {names} in {what} dict, but found "
                f"{what}.keys()={list(values.keys())}")
        return [values.get(name) for name in names]
    if isinstance(values, (list, tuple)) and n > 1:
        if len(values) != n:
            raise ValueError(
                f"`{what}` must have one entry per model output: the model "
                f"has {n} outputs {names}, but {len(values)} were given.")
        return list(values)
    if isinstance(values, (list, tuple)) and len(values) == 1 and n == 1:
        return [values[0]]
    return [values] * n


class MetricsList(metrics_module.Metric):
    """The metrics of one output."""

    def __init__(self, metrics, name="metrics_list", output_name=None):
        super().__init__(name=name)
        self.metrics = metrics
        self.output_name = output_name

    def update_state(self, y_true, y_pred, sample_weight=None):
        for m in self.metrics:
            m.update_state(y_true, y_pred, sample_weight=sample_weight)

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


class CompileMetrics(metrics_module.Metric):
    """All compiled metrics; `result()` is a dict keyed as Keras logs them."""

    def __init__(self, metrics, weighted_metrics, output_names=None):
        super().__init__(name="compile_metrics")
        for arg, value in (("metrics", metrics),
                           ("weighted_metrics", weighted_metrics)):
            if value and not isinstance(value, (list, tuple, dict)):
                raise ValueError(
                    f"Expected `{arg}` argument to be a list, tuple, or dict."
                    f" Received instead: {arg}={value} of type "
                    f"{type(value)}")
        self._user_metrics = metrics
        self._user_weighted_metrics = weighted_metrics
        self.output_names = output_names
        self.built = False
        self._flat_metrics = self._flat_weighted = []
        self._reset_when_built = False

    @property
    def metrics(self):
        if not self.built:
            return []
        return [m for mls in self._flat_metrics + self._flat_weighted
                if mls is not None for m in mls.metrics]

    @property
    def variables(self):
        return [v for m in self.metrics for v in m.variables]

    def build(self, y_true, y_pred):
        outputs, names = flat_outputs(y_pred, self.output_names)
        self._names = names
        self._result_order = _keras_result_order(y_pred, names)
        self._nested_outputs = y_pred if is_deeply_nested(y_pred) else None
        self._with_metrics = self._outputs_with_metrics(names)
        labels = self._flatten(y_true, len(outputs))
        self._flat_metrics = self._build_set(
            self._user_metrics, labels, outputs, names, "metrics")
        self._flat_weighted = self._build_set(
            self._user_weighted_metrics, labels, outputs, names,
            "weighted_metrics")
        self.built = True
        if self._reset_when_built:
            # Keras builds the compiled metrics before fit/evaluate reset
            # them, so a user's metric object starts from zero even if it
            # was used before or initializes its state to non-zeros.
            self._reset_when_built = False
            self.reset_state()

    def _build_set(self, metrics, labels, outputs, names, arg):
        if not metrics:
            return [None] * len(outputs)
        if len(outputs) == 1:
            return [MetricsList([get_metric(m, labels[0], outputs[0])
                                 for m in tree.flatten(metrics)])]
        if self._nested_outputs is not None:
            per_output = compile_nested.per_output(
                metrics, self._nested_outputs, "metrics")
            if None in names:
                names = compile_nested.loss_names(self._nested_outputs,
                                                  names)
            return [None if not m else MetricsList(
                [get_metric(x, yt, yp) for x in tree.flatten(m)],
                output_name=name)
                for m, yt, yp, name in zip(per_output, labels, outputs,
                                           names)]
        if isinstance(metrics, (list, tuple)) and \
                len(metrics) != len(outputs) and \
                not isinstance(metrics, dict):
            raise ValueError(
                f"For a model with multiple outputs, when providing the "
                f"`{arg}` argument as a list, it should have as many entries "
                f"as the model has outputs ({len(outputs)}: {names}). "
                f"Received: {arg}={metrics}. Use a dict keyed by output name"
                f" or a list of lists to set metrics per output.")
        per_output = align(metrics, names, arg)
        return [None if not m else MetricsList(
            [get_metric(x, yt, yp) for x in tree.flatten(m)],
            output_name=name)
            for m, yt, yp, name in zip(per_output, labels, outputs, names)]

    def _outputs_with_metrics(self, names):
        """Indices of the outputs that have (weighted) metrics."""
        if len(names) == 1:
            return [0]
        used = set()
        for metrics in (self._user_metrics, self._user_weighted_metrics):
            if not metrics:
                continue
            if self._nested_outputs is not None:
                per_output = compile_nested.per_output(
                    metrics, self._nested_outputs, "metrics")
                used.update(i for i, m in enumerate(per_output) if m)
            elif isinstance(metrics, dict) or len(metrics) == len(names):
                per_output = align(metrics, names, "metrics")
                used.update(i for i, m in enumerate(per_output) if m)
            else:
                used.update(range(len(names)))
        return sorted(used)

    def _flatten(self, y, count):
        """Labels per output (None for outputs that have no metrics and were
        given no labels, as when they have no loss either)."""
        names = self._names
        needed = self._with_metrics
        if isinstance(y, dict) and names and None not in names and \
                self._nested_outputs is None:
            return by_output_name(y, names, "y", [names[i] for i in needed])
        flat = tree.flatten(y)
        if len(flat) == count:
            return flat
        if len(flat) == len(needed):
            full = [None] * count
            for i, value in zip(needed, flat):
                full[i] = value
            return full
        raise ValueError(
            f"The model has {count} outputs but {len(flat)} label arrays "
            "were given.")

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        outputs, _ = flat_outputs(y_pred, self.output_names)
        labels = self._flatten(y_true, len(outputs))
        for mls, yt, yp in zip(self._flat_metrics, labels, outputs):
            if mls is not None:
                mls.update_state(yt, yp)
        weights = [None] * len(outputs) if sample_weight is None else \
            self._per_output_weights(sample_weight, len(outputs))
        for mls, yt, yp, sw in zip(self._flat_weighted, labels, outputs,
                                   weights):
            if mls is not None:
                mls.update_state(yt, yp, sw)

    def _per_output_weights(self, sample_weight, count):
        flat = self._flatten(sample_weight, count) if tree.is_nested(
            sample_weight) else [sample_weight]
        return flat if len(flat) == count else [flat[0]] * count

    def reset_state(self):
        if not self.built:
            self._reset_when_built = True
        for mls in self._flat_metrics + self._flat_weighted:
            if mls is not None:
                mls.reset_state()

    def result(self):
        if not self.built:
            raise ValueError(
                "Cannot get result() since the metric has not yet been built.")
        results, counts = {}, {}
        for weighted, group in ((False, self._flat_metrics),
                                (True, self._flat_weighted)):
            for mls in (group[i] for i in self._result_order):
                for m in (mls.metrics if mls is not None else []):
                    key = _prefixed(mls.output_name, m.name)
                    if key in counts and weighted:
                        key = _prefixed(mls.output_name, f"weighted_{m.name}")
                    if key in counts:
                        counts[key] += 1
                        key = f"{key}_{counts[key] - 1}"
                    counts.setdefault(key, 1)
                    results[key] = m.result()
        return results


def _keras_result_order(y_pred, names):
    """The order `result()` lists the outputs in: Keras lists a flat output
    dict by sorted key (an `OrderedDict` in its own order), whatever order
    the losses and labels follow."""
    if not isinstance(y_pred, dict) or is_deeply_nested(y_pred) or \
            None in names:
        return list(range(len(names)))
    keys = list(y_pred) if isinstance(y_pred, OrderedDict) else \
        sorted(y_pred)
    return [names.index(k) for k in keys]


def _prefixed(output_name, name):
    return f"{output_name}_{name}" if output_name else name


class CompileLoss(losses_module.Loss):
    """The total compiled loss (weighted sum over outputs)."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        if loss_weights is not None and not isinstance(
                loss_weights, (list, tuple, dict, float, int)):
            raise ValueError(
                "Expected `loss_weights` argument to be a float (single "
                "output case) or a list, tuple, or dict (multiple output "
                f"case). Received instead: loss_weights={loss_weights} of "
                f"type {type(loss_weights)}")
        super().__init__(name="compile_loss")
        self._user_loss = loss
        self._user_loss_weights = loss_weights
        self.output_names = output_names
        self.built = False
        self.metrics = []

    def build(self, y_true, y_pred):
        outputs, names = flat_outputs(y_pred, self.output_names)
        deep = self._deep = is_deeply_nested(y_pred)
        losses = compile_nested.per_output(self._user_loss, y_pred, "loss") \
            if deep else align(self._user_loss, names, "loss")
        self._index = [i for i, loss in enumerate(losses)
                       if loss is not None]
        labels = self._flatten(y_true, outputs, names)
        weights = self._weights(names, y_pred if deep else None)
        log_names = compile_nested.loss_names(y_pred, names) if deep \
            else names
        self._entries = []      # (output index, loss, weight, name)
        for i in self._loss_order(y_pred, names, deep):
            resolved = get_loss(losses[i], labels[i], outputs[i])
            if resolved is not None:
                self._entries.append((i, resolved, weights[i],
                                      log_names[i] or resolved.name))
        if len(self._entries) > 1:
            self.metrics = [metrics_module.Mean(name=f"{name}_loss")
                            for _, _, _, name in self._entries]
        self._names = names
        self.built = True

    def _loss_order(self, y_pred, names, deep):
        """Output indices in the order Keras computes (and logs) their
        losses: a loss dict for dict outputs goes in its own key order."""
        loss = self._user_loss
        if isinstance(loss, dict) and isinstance(y_pred, dict) and not deep:
            return [names.index(k) for k in loss if k in names]
        return range(len(names))

    def _weights(self, names, nested_outputs=None):
        weights = self._user_loss_weights
        if weights is None:
            return [None] * len(names)
        compile_nested.check_weights_match_losses(self._user_loss, weights)
        if isinstance(weights, (int, float)):
            return [weights] * len(names)
        if nested_outputs is not None:
            return compile_nested.per_output(weights, nested_outputs,
                                             "loss_weights")
        return align(weights, names, "loss_weights")

    def _flatten(self, y, outputs, names):
        if isinstance(y, dict) and names and None not in names and \
                not self.__dict__.get("_deep"):
            needed = [names[i] for i in self._index]
            return by_output_name(y, names, "y", needed)
        flat = tree.flatten(y)
        if len(flat) == len(outputs):
            return flat
        if len(outputs) > 1 and len(flat) == len(self._index):
            full = [None] * len(outputs)
            for i, value in zip(self._index, flat):
                full[i] = value
            return full
        raise ValueError(
            "y_true and y_pred have different structures: the model has "
            f"{len(outputs)} output(s) {names} but {len(flat)} label "
            "array(s) were given.")

    def __call__(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        outputs, names = flat_outputs(y_pred, self.output_names)
        labels = self._flatten(y_true, outputs, names)
        weights = self._sample_weights(sample_weight, labels)
        total = None
        for k, (i, loss_fn, loss_weight, _) in enumerate(self._entries):
            value = self._call_loss(loss_fn, labels[i], outputs[i],
                                    weights[i], names[i])
            if self.metrics:
                self._track(k, value, tree.flatten(outputs[i])[0].shape[0])
            if loss_weight is not None:
                value = value * loss_weight
            total = value if total is None else total + value
        return total

    @staticmethod
    def _call_loss(loss_fn, label, output, weight, name):
        try:
            return loss_fn(label, output, weight)
        except (TypeError, ValueError) as e:
            if label is not None:
                raise
            # A loss may ignore `y_true` (Keras passes None on); one that
            # needs it fails deep inside without saying why.
            what = f" for output '{name}'" if name else ""
            loss = getattr(loss_fn, "name", type(loss_fn).__name__)
            raise ValueError(
                f"The compiled loss {loss!r} needs targets, "
                f"but no targets were given{what}: pass `y` (or "
                "`validation_data=(x_val, y_val)`), or compile without a "
                "loss. Received: y=None") from e

    def _track(self, k, value, batch_size):
        pending = self.__dict__.get("_pending")
        if pending is not None:
            pending.append((k, value, batch_size))
        else:
            self.metrics[k].update_state(value, sample_weight=batch_size)

    @contextlib.contextmanager
    def deferred_tracking(self):
        """Collect `(k, loss, batch_size)` for the per-output loss trackers
        instead of updating them (a recorded step must not write state);
        `update_trackers` applies them afterwards."""
        previous = self.__dict__.get("_pending")
        self._pending = pending = []
        try:
            yield pending
        finally:
            self._pending = previous

    def update_trackers(self, pending):
        """Apply what `deferred_tracking` collected."""
        for k, value, batch_size in pending:
            self.metrics[k].update_state(value, sample_weight=batch_size)

    def _sample_weights(self, sample_weight, labels):
        if sample_weight is None:
            return [None] * len(labels)
        if tree.is_nested(sample_weight):
            flat = self._flatten(sample_weight, labels, self._names)
            return flat
        return [sample_weight] * len(labels)

    def call(self, y_true, y_pred):
        raise NotImplementedError("CompileLoss is called, not `call`ed.")
