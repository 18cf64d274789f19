"""`Layer`: the unit of computation with weights (Keras 3's contract).

A layer creates its weights in `build(input_shape)` with `add_weight`, and
computes in `call(inputs, training=None, mask=None)`. `__call__` builds it on
first use (inside its name scope, so variable paths are stable), resolves
`training` from the enclosing call, propagates Keras masks, records graph
nodes when given symbolic inputs, and collects activity-regularization
losses. Weights are listed in Keras's order: own trainable, own
non-trainable, then each sublayer's.
"""
import functools
import inspect
import warnings

import numpy as np

from kerasish import tree
from kerasish.backend import autocast
from kerasish.backend import random as random_module
from kerasish.backend.tensor import Tensor
from kerasish.backend.common import call_context, naming, tracking
from kerasish.engine import call_errors, dtype_policy
from kerasish.engine.input_spec import assert_input_compatibility
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer_state import LayerState
from kerasish.ops.node import Node
from kerasish.ops.operation import (Operation, symbolic_shape,
                                    infer_output_spec)
from kerasish.engine.quantization_hooks import (QuantizationHooks,
                                                wrap_quantize)
from kerasish.backend.common.variable import Variable, make_variable
from kerasish.ops.symbolic import any_symbolic
from kerasish.metrics.metric import Metric
from kerasish import regularizers
from kerasish import initializers, regularizers, constraints
from kerasish import ops
from kerasish.ops import cast
from kerasish.ops import convert_to_tensor
from kerasish.saving.serialization_lib import serialize_keras_object

_AUTO_CONFIG_TYPES = (str, int, float, bool, type(None))
# Set by `__new__`, before `__init__`: constructor arguments, not children.
_UNTRACKED_EARLY = frozenset({"_init_args", "_auto_config",
                              "_tracked_metrics"})
# Set when any layer adds a loss, so outer calls know to clear old ones.
_LOSSES_ADDED = [False]


class _CallSpec:
    """Per-class facts about `call`'s signature, computed once."""

    def __init__(self, call):
        params = inspect.signature(call).parameters
        self.names = list(params)
        self.has_training = "training" in params
        self.has_mask = "mask" in params
        self.training_default = (
            params["training"].default if self.has_training and
            params["training"].default is not inspect.Parameter.empty
            else None)
        self.has_var_kwargs = any(
            p.kind == p.VAR_KEYWORD for p in params.values())


def _reraise_with_info(error, layer, method, fn, args, kwargs):
    """Raise `error` again naming `layer.method()` and its arguments
    (`call_errors`); returns when it is to be re-raised unchanged, as
    inside shape inference, whose placeholder shapes would mislead."""
    if call_context.in_trace():
        return
    new = call_errors.with_call_info(error, layer, method, fn, args, kwargs)
    if new is not None:
        raise new from None


def _wrap_build(layer):
    original = layer.build

    @functools.wraps(original)
    def build(*args, **kwargs):
        with naming.name_scope(layer.name):
            object.__setattr__(layer, "_path", naming.current_path())
            try:
                original(*args, **kwargs)
            except Exception as e:
                _reraise_with_info(e, layer, "build", original, args, kwargs)
                raise
        try:
            bound = inspect.signature(original).bind(*args, **kwargs)
            layer._build_shapes_dict = {
                k: _symbolic_shapes(v) for k, v in bound.arguments.items()}
        except TypeError:
            layer._build_shapes_dict = None
        layer.built = True
    layer.build = build


def _symbolic_shapes(value):
    """Build shapes with placeholder sizes of a shape trace as None."""
    if not call_context.in_trace():
        return value
    if isinstance(value, tuple) and all(
            d is None or isinstance(d, int) for d in value):
        return symbolic_shape(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_symbolic_shapes(v) for v in value)
    if isinstance(value, dict):
        return {k: _symbolic_shapes(v) for k, v in value.items()}
    return value


def _metric_class():
    return Metric


def default_config(method):
    """Mark `method` (a base class's `get_config`) as one a subclass has
    not written itself, so the automatic config applies (Keras's
    `@python_utils.default`)."""
    method._kerasish_default = True
    return method


