"""Ops recorded in functional configs (`"module": "keras.src.ops.numpy"`).

A config names an op by Keras's class name (`"Exp"`, `"GetItem"`); it maps
to the kerasish op function of that name. Only functions of `kerasish.ops`
can be named, so a config cannot reach anything else.
"""
from kerasish.engine.naming import to_snake_case


def op_from_config(data):
    from kerasish import ops
    from kerasish.engine.operation import OpCall, op_class_name
    class_name = data["class_name"]
    candidates = {name: fn for name, fn in vars(ops).items()
                  if callable(fn) and not name.startswith("_")
                  and op_class_name(name) == class_name}
    snake = to_snake_case(class_name)
    fn = candidates.get(snake) or next(iter(candidates.values()), None)
    if fn is None:
        raise ValueError(
            f"Unknown op '{class_name}' in a functional config: kerasish "
            "has no op of that name.")
    name = (data.get("config") or {}).get("name")
    return OpCall(fn, getattr(fn, "__name__", snake), name=name)
