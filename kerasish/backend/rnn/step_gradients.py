"""Weight and input gradients of an RNN, from all steps at once.

Backpropagation through time is a chain of small, dependent steps, but
the gradients of the kernel, bias, recurrent kernel and inputs need only
the per-step pre-activation gradients: once the loop has filled them for
every step, each of those gradients is one large GEMM over all
`steps * batch` rows, which BLAS runs on all cores at close to its peak.

(Computing them chunk by chunk on a second thread while the loop runs was
measured slower: the worker and the loop fight over the two cores and the
GIL, and the loop's own GEMMs then have to run single-threaded.)
"""
import numpy as np


def _rows(a):
    """`(T, B, N)` as `(T * B, N)`."""
    return a.reshape(-1, a.shape[-1])


def step_gradients(spec, x_tm, kernel, d_pre, pairs, needs):
    """`(dx, dkernel, dbias, [recurrent grads])` of a whole sequence.

    Args:
        spec: The call's `Spec`.
        x_tm: Time-major inputs with their ones column, `(T, B, D + 1)`.
        kernel: The input kernel `(D, W)` the pre-activations came from.
        d_pre: Time-major input pre-activation gradients `(T, B, W)`.
        pairs: `(prev, d)` pairs for recurrent kernels: `sum_t prev_t^T d_t`
            with `prev` `(T, B, U)` and `d` `(T, B, W')`.
        needs: Whether dx, dkernel, dbias and the recurrent gradients are
            wanted.

    Example:

    >>> from kerasish.backend.rnn.common import Spec, time_major
    >>> x = np.ones((2, 3, 4), "float32")
    >>> spec = Spec(x, 5, None, False, False, False, False, 1)
    >>> d = np.ones((3, 2, 5), "float32")
    >>> dx, dk, db, drec = step_gradients(
    ...     spec, time_major(x, False), np.ones((4, 5), "float32"), d,
    ...     [(np.ones((3, 2, 5), "float32"), d)], (True, True, True, True))
    >>> dx.shape, dk.shape, db.tolist(), drec[0].shape
    ((2, 3, 4), (4, 5), [6.0, 6.0, 6.0, 6.0, 6.0], (5, 5))
    """
    flat = _rows(d_pre)
    dim = kernel.shape[0]
    dx = dk = db = None
    if needs[0]:
        dx = (flat @ kernel.T).reshape(d_pre.shape[:2] + (dim,))
        dx = dx.transpose(1, 0, 2)
        dx = np.ascontiguousarray(dx[:, ::-1] if spec.reverse else dx)
    if needs[1] or needs[2]:
        dkb = _rows(x_tm).T @ flat
        dk = dkb[:dim] if needs[1] else None
        db = dkb[dim] if needs[2] else None
    drec = [_rows(prev).T @ _rows(d) for prev, d in pairs] if needs[3] \
        else []
    return dx, dk, db, drec
