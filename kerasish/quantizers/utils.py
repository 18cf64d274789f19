"""Which layers `Model.quantize(..., filters=...)` touches."""
import re


def should_quantize_layer(layer, filters):
    """Whether `layer` passes `filters`.

    Args:
        layer: The layer.
        filters: `None` (every layer), a regex searched in the layer name,
            a list of such regexes (any may match), or a callable
            `filters(layer) -> bool`.

    Example:

    >>> layer = kerasish.layers.Dense(2, name="query")
    >>> should_quantize_layer(layer, ["key", "que"])
    True
    """
    if filters is None:
        return True
    if isinstance(filters, str):
        return bool(re.search(filters, layer.name))
    if isinstance(filters, (list, tuple)):
        return any(re.search(pattern, layer.name) for pattern in filters)
    if callable(filters):
        return filters(layer)
    return True
