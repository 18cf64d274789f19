"""Losses and metrics for models whose outputs are nested deeper than one
list or dict (`Model(x, [a, [b, c]])`), as Keras 3 maps them.

`loss`, `loss_weights` and `metrics` then follow the outputs' structure
(a single loss applies to every output; a flat list of losses with one
entry per output is laid out like the outputs), and each output's loss is
logged under its path, the last list index replaced by the output's name
(`"1/b_loss"`).
"""
from kerasish import tree


def is_deeply_nested(y_pred):
    """Whether outputs are nested beyond a single list or dict."""
    return tree.is_nested(y_pred) and \
        len(y_pred) != len(tree.flatten(y_pred))


def per_output(value, y_pred, what):
    """`value` (structured like `y_pred`, or one leaf for all outputs) as
    one entry per flat output."""
    shape = tree.lists_to_tuples(y_pred)
    if not tree.is_nested(value):
        return [value] * len(tree.flatten(y_pred))
    leaves = isinstance(value, (list, tuple)) and \
        not any(tree.is_nested(v) for v in value)
    if what != "metrics" and leaves and \
            len(value) == len(tree.flatten(y_pred)):
        return list(value)
    try:
        # Boxed, an output's entry (a list of metrics, say) stays whole.
        boxed = tree.map_structure_up_to(shape, _Box,
                                         tree.lists_to_tuples(value))
        return [box.value for box in tree.flatten(boxed)]
    except (ValueError, TypeError) as e:
        raise ValueError(
            f"`{what}` must match the output structure of the model: "
            f"{tree.map_structure(lambda _: 'X', y_pred)}. Received: "
            f"{what}={value}") from e


class _Box:
    def __init__(self, value):
        self.value = value


def loss_names(y_pred, output_names):
    """Keras's name of each flat output's loss: its path in the outputs,
    the last list index replaced by the output's name."""
    names = []
    for (path, _), name in zip(tree.flatten_with_path(y_pred),
                               output_names):
        # (without output names, the path alone keeps the names distinct)
        if name is not None and (not path or isinstance(path[-1], int)):
            path = path[:-1] + (name,)
        names.append("/".join(str(p) for p in path) or None)
    return names


def check_weights_match_losses(loss, weights):
    """As Keras: `loss_weights` unlike `loss` in structure must at least
    give as many weights as there are losses (a single loss shared by
    several outputs takes a single float)."""
    if not tree.is_nested(loss) and not tree.is_nested(weights):
        return
    try:
        tree.assert_same_structure(loss, weights)
        return
    except (ValueError, TypeError):
        pass
    n_losses, n_weights = len(tree.flatten(loss)), len(tree.flatten(weights))
    if n_losses != n_weights:
        raise ValueError(
            "`loss_weights` must match the number of losses, got "
            f"{n_losses} losses and {n_weights} weights.")
