"""Keras 2 training shims that Keras 3 keeps (on TensorFlow) for old code.

A custom `train_step` written for Keras 2 computes its loss with
`self.compiled_loss(y, y_pred, regularization_losses=self.losses)` and
updates its metrics with `self.compiled_metrics.update_state(y, y_pred)`.
Keras 3 still runs such code, warning that both are deprecated, so kerasish
does too, with the same results: the loss is `compute_loss` (which already
adds `model.losses`, so `regularization_losses` is not added again), and
the metric update hands each `Mean` in `model.metrics` the predictions
alone (so the `"loss"` tracker logs the mean prediction, exactly as Keras
3 does) and every other metric `(y, y_pred, sample_weight)`.
"""
import warnings

from kerasish.metrics.reduction_metrics import Mean

_LOSS_MESSAGE = ("`model.compiled_loss()` is deprecated. Instead, use "
                 "`model.compute_loss(x, y, y_pred, sample_weight, "
                 "training)`.")
_METRICS_MESSAGE = ("`model.compiled_metrics()` is deprecated. Instead, "
                    "use e.g.:\n```\nfor metric in self.metrics:\n    "
                    "metric.update_state(y, y_pred)\n```\n")


class _CompiledMetrics:
    """What `model.compiled_metrics` returns: only `update_state`."""

    def __init__(self, model):
        self._model = model

    def update_state(self, y, y_pred, sample_weight=None):
        """Update every metric of the model (deprecated, as Keras)."""
        warnings.warn(_METRICS_MESSAGE, stacklevel=2)
        for metric in self._model.metrics:
            if isinstance(metric, Mean):
                metric.update_state(y_pred, sample_weight=sample_weight)
            else:
                metric.update_state(y, y_pred, sample_weight=sample_weight)


class LegacyTrainingShims:
    """`compiled_loss` and `compiled_metrics`, as Keras 3 keeps them.

    Example:

    >>> import warnings
    >>> import numpy as np
    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> model.compile(loss="mse")
    >>> y = np.zeros((3, 1), "float32")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     loss = model.compiled_loss(y, y + 2.0)
    >>> float(loss)
    4.0
    """

    @property
    def compiled_metrics(self):
        """An object whose `update_state(y, y_pred, sample_weight=None)`
        updates the model's metrics (deprecated: loop over
        `model.metrics` instead)."""
        return _CompiledMetrics(self)

    def compiled_loss(self, y, y_pred, sample_weight=None,
                      regularization_losses=None):
        """The compiled loss plus `model.losses` (deprecated: use
        `compute_loss`). `regularization_losses` is ignored, as in Keras
        3: `compute_loss` already adds the model's losses."""
        warnings.warn(_LOSS_MESSAGE, stacklevel=2)
        return self.compute_loss(x=None, y=y, y_pred=y_pred,
                                 sample_weight=sample_weight)
