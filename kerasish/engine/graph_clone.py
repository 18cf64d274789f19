"""Give a functional model built from intermediate tensors its own Inputs.

`Model(h, outputs)` where `h` is not an `Input` works as in Keras: the part
of the graph between `h` and the outputs is recorded again, with a new
`InputLayer` in place of `h` and new nodes on the same operations (so the
layers, and their weights, are shared with the original graph).
"""
from kerasish import tree
from kerasish.engine.graph import _walk
from kerasish.engine.input_layer import Input, InputLayer
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.backend.common.naming import auto_name
from kerasish.ops.node import Node


def is_input_tensor(t):
    history = t._keras_history
    return history is not None and isinstance(history[0], InputLayer)


def clone_graph_nodes(inputs, outputs):
    """`(inputs, outputs)` copies whose graph starts at new `Input`s."""
    flat_inputs = tree.flatten(inputs)
    mapping = {id(t): t if is_input_tensor(t) else _new_input(t)
               for t in flat_inputs}
    nodes, _ = _walk(flat_inputs, outputs)
    for node in nodes:
        if node.is_input:
            continue
        args, kwargs = tree.map_structure(
            lambda x: _copy(x, mapping), (node.call_args, node.call_kwargs))
        new_outputs = [_copy(t, mapping) for t in node.outputs]
        Node(node.operation, args, kwargs, outputs=new_outputs)
    return (tree.map_structure(lambda t: mapping[id(t)], inputs),
            tree.map_structure(lambda t: _copy(t, mapping), outputs))


def _new_input(t):
    op = t._keras_history[0] if t._keras_history else None
    name = f"{t.name}CLONE" if t.name else auto_name("keras_tensor") + \
        "CLONE"
    return Input(batch_shape=t.shape, dtype=t.dtype, name=name,
                 optional=getattr(op, "optional", False))


def _copy(x, mapping):
    if not isinstance(x, KerasTensor):
        return x
    if id(x) not in mapping:
        mapping[id(x)] = KerasTensor(x.shape, x.dtype)
    return mapping[id(x)]
