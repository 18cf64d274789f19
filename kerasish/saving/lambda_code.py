"""Python lambdas in configs: written as Keras writes them, loaded only on
explicit opt-in.

A lambda is stored as Keras's `__lambda__` entry: `{"value": [code,
defaults, closure]}` where `code` is base64 marshalled bytecode. Loading
it runs code from the file, so it is refused in safe mode (the default),
before the bytes are even decoded. Keras 2 stored the same triple as a
plain list in a `Lambda` layer's `function` field; `legacy_config`
rewrites that into this form, so it meets the same check.
"""
import base64
import marshal
import types

import numpy as np
from kerasish.saving import safe_mode as safe


def serialize_lambda(fn):
    """Keras's `__lambda__` config for the lambda `fn`."""
    code = base64.encodebytes(marshal.dumps(fn.__code__)).decode("ascii")
    closure = None
    if fn.__closure__:
        closure = tuple(cell.cell_contents for cell in fn.__closure__)
    return {"class_name": "__lambda__",
            "config": {"value": [code, fn.__defaults__, closure]}}


def deserialize_lambda(config, safe_mode=None):
    """Rebuild a lambda from its `__lambda__` config; refused in safe mode.

    Args:
        config: The `config` of a `__lambda__` entry (or its `value`).
        safe_mode: Refuse (True) or allow (False); None follows the
            enclosing loader's safe mode (refusing by default).
    """
    if safe.effective(safe_mode):
        safe.refuse_code("a Python lambda")
    code, defaults, closure = _parts(config)
    fn_code = marshal.loads(base64.b64decode(code))
    if not isinstance(fn_code, types.CodeType):
        raise ValueError("The `__lambda__` entry does not hold Python "
                         f"bytecode. Received: {type(fn_code).__name__}")
    cells = None if closure is None else tuple(
        types.CellType(v) for v in closure)
    return types.FunctionType(fn_code, _lambda_globals(), fn_code.co_name,
                              tuple(defaults) if defaults else None, cells)


def _parts(config):
    value = config.get("value", config.get("code")) \
        if isinstance(config, dict) else config
    if isinstance(value, (list, tuple)):
        code, defaults, closure = (list(value) + [None, None])[:3]
    else:
        code, defaults, closure = value, None, None
        if isinstance(config, dict):
            defaults, closure = config.get("defaults"), config.get("closure")
    if not isinstance(code, str):
        raise ValueError("A `__lambda__` entry must hold base64 bytecode. "
                         f"Received: {type(code).__name__}")
    return code, defaults, closure


def _lambda_globals():
    # The names a Keras user's lambda most often refers to.
    import kerasish  # lazy: calls up the layers (tests/layering_allowlist.txt)
    return {"__builtins__": __builtins__, "keras": kerasish,
            "ops": kerasish.ops, "np": np, "numpy": np}
