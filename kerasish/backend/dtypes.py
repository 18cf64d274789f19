"""Dtype names and Keras's type-promotion rule for mixed int/float inputs."""
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
    """Keras's promotion: floats win over ints (int32 + float32 -> float32).

    Args:
        *dtypes: Dtype names or numpy dtypes.

    Returns:
        The promoted dtype's name: the widest float among the floats, or
        numpy's promotion of the ints when there is no float.

    Example:

    >>> kerasish.backend.result_type("int32", "float32")
    'float32'
    >>> kerasish.backend.result_type("int32", "float16")
    'float16'
    >>> kerasish.backend.result_type("int8", "uint8")
    'int16'
    """
    names = [standardize_dtype(d) for d in dtypes]
    floats = [n for n in names if n in ML_FLOATS or
              np.dtype(n).kind in "fc"]
    if floats:
        return np.result_type(*floats).name
    return np.result_type(*names).name
