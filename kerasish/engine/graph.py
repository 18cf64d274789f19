"""Topological sort of a functional graph, in Keras's exact order.

Keras orders a model's layers by depth (inputs first) and, within a depth,
by the order a depth-first walk from the outputs first meets them. The
weight order of `model.get_weights()` and of legacy `.h5` files follows
from it, so kerasish reproduces the ordering, with an explicit stack instead
of recursion.
"""
import collections

from kerasish import tree


def _node_of(tensor):
    op, index, _ = tensor._keras_history
    return op._inbound_nodes[index]


def _walk(inputs, outputs):
    """Post-order nodes and first-visit operation indices (Keras _build_map)."""
    input_ids = {id(t) for t in inputs}
    finished, in_progress = set(), set()
    post_order, op_index = [], {}
    for output in tree.flatten(outputs):
        stack = [(output, None)]
        while stack:
            tensor, children = stack.pop()
            node = _node_of(tensor)
            if children is None:
                if id(node) in finished:
                    continue
                if not node.is_input and id(tensor) in input_ids:
                    finished.add(id(node))
                    continue
                if id(node) in in_progress:
                    raise ValueError(
                        f"Tensor {tensor} from operation "
                        f"'{node.operation.name}' is part of a cycle.")
                op_index.setdefault(node.operation, len(op_index))
                in_progress.add(id(node))
                children = iter([] if node.is_input else node.input_tensors)
            child = next(children, None)
            if child is not None:
                stack.append((tensor, children))
                stack.append((child, None))
                continue
            in_progress.discard(id(node))
            finished.add(id(node))
            post_order.append(node)
    return post_order, op_index


def map_graph(inputs, outputs):
    """Return `(nodes_by_depth, operations_in_keras_order)`; deeper first."""
    post_order, op_index = _walk(inputs, outputs)
    in_graph = {id(n) for n in post_order}
    node_depth, op_depth = {}, {}
    for node in reversed(post_order):
        depth = max(node_depth.setdefault(node, 0),
                    op_depth.get(node.operation, 0))
        op_depth[node.operation] = depth
        node_depth[node] = depth
        for parent in node.parent_nodes:
            if id(parent) in in_graph:
                node_depth[parent] = max(depth + 1,
                                         node_depth.get(parent, 0))
    for t in inputs:
        node = _node_of(t)
        if node.operation not in op_depth and node.is_input:
            op_depth[node.operation] = 0
            op_index[node.operation] = -1
            node_depth[node] = 0

    ops_by_depth = collections.defaultdict(list)
    for op, depth in op_depth.items():
        ops_by_depth[depth].append(op)
    operations = []
    for depth in sorted(ops_by_depth, reverse=True):
        operations.extend(sorted(ops_by_depth[depth],
                                 key=lambda op: op_index[op]))

    nodes_by_depth = collections.defaultdict(list)
    for node, depth in node_depth.items():
        nodes_by_depth[depth].append(node)
    nodes_by_depth = {d: nodes_by_depth[d]
                      for d in sorted(nodes_by_depth, reverse=True)}
    _check_connected(inputs, [n for ns in nodes_by_depth.values()
                              for n in ns])
    _check_unique_names(operations)
    return nodes_by_depth, operations


def _check_connected(inputs, nodes):
    computable = {id(t) for t in inputs}
    done = []
    for node in nodes:
        for t in node.input_tensors:
            if id(t) not in computable:
                raise ValueError(
                    f"Graph disconnected: cannot find parent for tensor {t} "
                    f"at operation '{node.operation.name}'. The following "
                    f"previous operations were accessed without issue: {done}")
        if node.input_tensors:
            done.append(node.operation.name)
        computable.update(id(t) for t in node.outputs)


def _check_unique_names(operations):
    names = [op.name for op in operations]
    for name in names:
        if names.count(name) != 1:
            raise ValueError(
                f'The name "{name}" is used {names.count(name)} times in the '
                "model. All operation names should be unique.")
