"""`CallbackList`: calls each callback's hook, in order, with clean logs."""
import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.callbacks.history import History
from kerasish.callbacks.progbar_logger import ProgbarLogger


def pythonify_logs(logs):
    """Sorted, flattened copy of `logs` with values as Python floats."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(pythonify_logs(value))
            continue
        if hasattr(value, "_value"):
            value = np.asarray(value._value)    # tensors arrive as numpy
        try:
            value = float(np.asarray(value))
        except (TypeError, ValueError):
            pass
        result[key] = value
    return result


def _flatten_dicts(logs):
    """Sorted copy of `logs` with nested dicts merged in, values as is."""
    result = {}
    for key, value in sorted((logs or {}).items()):
        if isinstance(value, dict):
            result.update(_flatten_dicts(value))
        else:
            result[key] = value
    return result


def _flatten(callbacks):
    if callbacks is not None and not isinstance(callbacks, (list, tuple)):
        # As Keras (`tree.flatten`): a lone callback is a list of one.
        return [callbacks]
    out = []
    for cb in callbacks or []:
        if isinstance(cb, (list, tuple)):
            out.extend(_flatten(cb))
        elif cb is not None:
            out.append(cb)
    return out


class CallbackList(Callback):
    """A container calling a list of callbacks as one.

    Args:
        callbacks: Callbacks (nested lists are flattened).
        add_history: Append a `History` unless one is present.
        add_progbar: Append a `ProgbarLogger` unless one is present.
        model: The model the callbacks are attached to.
        **params: Passed to every callback's `set_params`.

    Example:

    >>> import kerasish
    >>> seen = []
    >>> log_epochs = kerasish.callbacks.LambdaCallback(
    ...     on_epoch_end=lambda epoch, logs: seen.append((epoch, logs)))
    >>> model = kerasish.Sequential([kerasish.layers.Dense(1)])
    >>> callbacks = CallbackList([log_epochs], add_history=True,
    ...                          model=model, epochs=2)
    >>> [type(c).__name__ for c in callbacks.callbacks]
    ['LambdaCallback', 'History']
    >>> log_epochs.params
    {'epochs': 2}
    >>> callbacks.on_epoch_end(0, {"loss": np.float32(0.5)})
    >>> seen, model.history.history
    ([(0, {'loss': 0.5})], {'loss': [0.5]})
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False,
                 model=None, **params):
        super().__init__()
        self.callbacks = _flatten(callbacks)
        self._history = next((c for c in self.callbacks
                              if isinstance(c, History)), None)
        self._progbar = next((c for c in self.callbacks
                              if isinstance(c, ProgbarLogger)), None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()
            self.callbacks.append(self._progbar)
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        self.params = params
        for cb in self.callbacks:
            cb.set_params(params)

    def set_model(self, model):
        if not model:
            return
        super().set_model(model)
        if self._history is not None:
            model.history = self._history
        for cb in self.callbacks:
            cb.set_model(model)

    def _call(self, hook, *args, logs=None):
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            getattr(cb, hook)(*args, logs)
        return logs

    def _call_batch(self, hook, batch, logs):
        # As Keras, batch hooks get `logs` by keyword: `(batch, **kwargs)`
        # signatures work.
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            getattr(cb, hook)(batch, logs=logs)

    def on_batch_begin(self, batch, logs=None):
        self._call_batch("on_batch_begin", batch, logs)

    def on_batch_end(self, batch, logs=None):
        self._call_batch("on_batch_end", batch, logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, logs=logs)

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", epoch, logs=logs)

    def on_train_batch_begin(self, batch, logs=None):
        self._call_batch("on_train_batch_begin", batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self._call_batch("on_train_batch_end", batch, logs)

    def on_test_batch_begin(self, batch, logs=None):
        self._call_batch("on_test_batch_begin", batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        self._call_batch("on_test_batch_end", batch, logs)

    def on_predict_batch_begin(self, batch, logs=None):
        self._call_batch("on_predict_batch_begin", batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        # Outputs are arrays, not floats: passed through unconverted, but
        # flattened as Keras does (a dict-output model's batch logs are
        # `{"a": ..., "b": ...}`, not `{"outputs": {...}}`).
        logs = _flatten_dicts(logs)
        for cb in self.callbacks:
            cb.on_predict_batch_end(batch, logs=logs)

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", logs=logs)

    def on_train_end(self, logs=None):
        self._call("on_train_end", logs=logs)

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", logs=logs)

    def on_test_end(self, logs=None):
        self._call("on_test_end", logs=logs)

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", logs=logs)

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", logs=logs)

    def on_train_interrupted(self, epoch, batch, logs=None):
        logs = pythonify_logs(logs)
        for cb in self.callbacks:
            hook = getattr(cb, "on_train_interrupted", None)
            if hook is not None:
                hook(epoch, batch, logs)

    def __iter__(self):
        return iter(self.callbacks)
