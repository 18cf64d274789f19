"""`kerasish.callbacks`: `keras.callbacks` with Keras 3's semantics."""
from kerasish.callbacks.callback import Callback  # noqa: F401
from kerasish.callbacks.callback_list import CallbackList  # noqa: F401
from kerasish.callbacks.history import History  # noqa: F401
from kerasish.callbacks.progbar_logger import ProgbarLogger  # noqa: F401
from kerasish.callbacks.monitor_callback import MonitorCallback  # noqa: F401
from kerasish.callbacks.early_stopping import EarlyStopping  # noqa: F401
from kerasish.callbacks.model_checkpoint import ModelCheckpoint  # noqa: F401
from kerasish.callbacks.backup_and_restore import (  # noqa: F401
    BackupAndRestore)
from kerasish.callbacks.reduce_lr_on_plateau import (  # noqa: F401
    ReduceLROnPlateau)
from kerasish.callbacks.learning_rate_scheduler import (  # noqa: F401
    LearningRateScheduler)
from kerasish.callbacks.csv_logger import CSVLogger  # noqa: F401
from kerasish.callbacks.terminate_on_nan import TerminateOnNaN  # noqa: F401
from kerasish.callbacks.lambda_callback import LambdaCallback  # noqa: F401
from kerasish.callbacks.remote_monitor import RemoteMonitor  # noqa: F401
from kerasish.callbacks.swap_ema_weights import SwapEMAWeights  # noqa: F401
from kerasish.callbacks.tensorboard import TensorBoard  # noqa: F401
