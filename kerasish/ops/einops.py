"""`rearrange`: einops-style axis reordering, merging and splitting.

A pattern such as `"b (h h1) w c -> b h (w h1 c)"` is one reshape (to the
elementary axes of the left side), one transpose and one reshape (to the
groups of the right side), so it is differentiable.
"""
import math
import re

import numpy as np  # noqa: F401  (used by the docstring examples)

from kerasish.ops.core import convert_to_tensor
from kerasish.ops.numpy_shape import reshape, transpose
from kerasish.ops.symbolic import keras_op

_TOKEN = re.compile(r"\.\.\.|\(|\)|[A-Za-z_]\w*|\d+|\S")


def _parse(side, pattern):
    """A side of the pattern as a list of groups (lists of axis names).

    `...` stays as the name "..."; an anonymous `1` gives an empty group.
    """
    groups, current = [], None
    for token in _TOKEN.findall(side):
        if token == "(":
            if current is not None:
                raise ValueError(f"Nested parentheses in pattern {pattern!r}")
            current = []
        elif token == ")":
            if current is None:
                raise ValueError(f"Unbalanced ')' in pattern {pattern!r}")
            groups.append(current)
            current = None
        elif token == "1" or token.isidentifier() or token == "...":
            name = [] if token == "1" else [token]
            if current is None:
                groups.append(name)
            else:
                current.extend(name)
        else:
            raise ValueError(f"Invalid token {token!r} in pattern "
                             f"{pattern!r}: use axis names, `...`, `1` and "
                             "parentheses.")
    if current is not None:
        raise ValueError(f"Unbalanced '(' in pattern {pattern!r}")
    return groups


def _check_names(groups, pattern, side):
    names = [n for g in groups for n in g]
    repeated = {n for n in names if names.count(n) > 1}
    if repeated:
        raise ValueError(f"Axis names {sorted(repeated)} appear twice on the "
                         f"{side} side of {pattern!r}")
    return names


def _expand_ellipsis(groups, dots, pattern):
    """Replace `...` by the axis names `dots` (a group of its own on the
    left; on the right it may sit inside parentheses)."""
    count = sum(g.count("...") for g in groups)
    if count > 1:
        raise ValueError(f"`...` may appear once per side: {pattern!r}")
    if count and dots is None:
        raise ValueError(f"`...` on the right of {pattern!r} needs `...` on "
                         "the left.")
    out = []
    for g in groups:
        if g == ["..."]:
            out.extend([[d] for d in dots])
        else:
            out.append([d for n in g for d in (dots if n == "..." else [n])])
    return out


def _axis_sizes(groups, shape, lengths, pattern):
    sizes = {}
    for group, dim in zip(groups, shape):
        unknown = [n for n in group if n not in lengths]
        known = math.prod(int(lengths[n]) for n in group if n in lengths)
        if len(unknown) > 1:
            raise ValueError(f"Cannot infer the sizes of {unknown} in "
                             f"{pattern!r}: pass all but one as keyword "
                             "arguments.")
        if unknown:
            if known == 0 or dim % known:
                raise ValueError(f"Axis of size {dim} cannot be split into "
                                 f"{group} with lengths {lengths}.")
            sizes[unknown[0]] = dim // known
        elif known != dim:
            raise ValueError(f"Axis of size {dim} does not match {group} "
                             f"with lengths {lengths} in {pattern!r}")
        sizes.update({n: int(lengths[n]) for n in group if n in lengths})
    return sizes


@keras_op
def rearrange(tensor, pattern, **axes_lengths):
    """Reorder, merge and split axes with an einops pattern.

    Args:
        tensor: Input tensor.
        pattern: `"<input axes> -> <output axes>"`; names in parentheses
            are merged (on the right) or split (on the left), `...` stands
            for the remaining axes and `1` for a unit axis.
        **axes_lengths: Sizes of split axes (all but one per group).

    Returns:
        The rearranged tensor.

    Example:

    >>> x = np.zeros((2, 6, 4, 3))
    >>> rearrange(x, "b h w c -> b c h w").shape
    (2, 3, 6, 4)
    >>> rearrange(x, "b (h h1) w c -> b h (w h1 c)", h1=2).shape
    (2, 3, 24)
    >>> rearrange(x, "b ... c -> (b c) ...").shape
    (6, 6, 4)
    """
    x = convert_to_tensor(tensor)
    if pattern.count("->") != 1:
        raise ValueError("`pattern` must have the form 'input -> output'. "
                         f"Received: pattern={pattern!r}")
    left_side, right_side = pattern.split("->")
    left = _parse(left_side, pattern)
    dots = None
    if ["..."] in left:
        dots = [f"...{i}" for i in range(x.ndim - len(left) + 1)]
    elif any("..." in g for g in left):
        raise ValueError(f"`...` cannot be inside parentheses on the left "
                         f"of {pattern!r}")
    if dots is None and len(left) != x.ndim:
        raise ValueError(f"Pattern {pattern!r} has {len(left)} input axes "
                         f"but the tensor has shape {x.shape}")
    if dots is not None and x.ndim < len(left) - 1:
        raise ValueError(f"Pattern {pattern!r} needs at least "
                         f"{len(left) - 1} axes; the tensor has shape "
                         f"{x.shape}")
    left = _expand_ellipsis(left, dots, pattern)
    right = _expand_ellipsis(_parse(right_side, pattern), dots, pattern)
    in_names = _check_names(left, pattern, "left")
    out_names = _check_names(right, pattern, "right")
    sizes = _axis_sizes(left, x.shape, axes_lengths, pattern)
    if set(in_names) != set(out_names):
        only_left = sorted(set(in_names) - set(out_names))
        only_right = sorted(set(out_names) - set(in_names))
        raise ValueError(f"Both sides of {pattern!r} must name the same "
                         f"axes. Left only: {only_left}, right only: "
                         f"{only_right}")
    x = reshape(x, [sizes[n] for n in in_names])
    x = transpose(x, [in_names.index(n) for n in out_names])
    return reshape(x, [math.prod(sizes[n] for n in g) for g in right])
