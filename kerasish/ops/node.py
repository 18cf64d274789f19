"""`Node`: one call of an operation on symbolic tensors.

Each KerasTensor remembers the node that produced it in
`_keras_history = (operation, node_index, tensor_index)`; following those
links from the outputs back to the inputs gives a functional model's graph.
"""
from kerasish import tree
from kerasish.backend.common.keras_tensor import KerasTensor


class Node:
    """A recorded `operation(*call_args, **call_kwargs) -> outputs`."""

    def __init__(self, operation, call_args=(), call_kwargs=None,
                 outputs=None):
        self.operation = operation
        self.call_args = tuple(call_args)
        self.call_kwargs = dict(call_kwargs or {})
        self.outputs = tree.flatten(outputs) if outputs is not None else []
        self.input_tensors = [x for x in tree.flatten(
            (self.call_args, self.call_kwargs)) if isinstance(x, KerasTensor)]
        self.is_input = not self.input_tensors
        index = len(operation._inbound_nodes)
        operation._inbound_nodes.append(self)
        for i, t in enumerate(self.outputs):
            t._keras_history = (operation, index, i)
        for t in self.input_tensors:
            if t._keras_history is not None:
                t._keras_history[0]._outbound_nodes.append(self)

    @property
    def parent_nodes(self):
        parents = []
        for t in self.input_tensors:
            if t._keras_history is not None:
                op, index, _ = t._keras_history
                node = op._inbound_nodes[index]
                if node not in parents:
                    parents.append(node)
        return parents

    def __repr__(self):
        return f"<Node {self.operation.name} inputs={len(self.input_tensors)}>"
