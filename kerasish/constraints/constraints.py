"""Weight constraints (`keras.constraints`), applied after each update."""
from kerasish import ops
from kerasish.backend import config
from kerasish.saving.object_registration import builtin

_MODULE = "keras.constraints"


class Constraint:
    """Base class: `constraint(w) -> projected w`.

    Example:

    >>> class Clip(kerasish.constraints.Constraint):
    ...     def __call__(self, w):
    ...         return kerasish.ops.clip(w, -0.1, 0.1)
    >>> layer = kerasish.layers.Dense(2, kernel_constraint=Clip())
    >>> type(layer.kernel_constraint).__name__
    'Clip'
    """

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return ops.sqrt(ops.sum(ops.square(w), axis=axis, keepdims=True))


@builtin(_MODULE, "max_norm")
class MaxNorm(Constraint):
    """Rescale so each unit's weight norm along `axis` is <= `max_value`.

    Example:

    >>> w = np.array([[3.0], [4.0]], "float32")
    >>> np.asarray(kerasish.constraints.MaxNorm(max_value=2.0)(w))
    array([[1.2],
           [1.6]], dtype=float32)
    """

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = ops.clip(norms, 0, self.max_value)
        return w * (desired / (config.epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


@builtin(_MODULE, "non_neg")
class NonNeg(Constraint):
    """Clip weights at zero from below.

    Example:

    >>> w = np.array([-1.0, 2.0], "float32")
    >>> np.asarray(kerasish.constraints.NonNeg()(w))
    array([0., 2.], dtype=float32)
    """

    def __call__(self, w):
        return ops.maximum(w, 0)


@builtin(_MODULE, "unit_norm")
class UnitNorm(Constraint):
    """Rescale each unit's weights along `axis` to unit norm.

    Example:

    >>> w = np.array([[3.0], [4.0]], "float32")
    >>> np.asarray(kerasish.constraints.UnitNorm()(w))
    array([[0.6],
           [0.8]], dtype=float32)
    """

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (config.epsilon() + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


@builtin(_MODULE, "min_max_norm")
class MinMaxNorm(Constraint):
    """Move norms toward `[min_value, max_value]` at `rate` (1 = fully).

    Example:

    >>> w = np.array([[3.0], [4.0]], "float32")
    >>> np.asarray(kerasish.constraints.MinMaxNorm(0.0, 1.0)(w))
    array([[0.6],
           [0.8]], dtype=float32)
    """

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value = min_value, max_value
        self.rate, self.axis = rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = (self.rate * ops.clip(norms, self.min_value,
                                        self.max_value)
                   + (1 - self.rate) * norms)
        return w * (desired / (config.epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value,
                "rate": self.rate, "axis": self.axis}
