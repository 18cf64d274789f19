"""Global numeric settings: default float type, fuzz factor, image layout.

Mirrors `keras.config` (`floatx`, `epsilon`, `image_data_format`).
"""

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"
_FLOAT_TYPES = ("float16", "bfloat16", "float32", "float64")


def backend():
    """Name of the array backend: always `"numpy"` in kerasish.

    Example:

    >>> kerasish.config.backend()
    'numpy'
    """
    return "numpy"


def floatx():
    """Default float type as a string, e.g. `"float32"`.

    Example:

    >>> kerasish.config.floatx()
    'float32'
    """
    return _FLOATX


def set_floatx(value):
    """Set the default float type (`"float16"`, `"float32"`, `"float64"`).

    Example:

    >>> kerasish.config.set_floatx("float64")
    >>> kerasish.config.floatx()
    'float64'
    >>> kerasish.config.set_floatx("float32")
    """
    global _FLOATX
    value = str(value)
    if value not in _FLOAT_TYPES:
        raise ValueError(
            f"Unknown `floatx` value. Expected one of {_FLOAT_TYPES}. "
            f"Received: floatx={value!r}")
    _FLOATX = value


def epsilon():
    """Fuzz factor used to avoid division by zero (default `1e-7`).

    Example:

    >>> kerasish.config.epsilon()
    1e-07
    """
    return _EPSILON


def set_epsilon(value):
    """Set the fuzz factor returned by `epsilon()`.

    Example:

    >>> kerasish.config.set_epsilon(1e-5)
    >>> kerasish.config.epsilon()
    1e-05
    >>> kerasish.config.set_epsilon(1e-7)
    """
    global _EPSILON
    _EPSILON = float(value)


def image_data_format():
    """Default image layout: `"channels_last"` or `"channels_first"`.

    Example:

    >>> kerasish.config.image_data_format()
    'channels_last'
    """
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format):
    """Set the default image layout.

    Example:

    >>> kerasish.config.set_image_data_format("channels_first")
    >>> kerasish.config.image_data_format()
    'channels_first'
    >>> kerasish.config.set_image_data_format("channels_last")
    """
    global _IMAGE_DATA_FORMAT
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(
            "`data_format` must be 'channels_first' or 'channels_last'. "
            f"Received: data_format={data_format!r}")
    _IMAGE_DATA_FORMAT = data_format


def standardize_data_format(data_format):
    """Resolve `None` to the global default and validate the value.

    Args:
        data_format: `"channels_last"`, `"channels_first"` (any case) or
            `None` for `kerasish.config.image_data_format()`.

    Returns:
        The data format in lower case.

    Example:

    >>> kerasish.backend.standardize_data_format(None)
    'channels_last'
    >>> kerasish.backend.standardize_data_format("Channels_First")
    'channels_first'
    >>> kerasish.backend.standardize_data_format("NCHW")
    Traceback (most recent call last):
    ...
    ValueError: The `data_format` argument must be one of ...
    """
    if data_format is None:
        return _IMAGE_DATA_FORMAT
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(
            "The `data_format` argument must be one of 'channels_first', "
            f"'channels_last'. Received: data_format={data_format!r}")
    return data_format
