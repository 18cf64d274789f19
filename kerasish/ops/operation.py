"""`Operation`: anything that can be a node of a functional graph.

Layers are Operations; so is `OpCall`, which wraps a `kerasish.ops`
function called on KerasTensors (`ops.exp(x)` in a functional model).
"""
import inspect

import numpy as np

from kerasish import tree
from kerasish.backend import tape as tape_module
from kerasish.backend.tensor import Tensor
from kerasish.backend.common import call_context, naming
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.node import Node
from kerasish.ops.symbolic import any_symbolic
from kerasish.backend.dtypes import numpy_dtype


class Operation:
    """A computation that can be a node of a graph (`keras.Operation`).

    Base of layers, symbolic op calls and `Function`. Subclass it and
    implement `call` (and `compute_output_spec` if tracing `call` on
    placeholders cannot infer the output): called on `KerasTensor`s it
    records a graph node, called on arrays it computes.

    Args:
        name: Optional name (default: the snake_case class name, made
            unique).

    Example:

    >>> class Double(kerasish.Operation):
    ...     def call(self, x):
    ...         return kerasish.ops.multiply(x, 2.0)
    >>> op = Double()
    >>> np.asarray(op(np.ones(2))).tolist(), op(kerasish.Input((3,))).shape
    ([2.0, 2.0], (None, 3))
    >>> op.get_config()
    {'name': 'double'}
    """

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        # Constructor arguments, for the automatic `get_config`.
        obj._init_args = (args, kwargs)
        return obj

    def __init__(self, name=None):
        if name is None:
            name = naming.auto_name(type(self).__name__)
        if not isinstance(name, str) or "/" in name:
            raise ValueError(
                "Argument `name` must be a string and cannot contain "
                f"character `/`. Received: name={name!r} "
                f"(of type {type(name)})")
        self.name = name
        self._inbound_nodes = []
        self._outbound_nodes = []

    def __call__(self, *args, **kwargs):
        if any_symbolic(args, kwargs):
            return self.symbolic_call(*args, **kwargs)
        return self.call(*args, **kwargs)

    def call(self, *args, **kwargs):
        raise NotImplementedError(
            f"{type(self).__name__} must implement `call()`.")

    def symbolic_call(self, *args, **kwargs):
        outputs = self.compute_output_spec(*args, **kwargs)
        Node(self, call_args=args, call_kwargs=kwargs, outputs=outputs)
        return outputs

    def compute_output_spec(self, *args, **kwargs):
        return infer_output_spec(self.call, args, kwargs,
                                 sizes=op_trace_sizes(args, kwargs))

    @property
    def input(self):
        """Input tensor(s) of the first symbolic call."""
        return self._first_node("input_tensors", "input")

    @property
    def output(self):
        """Output tensor(s) of the first symbolic call."""
        return self._first_node("outputs", "output")

    def _first_node(self, attr, what):
        if not self._inbound_nodes:
            raise AttributeError(
                f"The layer {self.name} has never been called and thus has "
                f"no defined {what}.")
        values = getattr(self._inbound_nodes[0], attr)
        return values[0] if len(values) == 1 else values

    def get_config(self):
        """`{"name"}` plus the constructor arguments when they are plain."""
        config = {"name": self.name}
        if type(self).get_config is not Operation.get_config:
            return config   # a subclass's get_config adds its own keys
        auto = _plain_init_args(type(self), *self._init_args)
        if auto is None:
            raise NotImplementedError(
                f"Object {type(self).__name__} was created by passing "
                "non-serializable argument values in `__init__()`, and "
                "therefore the object must override `get_config()` in "
                "order to be serializable. Please implement `get_config()`.")
        params = inspect.signature(type(self).__init__).parameters
        if "name" not in params and not any(
                p.kind == p.VAR_KEYWORD for p in params.values()):
            config.pop("name")
        config.update(auto)
        return config

    @classmethod
    def from_config(cls, config):
        """Create the operation from `get_config()` output."""
        try:
            return cls(**config)
        except Exception as e:
            raise TypeError(
                f"Error when deserializing class '{cls.__name__}' using "
                f"config={config}.\n\nException encountered: {e}") from e

    def __repr__(self):
        return f"<Operation name={self.name}>"


def _plain_init_args(cls, args, kwargs):
    """Constructor arguments by name if all are JSON-plain, else None."""
    names = list(inspect.signature(cls.__init__).parameters)[1:]
    config = dict(zip(names, args), **kwargs)
    leaves = tree.flatten(config)
    if all(isinstance(v, (str, int, float, bool, type(None)))
           for v in leaves):
        return config
    return None


# Keras names op classes in CamelCase; a few differ from the function name.
_OP_CLASS_NAMES = {
    "getitem": "GetItem", "allclose": "AllClose", "cdist": "CDist",
    "ctc_decode": "CTCDecode", "ctc_loss": "CTCLoss", "fft": "FFT",
    "fft2": "FFT2", "ifft2": "IFFT2", "rfft": "RFFT", "irfft": "IRFFT",
    "stft": "STFT", "istft": "ISTFT", "hsv_to_rgb": "HSVToRGB",
    "rgb_to_grayscale": "RGBToGrayscale", "rgb_to_hsv": "RGBToHSV",
    "isin": "IsIn", "jvp": "JVP", "psnr": "PSNR", "ssim": "SSIM",
    "svd": "SVD", "searchsorted": "SearchSorted"}


