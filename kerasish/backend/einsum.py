"""`einsum` as one differentiable primitive.

The subscripts are first rewritten in explicit form (implicit outputs made
explicit, each `...` replaced by letters of its own), so that the forward
and every VJP work on plain letters. The gradient of operand `k` is itself
an einsum of the upstream gradient with the other operands, whose output is
operand `k`'s subscript; three cases need care:

* a letter only operand `k` has (summed away in the forward) comes back
  by broadcasting;
* a letter repeated inside operand `k` (a diagonal, `"ii->i"`) is written
  back through a writable diagonal view;
* a size-1 axis that broadcast against a larger one is summed back.

Two-operand contractions, the common case (attention, EinsumDense), run as
one batched `np.matmul` (BLAS) after transposes and reshapes, as XLA's
`dot_general` does; everything else goes to `np.einsum`.
"""
import string

import numpy as np

from kerasish.backend.primitive import primitive

_LETTERS = string.ascii_letters


def parse_subscripts(subscripts, shapes):
    """Explicit `(input_subs, output_sub)` with `...` replaced by letters.

    Args:
        subscripts: An einsum string, e.g. `"...ij,jk"` or `"bi,ij->bj"`.
        shapes: The operands' shapes.

    Returns:
        A list of input subscripts (one per operand) and the output one.
    """
    text = subscripts.replace(" ", "")
    explicit = "->" in text
    lhs, rhs = text.split("->") if explicit else (text, None)
    inputs = lhs.split(",")
    if len(inputs) != len(shapes):
        raise ValueError(
            f"einsum: the subscripts name {len(inputs)} operand(s) but "
            f"{len(shapes)} were given. Received: subscripts={subscripts!r}")
    used = set(c for c in text if c.isalpha())
    _check_letters(subscripts, text)
    spare = [c for c in _LETTERS if c not in used]
    ell_ndims = [_ellipsis_ndim(sub, shape, subscripts)
                 for sub, shape in zip(inputs, shapes)]
    n_ell = max(ell_ndims, default=0)
    ell = "".join(spare[:n_ell])
    inputs = [sub.replace("...", ell[n_ell - n:] if n else "")
              for sub, n in zip(inputs, ell_ndims)]
    if rhs is None:
        counts = {c: "".join(inputs).count(c) for c in "".join(inputs)}
        rhs = ell + "".join(sorted(c for c, n in counts.items()
                                   if n == 1 and c not in ell))
    else:
        rhs = rhs.replace("...", ell)
    _check_output(subscripts, inputs, rhs)
    return inputs, rhs


def _check_letters(original, text):
    bad = set(text) - set(_LETTERS) - set(",.->")
    if bad or text.count("->") > 1:
        raise ValueError(
            "einsum subscripts may only contain letters, ',', '...' and one "
            f"'->'. Received: subscripts={original!r}")


def _ellipsis_ndim(sub, shape, original):
    n_letters = len(sub.replace("...", ""))
    if "..." in sub:
        if n_letters > len(shape):
            raise _rank_error(original, sub, shape)
        return len(shape) - n_letters
    if n_letters != len(shape) or "." in sub:
        raise _rank_error(original, sub, shape)
    return 0


def _rank_error(original, sub, shape):
    return ValueError(
        f"einsum: operand subscript {sub!r} does not match an operand of "
        f"shape {tuple(shape)}. Received: subscripts={original!r}")


def _check_output(original, inputs, rhs):
    have = set("".join(inputs))
    for c in rhs:
        if c not in have or rhs.count(c) > 1:
            raise ValueError(
                f"einsum: output subscript {c!r} must appear exactly once in "
                "the output and at least once in the inputs. Received: "
                f"subscripts={original!r}")


def letter_sizes(inputs, shapes, original=""):
    """Size of every letter (the largest, so size-1 axes broadcast)."""
    sizes = {}
    for sub, shape in zip(inputs, shapes):
        for c, n in zip(sub, shape):
            old = sizes.get(c, 1)
            if n != old and 1 not in (n, old):
                raise ValueError(
                    f"einsum: letter {c!r} has incompatible sizes {old} and "
                    f"{n}. Received: subscripts={original!r} with operand "
                    f"shapes {[tuple(s) for s in shapes]}")
            sizes[c] = max(old, n)
    return sizes


