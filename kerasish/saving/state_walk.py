"""Where each object's variables live in a Keras 3 weights file.

Keras walks the model depth first: an object with variables writes them
as `<path>/vars/0, 1, ...` (a layer: its trainable then non-trainable
variables; the optimizer: iterations, learning rate, then its slots).
Children are found through attributes, sorted with private names last;
Sequential and Functional models first list their `layers`, named by
snake_case class with a counter (`layers/dense`, `layers/dense_1`), not by
layer name. kerasish reproduces that walk, so files are interchangeable.
"""
from kerasish.backend.common.naming import to_snake_case
from kerasish.engine.layer import Layer
from kerasish.optimizers.base_optimizer import Optimizer
from kerasish.engine.functional import Functional
from kerasish.engine.sequential import Sequential
from kerasish.engine.model import Model

_SKIPSETS = {}


def is_saveable(obj):
    return isinstance(obj, (Layer, Optimizer))


def _obj_type(obj):
    if isinstance(obj, Sequential):
        return "Sequential"
    if isinstance(obj, Functional):
        return "Functional"
    if isinstance(obj, Optimizer):
        return "Optimizer"
    return "Layer"


def _skipset(obj_type):
    """Attributes of a bare base object, which are never children."""
    if obj_type in _SKIPSETS:
        return _SKIPSETS[obj_type]
    if obj_type == "Optimizer":
        ref = Optimizer.__new__(Optimizer)
        Optimizer.__init__(ref, 1.0, name="skipset")
        skip = set(dir(ref)) - {"variables"}
    else:
        ref = Layer.__new__(Layer)
        Layer.__init__(ref, name="skipset")
        skip = set(dir(ref)) | set(dir(Model))
        skip |= {"_functional", "_operations", "operations", "layers",
                 "_layers", "_tracked_metrics", "history"}
        # Keras walks a subclassed model's `optimizer` and `layers` (the
        # latter named by class: `layers/functional`, ...).
        skip -= {"optimizer", "layers"} if obj_type == "Layer" else set()
    skip.add("_self_unconditional_dependency_names")
    _SKIPSETS[obj_type] = skip
    return skip


def _name_key(name):
    return f"~{name}" if name.startswith("_") else name


def children(obj):
    """`(attribute_name, child)` pairs in Keras's visiting order."""
    obj_type = _obj_type(obj)
    if obj_type in ("Sequential", "Functional"):
        yield "layers", list(obj.layers)
    skip = _skipset(obj_type)
    for attr in sorted(dir(obj), key=_name_key):
        if attr.startswith("__") or attr in skip:
            continue
        try:
            child = getattr(obj, attr)
        except Exception:  # noqa: BLE001 - properties may raise; skip them
            continue
        yield attr, child


def own_variables(obj):
    if isinstance(obj, Optimizer):
        return obj.variables
    return obj._saved_variables()


def walk(obj, path="", visited=None):
    """Yield `(path, saveable)` for `obj` and every saveable below it."""
    visited = set() if visited is None else visited
    if id(obj) in visited:
        return
    visited.add(id(obj))
    yield path, obj
    for attr, child in children(obj):
        child_path = f"{path}/{attr}" if path else attr
        if is_saveable(child):
            yield from walk(child, child_path, visited)
        elif isinstance(child, (list, tuple, dict)):
            yield from _walk_container(child, child_path, visited)


def _walk_container(container, path, visited):
    items = container.values() if isinstance(container, dict) else container
    used = {}
    for item in items:
        if not is_saveable(item) or id(item) in visited:
            continue
        name = to_snake_case(type(item).__name__)
        if name in used:
            used[name] += 1
            name = f"{name}_{used[name]}"
        else:
            used[name] = 0
        yield from walk(item, f"{path}/{name}", visited)
