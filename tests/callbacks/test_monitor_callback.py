"""mode="auto": direction inference shared by the monitoring callbacks."""
import numpy as np
import pytest

import kerasish as keras
from kerasish.callbacks import EarlyStopping, ReduceLROnPlateau
from tests.callbacks.util import regression_model


def built_model(metrics=("mae",)):
    model = regression_model(metrics=list(metrics))
    # Compiled metrics are built on the first batch, as in Keras, where
    # the mode is resolved at the first epoch end.
    model.train_on_batch(np.ones((2, 3)), np.ones((2, 1)))
    return model


def resolved(monitor, metrics=("mae",)):
    cb = EarlyStopping(monitor=monitor)
    cb.set_model(built_model(metrics))
    cb._set_monitor_op()
    return cb.monitor_op.__name__


@pytest.mark.parametrize("monitor", ["loss", "val_loss", "val_reg_loss",
                                     "cls_loss", "my_custom_loss"])
def test_anything_ending_in_loss_is_minimised(monitor):
    # Keras raises ValueError for per-output losses such as val_reg_loss
    # (keras#18798); kerasish treats every "*loss" as a loss.
    assert resolved(monitor) == "_less"


def test_metric_direction_comes_from_the_compiled_metric():
    assert resolved("val_mae") == "_less"
    model = regression_model(metrics=())
    model.compile("sgd", "binary_crossentropy",
                  metrics=[keras.metrics.BinaryAccuracy(name="acc")])
    model.train_on_batch(np.ones((2, 3)), np.ones((2, 1)))
    cb = ReduceLROnPlateau(monitor="val_acc")
    cb.set_model(model)
    cb._set_monitor_op()
    assert cb.monitor_op.__name__ == "_greater"


def test_unknown_metric_asks_for_a_mode():
    with pytest.raises(ValueError, match="Pass `mode='max'`"):
        resolved("val_custom_score")


def test_min_delta_sign_and_first_value():
    cb = EarlyStopping(monitor="loss", min_delta=-0.5, mode="min")
    cb._set_monitor_op()
    assert cb.min_delta == -0.5
    assert cb._is_improvement(1.0, None)
    assert not cb._is_improvement(0.6, 1.0)
    assert cb._is_improvement(0.4, 1.0)
