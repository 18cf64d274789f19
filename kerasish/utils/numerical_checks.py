"""`check_grads`: verify a function's VJPs against finite differences.

One random direction per check (Chainer's `check_backward`, autograd's
`check_grads`): the analytic `<J^T u, v>` must equal the numeric
`<u, (f(x + eps v) - f(x - eps v)) / 2 eps>`, in float64.
"""
import numpy as np
from kerasish import ops, tree
from kerasish.backend.tape import GradientTape
from kerasish.backend.common.variable import Variable


def check_grads(fn, inputs, eps=1e-6, rtol=1e-5, atol=1e-7, seed=0,
                wrt=None, variables=None):
    """Assert that the gradients of `fn` at `inputs` are correct.

    Args:
        fn: Function of tensors returning a tensor (or nested tensors).
        inputs: List of arrays (floating ones become float64 variables).
        eps: Finite-difference step.
        rtol, atol: Tolerances of the comparison.
        seed: Seed of the random directions.
        wrt: Optional indices of the inputs to differentiate (default all
            floating-point inputs).
        variables: Existing float64 `Variable`s that `fn` reads (a layer's
            weights), also differentiated; their values are perturbed in
            place for the numeric estimate and restored afterwards.

    Returns:
        `(analytic, numeric)` directional derivatives.

    Example:

    >>> import kerasish
    >>> _ = check_grads(lambda x: kerasish.ops.tanh(x) * x, [np.ones(3)])
    """
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(a) for a in inputs]
    arrays = [a.astype(np.float64) if a.dtype.kind == "f" else a
              for a in arrays]
    if wrt is None:
        wrt = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    variables = list(variables or [])
    args = [Variable(a, dtype=str(a.dtype)) if i in wrt else a
            for i, a in enumerate(arrays)]
    with GradientTape() as tape:
        for v in variables:
            tape.watch(v)
        out = tree.flatten(fn(*args))
        directions = [rng.standard_normal(np.shape(o)) for o in out]
        target = None
        for o, u in zip(out, directions):
            term = ops.sum(ops.multiply(o, u))
            target = term if target is None else target + term
    sources = [args[i] for i in wrt] + variables
    grads = tape.gradient(target, sources)
    steps = [rng.standard_normal(np.shape(s)) for s in sources]
    analytic = sum(float(np.vdot(np.zeros(np.shape(s)) if g is None
                                 else np.asarray(g), d))
                   for g, s, d in zip(grads, sources, steps))
    originals = [v._value.copy() for v in variables]
    input_steps = dict(zip(wrt, steps))

    def shifted(scale):
        for v, value, d in zip(variables, originals, steps[len(wrt):]):
            v._value = value + scale * d
        shifted_args = [a + scale * input_steps[i] if i in input_steps
                        else a for i, a in enumerate(arrays)]
        return [np.asarray(o, dtype=np.float64)
                for o in tree.flatten(fn(*shifted_args))]
    try:
        plus, minus = shifted(eps), shifted(-eps)
    finally:
        for v, value in zip(variables, originals):
            v._value = value
    numeric = sum(float(np.vdot(u, (p - m) / (2 * eps)))
                  for u, p, m in zip(directions, plus, minus))
    if not np.isclose(analytic, numeric, rtol=rtol, atol=atol):
        raise AssertionError(
            f"Gradient check failed: analytic directional derivative "
            f"{analytic!r} != numeric {numeric!r} (rtol={rtol}, atol={atol})"
            f" for inputs of shapes {[a.shape for a in arrays]} and "
            f"variables {[v.path for v in variables]}")
    return analytic, numeric
