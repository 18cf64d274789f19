"""`Operation`: anything that can be a node of a functional graph.

Layers are Operations; so is `OpCall`, which wraps a `kerasish.ops`
function called on KerasTensors (`ops.exp(x)` in a functional model).
"""
import numpy as np

from kerasish import tree
from kerasish.backend import tape as tape_module
from kerasish.backend.tensor import Tensor
from kerasish.engine import call_context, naming
from kerasish.engine.keras_tensor import KerasTensor
from kerasish.engine.node import Node


class Operation:
    """Base of layers and symbolic op calls: a name plus graph links."""

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

    def symbolic_call(self, *args, **kwargs):
        outputs = self.compute_output_spec(*args, **kwargs)
        Node(self, call_args=args, call_kwargs=kwargs, outputs=outputs)
        return outputs

    def compute_output_spec(self, *args, **kwargs):
        return trace_output_spec(self.call, args, kwargs)


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

    def __init__(self, fn, op_name, name=None):
        self.fn = getattr(fn, "eager", fn)
        self.op_name = op_name
        self.class_name = op_class_name(op_name)
        super().__init__(name=name or naming.auto_name(self.class_name))

    def get_config(self):
        return {"name": self.name}

    def __call__(self, *args, **kwargs):
        from kerasish.ops.symbolic import any_symbolic
        if any_symbolic(args, kwargs):
            return self.symbolic_call(*args, **kwargs)
        return self.fn(*args, **kwargs)

    def call(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


# Placeholder sizes for unknown dims; a dim that differs between the two
# traces depends on an unknown input dim and is reported as None.
_TRACE_SIZES = (3, 5)


def trace_output_spec(fn, args, kwargs):
    """Infer output KerasTensors by running `fn` twice on zero arrays."""
    runs = []
    for size in _TRACE_SIZES:
        concrete = tree.map_structure(
            lambda x: _placeholder(x, size), (args, kwargs))
        with tape_module.stop_recording(), call_context.trace_scope():
            out = fn(*concrete[0], **concrete[1])
        runs.append(out)
    return tree.map_structure(_merge_spec, runs[0], runs[1])


def _placeholder(x, size):
    if not isinstance(x, KerasTensor):
        return x
    from kerasish.backend.dtypes import numpy_dtype
    shape = tuple(size if d is None else d for d in x.shape)
    return Tensor(np.zeros(shape, dtype=numpy_dtype(x.dtype)))


def _merge_spec(a, b):
    if a is None:
        return None
    if not hasattr(a, "shape"):
        return a
    shape = tuple(d1 if d1 == d2 else None
                  for d1, d2 in zip(a.shape, b.shape))
    return KerasTensor(shape, dtype=str(a.dtype))