def op_class_name(op_name):
    return _OP_CLASS_NAMES.get(
        op_name, "".join(p.capitalize() for p in op_name.split("_")))


class OpCall(Operation):
    """A `kerasish.ops` function recorded as a functional-graph node."""

    def __init__(self, fn, op_name, name=None, spec=None):
        self.fn = getattr(fn, "eager", fn)
        self.spec = spec
        self.op_name = op_name
        self.class_name = op_class_name(op_name)
        super().__init__(name=name or naming.auto_name(self.class_name))

    def get_config(self):
        return {"name": self.name}

    def __call__(self, *args, **kwargs):
        if any_symbolic(args, kwargs):
            return self.symbolic_call(*args, **kwargs)
        return self.fn(*args, **kwargs)

    def call(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def compute_output_spec(self, *args, **kwargs):
        if self.spec is not None:
            outputs = self.spec(*args, **kwargs)
            if outputs is not None:
                return outputs
        return super().compute_output_spec(*args, **kwargs)


# Placeholder sizes for unknown dims, one (first axis, other axes) pair per
# run; a dim that differs between the two runs depends on an unknown input
# dim and is reported as None. Unknown non-batch axes get Keras's own sizes
# (83, 89), so that constants up to 82 (`top_k(x, 5)`, `x[:, :4]`, a 5x5
# kernel) fit an unknown axis as they do in Keras. The batch axis of a
# layer's input stays small: `call` may be a whole network, run for real
# here (Keras's JAX backend traces abstractly, at no cost); a single op
# uses the Keras sizes there too. Placeholders that would be large fall
# back to small sizes everywhere.
_SMALL_SIZES = ((3, 3), (5, 5))
_LAYER_TRACE_SIZES = ((3, 83), (5, 89))
_OP_TRACE_SIZES = ((83, 83), (89, 89))
_TRACE_MAX_ENTRIES = 1 << 22


def _affordable(sizes, args, kwargs):
    """`sizes`, or `_SMALL_SIZES` if they make placeholders too big."""
    first, other = sizes[-1]
    entries = sum(
        int(np.prod([(first if i == 0 else other) if d is None else d
                     for i, d in enumerate(x.shape)]))
        for x in tree.flatten((args, kwargs)) if isinstance(x, KerasTensor))
    return sizes if entries <= _TRACE_MAX_ENTRIES else _SMALL_SIZES


def op_trace_sizes(args, kwargs):
    return _affordable(_OP_TRACE_SIZES, args, kwargs)


def infer_output_spec(fn, args, kwargs, sizes=None):
    """Infer output KerasTensors by running `fn` twice on zero arrays.

    `sizes` are the placeholder sizes of unknown dims per run (default:
    a layer's). The runs change no variable (a `StatelessScope`, as
    Keras's `compute_output_spec`): a layer that counts or averages what
    it sees is not moved by being called on `Input`s.
    """
    # Imported here: `import kerasish` leaves the scopes module unloaded.
    # lazy: kept out of `import kerasish`
    from kerasish.backend.common.scopes import StatelessScope
    if sizes is None:
        sizes = _affordable(_LAYER_TRACE_SIZES, args, kwargs)
    filled = any(isinstance(x, KerasTensor) and None in x.shape
                 for x in tree.flatten((args, kwargs)))
    runs = []
    for run_sizes in sizes:
        concrete = tree.map_structure(
            lambda x: _placeholder(x, run_sizes), (args, kwargs))
        with tape_module.stop_recording(), \
                call_context.trace_scope(run_sizes, filled), StatelessScope():
            out = fn(*concrete[0], **concrete[1])
        runs.append(out)
    return tree.map_structure(_merge_spec, runs[0], runs[1])


def symbolic_shape(shape):
    """`shape` with the current trace's placeholder sizes as None: the
    shape a layer built while tracing records (as Keras, `(None, 4)`)."""
    sizes = call_context.trace_sizes()
    if sizes is None:
        return shape
    first, other = sizes
    # On other axes only Keras's sizes are placeholders for sure; a small
    # size could be a real dim (3 channels) and is kept.
    known = other in (size for _, size in _OP_TRACE_SIZES)
    return tuple(None if (i == 0 and d == first) or
                 (i > 0 and known and d == other) else d
                 for i, d in enumerate(shape))


def _placeholder(x, sizes):
    if not isinstance(x, KerasTensor):
        return x
    first, other = sizes
    shape = tuple((first if i == 0 else other) if d is None else d
                  for i, d in enumerate(x.shape))
    return Tensor(np.zeros(shape, dtype=numpy_dtype(x.dtype)))


def _merge_spec(a, b):
    if a is None:
        return None
    if not hasattr(a, "shape"):
        return a
    shape = tuple(d1 if d1 == d2 else None
                  for d1, d2 in zip(a.shape, b.shape))
    return KerasTensor(shape, dtype=str(a.dtype))
