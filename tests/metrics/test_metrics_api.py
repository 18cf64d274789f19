"""The metrics' public surface: configs, `_direction` and variable paths
equal to Keras's, `get` name resolution, shared function objects, errors.

`KERAS_CONFIGS` was printed by `fixtures/gen_metric_configs.py` (real Keras
3.15.1/JAX), one entry per metric of `fixtures/config_cases.py`.
"""
import warnings

import numpy as np
import pytest

import kerasish
from kerasish import losses, metrics
from tests.metrics.fixtures.config_cases import CONFIG_CASES

KERAS_CONFIGS = [{'config': {'name': 'mean', 'dtype': 'float32'},
  'direction': None,
  'variables': ['mean/total', 'mean/count']},
 {'config': {'name': 'sum', 'dtype': 'float32'},
  'direction': None,
  'variables': ['sum/total']},
 {'config': {'name': 'accuracy', 'dtype': 'float32'},
  'direction': 'up',
  'variables': ['accuracy/total', 'accuracy/count']},
 {'config': {'name': 'binary_accuracy',
             'dtype': 'float32',
             'threshold': 0.7},
  'direction': 'up',
  'variables': ['binary_accuracy/total', 'binary_accuracy/count']},
 {'config': {'name': 'categorical_accuracy', 'dtype': 'float32'},
  'direction': 'up',
  'variables': ['categorical_accuracy/total',
                'categorical_accuracy/count']},
 {'config': {'name': 'sparse_categorical_accuracy', 'dtype': 'float32'},
  'direction': 'up',
  'variables': ['sparse_categorical_accuracy/total',
                'sparse_categorical_accuracy/count']},
 {'config': {'name': 'top_k_categorical_accuracy',
             'dtype': 'float32',
             'k': 3},
  'direction': 'up',
  'variables': ['top_k_categorical_accuracy/total',
                'top_k_categorical_accuracy/count']},
 {'config': {'name': 'sparse_top_k_categorical_accuracy',
             'dtype': 'float32',
             'k': 5},
  'direction': 'up',
  'variables': ['sparse_top_k_categorical_accuracy/total',
                'sparse_top_k_categorical_accuracy/count']},
 {'config': {'name': 'sparse_top_k_categorical_accuracy',
             'dtype': 'float32',
             'k': 5,
             'from_sorted_ids': True},
  'direction': 'up',
  'variables': ['sparse_top_k_categorical_accuracy/total',
                'sparse_top_k_categorical_accuracy/count']},
 {'config': {'name': 'mean_squared_error', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['mean_squared_error/total', 'mean_squared_error/count']},
 {'config': {'name': 'mean_absolute_error', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['mean_absolute_error/total', 'mean_absolute_error/count']},
 {'config': {'name': 'mean_absolute_percentage_error', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['mean_absolute_percentage_error/total',
                'mean_absolute_percentage_error/count']},
 {'config': {'name': 'mean_squared_logarithmic_error', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['mean_squared_logarithmic_error/total',
                'mean_squared_logarithmic_error/count']},
 {'config': {'name': 'root_mean_squared_error', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['root_mean_squared_error/total',
                'root_mean_squared_error/count']},
 {'config': {'name': 'cosine_similarity', 'dtype': 'float32'},
  'direction': 'up',
  'variables': ['cosine_similarity/total', 'cosine_similarity/count']},
 {'config': {'name': 'logcosh', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['logcosh/total', 'logcosh/count']},
 {'config': {'name': 'r2_score',
             'dtype': 'float32',
             'class_aggregation': 'uniform_average',
             'num_regressors': 1},
  'direction': 'up',
  'variables': ['r2_score/num_samples',
                'r2_score/squared_sum',
                'r2_score/sum',
                'r2_score/residual',
                'r2_score/count']},
 {'config': {'name': 'kl_divergence', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['kl_divergence/total', 'kl_divergence/count']},
 {'config': {'name': 'poisson', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['poisson/total', 'poisson/count']},
 {'config': {'name': 'binary_crossentropy',
             'dtype': 'float32',
             'from_logits': True,
             'label_smoothing': 0},
  'direction': 'down',
  'variables': ['binary_crossentropy/total', 'binary_crossentropy/count']},
 {'config': {'name': 'categorical_crossentropy',
             'dtype': 'float32',
             'from_logits': False,
             'label_smoothing': 0.1,
             'axis': -1},
  'direction': 'down',
  'variables': ['categorical_crossentropy/total',
                'categorical_crossentropy/count']},
 {'config': {'name': 'sparse_categorical_crossentropy',
             'dtype': 'float32',
             'from_logits': False,
             'ignore_class': 0,
             'axis': -1},
  'direction': 'down',
  'variables': ['sparse_categorical_crossentropy/total',
                'sparse_categorical_crossentropy/count']},
 {'config': {'name': 'hinge', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['hinge/total', 'hinge/count']},
 {'config': {'name': 'squared_hinge', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['squared_hinge/total', 'squared_hinge/count']},
 {'config': {'name': 'categorical_hinge', 'dtype': 'float32'},
  'direction': 'down',
  'variables': ['categorical_hinge/total', 'categorical_hinge/count']},
 {'config': {'name': 'true_positives',
             'dtype': 'float32',
             'thresholds': None},
  'direction': None,
  'variables': ['true_positives/accumulator']},
 {'config': {'name': 'false_positives',
             'dtype': 'float32',
             'thresholds': [0.3]},
  'direction': None,
  'variables': ['false_positives/accumulator']},
 {'config': {'name': 'true_negatives',
             'dtype': 'float32',
             'thresholds': None},
  'direction': None,
  'variables': ['true_negatives/accumulator']},
 {'config': {'name': 'false_negatives',
             'dtype': 'float32',
             'thresholds': None},
  'direction': None,
  'variables': ['false_negatives/accumulator']},
 {'config': {'name': 'precision',
             'dtype': 'float32',
             'thresholds': None,
             'top_k': 2,
             'class_id': None},
  'direction': 'up',
  'variables': ['precision/true_positives', 'precision/false_positives']},
 {'config': {'name': 'recall',
             'dtype': 'float32',
             'thresholds': [0.2, 0.4],
             'top_k': None,
             'class_id': 1},
  'direction': 'up',
  'variables': ['recall/true_positives', 'recall/false_negatives']},
 {'config': {'name': 'auc',
             'dtype': 'float32',
             'num_thresholds': 200,
             'curve': 'ROC',
             'summation_method': 'interpolation',
             'multi_label': False,
             'num_labels': None,
             'label_weights': None,
             'from_logits': False},
  'direction': 'up',
  'variables': ['auc/true_positives',
                'auc/false_positives',
                'auc/true_negatives',
                'auc/false_negatives']},
 {'config': {'name': 'auc',
             'dtype': 'float32',
             'num_thresholds': 4,
             'curve': 'PR',
             'summation_method': 'majoring',
             'multi_label': False,
             'num_labels': None,
             'label_weights': None,
             'from_logits': False,
             'thresholds': [0.3, 0.6]},
  'direction': 'up',
  'variables': ['auc/true_positives',
                'auc/false_positives',
                'auc/true_negatives',
                'auc/false_negatives']},
 {'config': {'name': 'auc',
             'dtype': 'float32',
             'num_thresholds': 200,
             'curve': 'ROC',
             'summation_method': 'interpolation',
             'multi_label': True,
             'num_labels': 2,
             'label_weights': [1.0, 2.0],
             'from_logits': False},
  'direction': 'up',
  'variables': ['auc/true_positives',
                'auc/false_positives',
                'auc/true_negatives',
                'auc/false_negatives']},
 {'config': {'name': 'precision_at_recall',
             'dtype': 'float32',
             'class_id': None,
             'num_thresholds': 200,
             'recall': 0.5},
  'direction': 'up',
  'variables': ['precision_at_recall/true_positives',
                'precision_at_recall/false_positives',
                'precision_at_recall/true_negatives',
                'precision_at_recall/false_negatives']},
 {'config': {'name': 'recall_at_precision',
             'dtype': 'float32',
             'class_id': None,
             'num_thresholds': 10,
             'precision': 0.5},
  'direction': 'up',
  'variables': ['recall_at_precision/true_positives',
                'recall_at_precision/false_positives',
                'recall_at_precision/true_negatives',
                'recall_at_precision/false_negatives']},
 {'config': {'name': 'sensitivity_at_specificity',
             'dtype': 'float32',
             'class_id': 1,
             'num_thresholds': 200,
             'specificity': 0.5},
  'direction': 'up',
  'variables': ['sensitivity_at_specificity/true_positives',
                'sensitivity_at_specificity/false_positives',
                'sensitivity_at_specificity/true_negatives',
                'sensitivity_at_specificity/false_negatives']},
 {'config': {'name': 'specificity_at_sensitivity',
             'dtype': 'float32',
             'class_id': None,
             'num_thresholds': 200,
             'sensitivity': 0.5},
  'direction': 'up',
  'variables': ['specificity_at_sensitivity/true_positives',
                'specificity_at_sensitivity/false_positives',
                'specificity_at_sensitivity/true_negatives',
                'specificity_at_sensitivity/false_negatives']},
 {'config': {'name': 'f1_score',
             'dtype': 'float32',
             'average': None,
             'threshold': None},
  'direction': 'up',
  'variables': ['f1_score/true_positives',
                'f1_score/false_positives',
                'f1_score/false_negatives',
                'f1_score/intermediate_weights']},
 {'config': {'name': 'f1_score',
             'dtype': 'float32',
             'average': 'micro',
             'threshold': None},
  'direction': 'up',
  'variables': ['f1_score/true_positives',
                'f1_score/false_positives',
                'f1_score/false_negatives',
                'f1_score/intermediate_weights']},
 {'config': {'name': 'fbeta_score',
             'dtype': 'float32',
             'average': None,
             'beta': 2.0,
             'threshold': 0.5},
  'direction': 'up',
  'variables': ['fbeta_score/true_positives',
                'fbeta_score/false_positives',
                'fbeta_score/false_negatives',
                'fbeta_score/intermediate_weights']},
 {'config': {'name': 'io_u',
             'dtype': 'int32',
             'num_classes': 3,
             'target_class_ids': [0, 2],
             'ignore_class': None,
             'sparse_y_true': True,
             'sparse_y_pred': True,
             'axis': -1},
  'direction': 'up',
  'variables': ['io_u/total_confusion_matrix']},
 {'config': {'num_classes': 3,
             'name': 'mean_io_u',
             'dtype': 'int32',
             'ignore_class': 1,
             'sparse_y_true': True,
             'sparse_y_pred': True,
             'axis': -1},
  'direction': 'up',
  'variables': ['mean_io_u/total_confusion_matrix']},
 {'config': {'target_class_ids': [0, 1],
             'threshold': 0.5,
             'name': 'binary_io_u',
             'dtype': 'int32'},
  'direction': 'up',
  'variables': ['binary_io_u/total_confusion_matrix']},
 {'config': {'num_classes': 3,
             'target_class_ids': [1],
             'name': 'one_hot_io_u',
             'dtype': 'int32',
             'ignore_class': None,
             'sparse_y_pred': False,
             'axis': -1},
  'direction': 'up',
  'variables': ['one_hot_io_u/total_confusion_matrix']},
 {'config': {'num_classes': 3,
             'name': 'one_hot_mean_io_u',
             'dtype': 'int32',
             'ignore_class': None,
             'sparse_y_pred': False,
             'axis': -1},
  'direction': 'up',
  'variables': ['one_hot_mean_io_u/total_confusion_matrix']},
 {'config': {'name': 'pearson_correlation',
             'dtype': 'float32',
             'axis': -1},
  'direction': 'up',
  'variables': ['pearson_correlation/total', 'pearson_correlation/count']},
 {'config': {'name': 'concordance_correlation',
             'dtype': 'float32',
             'axis': -1},
  'direction': 'up',
  'variables': ['concordance_correlation/total',
                'concordance_correlation/count']}]


def _build(cls_name, kwargs, batch):
    metric = getattr(metrics, cls_name)(**kwargs)
    if batch is not None:
        metric.update_state(*batch)
    return metric


@pytest.mark.parametrize("index", range(len(CONFIG_CASES)))
def test_config_direction_and_variables_match_keras(index):
    cls_name, kwargs, batch = CONFIG_CASES[index]
    expected = KERAS_CONFIGS[index]
    metric = _build(cls_name, kwargs, batch)
    assert metric.get_config() == expected["config"]
    assert getattr(metric, "_direction", None) == expected["direction"]
    assert [v.path for v in metric.variables] == expected["variables"]


@pytest.mark.parametrize("index", range(len(CONFIG_CASES)))
def test_config_round_trip(index):
    cls_name, kwargs, batch = CONFIG_CASES[index]
    metric = _build(cls_name, kwargs, batch)
    config = metric.get_config()
    clone = type(metric).from_config(config)
    assert clone.get_config() == config
    restored = metrics.deserialize(metrics.serialize(metric))
    assert type(restored) is type(metric)
    assert restored.get_config() == config


def test_non_default_optional_arguments_survive_a_round_trip():
    # Keras drops `axis` from CosineSimilarity's config; kerasish writes it
    # when it is not the default, so a reload keeps it.
    metric = metrics.CosineSimilarity(axis=0)
    assert metrics.CosineSimilarity.from_config(
        metric.get_config()).axis == 0
    assert "axis" not in metrics.CosineSimilarity().get_config()


@pytest.mark.parametrize("name, cls", [
    ("mse", "MeanSquaredError"), ("MSE", "MeanSquaredError"),
    ("mean_squared_error", "MeanSquaredError"),
    ("mae", "MeanAbsoluteError"), ("mape", "MeanAbsolutePercentageError"),
    ("msle", "MeanSquaredLogarithmicError"), ("bce", "BinaryCrossentropy"),
    ("auc", "AUC"), ("AUC", "AUC"), ("precision", "Precision"),
    ("r2_score", "R2Score"), ("f1_score", "F1Score"),
    ("sparse_top_k_categorical_accuracy", "SparseTopKCategoricalAccuracy"),
    ("root_mean_squared_error", "RootMeanSquaredError"),
])
def test_get_resolves_names_as_keras(name, cls):
    assert type(metrics.get(name)).__name__ == cls


def test_get_passes_callables_and_instantiates_classes():
    assert metrics.get(metrics.binary_accuracy) is metrics.binary_accuracy
    assert isinstance(metrics.get(metrics.Recall), metrics.Recall)
    assert metrics.get(None) is None


def test_get_unknown_name_raises():
    with pytest.raises(ValueError, match="Could not interpret metric "
                                         "identifier: accuracyy"):
        metrics.get("accuracyy")


@pytest.mark.parametrize("name", [
    "binary_crossentropy", "binary_focal_crossentropy",
    "categorical_crossentropy", "categorical_focal_crossentropy",
    "categorical_hinge", "hinge", "huber", "kl_divergence", "log_cosh",
    "mean_absolute_error", "mean_absolute_percentage_error",
    "mean_squared_error", "mean_squared_logarithmic_error", "poisson",
    "sparse_categorical_crossentropy", "squared_hinge"])
def test_loss_functions_are_the_same_objects(name):
    assert getattr(metrics, name) is getattr(losses, name)


def test_wrapping_a_loss_function_points_down():
    assert metrics.MeanMetricWrapper(losses.huber)._direction == "down"
    assert not hasattr(metrics.MeanMetricWrapper(metrics.binary_accuracy),
                       "_direction")


def test_mean_metric_wrapper_config_names_the_function():
    m = metrics.MeanMetricWrapper(metrics.binary_accuracy, name="acc")
    config = m.get_config()
    assert config["fn"]["config"] == "binary_accuracy"
    assert metrics.MeanMetricWrapper.from_config(config)._fn is \
        metrics.binary_accuracy


@pytest.mark.parametrize("make, message", [
    (lambda: metrics.Precision(thresholds=[0.5, 1.5]),
     r"Threshold values must be in \[0, 1\]"),
    (lambda: metrics.AUC(num_thresholds=1), "num_thresholds"),
    (lambda: metrics.AUC(curve="XY"), "Invalid AUC curve"),
    (lambda: metrics.AUC(summation_method="mid"), "summation method"),
    (lambda: metrics.AUC(num_labels=3), "multi_label"),
    (lambda: metrics.PrecisionAtRecall(1.5), "recall"),
    (lambda: metrics.SensitivityAtSpecificity(0.5, num_thresholds=0),
     "num_thresholds"),
    (lambda: metrics.FBetaScore(beta=2), "beta"),
    (lambda: metrics.FBetaScore(average="median"), "average"),
    (lambda: metrics.F1Score(threshold=1.5), "threshold"),
    (lambda: metrics.IoU(num_classes=2, target_class_ids=[2]),
     "out of range"),
    (lambda: metrics.R2Score(class_aggregation="max"), "class_aggregation"),
    (lambda: metrics.R2Score(num_regressors=-1), "num_regressors"),
])
def test_bad_arguments_raise(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_f1_and_r2_need_two_dimensional_inputs():
    with pytest.raises(ValueError, match="2D inputs"):
        metrics.F1Score().update_state([1, 0], [0.2, 0.9])
    with pytest.raises(ValueError, match="2D inputs"):
        metrics.R2Score().update_state(np.ones((2, 2, 2)), np.ones((2, 2, 2)))


def test_adjusted_r2_with_too_few_samples_warns_and_falls_back():
    m = metrics.R2Score(num_regressors=5)
    m.update_state([[1.0], [2.0], [4.0]], [[1.5], [2.0], [3.0]])
    with pytest.warns(UserWarning, match="More independent predictors"):
        value = float(m.result())
    plain = metrics.R2Score()
    plain.update_state([[1.0], [2.0], [4.0]], [[1.5], [2.0], [3.0]])
    assert value == pytest.approx(float(plain.result()))


def test_metric_updates_do_not_record_on_a_tape():
    m = metrics.MeanSquaredError()
    x = kerasish.Variable([[1.0, 2.0]])
    with kerasish.GradientTape() as tape:
        m.update_state([[0.0, 0.0]], x)
        loss = kerasish.ops.sum(x)
    assert np.allclose(tape.gradient(loss, x).numpy(), 1.0)
    assert float(m.result()) == pytest.approx(2.5)


def test_results_are_snapshots():
    m = metrics.Sum()
    m.update_state([1.0, 2.0])
    first = m.result()
    m.update_state([4.0])
    assert float(first) == 3.0 and float(m.result()) == 7.0


def test_int_iou_warns_on_float_weights():
    m = metrics.MeanIoU(num_classes=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m.update_state([0, 1], [0, 1], sample_weight=[0.5, 1.0])
    assert any("integer weights" in str(w.message) for w in caught)


def test_integer_mean_divides_to_float32():
    # Keras's divide_no_nan: an int32 total over an int32 count is float32.
    metric = kerasish.metrics.Mean(dtype="int32")
    assert metric.result().dtype == np.float32
    metric.update_state([1, 2, 4])
    result = metric.result()
    assert result.dtype == np.float32
    np.testing.assert_allclose(float(result), 7 / 3, rtol=1e-6)


def test_stateless_update_reset_and_result_change_nothing():
    # The JAX guide's stateless loop: values in, values out.
    metric = kerasish.metrics.Mean()
    start = [v.numpy() for v in metric.variables]
    after = metric.stateless_update_state(start, np.array([1.0, 3.0]))
    after = metric.stateless_update_state(after, np.array([5.0]))
    assert [float(np.asarray(v)) for v in after] == [9.0, 3.0]
    assert float(metric.stateless_result(after)) == 3.0
    assert [float(v.numpy()) for v in metric.variables] == [0.0, 0.0]
    metric.update_state([10.0])
    assert [float(np.asarray(v)) for v in metric.stateless_reset_state()] \
        == [0.0, 0.0]
    assert float(metric.result()) == 10.0
    with pytest.raises(ValueError, match="1:1 to Mean"):
        metric.stateless_update_state(start[:1], np.array([1.0]))


# Variable and result dtypes of metrics built with dtype="float64", from Keras
# 3.15.1 on the TensorFlow backend (JAX without x64 cannot hold float64).
# Keras creates the confusion-count and R2 variables without a dtype, so they
# are floatx whatever the metric's dtype; their results follow the variables.
_FLOAT64_CASES = [
    (lambda: metrics.Mean(dtype="float64"), "float64", "float64"),
    (lambda: metrics.BinaryAccuracy(dtype="float64"), "float64", "float64"),
    (lambda: metrics.F1Score(dtype="float64"), "float64", "float64"),
    (lambda: metrics.TruePositives(dtype="float64"), "float32", "float32"),
    (lambda: metrics.Precision(thresholds=[0.3, 0.6], dtype="float64"),
     "float32", "float32"),
    (lambda: metrics.Recall(top_k=1, dtype="float64"), "float32", "float32"),
    (lambda: metrics.AUC(dtype="float64"), "float32", "float32"),
    (lambda: metrics.AUC(curve="PR", multi_label=True, dtype="float64"),
     "float32", "float32"),
    # The float64 label weights promote the multi-label result.
    (lambda: metrics.AUC(multi_label=True, label_weights=[1, 2, 0, 1],
                         dtype="float64"), "float32", "float64"),
    (lambda: metrics.SensitivityAtSpecificity(0.5, dtype="float64"),
     "float32", "float32"),
    (lambda: metrics.RecallAtPrecision(0.5, dtype="float64"),
     "float32", "float32"),
    (lambda: metrics.R2Score(dtype="float64"), "float32", "float32"),
    (lambda: metrics.MeanIoU(num_classes=4, dtype="float64"),
     "float64", "float32"),
]


@pytest.mark.parametrize("make,var_dtype,result_dtype", _FLOAT64_CASES)
def test_variable_and_result_dtypes_match_keras(make, var_dtype,
                                                result_dtype):
    rng = np.random.default_rng(0)
    y_true = (rng.uniform(size=(6, 4)) > 0.5).astype("float32")
    y_pred = rng.uniform(size=(6, 4)).astype("float32")
    metric = make()
    if isinstance(metric, metrics.MeanIoU):
        y_true, y_pred = y_true[:, 0], (y_pred[:, 0] > 0.5).astype("int32")
    if type(metric) is metrics.Mean:
        metric.update_state(y_pred)
    else:
        metric.update_state(y_true, y_pred)
    assert metric.dtype == "float64"
    assert {str(v.dtype) for v in metric.variables} == {var_dtype}
    assert str(metric.result().dtype) == result_dtype


def test_custom_metric_variables_default_to_floatx():
    # Keras: add_variable without a dtype makes a floatx variable.
    class Count(metrics.Metric):
        def __init__(self):
            super().__init__(name="count", dtype="float64")
            self.n = self.add_variable((), "zeros", name="n")

    assert str(Count().n.dtype) == "float32"


@pytest.mark.parametrize("fn, y_true, y_pred", [
    # Integer labels given to the one-hot metric (Keras: ValueError too).
    (metrics.top_k_categorical_accuracy, [0, 2], [[0.1, 0.9], [0.8, 0.2]]),
    # One-hot labels given to the sparse metric.
    (metrics.sparse_top_k_categorical_accuracy, np.eye(3)[[0, 2]],
     [[0.1, 0.5, 0.4], [0.8, 0.1, 0.1]]),
    (metrics.sparse_top_k_categorical_accuracy, [0, 1], [0.3, 0.7]),
])
def test_top_k_mismatched_shapes_raise_value_error(fn, y_true, y_pred):
    with pytest.raises(ValueError, match="y_true.shape=.*y_pred.shape="):
        fn(np.asarray(y_true), np.asarray(y_pred))


def test_auc_reads_keras_tensor_label_weights():
    # Keras 3.15 keeps `label_weights` as a tensor in the config, so its
    # saved compile config holds this `__tensor__` form (which Keras itself
    # then fails to load).
    config = {"module": "keras.metrics", "class_name": "AUC",
              "registered_name": None,
              "config": {"name": "auc", "dtype": "float32",
                         "num_thresholds": 200, "curve": "ROC",
                         "summation_method": "interpolation",
                         "multi_label": True, "num_labels": None,
                         "from_logits": False,
                         "label_weights": {"class_name": "__tensor__",
                                           "config": {"value": [1.0, 2.0],
                                                      "dtype": "float32"}}}}
    auc = metrics.deserialize(config)
    assert auc.get_config()["label_weights"] == [1.0, 2.0]


@pytest.mark.parametrize("fn", [metrics.sparse_categorical_accuracy,
                                metrics.sparse_top_k_categorical_accuracy])
def test_metric_functions_on_keras_tensors_build_graph_nodes(fn):
    labels = kerasish.Input((5,), dtype="int32")
    scores = kerasish.Input((5, 3))
    assert tuple(fn(labels, scores).shape) == (None, 5)
