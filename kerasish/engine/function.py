"""`Function` (`keras.Function`): a stateless graph from inputs to outputs.

Like a functional model without the `Layer` API: it tracks no variables,
only replays the recorded operations on new inputs. Its inputs may be
`Input`s or bare `KerasTensor`s; a bare one gets an input node here so the
graph walk (`engine.graph.map_graph`, shared with `Functional`) stops at it.
"""
from kerasish import tree
from kerasish.backend.common import naming
from kerasish.engine.graph import map_graph
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.node import Node
from kerasish.ops.operation import Operation
from kerasish.ops.operation import infer_output_spec
from kerasish.engine.functional import _run_node


class _Source(Operation):
    """The producer of a bare `KerasTensor` used as a `Function` input."""

    def get_config(self):
        return {"name": self.name}


class Function(Operation):
    """Capture the graph linking some KerasTensors to others; replay it.

    Args:
        inputs: A `KerasTensor` or a nested structure of them.
        outputs: A `KerasTensor` or a nested structure of them, computable
            from `inputs` alone.
        name: Optional name of the function.

    Example:

    >>> a = kerasish.KerasTensor((None, 2))
    >>> b = kerasish.KerasTensor((None, 2))
    >>> fn = kerasish.Function([a, b], kerasish.ops.sigmoid(a + b))
    >>> np.asarray(fn([np.zeros((1, 2)), np.zeros((1, 2))])).tolist()
    [[0.5, 0.5]]
    >>> fn.compute_output_shape([(4, 2), (4, 2)])
    (4, 2)
    """

    def __init__(self, inputs, outputs, name=None):
        super().__init__(name=name)
        self._inputs_struct = tree.map_structure(lambda x: x, inputs)
        self._outputs_struct = tree.map_structure(lambda x: x, outputs)
        self._inputs = tree.flatten(inputs)
        self._outputs = tree.flatten(outputs)
        for what, flat in (("inputs", self._inputs),
                           ("outputs", self._outputs)):
            if not flat:
                raise ValueError(
                    f"`{what}` argument cannot be empty. Received:\n"
                    f"inputs={inputs}\noutputs={outputs}")
        for t in self._inputs:
            if isinstance(t, KerasTensor) and t._keras_history is None:
                Node(_Source(name=naming.uniquify("function_input")),
                     outputs=[t])
        _check_produced(self._outputs)
        _check_sources(self._inputs, self._outputs)
        self._nodes_by_depth, self._operations = map_graph(self._inputs,
                                                           self._outputs)
        self._nodes = [n for nodes in self._nodes_by_depth.values()
                       for n in nodes if not n.is_input]

    @property
    def operations(self):
        """The graph's operations, inputs first (a copy)."""
        return [op for op in self._operations if not isinstance(op, _Source)]

    @property
    def inputs(self):
        """Flat list of the symbolic inputs."""
        return self._inputs

    @property
    def outputs(self):
        """Flat list of the symbolic outputs."""
        return self._outputs

    def call(self, inputs):
        """Compute the outputs for new input values."""
        self._assert_input_compatibility(inputs)
        return self._run(inputs)

    def compute_output_spec(self, inputs):
        self._assert_input_compatibility(inputs)
        if all(tuple(x.shape) == ref.shape
               for x, ref in zip(tree.flatten(inputs), self._inputs)):
            return tree.map_structure(
                lambda t: KerasTensor(t.shape, dtype=t.dtype),
                self._outputs_struct)
        return infer_output_spec(self._run, (inputs,), {})

    def compute_output_shape(self, input_shape):
        """Output shape(s) for input shape(s) in the inputs' structure."""
        specs = tree.map_shape_structure(lambda s: KerasTensor(s),
                                         input_shape)
        for spec, ref in zip(tree.flatten(specs), self._inputs):
            spec.dtype = ref.dtype
        outputs = self.compute_output_spec(specs)
        return tree.map_structure(lambda t: t.shape, outputs)

    def _run(self, inputs):
        values = {id(t): x for t, x in zip(self._inputs,
                                            tree.flatten(inputs))}
        for node in self._nodes:
            if all(id(t) in values for t in node.input_tensors):
                outs = _run_node(node, values)
                for t, y in zip(node.outputs, tree.flatten(outs)):
                    values[id(t)] = y
        return tree.pack_sequence_as(self._outputs_struct,
                                     [values[id(t)] for t in self._outputs])

    def _assert_input_compatibility(self, inputs):
        try:
            tree.assert_same_structure(inputs, self._inputs_struct)
        except ValueError:
            raise ValueError(
                "Function was called with an invalid input structure. "
                f"Expected input structure: {self._inputs_struct}\n"
                f"Received input structure: {inputs}") from None
        for x, ref in zip(tree.flatten(inputs), self._inputs):
            shape = tuple(getattr(x, "shape", ()))
            if len(shape) != len(ref.shape) or any(
                    d is not None and r is not None and d != r
                    for d, r in zip(shape, ref.shape)):
                raise ValueError(
                    f"{type(self).__name__} was passed incompatible inputs. "
                    f"For input '{ref.name}', expected shape {ref.shape}, "
                    f"but received instead a tensor with shape {shape}.")


def _check_produced(outputs):
    for t in outputs:
        if not isinstance(t, KerasTensor) or t._keras_history is None:
            raise ValueError(
                "`outputs` must be KerasTensors computed from the inputs. "
                f"Received: {t}")


def _check_sources(inputs, outputs):
    """Every bare tensor the outputs depend on must be one of the inputs."""
    input_ids = {id(t) for t in inputs}
    stack, seen = list(outputs), set()
    while stack:
        t = stack.pop()
        if id(t) in input_ids or id(t) in seen:
            continue
        seen.add(id(t))
        op, index, _ = t._keras_history
        node = op._inbound_nodes[index]
        for parent in node.input_tensors:
            if parent._keras_history is None and id(parent) not in input_ids:
                raise ValueError(
                    f"Graph disconnected: cannot find parent for tensor "
                    f"{parent} at operation '{op.name}'.")
            stack.append(parent)


def get_source_inputs(tensor):
    """The input tensors a symbolic `tensor` is computed from.

    Args:
        tensor: A `KerasTensor`.

    Returns:
        A list of the `Input`s (or other source tensors) reached by walking
        the graph back from `tensor`, without repetition. A value that is
        not a KerasTensor is returned as it is.

    Example:

    >>> a, b = kerasish.Input((2,)), kerasish.Input((2,))
    >>> out = kerasish.layers.Add()([a, kerasish.layers.Dense(2)(b)])
    >>> [t is s for t, s in zip(kerasish.utils.get_source_inputs(out),
    ...                         [a, b])]
    [True, True]
    """
    if not hasattr(tensor, "_keras_history"):
        return tensor
    if tensor._keras_history is None:
        return [tensor]
    sources, stack, seen = [], [tensor], set()
    while stack:
        t = stack.pop()
        node = None
        if t._keras_history is not None:
            op, index, _ = t._keras_history
            node = op._inbound_nodes[index]
        if node is None or node.is_input:
            for out in (node.outputs if node is not None else [t]):
                if all(out is not s for s in sources):
                    sources.append(out)
        elif id(node) not in seen:
            seen.add(id(node))
            stack.extend(reversed(node.input_tensors))
    return sources
