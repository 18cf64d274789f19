"""`(before, after)` amounts per spatial axis: Cropping and ZeroPadding.

The base classes apply the amounts; each layer parses its own argument the
way Keras does (an int, one int per axis, or one pair per axis).
"""
from kerasish import ops
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.ops.conv import spatial_tuple

_ORDINALS = ("1st", "2nd", "3rd")


def pair(cls_name, value, name):
    """An int or a 2-sequence as a `(before, after)` pair of ints >= 0."""
    try:
        return spatial_tuple(value, 2, name, allow_zero=True)
    except ValueError as e:
        raise ValueError(f"{cls_name}: {e}") from None


def pairs(cls_name, value, rank, name, axes_hint):
    """`value` (int, `rank` ints or `rank` pairs) as `rank` pairs."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{cls_name}: `{name}` cannot be negative. "
                             f"Received: {name}={value}.")
        return ((value, value),) * rank
    if hasattr(value, "__len__"):
        if len(value) != rank:
            raise ValueError(
                f"{cls_name}: `{name}` should have {rank} elements. "
                f"Received: {name}={value}.")
        return tuple(pair(cls_name, v, f"{_ORDINALS[i]} entry of {name}")
                     for i, v in enumerate(value))
    raise ValueError(
        f"{cls_name}: `{name}` should be either an int, a tuple of {rank} "
        f"ints ({axes_hint}), or a tuple of {rank} tuples of 2 ints. "
        f"Received: {name}={value}.")


class SpatialPairsLayer(Layer):
    """Base of the cropping/padding layers over `rank` spatial axes."""

    def __init__(self, rank, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.data_format = backend_config.standardize_data_format(
            data_format)
        self.input_spec = InputSpec(ndim=rank + 2)

    def _spatial_axes(self):
        first = 1 if self.data_format == "channels_last" else 2
        return range(first, first + self.rank)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for axis, (lo, hi) in zip(self._spatial_axes(), self._amounts()):
            if shape[axis] is not None:
                shape[axis] = self._resize(shape[axis], lo, hi, input_shape)
        return tuple(shape)


class BaseCropping(SpatialPairsLayer):
    """Remove `(before, after)` entries along each spatial axis."""

    def _resize(self, size, lo, hi, input_shape):
        if lo + hi >= size:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}): values in "
                "`cropping` should be smaller than the corresponding "
                f"spatial dimension of the input. Received: input_shape="
                f"{tuple(input_shape)}, cropping={self.cropping}")
        return size - lo - hi

    def call(self, inputs):
        self.compute_output_shape(inputs.shape)
        key = [slice(None)] * len(inputs.shape)
        for axis, (lo, hi) in zip(self._spatial_axes(), self._amounts()):
            key[axis] = slice(lo, inputs.shape[axis] - hi)
        return inputs[tuple(key)]


class BaseZeroPadding(SpatialPairsLayer):
    """Add `(before, after)` zeros along each spatial axis."""

    def _resize(self, size, lo, hi, input_shape):
        return size + lo + hi

    def call(self, inputs):
        width = [(0, 0)] * len(inputs.shape)
        for axis, amount in zip(self._spatial_axes(), self._amounts()):
            width[axis] = amount
        return ops.pad(inputs, width)
