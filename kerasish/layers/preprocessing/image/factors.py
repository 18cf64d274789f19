"""Argument checks shared by the image preprocessing layers: strength
factors given as a number or a `(low, high)` pair, and value ranges."""
import numbers


def factor_error(factor, bounds, name="factor", value_name="factor"):
    return ValueError(
        f"The `{name}` argument should be a number (or a list of two "
        f"numbers) in the range [{bounds[0]}, {bounds[1]}]. "
        f"Received: {value_name}={factor}")


def parse_factor(factor, bounds, name="factor", value_name="factor"):
    """`(lower, upper)` from a number or a pair, as Keras reads `factor`.

    A pair is sorted and only rejected when it lies wholly outside
    `bounds`; a number `f` means `(max(-|f|, bounds[0]), |f|)`.
    """
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or not all(is_number(f) for f in factor):
            raise factor_error(factor, bounds, name, value_name)
        if factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise factor_error(factor, bounds, name, value_name)
        lower, upper = sorted(factor)
        return lower, upper
    if not is_number(factor):
        raise factor_error(factor, bounds, name, value_name)
    if factor < bounds[0] or factor > bounds[1]:
        raise factor_error(factor, bounds, name, value_name)
    factor = abs(factor)
    return max(-factor, bounds[0]), factor


def parse_symmetric_factor(factor, name, valid, message):
    """`(lower, upper)` for the geometric layers' factors: a number `f`
    means `(-|f|, |f|)`; every entry must satisfy `valid`."""
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or not all(is_number(f) for f in factor):
            raise ValueError(f"{message}Received: {name}={factor}")
        values = factor
    elif is_number(factor):
        values = (factor,)
    else:
        raise ValueError(f"{message}Received: {name}={factor}")
    for value in values:
        if not valid(value):
            raise ValueError(f"{message}Received: {name}={factor}")
    if len(values) == 2:
        lower, upper = sorted(values)
        return lower, upper
    return -abs(factor), abs(factor)


def parse_value_range(value_range):
    """`[low, high]` (sorted) or a `ValueError`."""
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError("The `value_range` argument should be a list of two "
                         f"numbers. Received: value_range={value_range}")
    return sorted(value_range)


def check_choice(value, choices, name):
    if value not in choices:
        raise ValueError(f"Unknown `{name}` {value!r}. Expected one of "
                         f"{choices}. Received: {name}={value!r}")
    return value


def is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)