class Layer(Operation, QuantizationHooks, LayerState):
    """Base class of all layers.

    Args:
        activity_regularizer: Optional regularizer applied to the output.
        trainable: Whether the layer's weights are updated in training.
        dtype: Dtype policy name (`"float32"`, `"mixed_float16"`, ...).
        autocast: Cast float inputs to the compute dtype. Defaults to True.
        name: Unique name; defaults to the snake_case class name.

    Example:

    >>> import kerasish
    >>> class Scale(kerasish.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight(shape=(input_shape[-1],),
    ...                                  initializer="ones")
    ...     def call(self, x):
    ...         return x * self.w
    >>> Scale()(np.ones((2, 3), "float32")).shape
    (2, 3)
    """

    _call_specs = {}
    _convert_input_args = True

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        obj._auto_config = _auto_config(cls, args, kwargs)
        _wrap_build(obj)
        wrap_quantize(obj)
        return obj

    def __init__(self, *, activity_regularizer=None, trainable=True,
                 dtype=None, autocast=True, name=None, **kwargs):
        early = list(vars(self))
        self._tracking_ready = False
        Operation.__init__(self, name=name)
        self._dtype_policy = dtype_policy.get(dtype)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self._input_shape_arg = _pop_input_shape(kwargs, type(self))
        if kwargs:
            raise ValueError(
                "Unrecognized keyword arguments passed to "
                f"{type(self).__name__}: {kwargs}")
        if not isinstance(trainable, bool):
            raise ValueError(
                "Expected `trainable` to be a boolean. "
                f"Received: trainable={trainable}")
        self.built = False
        self.autocast = autocast
        self.input_spec = None
        self._trainable = trainable
        self._trainable_variables = []
        self._non_trainable_variables = []
        self._layers = []
        self._seed_generators = []
        if not hasattr(self, "_tracked_metrics"):   # a Trainer's, made first
            self._tracked_metrics = []
        self._losses = []
        self._build_shapes_dict = None
        self.supports_masking = type(self).compute_mask is not \
            Layer.compute_mask
        self._tracking_ready = True
        self._track_early_attributes(early)

    @property
    def _computes_masks(self):
        """Whether the layer may create a mask with no mask coming in."""
        return type(self).compute_mask is not Layer.compute_mask

    # -- attribute tracking ------------------------------------------------
    def __setattr__(self, name, value):
        if getattr(self, "_tracking_ready", False) and \
                not name.startswith("__"):
            value = tracking.wrap(value, self)
        object.__setattr__(self, name, value)

    def _track_early_attributes(self, early):
        """Track what a subclass assigned before `super().__init__()`, in
        assignment order, as Keras does."""
        for name in early:
            if name not in _UNTRACKED_EARLY and not name.startswith("__"):
                object.__setattr__(self, name,
                                   tracking.wrap(getattr(self, name), self))

    def __delattr__(self, name):
        value = getattr(self, name, None)
        if isinstance(value, (Layer, Variable)):
            # `del self._kernel` (quantization) untracks the variable.
            self._untrack(value)
        object.__delattr__(self, name)

    def _untrack(self, value):
        if isinstance(value, Layer):
            self._layers[:] = [l for l in self._layers if l is not value]
        elif isinstance(value, Variable):
            for owned in (self._trainable_variables,
                          self._non_trainable_variables):
                owned[:] = [v for v in owned if v is not value]
        elif isinstance(value, random_module.SeedGenerator):
            self._seed_generators[:] = [
                g for g in self._seed_generators if g is not value]
        elif isinstance(value, _metric_class()):
            self._tracked_metrics[:] = [
                m for m in self._tracked_metrics if m is not value]

    def _track(self, value):
        if isinstance(value, Layer):
            if value is not self and not any(value is l for l in
                                             self._layers):
                self._layers.append(value)
        elif isinstance(value, Variable):
            owned = (self._trainable_variables if value.trainable
                     else self._non_trainable_variables)
            if not any(value is v for v in self._trainable_variables +
                       self._non_trainable_variables):
                owned.append(value)
        elif isinstance(value, random_module.SeedGenerator):
            if value not in self._seed_generators:
                self._seed_generators.append(value)
        elif isinstance(value, _metric_class()):
            # As Keras: a metric anywhere in the layer's attributes (lists,
            # dicts, sublayers) is one of the model's `metrics`.
            if not any(value is m for m in self._tracked_metrics):
                self._tracked_metrics.append(value)

    # -- dtypes --------------------------------------------------------------
    @property
    def dtype_policy(self):
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value):
        policy = dtype_policy.get(value)
        current = self._dtype_policy
        if getattr(current, "_is_policy_map", False) and self.path:
            if self.path in current:
                del current[self.path]
            current[self.path] = policy
        else:
            self._dtype_policy = policy
        if policy.quantization_mode is not None and self.built and \
                not getattr(self, "_is_quantized", False):
            if policy.quantization_mode == "gptq":
                raise ValueError(
                    "Implicitly enabling GPTQ quantization by setting "
                    f"`dtype_policy` to '{value}' is not supported. GPTQ "
                    "requires a calibration dataset and a `GPTQConfig` "
                    "object.\n\nPlease use the `.quantize('gptq', "
                    "config=...)` method on the layer or model instead.")
            self.quantize(policy.quantization_mode)

    def _own_policy(self):
        """This layer's policy (its entry when it was given a policy map)."""
        policy = self._dtype_policy
        if policy._is_policy_map and self.path:
            return policy[self.path]
        return policy

    @property
    def path(self):
        """The layer's name-scope path (`"model/dense"`); None until built.
        """
        return getattr(self, "_path", None)

    @property
    def dtype(self):
        """The dtype of the layer's weights."""
        return self._own_policy().variable_dtype

    @property
    def compute_dtype(self):
        policy = self._dtype_policy
        if policy._is_policy_map:   # read on every call: keep it cheap
            policy = self._own_policy()
        return policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._own_policy().variable_dtype

    @property
    def input_dtype(self):
        return self._own_policy().compute_dtype

    # -- weights ------------------------------------------------------------
    def add_weight(self, shape=None, initializer=None, dtype=None,
                   trainable=True, autocast=True, regularizer=None,
                   constraint=None, aggregation="none",
                   overwrite_with_gradient=False, name=None):
        """Create a weight variable owned by this layer.

        Args:
            shape: Shape tuple (default scalar).
            initializer: Initializer name/object/callable; defaults to
                `"glorot_uniform"` for floats, `"zeros"` otherwise.
            dtype: Defaults to the layer's variable dtype.
            trainable: Whether optimizers update it.
            regularizer: Optional regularizer contributing to `losses`.
            constraint: Optional projection applied after each update.
            name: Variable name (path is `<layer path>/<name>`).

        Returns:
            The new `Variable`.
        """
        shape = () if shape is None else tuple(int(d) for d in shape)
        dtype = dtype or self.variable_dtype
        if initializer is None:
            initializer = ("glorot_uniform" if np.dtype(
                str(dtype)).kind == "f" else "zeros")
        initializer = initializers.get(initializer)
        with naming.name_scope(self.name):
            variable = make_variable(
                "weight", initializer, shape=shape, dtype=dtype,
                trainable=trainable, name=name, autocast=autocast,
                aggregation=aggregation)
        variable.regularizer = regularizers.get(regularizer)
        variable.constraint = constraints.get(constraint)
        variable.overwrite_with_gradient = overwrite_with_gradient
        self._track(variable)
        return variable

    def add_variable(self, shape, initializer, dtype=None, trainable=True,
                     autocast=True, regularizer=None, constraint=None,
                     name=None):
        return self.add_weight(shape=shape, initializer=initializer,
                               dtype=dtype, trainable=trainable,
                               autocast=autocast, regularizer=regularizer,
                               constraint=constraint, name=name)

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        value = bool(value)
        self._trainable = value
        for layer in self._flatten_layers(include_self=False):
            layer._trainable = value

    def _flatten_layers(self, include_self=True, recursive=True):
        """This layer and its sublayers, depth first, without repeats."""
        seen, out = set(), []
        stack = [self] if include_self else list(reversed(self._layers))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            out.append(layer)
            if recursive or layer is self:
                stack.extend(reversed(layer._layers))
        return out

    @property
    def weights(self):
        """All weights: own trainable, own non-trainable, then sublayers'."""
        seen, out = set(), []
        for v in self._trainable_variables + self._non_trainable_variables:
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        for layer in self._layers:
            for v in layer.weights:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        seen, out = set(), []
        for v in self._trainable_variables:
            if v.trainable and id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        for layer in self._layers:
            for v in layer.trainable_weights:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    @property
    def non_trainable_weights(self):
        trainable = {id(v) for v in self.trainable_weights}
        return [v for v in self.weights if id(v) not in trainable]

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def variables(self):
        return self.weights

    def stateless_call(self, trainable_variables, non_trainable_variables,
                       *args, return_losses=False, **kwargs):
        """Call the layer with the given variable values, changing nothing.

        Returns `(outputs, non_trainable_variables)` -- the new values of
        the non-trainable variables, e.g. BatchNorm's moving statistics --
        plus the losses with `return_losses=True`. See
        `kerasish.backend.common.scopes.stateless_call`.
        """
        # lazy: kept out of `import kerasish`
        from kerasish.backend.common.scopes import stateless_call
        return stateless_call(self, trainable_variables,
                              non_trainable_variables, args, kwargs,
                              return_losses)

    def get_weights(self):
        """Copies of the weight values, in `weights` order."""
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights):
        """Set weight values from a list of arrays (`get_weights` order)."""
        variables = self.weights
        if len(weights) != len(variables):
            raise ValueError(
                f"You called `set_weights(weights)` on layer '{self.name}' "
                f"with a weight list of length {len(weights)}, but the layer "
                f"was expecting {len(variables)} weights.")
        for variable, value in zip(variables, weights):
            value = np.asarray(value)
            if tuple(variable.shape) != tuple(value.shape):
                raise ValueError(
                    f"Layer {self.name} weight shape {variable.shape} is not "
                    "compatible with provided weight shape "
                    f"{value.shape}.")
        for variable, value in zip(variables, weights):
            variable.assign(value)

    def count_params(self):
        """Total number of scalars in the layer's weights."""
        if not self.built:
            raise ValueError(
                "You tried to call `count_params` on layer "
                f"'{self.name}', but the layer isn't built. You can build "
                "it manually via: `layer.build(input_shape)`.")
        return int(sum(np.prod(v.shape) for v in self.weights))

    # -- losses ---------------------------------------------------------------
    def add_loss(self, loss):
        """Add a scalar loss tensor (collected in `losses` for training).

        `loss` may also be a nested structure of tensors: each one becomes
        its own entry in `losses`, as in Keras.
        """
        if call_context.in_trace():
            return
        losses = tree.flatten(loss)
        for value in losses:
            if not isinstance(value, Tensor):
                raise ValueError(
                    "`add_loss()` can only be called from inside `build()` "
                    "or `call()`, on a tensor input. Received invalid value: "
                    f"{value!r:.80}")
        _LOSSES_ADDED[0] = True
        self._losses.extend(losses)

    @property
    def losses(self):
        """Losses added during the last call plus weight regularization."""
        out = []
        for layer in self._flatten_layers():
            out.extend(layer._losses)
        # Only trainable weights are regularized, as in Keras: a frozen
        # layer (or a LoRA-frozen kernel) adds no penalty.
        for v in self.trainable_weights:
            if v.regularizer is not None:
                out.append(v.regularizer(v))
        return out

    def _clear_losses(self):
        for layer in self._flatten_layers():
            layer._losses = []

    # -- building -------------------------------------------------------------
    def build(self, input_shape):
        """Create the layer's weights; called once, before the first call."""
        self.built = True

    def _spec(self):
        cls = type(self)
        spec = Layer._call_specs.get(cls)
        if spec is None:
            spec = Layer._call_specs[cls] = _CallSpec(self.call)
        return spec

    def _maybe_build(self, args, kwargs):
        if self.built:
            return
        spec = self._spec()
        shapes = _shapes_by_name(spec, args, kwargs)
        params = [p for p in inspect.signature(self.build).parameters]
        if len(params) > 1 and all(p in shapes for p in params):
            self.build(**{p: shapes[p] for p in params})
        else:
            first = args[0] if args else next(iter(kwargs.values()))
            self.build(tree.map_structure(_shape_of, first))

    # -- calling --------------------------------------------------------------
    def call(self, *args, **kwargs):
        raise NotImplementedError(
            f"Layer {type(self).__name__} does not have a `call()` method "
            "implemented.")

    def __call__(self, *args, **kwargs):
        if (args or kwargs) and any_symbolic(args, kwargs):
            return self._symbolic_call(args, kwargs)
        if _LOSSES_ADDED[0] and call_context.is_outermost():
            self._clear_losses()
        if args and self._convert_input_args:
            args = self._convert_args(args)
        spec = self._spec()
        first = args[0] if args else None
        if self.input_spec is not None and first is not None:
            assert_input_compatibility(self.input_spec, first, self.name)
        built = self.built
        if not built:
            with naming.name_scope(self.name):
                self._maybe_build(args, kwargs)
        training = self._resolve_training(kwargs, spec)
        previous_mask = self._resolve_mask(first, kwargs, spec)
        with call_context.training_scope(training):
            try:
                if self._dtype_policy._plain and \
                        autocast._state.dtype is None:
                    # The common case: no autocast scope, no quantized path.
                    outputs = self.call(*args, **kwargs) if built else \
                        self._run_call(self.call, built, args, kwargs)
                else:
                    outputs = self._policy_call(built, args, kwargs)
            except Exception as e:
                _reraise_with_info(e, self, "call", self.call, args, kwargs)
                raise
        if self.activity_regularizer is not None and \
                not call_context.in_trace():
            self._add_activity_loss(outputs)
        if previous_mask is not None or self._computes_masks:
            self._set_output_mask(first, outputs, previous_mask)
        return outputs

    def _run_call(self, call, built, args, kwargs):
        if built:
            return call(*args, **kwargs)
        # Weights created lazily inside `call` get this layer's path.
        with naming.name_scope(self.name):
            outputs = call(*args, **kwargs)
        object.__setattr__(self, "built", True)
        return outputs

    def _policy_call(self, built, args, kwargs):
        """Run `call` (or `quantized_call` for a quantized policy) in the
        autocast scope of a mixed precision policy."""
        call = self.call if self._own_policy().quantization_mode is None \
            else self.quantized_call
        with autocast.layer_scope(self):
            return self._run_call(call, built, args, kwargs)

    def _convert_args(self, args):
        if not args:
            return args
        first = args[0]
        dtype = self.compute_dtype if self.autocast else None
        if type(first) is Tensor:
            if first.dtype.kind != "f" or dtype is None or \
                    first.dtype == dtype:
                return args
            converted = _to_tensor(first, dtype, self)
        else:
            converted = tree.map_structure(
                lambda x: _to_tensor(x, dtype, self), first)
        return (converted,) + tuple(args[1:])

    def _resolve_training(self, kwargs, spec):
        training = kwargs.get("training")
        if training is None:
            training = call_context.current_training()
        if training is None:
            training = spec.training_default
        if spec.has_training:
            if training is not None:
                kwargs["training"] = bool(training)
            elif "training" in kwargs:
                del kwargs["training"]
        elif "training" in kwargs:
            del kwargs["training"]
        return training

    def _resolve_mask(self, first, kwargs, spec):
        mask = kwargs.get("mask")
        if mask is None and first is not None:
            if isinstance(first, Tensor):
                mask = first._keras_mask
            else:
                mask = tree.map_structure(
                    lambda x: getattr(x, "_keras_mask", None), first)
                if all(m is None for m in tree.flatten(mask)):
                    mask = None
            if spec.has_mask and mask is not None:
                kwargs["mask"] = mask
        return mask

    def _set_output_mask(self, inputs, outputs, previous_mask):
        if not self.supports_masking:
            if previous_mask is not None and any(
                    m is not None for m in tree.flatten(previous_mask)):
                warnings.warn(
                    f"Layer '{self.name}' (of type {type(self).__name__}) "
                    "was passed an input with a mask attached to it. "
                    "However, this layer does not support masking and will "
                    "therefore destroy the mask information. Downstream "
                    "layers will not see the mask.")
            return
        flat_out = [o for o in tree.flatten(outputs)
                    if isinstance(o, (Tensor, KerasTensor))]
        if not flat_out or all(o._keras_mask is not None for o in flat_out):
            return
        masks = self.compute_mask(inputs, previous_mask)
        if masks is None:
            return
        for out, mask in zip(tree.flatten(outputs), tree.flatten(masks)):
            if isinstance(out, (Tensor, KerasTensor)) and \
                    out._keras_mask is None:
                out._keras_mask = mask

    def _add_activity_loss(self, outputs):
        for out in tree.flatten(outputs):
            if isinstance(out, Tensor):
                loss = self.activity_regularizer(out)
                if out.ndim > 0:
                    loss = ops.divide_no_nan(
                        loss, ops.cast(out.shape[0], loss.dtype))
                self.add_loss(loss)

    def compute_mask(self, inputs, previous_mask):
        """The output mask; by default the input mask passes through."""
        return previous_mask

    # -- symbolic calls (functional API) ---------------------------------------
    def _symbolic_call(self, args, kwargs):
        if self.input_spec is not None and args:
            assert_input_compatibility(self.input_spec, args[0], self.name)
        if not self.built:
            with naming.name_scope(self.name):
                self._maybe_build(args, kwargs)
            self.built = True
        spec = self._spec()
        kwargs = dict(kwargs)
        # As Keras, the node records the call's `training` and `mask`: a
        # mask is a graph tensor (Embedding's `not_equal` node) that the
        # functional model computes and passes on.
        self._resolve_training(kwargs, spec)
        first = args[0] if args else None
        previous_mask = self._symbolic_mask(first, args, kwargs, spec)
        try:
            # Sublayers built lazily inside `call` get this layer's path.
            with naming.name_scope(self.name):
                outputs = self.compute_output_spec(*args, **kwargs)
        except Exception as e:
            _reraise_with_info(e, self, "call", self.call, args, kwargs)
            raise
        Node(self, call_args=args, call_kwargs=kwargs, outputs=outputs)
        if previous_mask is not None or self._computes_masks:
            self._set_output_mask(first, outputs, previous_mask)
        return outputs

    def _symbolic_mask(self, first, args, kwargs, spec):
        """The mask of a symbolic call's input; like Keras, put in `mask=`
        (None included) when the call has one tensor argument."""
        explicit = kwargs.get("mask")
        if explicit is not None or first is None:
            return explicit
        mask = tree.map_structure(
            lambda x: getattr(x, "_keras_mask", None), first)
        tensor_args = [a for a in list(args) + [
            v for k, v in kwargs.items() if k not in ("mask", "training")]
            if any(isinstance(x, KerasTensor) for x in tree.flatten(a))]
        if spec.has_mask and len(tensor_args) == 1:
            kwargs["mask"] = mask
        if all(m is None for m in tree.flatten(mask)):
            return None
        return mask

    def compute_output_spec(self, *args, **kwargs):
        if type(self).compute_output_shape is not Layer.compute_output_shape:
            first = args[0] if args else next(iter(kwargs.values()))
            shapes = tree.map_structure(_shape_of, first)
            out_shape = self.compute_output_shape(shapes)
            return _specs_from_shapes(out_shape, self.compute_dtype)
        return infer_output_spec(self.__call__, args, kwargs)

    def compute_output_shape(self, *args, **kwargs):
        """Output shape(s) for the given input shape(s)."""
        first = args[0] if args else next(iter(kwargs.values()))
        placeholders = (first if hasattr(first, "shape") else
                        _specs_from_shapes(_as_shapes(first),
                                           self.compute_dtype))
        spec = infer_output_spec(self.__call__, (placeholders,), {})
        return tree.map_structure(lambda t: t.shape, spec)

    # -- graph introspection --------------------------------------------------
    def _node_attr(self, attr, what):
        if not self._inbound_nodes:
            raise AttributeError(
                f"Layer {self.name} has no inbound nodes, so its {what} is "
                "undefined: it was never called on a symbolic input.")
        node = self._inbound_nodes[0]
        values = getattr(node, attr)
        return values[0] if len(values) == 1 else values

    @property
    def input(self):
        return self._node_attr("input_tensors", "input")

    @property
    def output(self):
        return self._node_attr("outputs", "output")

    @property
    def input_shape(self):
        return tree.map_structure(lambda t: t.shape, self.input)

    @property
    def output_shape(self):
        return tree.map_structure(lambda t: t.shape, self.output)

    # -- serialization --------------------------------------------------------
    @default_config
    def get_config(self):
        """Constructor arguments as a JSON-friendly dict."""
        config = {"name": self.name}
        if not _overrides(self, "get_config"):
            config.update(_checked_auto_config(self))
            if not _takes_name(type(self)):
                del config["name"]
        config.update({"trainable": self.trainable,
                       "dtype": _serialize_policy(self._dtype_policy)})
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = regularizers.serialize(
                self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config):
        """Create a layer from `get_config()` output."""
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = dtype_policy.get(config["dtype"])
        return cls(**config)

    def get_build_config(self):
        if self._build_shapes_dict is None:
            return None
        shapes = {k: _jsonable_shape(v)
                  for k, v in self._build_shapes_dict.items()}
        # Keras's layout: one shape is `input_shape` whatever `build` calls
        # its argument; several go under `shapes_dict`.
        if len(shapes) == 1:
            return {"input_shape": next(iter(shapes.values()))}
        return {"shapes_dict": shapes}

    def build_from_config(self, config):
        if not config or self.built:
            return
        if "shapes_dict" in config:
            self.build(**{k: _tuple_shape(v)
                          for k, v in config["shapes_dict"].items()})
        elif "input_shape" in config:
            self.build(_tuple_shape(config["input_shape"]))

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


