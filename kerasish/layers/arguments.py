"""Checks of layer constructor arguments, with errors that name the layer,
the argument and the value received."""
import numbers


def positive_int(layer_cls, name, value, allow_none=False):
    """Check a count argument (`filters`, `num_bins`, ...)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or value <= 0:
        raise ValueError(
            f"{layer_cls.__name__}: invalid value for argument `{name}`. "
            "Expected a strictly positive integer. "
            f"Received: {name}={value!r}")
    return int(value)


def integer(layer_cls, name, value):
    """Check an integer argument (an axis ...)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(
            f"{layer_cls.__name__}: invalid value received for argument "
            f"`{name}`. Expected an integer. Received: {name}={value!r}")
    return int(value)


def real_number(layer_cls, name, value):
    """Check a real-valued argument (a slope, a momentum ...)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(
            f"{layer_cls.__name__}: invalid value received for argument "
            f"`{name}`. Expected a number. Received: {name}={value!r}")
    return value


def unit_interval(layer_cls, name, value):
    """Check a rate or probability argument lies in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
            not 0 <= value <= 1:
        raise ValueError(
            f"{layer_cls.__name__}: invalid value received for argument "
            f"`{name}`. Expected a float value between 0 and 1. "
            f"Received: {name}={value!r}")
    return value
