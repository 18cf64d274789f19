"""Op nodes of functional configs, in Keras 3's layout both ways.

Keras records `ops.concatenate([a, b], axis=1)` inside a model as an op
node whose config holds the op's static arguments and whose node holds the
tensors:

    {"module": "keras.src.ops.numpy", "class_name": "Concatenate",
     "config": {"name": "concatenate", "axis": 1},
     "registered_name": "Concatenate",
     "inbound_nodes": [{"args": [[<a>, <b>]], "kwargs": {}}]}

`keras_ops_table` (generated from Keras) says which arguments of each op
are static. A config can only name functions of `kerasish.ops`, so it
cannot reach anything else.
"""
import functools
import inspect

from kerasish.backend.common.naming import to_snake_case
from kerasish.saving.keras_ops_table import OPS
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish import ops
from kerasish.ops.operation import op_class_name
from kerasish.ops.operation import OpCall
from kerasish.saving.serialization_lib import deserialize_keras_object

_DEFAULT_MODULE = "keras.src.ops.numpy"


def _signature(fn):
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _unwrap(fn):
    """`(function, static kwargs)` of an op call's function."""
    if isinstance(fn, functools.partial):
        return fn.func, dict(fn.keywords)
    return fn, {}


def split_call(op, call_args, call_kwargs):
    """Keras's split of one recorded op call: `(static, args, kwargs)`."""
    fn, static = _unwrap(op.fn)
    sig = _signature(fn)
    entry = OPS.get(op.class_name)
    if sig is None or entry is None:
        return static, list(call_args), dict(call_kwargs)
    try:
        bound = sig.bind_partial(*call_args, **static, **call_kwargs)
    except TypeError:
        return static, list(call_args), dict(call_kwargs)
    static_names = entry[1].split()
    args, kwargs = [], {}
    for name, value in bound.arguments.items():
        kind = sig.parameters[name].kind
        if name in static_names:
            static[name] = value
        elif kind == inspect.Parameter.VAR_POSITIONAL:
            args.extend(value)
        elif kind == inspect.Parameter.VAR_KEYWORD:
            kwargs.update(value)
        else:
            args.append(value)
    for name in static_names:
        param = sig.parameters.get(name)
        if name not in static and param is not None and \
                param.default is not inspect.Parameter.empty:
            static[name] = param.default
    return static, args, kwargs


def serialize_op(op, static):
    """The config entry of an op node (without name/inbound_nodes)."""
    entry = OPS.get(op.class_name)
    module = f"keras.src.ops.{entry[0]}" if entry else _DEFAULT_MODULE
    config = {"name": op.name}
    config.update(serialize_keras_object(static))
    return {"module": module, "class_name": op.class_name, "config": config,
            "registered_name": op.class_name}


def is_legacy_op_entry(data):
    """Whether a module-less (legacy `.h5`) entry is an op node.

    Legacy configs name op nodes by class alone (`"Add"`, `"Mean"`), like
    layers. An op's config holds only its name and static arguments,
    while a layer's always holds `trainable` and `dtype`.
    """
    if "module" in data or data.get("class_name") not in OPS:
        return False
    config = data.get("config")
    if not isinstance(config, dict):
        return False
    allowed = {"name"} | set(OPS[data["class_name"]][1].split())
    return set(config) <= allowed


def _find_op(class_name):
    # keras.ops.image ops are not in the top-level namespace.
    scope = ops.image if OPS.get(class_name, ("",))[0] == "image" else ops
    candidates = {name: fn for name, fn in vars(scope).items()
                  if callable(fn) and not name.startswith("_")
                  and op_class_name(name) == class_name}
    snake = to_snake_case(class_name)
    fn = candidates.get(snake) or next(iter(candidates.values()), None)
    if fn is None:
        raise ValueError(
            f"Unknown op '{class_name}' in a functional config: kerasish "
            "has no op of that name.")
    return fn, getattr(fn, "__name__", snake)


def op_from_config(data):
    """An `OpCall` for a Keras op node config (static args bound)."""
    fn, op_name = _find_op(data["class_name"])
    config = dict(data.get("config") or {})
    name = config.pop("name", None)
    eager = getattr(fn, "eager", fn)
    spec = getattr(fn, "spec", None)
    static = deserialize_keras_object(config)
    if static:
        sig = _signature(eager)
        unknown = [k for k in static if sig and k not in sig.parameters]
        if unknown:
            raise ValueError(
                f"Op '{data['class_name']}' in a functional config has "
                f"argument(s) {unknown} that kerasish.ops.{op_name} does not "
                f"accept. Received: config={data.get('config')}")
        eager = functools.partial(eager, **static)
        spec = spec and functools.partial(spec, **static)
    return OpCall(eager, op_name, name=name, spec=spec)
