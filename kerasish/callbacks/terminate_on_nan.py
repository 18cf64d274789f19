"""`TerminateOnNaN`: stop training when the loss becomes NaN or inf."""
import numpy as np

from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin
from kerasish.backend.common.global_state import print_msg


@builtin("keras.callbacks")
class TerminateOnNaN(Callback):
    """Stop `fit` at the first batch whose logged loss is NaN or inf.

    The check runs in `on_batch_end` (reached from `on_train_batch_end`).
    The epoch still runs its end-of-epoch hooks, so History records the
    non-finite value.

    Args:
        raise_error: If `True`, raise a `RuntimeError` instead of stopping
            gracefully (then `on_train_end` does not run). Default `False`.

    Example:

    >>> cb = TerminateOnNaN()
    >>> class Model:
    ...     stop_training = False
    >>> cb.set_model(Model())
    >>> cb.on_train_batch_end(3, {"loss": float("nan")})
    Batch 3: Invalid loss, terminating training
    >>> cb.model.stop_training
    True
    """

    def __init__(self, raise_error=False):
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is None or np.isfinite(loss):
            return
        if self.raise_error:
            raise RuntimeError(
                f"NaN or Inf loss encountered at batch {batch}. "
                f"Loss value: {loss}. Terminating training immediately.")
        print_msg(f"Batch {batch}: Invalid loss, terminating training")
        self.model.stop_training = True