# -- helpers ------------------------------------------------------------------
def _auto_config(cls, args, kwargs):
    """Keras's automatic config: every `__init__` argument by name,
    defaults included, when all are JSON-friendly (else None, or
    `_POSITIONAL` for arguments that a config cannot pass back)."""
    try:
        signature = inspect.signature(cls.__init__)
        bound = signature.bind(None, *args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    config = dict(bound.arguments)
    self_name, *params = signature.parameters.values()
    config.pop(self_name.name)
    for param in params:
        if param.kind is param.VAR_KEYWORD:
            config.update(config.pop(param.name))
        elif param.kind is param.POSITIONAL_ONLY or (
                param.kind is param.VAR_POSITIONAL and
                config.pop(param.name)):
            return _POSITIONAL
    config.pop("name", None)
    # `Layer.get_config` writes these itself; a layer rebuilt by
    # `from_config` receives its dtype as a policy object.
    for key in ("dtype", "activity_regularizer"):
        if not isinstance(config.get(key), (str, type(None))):
            config.pop(key)
    try:
        leaves = tree.flatten(config)
    except TypeError:
        return None
    if all(isinstance(v, _AUTO_CONFIG_TYPES) for v in leaves):
        return config
    return None


_POSITIONAL = object()


def _checked_auto_config(layer):
    """`layer`'s automatic config, or Keras's error saying why there is
    none."""
    name = type(layer).__name__
    auto = layer._auto_config
    if auto is _POSITIONAL:
        raise NotImplementedError(
            f"Object {name} was created by passing positional only or "
            "variadic positional arguments (e.g. `*args`) to `__init__()`, "
            "which the automatic config cannot pass back. Remove them from "
            "`__init__()`, or override `get_config()` and `from_config()` "
            "to make the object serializable.")
    if auto is None:
        raise NotImplementedError(
            f"Object {name} was created by passing non-serializable "
            "argument values in `__init__()`, and therefore the object "
            "must override `get_config()` in order to be serializable. "
            "Please implement `get_config()`.")
    return auto


def _takes_name(cls):
    """Whether the automatic config keeps `name`: Keras keeps it when
    `__init__` has a `name` argument or a `**kwargs` one spelled exactly
    so (under another spelling, such as `**kw`, Keras drops it)."""
    params = inspect.signature(cls.__init__).parameters.values()
    return any(p.name == "name" or (p.name == "kwargs" and
                                    p.kind is p.VAR_KEYWORD)
               for p in params)


def _overrides(obj, method):
    return not getattr(getattr(type(obj), method), "_kerasish_default",
                       False)


def _pop_input_shape(kwargs, cls):
    input_dim = kwargs.pop("input_dim", None)
    shape = (input_dim,) if input_dim is not None else \
        kwargs.pop("input_shape", None)
    batch_shape = kwargs.pop("batch_input_shape", None)
    if shape is None and batch_shape is not None:
        shape = tuple(batch_shape)[1:]
    if shape is not None:
        warnings.warn(
            "Do not pass an `input_shape`/`input_dim` argument to a layer. "
            "When using Sequential models, prefer using an `Input(shape)` "
            "object as the first layer in the model instead.",
            stacklevel=3)
        shape = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
    return shape


def _to_tensor(x, dtype, layer=None):
    if x is None or isinstance(x, KerasTensor):
        return x
    kind = getattr(getattr(x, "dtype", None), "kind", None)
    # Models pass text through to their layers (a StringLookup inside);
    # a computing layer given text says so, naming itself.
    if kind in ("U", "S", "O") and dtype and np.dtype(dtype).kind == "f" \
            and not getattr(layer, "_passes_text", False):
        name = f"'{layer.name}' ({type(layer).__name__})" if layer else ""
        raise ValueError(
            f"Layer {name} expects numeric input of dtype {dtype}, but "
            f"received an array of dtype {x.dtype} (strings or Python "
            f"objects) with shape {x.shape}.")
    if isinstance(x, Tensor):
        if dtype and x.dtype.kind == "f" and x.dtype != dtype:
            return cast(x, dtype)
        return x
    if isinstance(x, (np.ndarray, list, tuple, float, int, np.generic)):
        value = convert_to_tensor(x)
        if dtype and value.dtype.kind == "f" and value.dtype != dtype:
            value = Tensor(value._value.astype(dtype))
        return value
    return x


def _shape_of(x):
    if x is None:
        return None
    return tuple(x.shape) if hasattr(x, "shape") else x


def _is_shape(x):
    return isinstance(x, tuple) and all(d is None or isinstance(d, int)
                                        for d in x)


def _shapes_by_name(spec, args, kwargs):
    shapes = {}
    for name, value in zip(spec.names, args):
        if hasattr(value, "shape") or isinstance(value, (list, tuple)):
            shapes[f"{name}_shape"] = tree.map_structure(_shape_of, value)
    for name, value in kwargs.items():
        if hasattr(value, "shape"):
            shapes[f"{name}_shape"] = _shape_of(value)
    return shapes


def _as_shapes(x):
    """Shapes given as lists (``[None, 3]``) become tuples, at any depth."""
    if isinstance(x, (list, tuple)) and all(d is None or isinstance(d, int)
                                            for d in x):
        return tuple(x)
    if isinstance(x, dict):
        return {k: _as_shapes(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_as_shapes(v) for v in x)
    return x


def _specs_from_shapes(shape, dtype):
    if _is_shape(shape):
        return KerasTensor(shape, dtype=dtype)
    if isinstance(shape, dict):
        return {k: _specs_from_shapes(v, dtype) for k, v in shape.items()}
    return type(shape)(_specs_from_shapes(s, dtype) for s in shape)


def _serialize_policy(policy):
    if type(policy) is not dtype_policy.DTypePolicy:
        return serialize_keras_object(policy)
    return {"module": "keras", "class_name": "DTypePolicy",
            "config": {"name": policy.name}, "registered_name": None}


def _jsonable_shape(shape):
    # As Keras: a shape is a tuple (a list of shapes a list).
    if _is_shape(shape):
        return tuple(shape)
    if isinstance(shape, (list, tuple)):
        return [_jsonable_shape(s) for s in shape]
    if isinstance(shape, dict):
        return {k: _jsonable_shape(v) for k, v in shape.items()}
    return shape


def _tuple_shape(shape):
    if isinstance(shape, list) and all(d is None or isinstance(d, int)
                                       for d in shape):
        return tuple(shape)
    if isinstance(shape, list):
        return [_tuple_shape(s) for s in shape]
    if isinstance(shape, dict):
        return {k: _tuple_shape(v) for k, v in shape.items()}
    return shape
