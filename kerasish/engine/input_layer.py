"""`InputLayer` and `Input()`: where a functional graph starts."""
import warnings

from kerasish.backend.dtypes import standardize_dtype
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.ops.node import Node


def _standardize_shape(shape, argname="shape"):
    if isinstance(shape, int):
        shape = (shape,)
    try:
        shape = tuple(shape)
    except TypeError:
        raise ValueError(f"Cannot convert '{shape}' to a shape.") from None
    for d in shape:
        if d is not None and (not isinstance(d, int) or d < 0):
            raise ValueError(
                f"Cannot convert '{shape}' to a shape. Found invalid "
                f"dimension '{d}' in `{argname}`.")
    return shape


class InputLayer(Layer):
    """The layer behind `Input()`: owns the symbolic input tensor.

    Args:
        shape: Shape without the batch axis, e.g. `(784,)`.
        batch_size: Optional fixed batch size.
        dtype: Input dtype (defaults to floatx).
        batch_shape: Full shape including the batch axis (instead of
            `shape` and `batch_size`).
        name: Layer (and input) name.
        optional: Whether the input may be `None`.

    Example:

    >>> layer = kerasish.layers.InputLayer(shape=(3,), name="features")
    >>> layer.output.shape, layer.name
    ((None, 3), 'features')
    """

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None,
                 ragged=None, batch_shape=None, input_tensor=None,
                 optional=False, name=None, **kwargs):
        if "input_shape" in kwargs:
            warnings.warn(
                "Argument `input_shape` is deprecated. Use `shape` instead.")
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        kwargs.pop("trainable", None)
        super().__init__(name=name, **kwargs)
        if input_tensor is not None:
            if not isinstance(input_tensor, KerasTensor):
                raise ValueError(
                    "Argument `input_tensor` must be a KerasTensor. "
                    f"Received invalid type: input_tensor={input_tensor}")
            batch_shape, dtype = input_tensor.shape, input_tensor.dtype
        else:
            if shape is not None and batch_shape is not None:
                raise ValueError("You cannot pass both `shape` and "
                                 "`batch_shape` at the same time.")
            if batch_size is not None and batch_shape is not None:
                raise ValueError("You cannot pass both `batch_size` and "
                                 "`batch_shape` at the same time.")
            if shape is None and batch_shape is None:
                raise ValueError("You must pass a `shape` argument.")
            if shape is not None:
                batch_shape = (batch_size,) + _standardize_shape(shape)
        self._batch_shape = _standardize_shape(batch_shape, "batch_shape")
        self._dtype = standardize_dtype(dtype)
        self.sparse = bool(sparse)
        self.ragged = bool(ragged)
        self.optional = optional
        if input_tensor is None:
            input_tensor = KerasTensor(self._batch_shape, dtype=self._dtype,
                                       name=name)
        self._input_tensor = input_tensor
        Node(self, outputs=input_tensor)
        self.built = True

    def call(self):
        return None

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def dtype(self):
        return self._dtype

    def get_config(self):
        return {"batch_shape": self.batch_shape, "dtype": self.dtype,
                "sparse": self.sparse, "ragged": self.ragged,
                "name": self.name, "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if "batch_shape" in config and config["batch_shape"] is not None:
            config["batch_shape"] = tuple(config["batch_shape"])
        return cls(**config)


def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None,
          batch_shape=None, name=None, tensor=None, optional=False):
    """Create a symbolic input tensor: the start of a functional model.

    Args:
        shape: Shape without the batch axis; `None` entries are free.
        batch_size: Optional fixed batch size.
        dtype: Input dtype (defaults to floatx).
        batch_shape: Full shape including the batch axis.
        name: Name of the input (used to match dict inputs).
        tensor: Optional existing KerasTensor to wrap.
        optional: Whether the input may be `None`.

    Returns:
        A `KerasTensor`.

    Example:

    >>> import kerasish
    >>> x = kerasish.Input(shape=(32,))
    >>> x.shape
    (None, 32)
    """
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype,
                       sparse=sparse, ragged=ragged, batch_shape=batch_shape,
                       name=name, input_tensor=tensor, optional=optional)
    return layer.output
