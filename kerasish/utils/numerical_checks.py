"""`check_grads`: verify a function's VJPs against finite differences.

One random direction per check (Chainer's `check_backward`, autograd's
`check_grads`): the analytic `<J^T u, v>` must equal the numeric
`<u, (f(x + eps v) - f(x - eps v)) / 2 eps>`, in float64.
"""
import numpy as np


def check_grads(fn, inputs, eps=1e-6, rtol=1e-5, atol=1e-7, seed=0,
                wrt=None):
    """Assert that the gradients of `fn` at `inputs` are correct.

    Args:
        fn: Function of tensors returning a tensor (or nested tensors).
        inputs: List of arrays (converted to float64 variables).
        eps: Finite-difference step.
        rtol, atol: Tolerances of the comparison.
        seed: Seed of the random directions.
        wrt: Optional indices of the inputs to differentiate (default all
            floating-point inputs).

    Returns:
        `(analytic, numeric)` directional derivatives.

    Example:

    >>> import kerasish
    >>> _ = check_grads(lambda x: kerasish.ops.tanh(x) * x, [np.ones(3)])
    """
    from kerasish import ops, tree
    from kerasish.backend.tape import GradientTape
    from kerasish.engine.variable import Variable
    rng = np.random.default_rng(seed)
    arrays = [np.asarray(a) for a in inputs]
    arrays = [a.astype(np.float64) if a.dtype.kind == "f" else a
              for a in arrays]
    if wrt is None:
        wrt = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    variables = [Variable(a, dtype=str(a.dtype)) if i in wrt else a
                 for i, a in enumerate(arrays)]
    with GradientTape() as tape:
        out = tree.flatten(fn(*variables))
        directions = [rng.standard_normal(np.shape(o)) for o in out]
        target = None
        for o, u in zip(out, directions):
            term = ops.sum(ops.multiply(o, u))
            target = term if target is None else target + term
    grads = tape.gradient(target, [variables[i] for i in wrt])
    steps = {i: rng.standard_normal(arrays[i].shape) for i in wrt}
    analytic = sum(float(np.vdot(np.zeros(arrays[i].shape) if g is None
                                 else np.asarray(g), steps[i]))
                   for g, i in zip(grads, wrt))

    def shifted(scale):
        args = [a + scale * steps[i] if i in steps else a
                for i, a in enumerate(arrays)]
        return [np.asarray(o, dtype=np.float64)
                for o in tree.flatten(fn(*args))]
    plus, minus = shifted(eps), shifted(-eps)
    numeric = sum(float(np.vdot(u, (p - m) / (2 * eps)))
                  for u, p, m in zip(directions, plus, minus))
    if not np.isclose(analytic, numeric, rtol=rtol, atol=atol):
        raise AssertionError(
            f"Gradient check failed: analytic directional derivative "
            f"{analytic!r} != numeric {numeric!r} (rtol={rtol}, atol={atol})"
            f" for inputs of shapes {[a.shape for a in arrays]}")
    return analytic, numeric
