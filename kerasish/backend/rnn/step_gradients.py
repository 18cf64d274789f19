"""Weight and input gradients of an RNN, computed on a second thread.

Backpropagation through time is a chain of small, dependent steps: one
core works through it while the other would sit idle (the per-step GEMMs
are run single-threaded, see `common.serial_blas`). The gradients of the
kernel, bias, recurrent kernel and inputs need only the per-step
pre-activation gradients, final as soon as the loop has passed a step, so
`StepGradients` turns each finished chunk of steps into a few GEMMs on a
worker thread while the loop continues (numpy releases the GIL in BLAS and
in large elementwise loops). Chunks are accumulated in a fixed order, so
results are deterministic.
"""
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

CHUNK = 10          # timesteps per background job
_POOL = {}          # pid -> executor (a forked child needs its own)


def _executor():
    pid = os.getpid()
    pool = _POOL.get(pid)
    if pool is None:
        pool = _POOL[pid] = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="kerasish-rnn-grads")
    return pool


def in_background(fn, *args):
    """Run `fn(*args)` on the worker thread; returns its future."""
    return _executor().submit(fn, *args)


class StepGradients:
    """Accumulates `dx`, `dkernel`, `dbias` and recurrent-kernel gradients.

    Args:
        spec: The call's `Spec`.
        x_tm: Time-major inputs with their ones column, `(T, B, D + 1)`.
        kernel: The input kernel `(D, W)` the pre-activations came from.
        d_pre: Time-major input pre-activation gradients `(T, B, W)`,
            filled by the caller from the last step backwards.
        pairs: `(prev, d)` pairs for recurrent kernels: `sum_t prev_t^T d_t`
            with `prev` `(T, B, U)` and `d` `(T, B, W')`.
        needs: Whether dx, dkernel, dbias and the recurrent gradients are
            wanted.
    """

    def __init__(self, spec, x_tm, kernel, d_pre, pairs, needs):
        self.spec, self.x_tm, self.kernel, self.d_pre = spec, x_tm, kernel, \
            d_pre
        self.pairs = pairs if needs[3] else []
        self.need_dx, self.need_w = needs[0], needs[1] or needs[2]
        self.needs = needs
        dim, dtype = kernel.shape[0], d_pre.dtype
        self.dx = np.empty(x_tm.shape[:2] + (dim,), dtype) \
            if self.need_dx else None
        self.dkb = np.zeros((dim + 1, d_pre.shape[-1]), dtype) \
            if self.need_w else None
        self.drec = [np.zeros((p.shape[-1], d.shape[-1]), dtype)
                     for p, d in self.pairs]
        self._jobs, self._end = [], spec.steps

    def step_done(self, t):
        """Call after step `t` (going backwards): queue whole chunks."""
        if t % CHUNK == 0 or t == 0:
            start, end = t, self._end
            self._end = t
            self._jobs.append(_executor().submit(self._chunk, start, end))

    def _chunk(self, start, end):
        flat = self.d_pre[start:end].reshape(-1, self.d_pre.shape[-1])
        if self.need_dx:
            self.dx[start:end] = (flat @ self.kernel.T).reshape(
                self.dx[start:end].shape)
        if self.need_w:
            x = self.x_tm[start:end]
            self.dkb += x.reshape(-1, x.shape[-1]).T @ flat
        for (prev, d), acc in zip(self.pairs, self.drec):
            acc += prev[start:end].reshape(-1, prev.shape[-1]).T @ \
                d[start:end].reshape(-1, d.shape[-1])

    def results(self):
        """`(dx, dkernel, dbias, [recurrent grads])` once all chunks ran."""
        for job in self._jobs:
            job.result()
        dx = None
        if self.need_dx:
            dx = self.dx.transpose(1, 0, 2)
            dx = np.ascontiguousarray(dx[:, ::-1] if self.spec.reverse
                                      else dx)
        dim = self.kernel.shape[0]
        dk = self.dkb[:dim] if self.needs[1] else None
        db = self.dkb[dim] if self.needs[2] else None
        return dx, dk, db, self.drec
