"""`kerasish.callbacks`: `keras.callbacks` with Keras 3's semantics."""
from kerasish.callbacks.callback import Callback  # noqa: F401
from kerasish.callbacks.callback_list import CallbackList  # noqa: F401
from kerasish.callbacks.history import History  # noqa: F401
from kerasish.callbacks.progbar_logger import ProgbarLogger  # noqa: F401
from kerasish.callbacks.monitor_callback import MonitorCallback  # noqa: F401
from kerasish.callbacks.early_stopping import EarlyStopping  # noqa: F401
from kerasish.callbacks.model_checkpoint import ModelCheckpoint  # noqa: F401
