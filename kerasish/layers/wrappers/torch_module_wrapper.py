"""`TorchModuleWrapper`: a `torch.nn.Module` as a kerasish layer."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common import call_context
from kerasish.engine.layer import Layer
from kerasish.layers.wrappers.foreign import foreign_call
from kerasish.saving import safe_mode
from kerasish.saving.object_registration import builtin
import base64
import io


def import_torch():
    try:
        import torch  # lazy: optional dependency
    except ImportError:
        raise ImportError(
            "TorchModuleWrapper needs PyTorch. Install it with "
            "`pip install kerasish[torch]`.") from None
    return torch


@builtin("keras.layers")
class TorchModuleWrapper(Layer):
    """Wrap a `torch.nn.Module` so that it runs, trains and saves as a layer.

    The forward pass runs the module through torch on the layer's numpy
    inputs; the backward pass is torch autograd, inside one kerasish
    primitive. Every parameter of the module becomes a kerasish `Variable`
    sharing the parameter's memory, so kerasish optimizers train the
    module in place (and the module sees every update). Weight files
    store the module's `state_dict` (buffers such as batch-norm statistics
    included), keyed by its names, as Keras does.

    Args:
        module: A `torch.nn.Module` on the CPU. A lazy module must be
            initialized (called once) first.
        name: Layer name. Defaults to `None` (automatic).
        output_shape: Optional output shape for shape inference; by default
            the module is run once on zeros.

    Example (needs the `torch` extra, so it is not a doctest; the tests
    run it):

    ```python
    import torch
    layer = kerasish.layers.TorchModuleWrapper(torch.nn.Linear(4, 2))
    assert layer(np.ones((3, 4), "float32")).shape == (3, 2)
    assert [w.shape for w in layer.trainable_weights] == [(2, 4), (2,)]
    ```
    """

    def __init__(self, module, name=None, output_shape=None, **kwargs):
        torch = import_torch()
        super().__init__(name=name, **kwargs)
        if not isinstance(module, torch.nn.Module):
            raise ValueError(
                "`module` must be a `torch.nn.Module`. Received: "
                f"module={module!r:.80}")
        lazy = torch.nn.modules.lazy.LazyModuleMixin
        if isinstance(module, lazy) and module.has_uninitialized_params():
            raise ValueError(
                "LazyModules are not supported unless they are already "
                f"initialized. Received uninitialized LazyModule: "
                f"module={module}")
        self.module = module.cpu()
        # `output_shape` is a read-only property of layers (the built
        # output's shape); the argument is kept under another name.
        self._output_shape_arg = output_shape
        self._track_module_parameters()

    def parameters(self, recurse=True):
        """The module's parameters (as `torch.nn.Module.parameters`)."""
        return self.module.parameters(recurse=recurse)

    def _track_module_parameters(self):
        pairs = []
        for name, param in self.module.named_parameters():
            value = param.detach().numpy()
            variable = self.add_weight(
                shape=value.shape, initializer=lambda shape, dtype=None,
                v=value: v, dtype=str(value.dtype),
                trainable=param.requires_grad, name=name.replace(".", "_"))
            pairs.append((param, variable))
        # Not a tracked list: the variables are tracked by `add_weight`.
        object.__setattr__(self, "_pairs", pairs)
        self._share_memory()
        self.built = True

    def _share_memory(self):
        """Point each parameter at its variable's array (after a variable
        was replaced, or the module moved its storage)."""
        torch = import_torch()
        for param, variable in self._pairs:
            array = variable._value
            if param.data.data_ptr() != array.ctypes.data:
                param.data = torch.from_numpy(array)

    # -- calling --------------------------------------------------------------
    def call(self, *args, training=None, **kwargs):
        torch = import_torch()
        self._share_memory()
        tracing = call_context.in_trace()
        self.module.train(training is not False and not tracing)
        tensors = [a for a in args]
        variables = [v for _, v in self._pairs]
        n_args = len(tensors)
        kwargs = {k: _to_torch(torch, v) for k, v in kwargs.items()}

        def run(arrays, need_grad):
            need_grad = need_grad and not tracing
            inputs = [torch.from_numpy(np.ascontiguousarray(a))
                      for a in arrays[:n_args]]
            leaves = [x.requires_grad_() for x in inputs
                      if need_grad and x.is_floating_point()]
            with torch.set_grad_enabled(need_grad):
                result = self.module(*inputs, **kwargs)
            outputs = list(result) if isinstance(result, (tuple, list)) \
                else [result]
            numpy_out = [o.detach().numpy() for o in outputs]
            if not need_grad:
                return numpy_out, None
            params = [p for p, _ in self._pairs]
            return numpy_out, _torch_backward(torch, outputs, inputs, leaves,
                                              params)
        outputs = foreign_call(run, tensors + variables)
        return outputs[0] if len(outputs) == 1 else outputs

    # -- saving ---------------------------------------------------------------
    def save_own_variables(self, store):
        """Store the module's `state_dict` (parameters and buffers)."""
        for key, value in self.module.state_dict().items():
            store[key] = value.detach().cpu().numpy()

    def load_own_variables(self, store):
        """Load a `state_dict` written by `save_own_variables`."""
        torch = import_torch()
        state = {}
        for key in store.keys():
            name = key.decode() if isinstance(key, bytes) else key
            state[name] = torch.from_numpy(np.array(store[key]))
        self._share_memory()
        self.module.load_state_dict(state)

    def compute_output_shape(self, input_shape):
        if self._output_shape_arg is None:
            return super().compute_output_shape(input_shape)
        return tuple(self._output_shape_arg)

    def get_config(self):
        torch = import_torch()
        buffer = io.BytesIO()
        torch.save(self.module, buffer)
        config = super().get_config()
        config.update({
            "module": base64.b64encode(buffer.getvalue()).decode("ascii"),
            "output_shape": self._output_shape_arg})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        config = dict(config)
        if isinstance(config.get("module"), str):
            config["module"] = _unpickle_module(config["module"], safe_mode)
        return cls(**config)


