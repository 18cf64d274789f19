"""`LambdaCallback`: a callback made of plain functions."""
from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin

_HOOKS = ("on_epoch_begin", "on_epoch_end", "on_train_begin", "on_train_end",
          "on_train_batch_begin", "on_train_batch_end")


@builtin("keras.callbacks")
class LambdaCallback(Callback):
    """Build a callback from functions, called with positional arguments.

    Args:
        on_epoch_begin, on_epoch_end: `f(epoch, logs)`.
        on_train_begin, on_train_end: `f(logs)`.
        on_train_batch_begin, on_train_batch_end: `f(batch, logs)`.
        **kwargs: Any other hook by name (`on_test_end=f`, ...), set as an
            attribute as Keras does.

    Example:

    >>> seen = []
    >>> cb = LambdaCallback(on_epoch_end=lambda e, logs: seen.append(e))
    >>> cb.on_epoch_end(0, {})
    >>> seen
    [0]
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None,
                 on_train_begin=None, on_train_end=None,
                 on_train_batch_begin=None, on_train_batch_end=None,
                 **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        given = dict(zip(_HOOKS, (on_epoch_begin, on_epoch_end,
                                  on_train_begin, on_train_end,
                                  on_train_batch_begin, on_train_batch_end)))
        for name, fn in given.items():
            if fn is not None:
                setattr(self, name, _positional(fn) if "batch" in name
                        else fn)


def _positional(fn):
    """A batch hook taking `(batch, logs)` positionally, as documented,
    whatever its second parameter is called."""
    def hook(batch, logs=None):
        return fn(batch, logs)
    return hook
