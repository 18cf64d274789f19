"""All loss functions and classes of `keras.losses`, in one namespace.

The implementations live in one module per family (regression,
cross-entropy, focal, probabilistic, hinge, overlap, circle, ctc); this
module gathers them, as Keras's `losses/losses.py` does.
"""
from kerasish.losses.wrapper import (  # noqa: F401
    LossFunctionWrapper, BuiltinLoss)
from kerasish.losses.regression import (  # noqa: F401
    mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
    mean_squared_logarithmic_error, cosine_similarity, huber, log_cosh,
    check_broadcastable, MeanSquaredError, MeanAbsoluteError,
    MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
    CosineSimilarity, Huber, LogCosh)
from kerasish.losses.crossentropy import (  # noqa: F401
    binary_crossentropy, categorical_crossentropy,
    sparse_categorical_crossentropy, BinaryCrossentropy,
    CategoricalCrossentropy, SparseCategoricalCrossentropy)
from kerasish.losses.focal import (  # noqa: F401
    binary_focal_crossentropy, categorical_focal_crossentropy,
    categorical_generalized_cross_entropy, BinaryFocalCrossentropy,
    CategoricalFocalCrossentropy, CategoricalGeneralizedCrossEntropy)
from kerasish.losses.probabilistic import (  # noqa: F401
    kl_divergence, poisson, KLDivergence, Poisson)
from kerasish.losses.hinge import (  # noqa: F401
    hinge, squared_hinge, categorical_hinge, Hinge, SquaredHinge,
    CategoricalHinge)
from kerasish.losses.overlap import dice, tversky, Dice, Tversky  # noqa
from kerasish.losses.circle import circle, Circle  # noqa: F401
from kerasish.losses.ctc import ctc, CTC  # noqa: F401

__all__ = [
    "mean_squared_error", "mean_absolute_error",
    "mean_absolute_percentage_error", "mean_squared_logarithmic_error",
    "cosine_similarity", "huber", "log_cosh", "binary_crossentropy",
    "categorical_crossentropy", "sparse_categorical_crossentropy",
    "binary_focal_crossentropy", "categorical_focal_crossentropy",
    "categorical_generalized_cross_entropy", "kl_divergence", "poisson",
    "hinge", "squared_hinge", "categorical_hinge", "dice", "tversky",
    "circle", "ctc",
    "MeanSquaredError", "MeanAbsoluteError", "MeanAbsolutePercentageError",
    "MeanSquaredLogarithmicError", "CosineSimilarity", "Huber", "LogCosh",
    "BinaryCrossentropy", "CategoricalCrossentropy",
    "SparseCategoricalCrossentropy", "BinaryFocalCrossentropy",
    "CategoricalFocalCrossentropy", "CategoricalGeneralizedCrossEntropy",
    "KLDivergence", "Poisson", "Hinge", "SquaredHinge", "CategoricalHinge",
    "Dice", "Tversky", "Circle", "CTC",
]
