"""`kerasish.metrics`: `keras.metrics` classes, functions and `get`.

`get` resolves names exactly as Keras does: class names, their snake_case
forms (`"mean_squared_error"` -> `MeanSquaredError()`) and the short
aliases (`"mse"`, `"MAE"`, `"bce"`, ...); the loss functions exported here
are the very objects of `kerasish.losses`.
"""
from kerasish.metrics.metric import Metric  # noqa: F401
from kerasish.metrics.reduction_metrics import (  # noqa: F401
    Sum, Mean, MeanMetricWrapper)
from kerasish.metrics.accuracy_metrics import (  # noqa: F401
    Accuracy, BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, binary_accuracy,
    categorical_accuracy, sparse_categorical_accuracy,
    top_k_categorical_accuracy, sparse_top_k_categorical_accuracy)
from kerasish.metrics.regression_metrics import (  # noqa: F401
    MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, RootMeanSquaredError, CosineSimilarity,
    LogCoshError, R2Score)
from kerasish.metrics.probabilistic_metrics import (  # noqa: F401
    KLDivergence, Poisson, BinaryCrossentropy, CategoricalCrossentropy,
    SparseCategoricalCrossentropy)
from kerasish.metrics.hinge_metrics import (  # noqa: F401
    Hinge, SquaredHinge, CategoricalHinge)
from kerasish.metrics.confusion_metrics import (  # noqa: F401
    TruePositives, FalsePositives, TrueNegatives, FalseNegatives, Precision,
    Recall)
from kerasish.metrics.sensitivity_metrics import (  # noqa: F401
    SensitivityAtSpecificity, SpecificityAtSensitivity, PrecisionAtRecall,
    RecallAtPrecision)
from kerasish.metrics.auc import AUC  # noqa: F401
from kerasish.metrics.f_score_metrics import FBetaScore, F1Score  # noqa
from kerasish.metrics.iou_metrics import (  # noqa: F401
    IoU, MeanIoU, BinaryIoU, OneHotIoU, OneHotMeanIoU)
from kerasish.metrics.correlation_metrics import (  # noqa: F401
    PearsonCorrelation, ConcordanceCorrelation, pearson_correlation,
    concordance_correlation)
from kerasish.losses.losses import (  # noqa: F401
    binary_crossentropy, binary_focal_crossentropy, categorical_crossentropy,
    categorical_focal_crossentropy, categorical_hinge, hinge, huber,
    kl_divergence, log_cosh, mean_absolute_error,
    mean_absolute_percentage_error, mean_squared_error,
    mean_squared_logarithmic_error, poisson, sparse_categorical_crossentropy,
    squared_hinge)
from kerasish.backend.common.naming import to_snake_case as _snake
from kerasish.saving import object_registration as _registry
from kerasish.saving import serialization_lib as _serialization

_CLASSES = [
    Metric, Mean, Sum, MeanMetricWrapper, MeanSquaredError,
    RootMeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
    MeanSquaredLogarithmicError, CosineSimilarity, LogCoshError, R2Score,
    AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall,
    Recall, RecallAtPrecision, SensitivityAtSpecificity,
    SpecificityAtSensitivity, TrueNegatives, TruePositives,
    ConcordanceCorrelation, PearsonCorrelation, Hinge, SquaredHinge,
    CategoricalHinge, KLDivergence, Poisson, BinaryCrossentropy,
    CategoricalCrossentropy, SparseCategoricalCrossentropy, Accuracy,
    BinaryAccuracy, CategoricalAccuracy, SparseCategoricalAccuracy,
    TopKCategoricalAccuracy, SparseTopKCategoricalAccuracy, F1Score,
    FBetaScore, IoU, BinaryIoU, MeanIoU, OneHotIoU, OneHotMeanIoU]
_NAMES = {cls.__name__: cls for cls in _CLASSES}
_NAMES.update({_snake(cls.__name__): cls for cls in _CLASSES})
_NAMES.update({"bce": BinaryCrossentropy, "BCE": BinaryCrossentropy,
               "mse": MeanSquaredError, "MSE": MeanSquaredError,
               "mae": MeanAbsoluteError, "MAE": MeanAbsoluteError,
               "mape": MeanAbsolutePercentageError,
               "MAPE": MeanAbsolutePercentageError,
               "msle": MeanSquaredLogarithmicError,
               "MSLE": MeanSquaredLogarithmicError})


def serialize(metric):
    """Serialize a metric (or metric function) to Keras's config format.

    Example:

    >>> serialize(Mean())["class_name"]
    'Mean'
    """
    return _serialization.serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """Rebuild a metric from `serialize`'s output.

    Example:

    >>> deserialize(serialize(AUC(num_thresholds=10))).num_thresholds
    10
    """
    table = dict(_registry.builtins_of("keras.metrics"))
    table.update(_NAMES)
    return _serialization.deserialize_keras_object(
        config, custom_objects=custom_objects, module_objects=table)


def get(identifier):
    """Resolve a metric identifier: name, config dict, class or callable.

    Names are class names, their snake_case forms and the aliases `mse`,
    `mae`, `mape`, `msle`, `bce` (any case as Keras lists them); classes
    are instantiated with their defaults.

    Example:

    >>> get("mse")
    <MeanSquaredError name=mean_squared_error>
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = _NAMES.get(identifier) or _registry.get_registered_object(
            identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if isinstance(obj, type) else obj
    raise ValueError(f"Could not interpret metric identifier: {identifier}")
