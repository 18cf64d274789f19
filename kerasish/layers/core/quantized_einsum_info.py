"""Axis bookkeeping for quantizing an EinsumDense (Keras's layout rules).

For an equation `x_spec,w_spec->y_spec`, the quantizer reduces the input
and kernel axes absent from the output; the resulting keep-dims scales
are transposed into output order, expanded where the output has axes the
operand lacks, or squeezed where there are more reduced axes than such
output axes. Keras's rule for the latter case is reproduced as written:
the reduced axis is then inserted at the position used last.
"""
import re
import string


def _specs(equation, ndim):
    """`(input_spec, weight_spec, output_spec)` with ellipses spelled out."""
    text = re.sub(r"\.\.\.", "0", equation)
    match = re.match("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)", text)
    if match is not None:
        return match.group(1), match.group(2), match.group(3)
    for pattern, left in (("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)", True),
                          ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0",
                           False)):
        match = re.match(pattern, text)
        if match is None:
            continue
        x, w, y = match.group(1), match.group(2), match.group(3)
        free = sorted(set(string.ascii_letters) - set(x) - set(w) - set(y))
        extra = "".join(free[:ndim - len(x)])
        if left:    # Keras prepends the labels one by one
            return extra[::-1] + x, w, extra[::-1] + y
        return x + extra, w, y + extra
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the "
        "form [X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _place_reduced(reduced, expand, transpose, index):
    """Insert each reduced axis at the next expand position (Keras's loop;
    `index` carries over when the positions run out)."""
    squeeze = []
    for axis in reduced:
        if expand:
            index = expand.pop(0)
        else:
            squeeze.append(axis)
        transpose.insert(index, axis)
    return squeeze, index


def analyze_quantization_info(equation, ndim):
    """Reduced / transpose / expand / squeeze axes of the input and kernel
    scales, the input-gradient equation, and the kernel scale's reverse
    transpose, as a dict of Keras's names."""
    x_spec, w_spec, y_spec = _specs(equation, ndim)
    x_reduced = [i for i, c in enumerate(x_spec) if c not in y_spec]
    w_reduced = [i for i, c in enumerate(w_spec) if c not in y_spec]
    x_expand = [i for i, c in enumerate(y_spec) if c not in x_spec]
    w_expand = [i for i, c in enumerate(y_spec) if c not in w_spec]
    x_transpose = [x_spec.index(c) for c in y_spec if c in x_spec]
    w_transpose = [w_spec.index(c) for c in y_spec if c in w_spec]
    # Keras's loop variable left over from its first loops.
    index = y_spec.find(w_spec[-1])
    x_squeeze, index = _place_reduced(x_reduced, x_expand, x_transpose,
                                      index)
    w_squeeze, _ = _place_reduced(w_reduced, w_expand, w_transpose, index)
    reverse = [i for _, i in sorted((v, i) for i, v in
                                    enumerate(w_transpose))]
    return {"input_reduced_axes": x_reduced,
            "kernel_reduced_axes": w_reduced,
            "input_transpose_axes": x_transpose,
            "kernel_transpose_axes": w_transpose,
            "input_expand_axes": x_expand, "kernel_expand_axes": w_expand,
            "input_squeeze_axes": x_squeeze,
            "kernel_squeeze_axes": w_squeeze,
            "custom_gradient_equation": f"{y_spec},{w_spec}->{x_spec}",
            "kernel_reverse_transpose_axes": reverse}
