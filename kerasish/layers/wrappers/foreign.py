"""One differentiable primitive around a call into another framework.

A wrapper hands `foreign_call` a `run(arrays, need_grad)` function that
runs the foreign model on numpy arrays and returns `(outputs, backward)`:
the outputs as numpy arrays and, when gradients are needed, a
`backward(cotangents, needs)` giving one numpy gradient (or None) per
array, computed by the framework's own autodiff (torch autograd, jax.vjp).
Several outputs travel through the tape as one packed 1-D array, split
again by differentiable slicing.
"""
import numpy as np

from kerasish import ops
from kerasish.backend.primitive import primitive
from kerasish.backend.tape import _local as tape_state


def _pack(outputs):
    if len(outputs) == 1:
        return outputs[0]
    dtype = np.result_type(*[o.dtype for o in outputs])
    return np.concatenate([np.ravel(o).astype(dtype, copy=False)
                           for o in outputs])


def _unpack(g, shapes):
    if len(shapes) == 1:
        return [g]
    sizes = [int(np.prod(s)) for s in shapes]
    pieces = np.split(g, np.cumsum(sizes)[:-1])
    return [p.reshape(s) for p, s in zip(pieces, shapes)]


@primitive(saves=True)
def _foreign(*arrays, run):
    outputs, backward = run(arrays, need_grad=bool(tape_state.tapes))
    outputs = [np.asarray(o) for o in outputs]
    saved = (backward, [o.shape for o in outputs], [o.dtype for o in outputs])
    return _pack(outputs), saved


@_foreign.defvjp
def _foreign_vjp(g, out, *arrays, run, needs, saved):
    backward, shapes, dtypes = saved
    if backward is None:
        raise RuntimeError(
            "A foreign-framework call recorded on a tape kept no backward "
            "function; it ran without gradients.")
    cotangents = [c.astype(d, copy=False)
                  for c, d in zip(_unpack(g, shapes), dtypes)]
    grads = backward(cotangents, needs)
    return tuple(None if grad is None or not need else
                 np.asarray(grad).reshape(np.shape(a)).astype(
                     np.asarray(a).dtype, copy=False)
                 for grad, need, a in zip(grads, needs, arrays))


def foreign_call(run, arrays):
    """Run `run` as one primitive; returns the list of output tensors.

    Args:
        run: `run(arrays, need_grad) -> (outputs, backward)` (see above).
        arrays: The inputs: tensors, variables (recorded on the tape, so
            their gradients reach optimizers) or numpy arrays.
    """
    info = {}

    def described(arrays, need_grad):
        outputs, backward = run(arrays, need_grad)
        info["shapes"] = [np.shape(o) for o in outputs]
        info["dtypes"] = [np.asarray(o).dtype for o in outputs]
        return outputs, backward
    packed = _foreign(*arrays, run=described)
    shapes, dtypes = info["shapes"], info["dtypes"]
    if len(shapes) == 1:
        return [packed]
    sizes = [int(np.prod(s)) for s in shapes]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    return [ops.cast(ops.reshape(packed[a:b], s), d)
            for a, b, s, d in zip(starts[:-1], starts[1:], shapes, dtypes)]
