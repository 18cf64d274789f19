"""Neural-network ops (`keras.ops.nn`): one-hot, cross-entropy, moments.

Activations live in `nn_activations.py` and normalizations in
`nn_normalization.py`; both are re-exported here, as in `keras.ops.nn`.

The cross-entropies follow Keras 3's formulas exactly (probabilities are
renormalised and clipped to `[epsilon, 1 - epsilon]` before the log), so
losses match Keras to float32 rounding; the `from_logits` paths use fused
primitives.
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend import math as M
from kerasish.backend import nn as N
from kerasish.backend import shape as S
from kerasish.backend.primitive import nondiff, to_array
from kerasish.backend.tensor import Tensor
from kerasish.ops.core import convert_to_tensor, cast
from kerasish.ops import numpy as knp
from kerasish.ops.symbolic import keras_op
from kerasish.ops.nn_activations import *  # noqa: F401,F403
from kerasish.ops.nn_activations import _float, log_sigmoid
from kerasish.ops.nn_normalization import *  # noqa: F401,F403
from kerasish.ops.nn_attention import dot_product_attention  # noqa: F401
from kerasish.ops import nn_activations, nn_normalization

# Exactly the names of `keras.ops.nn`; helpers imported above stay private.
__all__ = sorted(nn_activations.__all__ + nn_normalization.__all__ + [
    "one_hot", "multi_hot", "categorical_crossentropy",
    "sparse_categorical_crossentropy", "binary_crossentropy", "moments",
    "normalize", "polar", "unfold", "fold", "depth_to_space",
    "space_to_depth", "ctc_loss", "ctc_decode", "average_pool", "conv",
    "conv_transpose", "depthwise_conv", "max_pool", "separable_conv",
    "dot_product_attention", "adaptive_average_pool", "adaptive_max_pool"])


@keras_op
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encode integer `x`; out-of-range indices give all zeros.

    Example:

    >>> np.asarray(kerasish.ops.one_hot(np.array([0, 2]), 3))
    array([[1., 0., 0.],
           [0., 0., 1.]], dtype=float32)
    """
    idx = np.asarray(to_array(x)).astype(np.int64)
    eye = np.eye(num_classes + 1, num_classes,
                 dtype=dtype or config.floatx())
    out = eye[np.where((idx >= 0) & (idx < num_classes), idx, num_classes)]
    if axis not in (-1, idx.ndim):
        out = np.moveaxis(out, -1, axis)
    return Tensor(out)


@keras_op
def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    """Multi-hot encode integer labels: one row per sample, 1 per label.

    Args:
        inputs: Int tensor of class indices, `(batch, labels)`.
        num_classes: Number of classes (size of the encoded axis).
        axis: Axis of the one-hot encoding, which is then reduced over
            its axis 1 (as Keras). Defaults to -1.
        dtype: Output dtype (default: floatx).
        sparse: Accepted for compatibility; kerasish has no sparse
            tensors, so the result is always dense.

    Returns:
        A tensor of shape `(batch, num_classes)`.

    Example:

    >>> labels = np.array([[0, 2], [1, 1]])
    >>> kerasish.ops.convert_to_numpy(kerasish.ops.multi_hot(labels, 3))
    array([[1., 0., 1.],
           [0., 1., 0.]], dtype=float32)
    """
    inputs = convert_to_tensor(inputs)
    hot = one_hot(inputs, num_classes, axis=axis, dtype=dtype)
    # Keras (every backend) reduces axis 1 of the one-hot tensor (axis 0 for
    # a vector of labels), whatever `axis` is: `(batch, labels)` gives
    # `(batch, num_classes)`, `(batch, steps, labels)` gives
    # `(batch, labels, num_classes)`.
    reduce_axis = 1 if inputs.ndim > 1 else 0
    return Tensor(np.max(hot._value, axis=reduce_axis))


def _check_same_shape(target, output):
    if tuple(target.shape) != tuple(output.shape):
        raise ValueError(
            "Arguments `target` and `output` must have the same shape. "
            f"Received: target.shape={target.shape}, "
            f"output.shape={output.shape}")


def _clipped_log_probs(output, axis):
    eps = config.epsilon()
    output = knp.divide(output, knp.sum(output, axis=axis, keepdims=True))
    return knp.log(knp.clip(output, eps, 1.0 - eps))


