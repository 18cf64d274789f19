"""`InputSpec`: what a layer accepts (rank, axis sizes, dtype, shape).

`assert_input_compatibility` raises Keras's error messages, naming the
layer, the input index, what was expected and the shape received.
"""
from kerasish import tree


class InputSpec:
    """Constraints on a layer input.

    Args:
        dtype: Expected dtype string, or None.
        shape: Expected shape tuple (None entries are free), or None.
        ndim: Exact rank, or None.
        max_ndim / min_ndim: Rank bounds, or None.
        axes: Dict `{axis: size}` of required axis sizes.
        allow_last_axis_squeeze: Tolerate a trailing size-1 axis.
        name: Input name (for dict inputs).
        optional: Whether the input may be None.

    Example:

    >>> layer = kerasish.layers.Dense(2)
    >>> layer.input_spec = kerasish.InputSpec(ndim=2)
    >>> layer(np.ones((1, 3))).shape
    (1, 2)
    """

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None,
                 min_ndim=None, axes=None, allow_last_axis_squeeze=False,
                 name=None, optional=False):
        self.dtype = dtype
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.name = name
        self.optional = optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.axes = {int(k): v for k, v in (axes or {}).items()}
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            top = (self.ndim if self.ndim is not None else self.max_ndim) - 1
            if max(self.axes) > top:
                raise ValueError(
                    f"Axis {max(self.axes)} is greater than the maximum "
                    f"allowed value: {top}")

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (
            ("dtype", self.dtype), ("shape", self.shape),
            ("ndim", self.ndim), ("max_ndim", self.max_ndim),
            ("min_ndim", self.min_ndim), ("axes", self.axes or None))
            if v is not None]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim,
                "axes": self.axes}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _fail(index, spec, layer_name, detail):
    raise ValueError(
        f"Input {index} with name '{spec.name}' of layer '{layer_name}' is "
        f"incompatible with the layer: {detail}")


def _check_one(index, x, spec, layer_name):
    if x is None and spec.optional:
        return
    if not hasattr(x, "shape"):
        raise ValueError(
            f"Inputs to a layer should be tensors. Got '{x}' "
            f"(of type {type(x)}) as input for layer '{layer_name}'.")
    shape = tuple(x.shape)
    ndim = len(shape)
    if spec.ndim is not None and not spec.allow_last_axis_squeeze \
            and ndim != spec.ndim:
        _fail(index, spec, layer_name,
              f"expected ndim={spec.ndim}, found ndim={ndim}. "
              f"Full shape received: {shape}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        _fail(index, spec, layer_name,
              f"expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        _fail(index, spec, layer_name,
              f"expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
              f"Full shape received: {shape}")
    if spec.dtype is not None and x.dtype != spec.dtype:
        _fail(index, spec, layer_name,
              f"expected dtype={spec.dtype}, found dtype={x.dtype}")
    for axis, value in spec.axes.items():
        if value is not None and -ndim <= axis < ndim and \
                shape[axis] not in (value, None):
            _fail(index, spec, layer_name,
                  f"expected axis {axis} of input shape to have value "
                  f"{value}, but received input with shape {shape}")
    if spec.shape is not None:
        spec_shape = spec.shape
        if spec.allow_last_axis_squeeze:
            shape = shape[:-1] if shape and shape[-1] == 1 else shape
            spec_shape = spec_shape[:-1] if spec_shape and \
                spec_shape[-1] == 1 else spec_shape
        if len(spec_shape) != len(shape) or any(
                a is not None and b is not None and a != b
                for a, b in zip(spec_shape, shape)):
            _fail(index, spec, layer_name,
                  f"expected shape={spec.shape}, found shape={tuple(x.shape)}")


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Raise a ValueError if `inputs` do not satisfy `input_spec`."""
    if not input_spec:
        return
    if isinstance(input_spec, InputSpec) and hasattr(inputs, "shape"):
        _check_one(0, inputs, input_spec, layer_name)
        return
    specs = tree.flatten(input_spec)
    if isinstance(inputs, dict):
        names = [s.name for s in specs]
        if all(names):
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(
                    f'Missing data for input "{missing[0]}". You passed a '
                    f"data dictionary with keys {list(inputs)}. Expected "
                    f"the following keys: {names}")
            inputs = [inputs[n] for n in names]
    flat = tree.flatten(inputs)
    if len(flat) != len(specs):
        raise ValueError(
            f'Layer "{layer_name}" expects {len(specs)} input(s), but it '
            f"received {len(flat)} input tensors.")
    for index, (x, spec) in enumerate(zip(flat, specs)):
        if spec is not None:
            _check_one(index, x, spec, layer_name)
