"""Every built-in metric against values computed by real Keras 3.15.1/JAX.

The inputs are in `fixtures/cases.py`; `fixtures/gen_metric_refs.py`
printed `KERAS_REFS` below (two weighted batches per case).
"""
import warnings

import numpy as np
import pytest

from kerasish import metrics
from tests.metrics.fixtures.cases import CASES

KERAS_REFS = {
    'mean': 0.504782,
    'sum': 12.419201,
    'accuracy': 0.472199,
    'binary_accuracy': 0.519502,
    'categorical_accuracy': 0.208299,
    'sparse_categorical_accuracy': 0.25,
    'top_k': 0.239004,
    'sparse_top_k': 0.333333,
    'mse': 0.213689,
    'mae': 0.343629,
    'mape': 125.488113,
    'msle': 0.046339,
    'rmse': 0.462265,
    'cosine': 0.938078,
    'logcosh': 0.087874,
    'r2': 0.768534,
    'r2_none': [0.725179, 0.831814],
    'r2_variance': 0.776731,
    'r2_adjusted': 0.745271,
    'kld': 0.942469,
    'poisson': 0.862108,
    'bce': 0.91832,
    'bce_logits': 0.840125,
    'cce': 1.714533,
    'scce': 1.722897,
    'scce_ignore': 1.308851,
    'hinge': 1.06732,
    'squared_hinge': 1.318667,
    'categorical_hinge': 1.233083,
    'tp': 2.44,
    'fp_thresholds': [6.0, 3.0, 1.0],
    'tn': 3.25,
    'fn': [0.0, 3.44, 5.88],
    'precision': 0.455224,
    'precision_top_k': 0.375,
    'precision_class': [0.16962, 0.0],
    'recall': 0.414966,
    'recall_top_k': 0.301248,
    'auc': 0.444444,
    'auc_w': 0.463059,
    'auc_pr': 0.428718,
    'auc_pr_majoring': 0.484295,
    'auc_minoring': 0.444444,
    'auc_prgain': 0.109167,
    'auc_thresholds': 0.416667,
    'auc_multi': 0.548268,
    'auc_multi_weights': 0.539675,
    'auc_label_weights': 0.471795,
    'auc_logits': 0.444444,
    'sens_at_spec': 0.251701,
    'spec_at_sens': 0.333333,
    'prec_at_recall': 0.586987,
    'recall_at_prec': 0.0,
    'recall_at_prec_class': 1.0,
    'f1': [0.363636, 0.0, 0.333333],
    'f1_macro_w': 0.498883,
    'fbeta_micro': 0.523256,
    'fbeta_weighted': 0.1954,
    'iou': 0.45,
    'mean_iou': 0.505438,
    'mean_iou_ignore': 0.4375,
    'binary_iou': 0.356061,
    'one_hot_iou': 0.1,
    'one_hot_mean_iou': 0.140741,
    'pearson': 0.946636,
    'concordance': 0.785547,
}


def _run(spec):
    metric = getattr(metrics, spec["cls"])(**spec["kwargs"])
    for y_true, y_pred, weight in spec["batches"]:
        if y_true is None:
            metric.update_state(y_pred, sample_weight=weight)
        else:
            metric.update_state(y_true, y_pred, sample_weight=weight)
    return metric


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_keras(name):
    with warnings.catch_warnings():
        # Float weights on an int IoU matrix warn, as in Keras.
        warnings.simplefilter("ignore", UserWarning)
        metric = _run(CASES[name])
    np.testing.assert_allclose(np.asarray(metric.result()),
                               KERAS_REFS[name], rtol=1e-5, atol=2e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_reset_state_starts_over(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        metric = _run(CASES[name])
        metric.reset_state()
        spec = CASES[name]
        for y_true, y_pred, weight in spec["batches"]:
            args = (y_pred,) if y_true is None else (y_true, y_pred)
            metric.update_state(*args, sample_weight=weight)
    np.testing.assert_allclose(np.asarray(metric.result()),
                               KERAS_REFS[name], rtol=1e-5, atol=2e-6)


def test_every_case_has_a_reference():
    assert set(CASES) == set(KERAS_REFS)
