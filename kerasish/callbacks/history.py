"""`History`: records the epoch logs; `fit` returns it."""
from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin


@builtin("keras.callbacks")
class History(Callback):
    """Collects `history[key] = [value per epoch]` and the epoch indices.

    Always added by `fit` (after the user's callbacks) and returned by it.
    A reused instance keeps accumulating `history`; `epoch` restarts.
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self
