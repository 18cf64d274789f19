"""`History`: records the epoch logs; `fit` returns it."""
from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin


@builtin("keras.callbacks")
class History(Callback):
    """Collects `history[key] = [value per epoch]` and the epoch indices.

    Always added by `fit` (after the user's callbacks) and returned by it.
    A reused instance keeps accumulating `history`; `epoch` restarts.

    Example:

    >>> h = History()
    >>> h.set_model(type("M", (), {})())
    >>> h.on_train_begin()
    >>> h.on_epoch_end(0, {"loss": 0.5})
    >>> h.history, h.epoch
    ({'loss': [0.5]}, [0])
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

    def get_state(self):
        return {"history": {k: list(v) for k, v in self.history.items()},
                "epoch": list(self.epoch)}

    def set_state(self, state):
        self.history = {k: list(v) for k, v in state["history"].items()}
        self.epoch = list(state["epoch"])
