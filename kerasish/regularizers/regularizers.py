"""Weight regularizers (`keras.regularizers`): L1, L2, L1L2, Orthogonal."""
import numpy as np

from kerasish import ops
from kerasish.saving.object_registration import builtin

_MODULE = "keras.regularizers"


def _validate_factor(value, name):
    if not isinstance(value, (int, float)) or value < 0 or \
            value != value:
        raise ValueError(
            f"Value for argument {name} must be a non-negative float. "
            f"Received: {name}={value}")
    return float(value)


def _float32(value):
    return float(np.float32(value))


class Regularizer:
    """Base class: `regularizer(weights) -> scalar penalty`.

    Example:

    >>> class MaxAbs(kerasish.regularizers.Regularizer):
    ...     def __call__(self, x):
    ...         return 0.01 * kerasish.ops.max(kerasish.ops.abs(x))
    >>> layer = kerasish.layers.Dense(2, kernel_regularizer=MaxAbs())
    >>> _ = layer(np.ones((1, 3)))
    >>> len(layer.losses)
    1
    """

    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError(
            f"{type(self).__name__} does not implement get_config()")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@builtin(_MODULE, "l1l2", "l1_l2")
class L1L2(Regularizer):
    """`l1 * sum(|x|) + l2 * sum(x**2)`.

    Example:

    >>> w = np.array([[1.0, -2.0]], "float32")
    >>> round(float(kerasish.regularizers.L1L2(l1=0.1, l2=0.1)(w)), 4)
    0.8
    """

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _validate_factor(l1, "l1")
        self.l2 = _validate_factor(l2, "l2")

    def __call__(self, x):
        # A tensor in x's dtype even when both factors are 0, as Keras.
        penalty = ops.convert_to_tensor(0.0, dtype=_dtype_of(x))
        if self.l1:
            penalty = penalty + self.l1 * ops.sum(ops.absolute(x))
        if self.l2:
            penalty = penalty + self.l2 * ops.sum(ops.square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


def _dtype_of(x):
    return str(getattr(x, "dtype", None) or "float32")


@builtin(_MODULE, "l1")
class L1(Regularizer):
    """`l1 * sum(|x|)` (default factor 0.01).

    Example:

    >>> w = np.array([[1.0, -2.0]], "float32")
    >>> float(kerasish.regularizers.L1(0.1)(w))
    0.30000001192092896
    """

    def __init__(self, l1=0.01):
        # Keras 3 keeps this factor as a float32 tensor; its config (and
        # its penalty) carry the rounded value.
        self.l1 = _float32(_validate_factor(l1, "l1"))

    def __call__(self, x):
        return self.l1 * ops.sum(ops.absolute(x))

    def get_config(self):
        return {"l1": self.l1}


@builtin(_MODULE, "l2")
class L2(Regularizer):
    """`l2 * sum(x**2)` (default factor 0.01).

    Example:

    >>> w = np.array([[1.0, -2.0]], "float32")
    >>> float(kerasish.regularizers.L2(0.1)(w))
    0.5
    """

    def __init__(self, l2=0.01):
        self.l2 = _validate_factor(l2, "l2")

    def __call__(self, x):
        return self.l2 * ops.sum(ops.square(x))

    def get_config(self):
        return {"l2": self.l2}


@builtin(_MODULE, "orthogonal_regularizer")
class OrthogonalRegularizer(Regularizer):
    """Penalise non-orthogonal rows (or columns) of a 2-D kernel.

    `factor * mean(|off-diagonal of N N^T|)` with N the L2-normalised rows
    (or columns when `mode="columns"`).

    Example:

    >>> w = np.array([[1.0, 0.0], [0.0, 1.0]], "float32")
    >>> regularizer = kerasish.regularizers.OrthogonalRegularizer(
    ...     0.1, mode="columns")
    >>> round(float(regularizer(w)), 4)
    0.0
    """

    def __init__(self, factor=0.01, mode="rows"):
        self.factor = _float32(_validate_factor(factor, "factor"))
        if mode not in ("rows", "columns"):
            raise ValueError(
                "Invalid value for argument `mode`. Expected one of "
                f"{{'rows', 'columns'}}. Received: mode={mode}")
        self.mode = mode

    def __call__(self, inputs):
        if len(inputs.shape) != 2:
            raise ValueError(
                "Inputs to OrthogonalRegularizer must have rank 2. Received: "
                f"inputs.shape={inputs.shape}")
        x = inputs if self.mode == "rows" else ops.transpose(inputs)
        x = ops.normalize(x, axis=1, order=2)
        product = ops.matmul(x, ops.transpose(x))
        size = product.shape[0]
        off_diagonal = product * (1.0 - ops.eye(size))
        num_pairs = size * (size - 1) / 2.0
        return self.factor * 0.5 * ops.sum(ops.absolute(off_diagonal)) / \
            num_pairs

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


def l1_l2(l1=0.01, l2=0.01):
    """Legacy helper: `L1L2(l1, l2)` with Keras 2's defaults."""
    return L1L2(l1=l1, l2=l2)
