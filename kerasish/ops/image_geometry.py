"""Geometric warps: `map_coordinates` (scipy.ndimage semantics, orders 0
and 1), and the affine, perspective and elastic transforms built on it.

Interpolation gathers the neighbouring pixels with differentiable takes
and weights them with differentiable functions of the coordinates, so
gradients reach the images and the coordinates (hence the transforms).
"""
import itertools

import numpy as np

from kerasish.backend import config
from kerasish.backend.dtypes import is_float  # bfloat16 too
from kerasish.ops import numpy as knp
from kerasish.ops.core import cast, convert_to_tensor
from kerasish.ops.symbolic import keras_op

FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")
INTERPOLATIONS = {"nearest": 0, "bilinear": 1}


def _mirror(index, size):
    # Triangular wave with period 2 * (size - 1): edges are not repeated.
    if size == 1:
        return np.zeros_like(index)
    s = size - 1
    return np.abs((index + s) % (2 * s) - s)


def _fix(index, size, mode):
    """Map integer indices into `[0, size)` for the fill `mode`."""
    if mode in ("constant", "nearest"):
        return np.clip(index, 0, size - 1)
    if mode == "wrap":
        return index % size
    if mode == "mirror":
        return _mirror(index, size)
    return (_mirror(2 * index + 1, 2 * size + 1) - 1) // 2


def _nodes(coordinate, order):
    """`[(integer indices, weight)]` of one axis; an int array is exact."""
    if isinstance(coordinate, np.ndarray):
        return [(coordinate.astype(np.int64), None)]
    values = coordinate.numpy()
    if order == 0:
        # JAX rounds half away from zero.
        index = np.sign(values) * np.floor(np.abs(values) + 0.5)
        return [(index.astype(np.int64), None)]
    lower = np.floor(values)
    upper_weight = knp.subtract(coordinate, lower.astype(values.dtype))
    return [(lower.astype(np.int64), knp.subtract(1.0, upper_weight)),
            (lower.astype(np.int64) + 1, upper_weight)]


def _expand(t, ndim):
    return knp.reshape(t, tuple(t.shape) + (1,) * (ndim - t.ndim))


def interpolate(flat, shape, coordinates, order, mode, fill_value):
    """Sample an array at `coordinates` (one per axis of `shape`).

    `flat` is the array with the axes of `shape` merged into its first
    axis (trailing axes, e.g. channels, are carried along). A coordinate is
    a float tensor (interpolated) or an int array (taken exactly).
    """
    result = None
    for combo in itertools.product(*[_nodes(c, order) for c in coordinates]):
        indices = [i for i, _ in combo]
        fixed = [_fix(i, n, mode) for i, n in zip(indices, shape)]
        value = knp.take(flat, np.ravel_multi_index(fixed, shape), axis=0)
        if mode == "constant":
            valid = np.logical_and.reduce(
                [(i >= 0) & (i < n) for i, n in zip(indices, shape)])
            valid = valid.reshape(valid.shape + (1,) * (value.ndim
                                                        - valid.ndim))
            value = knp.where(valid, value, fill_value)
        weights = [w for _, w in combo if w is not None]
        for w in weights:
            value = knp.multiply(value, _expand(w, value.ndim))
        result = value if result is None else knp.add(result, value)
    return result


def _round_half_away(x):
    return knp.multiply(knp.sign(x), knp.floor(knp.add(knp.abs(x), 0.5)))


def _check_map_args(inputs, coordinates, order, fill_mode):
    if len(coordinates) != inputs.ndim:
        raise ValueError(
            "First dim of `coordinates` must be the same as the rank of "
            f"`inputs`. Received inputs with shape: {inputs.shape} and "
            f"coordinate leading dim of {len(coordinates)}")
    if fill_mode not in FILL_MODES:
        raise ValueError("Invalid value for argument `fill_mode`. Expected "
                         f"one of {set(FILL_MODES)}. Received: "
                         f"fill_mode={fill_mode}")
    if order not in (0, 1):
        raise ValueError("Invalid value for argument `order`. Expected one "
                         f"of [0, 1]. Received: order={order}")


@keras_op
def map_coordinates(inputs, coordinates, order, fill_mode="constant",
                    fill_value=0):
    """Sample `inputs` at arbitrary coordinates (scipy's `map_coordinates`).

    Args:
        inputs: Tensor of rank N.
        coordinates: N tensors (or a tensor with leading axis N) of the
            coordinates along each axis, all of the same shape.
        order: 0 (nearest, halves away from zero) or 1 (linear).
        fill_mode: How to read outside the input: `"constant"` (default,
            `fill_value`), `"nearest"`, `"wrap"`, `"mirror"` or `"reflect"`.
        fill_value: Value for `"constant"`. Defaults to 0.

    Returns:
        Tensor shaped like one coordinate array (integer inputs give
        rounded integer outputs).

    Example:

    >>> map_coordinates(np.array([0.0, 10.0]), [np.array([0.25])], 1).numpy()
    array([2.5])
    """
    inputs = convert_to_tensor(inputs)
    if not isinstance(coordinates, (list, tuple)):
        coordinates = convert_to_tensor(coordinates)
        if coordinates.ndim < 2:
            raise ValueError("Invalid coordinates rank: expected at least "
                             "rank 2. Received input with shape: "
                             f"{coordinates.shape}")
        coordinates = [coordinates[i] for i in range(coordinates.shape[0])]
    coordinates = [convert_to_tensor(c) for c in coordinates]
    _check_map_args(inputs, coordinates, order, fill_mode)
    dtype = inputs.dtype
    work = inputs if is_float(dtype) else cast(inputs, config.floatx())
    coordinates = [c if is_float(c.dtype) else cast(c, work.dtype)
                   for c in coordinates]
    out = interpolate(knp.reshape(work, (-1,)), inputs.shape, coordinates,
                      order, fill_mode, fill_value)
    return cast(out if is_float(dtype) else _round_half_away(out), dtype)


from kerasish.ops.image_warps import (affine_transform,  # noqa: E402,F401
                                      elastic_transform,
                                      perspective_transform)
