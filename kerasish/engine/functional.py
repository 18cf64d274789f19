"""`Functional`: a model defined as a graph from `Input`s to outputs.

`Model(inputs, outputs)` returns one. Calling it runs the recorded nodes in
topological order on real tensors; inputs and outputs may be single tensors,
lists or dicts, shared layers may appear at several nodes, and a model can
itself be a layer of another model.
"""
import warnings

import numpy as np

from kerasish import tree
from kerasish.backend.dtypes import is_string_dtype
from kerasish.backend.tensor import Tensor
from kerasish.engine.argument_checks import describe
from kerasish.engine.graph import map_graph
from kerasish.engine.graph_clone import clone_graph_nodes, is_input_tensor
from kerasish.engine.input_layer import InputLayer
from kerasish.engine.input_spec import InputSpec
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.model import Model
from kerasish.engine.layer import Layer
from kerasish.ops.operation import infer_output_spec
from kerasish.ops import convert_to_tensor
from kerasish.ops import cast
from kerasish.ops import squeeze
from kerasish.ops import expand_dims


class Functional(Model):
    """A model built from symbolic inputs and outputs.

    Args:
        inputs: An `Input` tensor, or a list/dict of them.
        outputs: Output KerasTensor(s): single, list or dict.
        name: Model name (defaults to `"functional"`, `"functional_1"`, ...).

    Example:

    >>> import kerasish
    >>> x = kerasish.Input((4,))
    >>> y = kerasish.layers.Dense(2)(x)
    >>> model = kerasish.Model(x, y)
    >>> [layer.name for layer in model.layers][1:]
    ['dense']
    """

    _convert_input_args = False

    def __init__(self, inputs, outputs, name=None, **kwargs):
        # Keras takes `trainable` and ignores other keyword arguments.
        trainable = kwargs.pop("trainable", True)
        # Checked before the model takes a name, as in Keras.
        _check_graph_ends(inputs, outputs)
        if not all(is_input_tensor(t) for t in tree.flatten(inputs)):
            inputs, outputs = clone_graph_nodes(inputs, outputs)
        super().__init__(name=name, trainable=trainable)
        self._init_graph(inputs, outputs)

    def _init_graph(self, inputs, outputs):
        self._inputs_struct = _copy_struct(inputs)
        self._outputs_struct = _copy_struct(outputs)
        self._inputs = tree.flatten(inputs)
        self._outputs = tree.flatten(outputs)
        self._nodes_by_depth, operations = map_graph(self._inputs,
                                                     self._outputs)
        self._nodes = [n for ns in self._nodes_by_depth.values()
                       for n in ns if not n.is_input]
        self._check_inputs_reach_outputs()
        self._operations = operations
        object.__setattr__(self, "_layers", [op for op in operations
                                             if isinstance(op, Layer)])
        self._output_ids = [id(t) for t in self._outputs]
        self.built = True

    def _check_inputs_reach_outputs(self):
        input_ids = {id(t) for t in self._inputs}
        for nodes in self._nodes_by_depth.values():
            for node in nodes:
                if node.is_input and not any(id(t) in input_ids
                                             for t in node.outputs):
                    raise ValueError(
                        "Output with path `` is not connected to `inputs`: "
                        f"it depends on the input '{node.operation.name}', "
                        "which is not among the model's inputs.")

    # -- structure ------------------------------------------------------------
    @property
    def layers(self):
        """Layers of the graph (InputLayers included), in Keras's order."""
        return [op for op in self._operations if hasattr(op, "weights")]

    @property
    def inputs(self):
        return self._inputs

    @property
    def outputs(self):
        return self._outputs

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    def add_loss(self, loss):
        """Keras 3 has no symbolic losses: a functional model adds its
        losses through the layers' `call`s (e.g. an `ActivityRegularization`
        layer or a layer calling `self.add_loss`)."""
        raise NotImplementedError(
            f"`add_loss()` is not supported on the functional model "
            f"'{self.name}'. Add losses from inside a layer's `call()` "
            "instead.")

    @property
    def input_shape(self):
        """Shapes of the flat inputs (one shape for a single input)."""
        shapes = [t.shape for t in self._inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        """Shapes of the flat outputs (one shape for a single output)."""
        shapes = [t.shape for t in self._outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def input_names(self):
        return [_input_name(t) for t in self._inputs]

    @property
    def output_names(self):
        return [t._keras_history[0].name for t in self._outputs]

    @property
    def input_spec(self):
        if getattr(self, "_manual_input_spec", None) is not None:
            return self._manual_input_spec
        cached = self.__dict__.get("_input_spec_cache")
        if cached is None:
            cached = self.__dict__["_input_spec_cache"] = \
                self._make_input_spec()
        return cached

    def _make_input_spec(self):
        # As Keras: a list, one spec per flat input; for a dict of Inputs,
        # by sorted key (named by key); none for deeper dicts.
        struct = self._inputs_struct
        if isinstance(struct, dict):
            if not all(isinstance(t, KerasTensor) for t in struct.values()):
                return None
            return [_input_spec(struct[k], k) for k in sorted(struct)]
        return [_input_spec(t) for t in self._inputs]

    @input_spec.setter
    def input_spec(self, value):
        self._manual_input_spec = value

    # -- execution ------------------------------------------------------------
    def call(self, inputs, training=None, mask=None):
        flat = self._standardize_inputs(inputs)
        if mask is not None:
            for x, m in zip(flat, tree.flatten(mask)):
                if isinstance(x, Tensor) and m is not None:
                    x._keras_mask = m
        values = {id(t): x for t, x in zip(self._inputs, flat)}
        for node in self._nodes:
            outs = _run_node(node, values, training)
            for t, y in zip(node.outputs, tree.flatten(outs)):
                values[id(t)] = y
        outputs = tree.pack_sequence_as(
            self._outputs_struct, [values[i] for i in self._output_ids])
        # Keras returns the tensor itself for a one-element output list.
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            return outputs[0]
        return outputs

    def _standardize_inputs(self, inputs):
        if isinstance(inputs, (list, tuple)):
            # A count mismatch is an error before it is a structure warning
            # (Keras 3 warns, then silently drops the extra tensors).
            self._check_input_count(self._flatten_inputs(inputs), inputs)
        _check_input_structure(self._inputs_struct, inputs)
        flat = self._flatten_inputs(inputs)
        self._check_input_count(flat, inputs)
        return [_conform(x, ref) for x, ref in zip(flat, self._inputs)]

    def _check_input_count(self, flat, inputs):
        if len(flat) != len(self._inputs):
            raise ValueError(
                f'Layer "{self.name}" expects {len(self._inputs)} input(s),'
                f" but it received {len(flat)} input tensors. "
                f"Received: inputs={describe(inputs)}")

    def _flatten_inputs(self, inputs):
        if isinstance(inputs, dict):
            names = (list(self._inputs_struct) if isinstance(
                self._inputs_struct, dict) else self.input_names)
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(
                    f'Missing data for input "{missing[0]}". You passed a '
                    f"data dictionary with keys {list(inputs)}. Expected "
                    f"the following keys: {names}")
            if isinstance(self._inputs_struct, dict):
                ordered = {k: inputs[k] for k in self._inputs_struct}
                return tree.flatten(ordered)
            return [inputs[n] for n in names]
        if isinstance(inputs, (list, tuple)) and len(self._inputs) == 1 and \
                not isinstance(self._inputs_struct, (list, tuple)) and \
                len(inputs) != 1 and not _all_arrays(inputs):
            return [inputs]   # nested Python numbers: one input
        if isinstance(inputs, (list, tuple)):
            return list(inputs) if len(inputs) == len(self._inputs) \
                else tree.flatten(inputs)
        return [inputs]

    def compute_output_spec(self, inputs, training=None, mask=None):
        flat = self._flatten_inputs(inputs)
        if all(tuple(x.shape) == ref.shape
               for x, ref in zip(flat, self._inputs)):
            return tree.pack_sequence_as(
                self._outputs_struct,
                [KerasTensor(t.shape, t.dtype) for t in self._outputs])
        return infer_output_spec(self.__call__, (inputs,), {})

    def compute_output_shape(self, input_shape):
        # As Keras: the graph is traced on inputs of the given shapes (with
        # the model's input dtypes).
        specs = tree.map_shape_structure(lambda s: KerasTensor(s),
                                         input_shape)
        flat = [KerasTensor(x.shape, ref.dtype)
                for x, ref in zip(tree.flatten(specs), self._inputs)]
        specs = tree.pack_sequence_as(specs, flat)
        return tree.map_structure(lambda t: t.shape,
                                  self.compute_output_spec(specs))

    def _maybe_build(self, args, kwargs):
        self.built = True

    def get_build_config(self):
        # What Keras records for a functional model (built when created).
        return {"input_shape": None}

    # -- serialization --------------------------------------------------------
    def get_config(self):
        # lazy: kept out of `import kerasish`
        from kerasish.saving.functional_config import functional_config
        return functional_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        # lazy: kept out of `import kerasish`
        from kerasish.saving.functional_config import functional_from_config
        return functional_from_config(cls, config, custom_objects)


def _run_node(node, values, training=None):
    if len(node.call_args) == 1 and not node.call_kwargs and \
            isinstance(node.call_args[0], KerasTensor):
        return node.operation(values[id(node.call_args[0])])
    args, kwargs = tree.map_structure(
        lambda x: values[id(x)] if isinstance(x, KerasTensor) else x,
        (node.call_args, node.call_kwargs))
    if training is not None and "training" in kwargs:
        # As in Keras, the model call's training flag wins over a value
        # recorded when the graph was built (`Dropout()(x, training=True)`).
        kwargs["training"] = training
    return node.operation(*args, **kwargs)


def _all_arrays(items):
    return all(isinstance(x, (Tensor, np.ndarray, KerasTensor))
               for x in items)


def _check_input_structure(struct, inputs):
    """Warn, as Keras, when `inputs` are not structured like the model's
    inputs; raise when Keras cannot reconcile the two."""
    unreconcilable = False
    # fit/predict hand numpy batches to the model, where Keras has tensors
    if isinstance(struct, list) and len(struct) == 1 and \
            isinstance(inputs, (Tensor, np.ndarray)):
        inputs = [inputs]
    elif isinstance(inputs, dict) and not isinstance(struct, dict):
        flat_struct = struct if isinstance(struct, (list, tuple)) else \
            [struct]
        names = [_input_name(t) if isinstance(t, KerasTensor) else None
                 for t in flat_struct]
        if None not in names and set(names) <= set(inputs):
            # (a single Input's model then warns, as in Keras)
            inputs = [inputs[n] for n in names]
        else:
            unreconcilable = True
    if isinstance(struct, dict) and not isinstance(inputs, dict) and \
            list(struct) != sorted(struct):
        unreconcilable = True   # no key order to match a sequence by
    try:
        tree.assert_same_structure(tree.lists_to_tuples(inputs),
                                   tree.lists_to_tuples(struct))
    except (ValueError, TypeError):
        expected = tree.map_structure(
            lambda t: "None" if t is None else _input_name(t), struct)
        received = tree.map_structure(
            lambda x: "None" if x is None else
            f"Tensor(shape={tuple(np.shape(x))})", inputs)
        message = ("The structure of `inputs` doesn't match the expected "
                   f"structure.\nExpected: {expected}\n"
                   f"Received: inputs={received}")
        if unreconcilable:
            raise ValueError(message) from None
        warnings.warn(message, stacklevel=2)


def _conform(x, ref):
    """Convert to the Input's dtype and fix a missing/extra last axis."""
    if x is None:
        return None
    if not isinstance(x, Tensor):
        x = convert_to_tensor(x)
    text_in, text_ref = x.dtype.kind in "USO", is_string_dtype(ref.dtype)
    if text_in != text_ref:
        raise ValueError(
            f"Input '{_input_name(ref)}' expects data of dtype {ref.dtype}, "
            f"but received an array of dtype {x.dtype} with shape "
            f"{x.shape}.")
    if not text_ref and x.dtype != ref.dtype:
        mask = x._keras_mask
        x = cast(x, ref.dtype)
        x._keras_mask = mask
    ref_rank = len(ref.shape)
    if x.ndim == ref_rank + 1 and x.shape[-1] == 1:
        x = squeeze(x, axis=-1)
    elif x.ndim == ref_rank - 1 and ref.shape[-1] == 1:
        x = expand_dims(x, axis=-1)
    return x


def _input_spec(t, name=None):
    return InputSpec(shape=(None,) + tuple(t.shape[1:]),
                     allow_last_axis_squeeze=True,
                     name=name or _input_name(t),
                     optional=getattr(t._keras_history[0], "optional",
                                      False))


def _input_name(t):
    op = t._keras_history[0] if t._keras_history else None
    return op.name if isinstance(op, InputLayer) else t.name


def _warn_on_renamed_inputs(inputs):
    for key, t in inputs.items():
        if isinstance(t, KerasTensor) and key != _input_name(t):
            warnings.warn(
                "When providing `inputs` as a dict, all keys in the dict must "
                "match the names of the corresponding tensors. Received key "
                f"'{key}' mapping to value {t} which has name "
                f"'{_input_name(t)}'. Change the tensor name to '{key}' (via "
                f"`Input(..., name='{key}')`)")


def _check_graph_ends(inputs, outputs):
    if isinstance(inputs, dict):
        _warn_on_renamed_inputs(inputs)
    _check_keras_tensors(inputs, "inputs")
    _check_keras_tensors(outputs, "outputs")


def _check_keras_tensors(structure, what):
    for t in tree.flatten(structure):
        if not isinstance(t, KerasTensor):
            raise ValueError(
                f"All `{what}` values must be KerasTensors. Received: "
                f"{what}={structure} including invalid value {t} of type "
                f"{type(t)}")
        if t._keras_history is None:
            raise ValueError(
                f"The tensor {t} in `{what}` was not produced by a Keras "
                "layer or op, so no model can be built from it.")


def _copy_struct(structure):
    if isinstance(structure, dict):
        return dict(structure)
    if isinstance(structure, tuple):
        return tuple(structure)     # a tuple model returns tuples
    if isinstance(structure, list):
        return list(structure)
    return structure
