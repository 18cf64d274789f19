"""Python lambdas in configs: written as Keras writes them, loaded only on
explicit opt-in.

A lambda is stored as base64 marshalled bytecode (Keras's `__lambda__`
format). Loading it runs code from the file, so it is refused unless the
caller passed `safe_mode=False` (or called
`kerasish.config.enable_unsafe_deserialization()`).
"""
import base64
import marshal
import types


def serialize_lambda(fn):
    code = base64.b64encode(marshal.dumps(fn.__code__)).decode("ascii")
    return {"class_name": "__lambda__",
            "config": {"value": code, "defaults": fn.__defaults__,
                       "closure": None}}


def deserialize_lambda(config, safe_mode=None):
    from kerasish.saving import serialization_lib
    if safe_mode is None:
        safe_mode = serialization_lib.in_safe_mode()
    if safe_mode:
        raise serialization_lib.SafeModeError(
            "Requested the deserialization of a Python lambda, which runs "
            "code stored in the file. This is refused in safe mode, because "
            "a file can hold malicious code. If you trust the file, pass "
            "`safe_mode=False` to the loading function.")
    value = config["value"] if isinstance(config, dict) else config
    code = marshal.loads(base64.b64decode(value))
    defaults = config.get("defaults") if isinstance(config, dict) else None
    return types.FunctionType(code, globals(), "<lambda>",
                              tuple(defaults) if defaults else None)