def _unpickle_module(encoded, safe):
    # `torch.load` unpickles: refuse unless safe mode is off, as Keras does.
    if (safe if safe is not None else safe_mode.in_safe_mode()) is not False:
        raise ValueError(
            "Requested the deserialization of a `torch.nn.Module` object via "
            "`torch.load()`. This carries a potential risk of arbitrary code "
            "execution and thus it is disallowed by default. If you trust "
            "the source of the artifact, you can override this error by "
            "passing `safe_mode=False` to the loading function, or calling "
            "`keras.config.enable_unsafe_deserialization()`.")
    torch = import_torch()
    buffer = io.BytesIO(base64.b64decode(encoded.encode("ascii")))
    return torch.load(buffer, weights_only=False)


def _to_torch(torch, value):
    if isinstance(value, Tensor):
        return torch.from_numpy(np.array(value._value))
    if isinstance(value, np.ndarray):
        return torch.from_numpy(value)
    return value


def _torch_backward(torch, outputs, inputs, leaves, params):
    """Gradients of the inputs and of every parameter, by torch autograd."""
    def backward(cotangents, needs):
        targets = leaves + [p for p in params if p.requires_grad]
        pairs = [(o, torch.from_numpy(np.ascontiguousarray(c)))
                 for o, c in zip(outputs, cotangents) if o.requires_grad]
        grads = torch.autograd.grad(
            [o for o, _ in pairs], targets, [c for _, c in pairs],
            allow_unused=True) if pairs and targets else [None] * len(targets)
        by_leaf = {id(t): g for t, g in zip(targets, grads)}
        result = [by_leaf.get(id(x)) for x in inputs] + \
            [by_leaf.get(id(p)) for p in params]
        return [None if g is None else g.numpy() for g in result]
    return backward
