"""`SwapEMAWeights`: evaluate and predict with the optimizer's EMA weights."""
from kerasish.callbacks.callback import Callback
from kerasish.saving.object_registration import builtin


def _ema_pairs(optimizer):
    # A LossScaleOptimizer (mixed precision) keeps the averages in the
    # optimizer it wraps.
    optimizer = getattr(optimizer, "inner_optimizer", optimizer)
    averages = getattr(optimizer, "_model_variables_moving_average", None)
    if averages is None:
        averages = getattr(optimizer, "_average", None)
    if not getattr(optimizer, "use_ema", False) or averages is None:
        raise ValueError(
            "SwapEMAWeights must be used when `use_ema=True` is set on the "
            f"optimizer. Received: use_ema={getattr(optimizer, 'use_ema', 0)}")
    return [(v, a) for v, a in zip(optimizer._trainable_variables, averages)
            if a is not None]


@builtin("keras.callbacks")
class SwapEMAWeights(Callback):
    """Swap the model's weights with their exponential moving average.

    Needs an optimizer with `use_ema=True` (possibly wrapped in a
    `LossScaleOptimizer`). Validation (`on_test_*`) and
    `predict` run with the EMA weights, then the training weights come
    back. With `swap_on_epoch=True` the EMA weights are also in the model
    between epochs (so `ModelCheckpoint` saves them), and after the last
    epoch they stay there.

    Keras leaves the EMA weights in the model after `predict` (its
    `on_predict_end` tests the wrong flag); kerasish swaps them back, as the
    documentation promises.

    Args:
        swap_on_epoch: Also swap at each epoch end (and back at the next
            epoch begin). Defaults to `False`.

    Example:

    >>> import kerasish as keras
    >>> opt = keras.optimizers.SGD(0.1, use_ema=True)
    >>> cb = keras.callbacks.SwapEMAWeights(swap_on_epoch=True)
    """

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    def _swap(self):
        for variable, average in _ema_pairs(self.model.optimizer):
            saved = variable.numpy().copy()
            variable.assign(average.numpy())
            average.assign(saved)

    def _finalize(self):
        for variable, average in _ema_pairs(self.model.optimizer):
            average.assign(variable.numpy())

    def _to_ema(self):
        if not self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = True

    def _to_training(self):
        if self._ema_weights_in_model:
            self._swap()
            self._ema_weights_in_model = False

    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch:
            self._to_training()

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._to_ema()
            if epoch == self.params["epochs"] - 1:
                self._finalize()

    def on_test_begin(self, logs=None):
        self._to_ema()

    def on_test_end(self, logs=None):
        self._to_training()

    def on_predict_begin(self, logs=None):
        self._to_ema()

    def on_predict_end(self, logs=None):
        self._to_training()

    def get_state(self):
        return {"ema_in_model": self._ema_weights_in_model}

    def set_state(self, state):
        self._ema_weights_in_model = state["ema_in_model"]