@keras_op
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between one-hot (or soft) `target` and `output`.

    Example:

    >>> target = np.array([[0.0, 1.0, 0.0]], "float32")
    >>> output = np.array([[0.1, 0.8, 0.1]], "float32")
    >>> y = kerasish.ops.categorical_crossentropy(target, output)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.2231], dtype=float32)
    """
    target, output = convert_to_tensor(target), _float(output)
    _check_same_shape(target, output)
    if target.ndim < 1:
        raise ValueError(
            "Arguments `target` and `output` must be at least rank 1. "
            f"Received: target.shape={target.shape}, "
            f"output.shape={output.shape}")
    target = cast(target, output.dtype)
    if from_logits:
        return N.softmax_cross_entropy(target, output, axis=axis)
    log_prob = _clipped_log_probs(output, axis)
    return knp.negative(knp.sum(knp.multiply(target, log_prob), axis=axis))


@keras_op
def sparse_categorical_crossentropy(target, output, from_logits=False,
                                    axis=-1):
    """Cross-entropy between integer class `target` and `output`.

    Example:

    >>> target = np.array([1, 2])
    >>> output = np.array([[0.1, 0.8, 0.1], [0.2, 0.2, 0.6]], "float32")
    >>> y = kerasish.ops.sparse_categorical_crossentropy(target, output)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.2231, 0.5108], dtype=float32)
    """
    output = _float(output)
    shape = tuple(np.shape(target))     # metadata only: no data is read
    squeeze = len(shape) == output.ndim and len(shape) and shape[-1] == 1
    if squeeze:
        shape = shape[:-1]
    if output.ndim < 1:
        raise ValueError("Argument `output` must be at least rank 1. "
                         f"Received: output.shape={output.shape}")
    if shape != tuple(output.shape[:-1]):
        raise ValueError(
            "Arguments `target` and `output` must have the same shape up "
            "until the last dimension: "
            f"target.shape={shape}, output.shape={output.shape}")
    labels = _checked_labels(target, num_classes=output.shape[axis],
                             squeeze=bool(squeeze))
    if from_logits:
        return N.sparse_softmax_cross_entropy(labels, output, axis=axis)
    return N.sparse_probs_cross_entropy(labels, output, axis=axis,
                                        eps=config.epsilon())


@nondiff
def _checked_labels(labels, num_classes, squeeze):
    """Integer class indices from `labels`, checked against the classes.

    A `nondiff` op, so a recorded step checks the labels of every batch.
    """
    labels = np.asarray(labels)
    if squeeze:
        labels = labels.reshape(labels.shape[:-1])
    if labels.dtype.kind == "f":
        if labels.size and not (np.floor(labels) == labels).all():
            raise ValueError(
                "Sparse labels must be integer class indices. Received "
                "non-integer values such as "
                f"{labels[labels != np.floor(labels)][0]!r}")
    labels = labels.astype(np.int64, copy=False)
    if labels.size:
        lo, hi = labels.min(), labels.max()
        if lo < 0 or hi >= num_classes:
            raise ValueError(
                f"Sparse labels must be in [0, {num_classes}) for an output "
                f"with {num_classes} classes. Received labels in "
                f"[{lo}, {hi}]")
    return labels


@keras_op
def binary_crossentropy(target, output, from_logits=False):
    """Elementwise binary cross-entropy.

    Example:

    >>> target = np.array([1.0, 0.0], "float32")
    >>> output = np.array([0.9, 0.2], "float32")
    >>> y = kerasish.ops.binary_crossentropy(target, output)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([0.1054, 0.2231], dtype=float32)
    """
    target, output = convert_to_tensor(target), _float(output)
    _check_same_shape(target, output)
    target = cast(target, output.dtype)
    if from_logits:
        pos = log_sigmoid(output)
        neg = log_sigmoid(knp.negative(output))
        return knp.subtract(knp.negative(knp.multiply(target, pos)),
                            knp.multiply(knp.subtract(1.0, target), neg))
    eps = config.epsilon()
    output = knp.clip(output, eps, 1.0 - eps)
    bce = knp.multiply(target, knp.log(output))
    bce = knp.add(bce, knp.multiply(knp.subtract(1.0, target),
                                    knp.log(knp.subtract(1.0, output))))
    return knp.negative(bce)


@keras_op
def moments(x, axes, keepdims=False, synchronized=False):
    """Mean and variance of `x` over `axes`.

    Example:

    >>> x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], "float32")
    >>> mean, variance = kerasish.ops.moments(x, axes=[1])
    >>> np.asarray(mean), np.asarray(variance)
    (array([2., 1.], dtype=float32),
     array([0.6666667, 0.       ], dtype=float32))
    """
    x = _float(x)
    dtype = x.dtype
    low = str(dtype) in ("float16", "bfloat16")
    if low:
        # As Keras: float32 statistics, clipped to float16's range.
        x = cast(x, "float32")
    mean = knp.mean(x, axis=axes, keepdims=True)
    variance = knp.mean(knp.square(knp.subtract(x, mean)), axis=axes,
                        keepdims=True)
    if not keepdims:
        mean = knp.squeeze(mean, axes)
        variance = knp.squeeze(variance, axes)
    if low:
        top = float(np.finfo(np.float16).max)
        mean, variance = (cast(knp.clip(v, -top, top), dtype)
                          for v in (mean, variance))
    return mean, variance


@keras_op
def normalize(x, axis=-1, order=2, epsilon=None):
    """Scale `x` to unit `order`-norm along `axis`.

    Example:

    >>> x = np.array([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], "float32")
    >>> y = kerasish.ops.normalize(x, axis=-1)
    >>> np.round(kerasish.ops.convert_to_numpy(y), 4)
    array([[0.2673, 0.5345, 0.8018],
           [0.5774, 0.5774, 0.5774]], dtype=float32)
    """
    if not isinstance(order, int) or order < 1:
        raise ValueError(
            f"Argument `order` must be an int >= 1. Received: order={order}")
    x = _float(x)
    if x.ndim == 0:
        x = knp.expand_dims(x, 0)
    eps = config.epsilon() if epsilon is None else epsilon
    if order == 2:
        # x * rsqrt(sum(x^2)), capped at 1/eps, as Keras computes it.
        square_sum = knp.sum(knp.square(x), axis=axis, keepdims=True)
        inv_norm = knp.minimum(M.rsqrt(square_sum), 1.0 / eps)
        return knp.multiply(x, inv_norm)
    norm = knp.power(knp.sum(knp.power(knp.absolute(x), order), axis=axis,
                             keepdims=True), 1.0 / order)
    return knp.divide(x, knp.maximum(norm, eps))
from kerasish.ops.nn_extra import *  # noqa: F401,F403,E402
# keras.ops.nn also exposes the convolution and pooling ops.
from kerasish.ops.conv import (  # noqa: F401,E402
    average_pool, conv, conv_transpose, depthwise_conv, max_pool,
    separable_conv, adaptive_average_pool, adaptive_max_pool)
