"""`Callback`: hooks called by `fit`, `evaluate` and `predict`."""


class Callback:
    """Base class of callbacks; every hook is a no-op.

    `params` holds `{"verbose", "epochs", "steps"}`; `model` is the model
    being trained. The default `on_train_batch_begin/end` call the legacy
    `on_batch_begin/end`, as in Keras.

    kerasish additions: during `fit`, `self.model.batch_loss` is the exact
    loss of the batch that just ran (the `"loss"` in batch logs is Keras's
    running mean since the epoch began); `on_train_interrupted` is called
    when Ctrl-C stops `fit` after the current batch.

    Example:

    >>> class CountBatches(Callback):
    ...     def on_train_begin(self, logs=None):
    ...         self.n = 0
    ...     def on_train_batch_end(self, batch, logs=None):
    ...         self.n += 1
    """

    def __init__(self):
        self.params = None
        self._model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    def on_batch_begin(self, batch, logs=None):
        """Legacy alias of `on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """Legacy alias of `on_train_batch_end`."""

    def on_epoch_begin(self, epoch, logs=None):
        """At the start of an epoch of `fit`."""

    def on_epoch_end(self, epoch, logs=None):
        """At the end of an epoch; `logs` has the epoch and `val_` values."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """Before a batch of `evaluate` (or of validation in `fit`)."""

    def on_test_batch_end(self, batch, logs=None):
        """After a batch of `evaluate`; `logs` are running means."""

    def on_predict_batch_begin(self, batch, logs=None):
        """Before a batch of `predict`."""

    def on_predict_batch_end(self, batch, logs=None):
        """After a batch of `predict`; `logs["outputs"]` has the batch (a
        dict-output model's outputs are top-level keys, as in Keras)."""

    def on_train_begin(self, logs=None):
        """At the start of `fit`."""

    def on_train_end(self, logs=None):
        """At the end of `fit`; `logs` are the last epoch's."""

    def on_test_begin(self, logs=None):
        """At the start of `evaluate` or of a validation run."""

    def on_test_end(self, logs=None):
        """At the end of `evaluate` or of a validation run."""

    def on_predict_begin(self, logs=None):
        """At the start of `predict`."""

    def on_predict_end(self, logs=None):
        """At the end of `predict`."""

    def on_train_interrupted(self, epoch, batch, logs=None):
        """kerasish: `fit` was interrupted (Ctrl-C) after batch `batch`.

        Called once, before `on_train_end`, when the user pressed Ctrl-C:
        the batch in flight finished, the rest of the epoch (validation,
        `on_epoch_end`) is skipped. `logs` are that batch's running logs.
        `ModelCheckpoint` and `BackupAndRestore` save here.
        """
