"""Let `fit(callbacks=[...])` take TF1 session-run hooks as well.

Hooks are wrapped in a callback adapter; plain callbacks pass through.
"""
from kerasish.callbacks.callback_list import _flatten


def wrap_hooks(callbacks):
    """Return `callbacks` with any `SessionRunHook` wrapped as a callback."""
    if not callbacks:
        return callbacks
    out = []
    for cb in _flatten(callbacks):
        adapter = getattr(cb, "as_keras_callback", None)
        out.append(adapter() if callable(adapter) else cb)
    return out
