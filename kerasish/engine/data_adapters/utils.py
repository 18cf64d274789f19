"""Helpers shared by the data adapters (Keras's data_adapter_utils)."""
import numpy as np

from kerasish import tree
from kerasish.backend import config
from kerasish.engine.argument_checks import describe


def unpack_x_y_sample_weight(data):
    """Split a batch into `(x, y, sample_weight)`, filling in `None`s.

    >>> unpack_x_y_sample_weight((1, 2))
    (1, 2, None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) == 1:
        return (data[0], None, None)
    if len(data) == 2:
        return (data[0], data[1], None)
    if len(data) == 3:
        return (data[0], data[1], data[2])
    # Arrays are described by shape: printed in full they bury the message.
    raise ValueError(
        "Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
        f"`(x, y, sample_weight)`, found a tuple of {len(data)} elements: "
        f"{describe(data)}")


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """Pack `x`, `y` and `sample_weight` into a batch tuple, as Keras does.

    Args:
        x: Inputs.
        y: Optional targets.
        sample_weight: Optional sample weights.

    Returns:
        `x` alone (wrapped in a 1-tuple if it is a list or tuple),
        `(x, y)` or `(x, y, sample_weight)`.

    Example:

    >>> import kerasish
    >>> kerasish.utils.pack_x_y_sample_weight("x", "y")
    ('x', 'y')
    >>> kerasish.utils.unpack_x_y_sample_weight(("x",))
    ('x', None, None)
    """
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def pack_data(x, y, sample_weight):
    if y is None:
        return (x,)
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def check_data_cardinality(data):
    """Number of samples; raise Keras's error if arrays disagree."""
    sizes = {int(a.shape[0]) for a in tree.flatten(data) if a is not None}
    if len(sizes) > 1:
        msg = ("Data cardinality is ambiguous. Make sure all arrays contain "
               "the same number of samples.")
        for label, part in zip(["x", "y", "sample_weight"], data):
            shown = ", ".join(str(a.shape[0]) for a in tree.flatten(part)
                              if a is not None)
            msg += f"'{label}' sizes: {shown}\n"
        raise ValueError(msg)
    return sizes.pop() if sizes else 0


def _class_weight_table(class_weight):
    if not isinstance(class_weight, dict):
        raise ValueError(
            "Expected `class_weight` to be a dict mapping class indices to "
            f"weights. Received: class_weight={class_weight!r:.200}")
    weights = {}
    for key, value in class_weight.items():
        try:
            index, weight = int(key), float(value)
        except (TypeError, ValueError):
            raise ValueError(
                "Expected `class_weight` to be a dict with integer class "
                f"indices as keys. Received: class_weight={class_weight}"
            ) from None
        weights[index] = weight
    return weights


def class_weight_to_sample_weights(y, class_weight):
    """Per-sample weights from `{class: weight}` (missing classes get 1).

    Labels are arg-maxed when `y`'s last axis is longer than 1 (one-hot),
    squeezed when it is 1, then rounded to integers, as Keras does.

    >>> class_weight_to_sample_weights(np.array([0, 1, 2]), {1: 5.0})
    array([1., 5., 1.], dtype=float32)
    """
    if tree.is_nested(y):
        raise ValueError(
            "`class_weight` is only supported for Models with a single "
            "output.")
    weights = _class_weight_table(class_weight)
    y = np.asarray(y)
    if y.ndim > 1:
        y = np.argmax(y, axis=-1) if y.shape[-1] != 1 else \
            np.squeeze(y, axis=-1)
    labels = np.round(y).astype("int64")
    size = max([max(weights, default=-1) + 1] +
               [int(labels.max()) + 1 if labels.size else 1])
    table = np.ones(max(size, 1), dtype=config.floatx())
    for key, value in weights.items():
        if key >= 0:
            table[key] = value
    safe = np.clip(labels, 0, table.size - 1)
    out = np.where(labels >= 0, table[safe], 1.0).astype(config.floatx())
    # As Keras, a negative key weighs the samples carrying that label
    # (e.g. the -1 of `ignore_class=-1`); it is not an error.
    for key, value in weights.items():
        if key < 0:
            out[labels == key] = value
    return out