# -- evaluation ---------------------------------------------------------------
def contract(inputs, output, arrays):
    """Evaluate an explicit einsum, through BLAS when it is a contraction."""
    if len(arrays) == 2:
        fast = _contract_pair(inputs[0], inputs[1], output, *arrays)
        if fast is not None:
            return fast
    eq = ",".join(inputs) + "->" + output
    return np.einsum(eq, *arrays, optimize=len(arrays) > 2)


def _contract_pair(sa, sb, out, a, b):
    """`a`, `b` -> out via one batched matmul, or None if not a plain one."""
    if len(set(sa)) < len(sa) or len(set(sb)) < len(sb):
        return None
    size = dict(zip(sa, a.shape))
    for c, n in zip(sb, b.shape):
        if size.setdefault(c, n) != n:
            return None     # broadcasting a size-1 letter: einsum handles it
    a, sa = _sum_private(a, sa, sb, out)
    b, sb = _sum_private(b, sb, sa, out)
    batch = [c for c in sa if c in sb and c in out]
    contracted = [c for c in sa if c in sb and c not in out]
    left = [c for c in sa if c not in sb]
    right = [c for c in sb if c not in sa]
    nb, nl, nr, nc = (_prod(size, g) for g in (batch, left, right,
                                               contracted))
    a2 = _arrange(a, sa, batch + left + contracted).reshape(nb, nl, nc)
    b2 = _arrange(b, sb, batch + contracted + right).reshape(nb, nc, nr)
    res = np.matmul(a2, b2).reshape([size[c] for c in batch + left + right])
    return _arrange(res, "".join(batch + left + right), list(out))


def _sum_private(x, sub, other, out):
    """Sum away letters that appear in neither the other operand nor out."""
    keep = [i for i, c in enumerate(sub) if c in other or c in out]
    if len(keep) == len(sub):
        return x, sub
    axes = tuple(i for i in range(len(sub)) if i not in keep)
    return x.sum(axis=axes), "".join(sub[i] for i in keep)


def _arrange(x, sub, order):
    perm = [sub.index(c) for c in order]
    return x if perm == list(range(len(perm))) else x.transpose(perm)


def _prod(size, letters):
    n = 1
    for c in letters:
        n *= size[c]
    return n


# -- the primitive ------------------------------------------------------------
@primitive
def einsum(*operands, inputs, output):
    """Explicit einsum of the operands (`inputs`: their subscripts)."""
    return contract(inputs, output, operands)


@einsum.defvjp
def _einsum_vjp(g, out, *operands, inputs, output, needs):
    sizes = letter_sizes(inputs, [np.shape(a) for a in operands])
    return tuple(
        _operand_grad(k, g, operands, inputs, output, sizes) if need
        else None for k, need in enumerate(needs))


def _operand_grad(k, g, operands, inputs, output, sizes):
    sub, x = inputs[k], operands[k]
    unique = "".join(dict.fromkeys(sub))
    others = [s for i, s in enumerate(inputs) if i != k]
    reachable = set(output).union(*others) if others else set(output)
    present = "".join(c for c in unique if c in reachable)
    arrays = [g] + [a for i, a in enumerate(operands) if i != k]
    grad = contract([output] + others, present, arrays)
    grad = _broadcast_missing(grad, present, unique, sub, x.shape, sizes)
    if len(unique) < len(sub):
        full = np.zeros(x.shape, dtype=grad.dtype)
        np.einsum(f"{sub}->{unique}", full)[...] = grad
        return full
    return grad.astype(x.dtype, copy=False)


def _broadcast_missing(grad, present, unique, sub, shape, sizes):
    """Reduce size-1 letters, then broadcast letters only `sub` has."""
    own = dict(zip(sub, shape))
    axes = tuple(i for i, c in enumerate(present)
                 if own[c] == 1 and grad.shape[i] != 1)
    if axes:
        grad = grad.sum(axis=axes, keepdims=True)
    if present == unique:
        return grad
    grad = grad.reshape([own[c] if c in present else 1 for c in unique])
    return np.broadcast_to(grad, [own[c] for c in unique]).copy()
