"""Dtype names and Keras's type-promotion rule for mixed int/float inputs."""
import functools

import numpy as np

from kerasish.backend import config

_ALIASES = {"float": "float32", "int": "int32", "double": "float64",
            "half": "float16", "bool_": "bool", "str": "string"}

STRING = "string"   # Keras's name for text tensors: numpy unicode arrays
# Float dtypes numpy lacks; the `ml_dtypes` package (what JAX and Keras use)
# registers them with numpy. Their numpy kind is "V", not "f".
ML_FLOATS = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def require_ml_dtypes(name):
    """Import `ml_dtypes` (registering its dtypes) or say how to get it."""
    try:
        # lazy: optional dependency
        import ml_dtypes  # noqa: F401
    except ImportError:
        raise ImportError(
            f"dtype '{name}' needs the `ml_dtypes` package: "
            "pip install kerasish[ml-dtypes]") from None


def is_string_dtype(dtype):
    """Whether `dtype` holds text (`"string"`, numpy unicode/bytes/object)."""
    if isinstance(dtype, str):
        return dtype in (STRING, "str") or dtype.startswith(("<U", "|S"))
    try:
        return np.dtype(dtype).kind in "USO"
    except TypeError:
        return False


def numpy_dtype(dtype):
    """The numpy dtype to allocate for a Keras dtype name."""
    return np.dtype("<U1") if dtype == STRING else np.dtype(dtype)


def standardize_dtype(dtype):
    """Return the canonical string name of `dtype` (`None` means floatx).

    >>> standardize_dtype(np.float64)
    'float64'
    """
    if dtype is None:
        dtype = config.floatx()
        if dtype not in ML_FLOATS:
            return dtype
    if dtype is float:
        return "float32"    # Keras's Python-type map (not numpy's float64)
    if is_string_dtype(dtype):
        return STRING
    if isinstance(dtype, str):
        name = _ALIASES.get(dtype, dtype)
    elif hasattr(dtype, "name") and isinstance(dtype.name, str):
        name = dtype.name
    else:
        try:
            name = np.dtype(dtype).name
        except TypeError:
            raise ValueError(f"Invalid dtype: {dtype!r}") from None
    if name in ML_FLOATS:
        require_ml_dtypes(name)
        return name
    try:
        np.dtype(name)
    except TypeError:
        raise ValueError(f"Invalid dtype: {dtype!r}") from None
    return name


def is_float(dtype):
    name = standardize_dtype(dtype)
    return name in ML_FLOATS or np.dtype(name).kind == "f"


def result_type(*dtypes):
    """The dtype Keras's promotion rules give for mixing `dtypes`.

    Keras promotes along JAX's type lattice (bool < ints < floats, with
    Python `int`/`float` "weak": they take the other operand's type). As
    Keras on TensorFlow, 64-bit dtypes stay 64-bit; `uint64` becomes
    `uint32`.

    Args:
        *dtypes: Dtype names, numpy dtypes, or the Python types `int`,
            `float` and `bool`. `None` means `floatx()`; no argument at
            all gives `floatx()`.

    Returns:
        The promoted dtype's name.

    Example:

    >>> kerasish.backend.result_type("int32", "float32")
    'float32'
    >>> kerasish.backend.result_type("int8", "uint8")
    'int16'
    >>> kerasish.backend.result_type("bfloat16", float)
    'bfloat16'
    >>> kerasish.backend.result_type("float16", "bfloat16")
    'float32'
    """
    if not dtypes:
        return config.floatx()
    nodes = []
    for dtype in dtypes:
        weak = dtype is int or dtype is float
        name = standardize_dtype(config.floatx() if dtype is None
                                 else dtype)
        if name.startswith("float8"):
            raise ValueError(
                "There is no implicit conversions from float8 dtypes to "
                f"others. You must cast it internally. Received: {dtypes}")
        nodes.append((name, weak))
    return _to_keras_width(_lattice_join(nodes))


def _lattice_join(nodes):
    """Least upper bound of `(name, weak)` nodes, weak types resolved."""
    names = {name for name, _ in nodes}
    if len(nodes) == 1 or (len(names) == 1 and
                           not all(w for _, w in nodes)):
        name, weak = nodes[0][0], len(nodes) == 1 and nodes[0][1]
    elif all(w for _, w in nodes):
        name, weak = _least_upper_bound(frozenset(names)), True
    else:
        name = _least_upper_bound(frozenset(
            _weak_node(n) if w else n for n, w in nodes))
        weak = name in ("int", "float")
    if weak and name != "bool":
        bits = config.floatx()[-2:]
        kind = "float" if "float" in name else name.rstrip("0123456789")
        name = f"{kind}{bits}"
    return name


def _weak_node(name):
    return "float" if "float" in name else "int" if "int" in name else name


# Each dtype's immediate successors on Keras's (JAX's) promotion lattice;
# "int" and "float" are the weak types of Python scalars.
_LATTICE = {
    "bool": ("int",), "int": ("uint8", "int8", "complex64"),
    "uint8": ("int16", "uint16"), "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"), "uint64": ("float",),
    "int8": ("int16",), "int16": ("int32",), "int32": ("int64",),
    "int64": ("float",), "float": ("bfloat16", "float16"),
    "bfloat16": ("float32",), "float16": ("float32",),
    "float32": ("float64", "complex64"), "float64": ("complex128",),
    "complex64": ("complex128",), "complex128": (),
}


def _upper_bounds():
    """Every node's set of upper bounds (itself included)."""
    bounds = {}
    for node in _LATTICE:
        seen, todo = {node}, [node]
        while todo:
            for up in _LATTICE[todo.pop()]:
                if up not in seen:
                    seen.add(up)
                    todo.append(up)
        bounds[node] = seen
    return bounds


_UPPER = _upper_bounds()


@functools.lru_cache(maxsize=512)
def _least_upper_bound(names):
    unknown = [n for n in names if n not in _UPPER]
    if unknown:
        raise ValueError(f"dtype={unknown[0]!r} is not a valid dtype for "
                         "Keras type promotion.")
    common = set.intersection(*(_UPPER[n] for n in names))
    least = [c for c in common if common <= _UPPER[c]]
    if len(least) != 1:
        raise ValueError(
            f"Input dtypes {tuple(sorted(names))} have no available implicit "
            "dtype promotion path. Try explicitly casting inputs to the "
            "desired output type.")
    return least[0]


def _to_keras_width(name):
    """Keras's 64-bit mapping on TensorFlow: only unsigned and complex
    64-bit types narrow."""
    return {"uint64": "uint32", "complex128": "complex64"}.get(name, name)
