"""`GradientTape`: define-by-run recording and one reverse walk.

While a tape is active every primitive call whose inputs depend on a watched
value is appended to the tape. Recording order is a topological order, so
`gradient` walks the records backwards once (no recursion, no per-tensor
`grad` fields). Each output's gradient is popped from the accumulator dict
as soon as it has been pushed through its VJP, freeing memory as the walk
goes, as in HIPS autograd's `backward_pass`.
"""
import threading

import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.backend.tensor import Tensor

class _State(threading.local):
    """What this thread records: its tapes, and a `backend.capture`
    capture (class defaults: every thread starts with neither)."""
    tapes = None
    tracer = None


_local = _State()


def active_tapes():
    """Tapes recording on this thread (innermost last)."""
    return _local.tapes


def _push(tape):
    tapes = _local.tapes
    if tapes is None:
        tapes = _local.tapes = []
    tapes.append(tape)


def _pop(tape):
    tapes = _local.tapes
    tapes.remove(tape)
    if not tapes:
        _local.tapes = None


class _Record:
    __slots__ = ("prim", "args", "arrays", "out", "params", "saved", "needs")

    def __init__(self, prim, args, arrays, out, params, saved, needs):
        self.prim, self.args, self.arrays = prim, args, arrays
        self.out, self.params, self.saved = out, params, saved
        self.needs = needs


class stop_recording:
    """Context manager pausing every tape on this thread (inner traces).

    Operations run inside the block are not recorded, so no gradient flows
    through them; the tapes resume recording on exit.

    Example:

    >>> x = kerasish.Variable(3.0)
    >>> with kerasish.GradientTape() as tape:
    ...     with stop_recording():
    ...         constant = x * x
    ...     y = x * constant
    >>> float(y), float(tape.gradient(y, x))
    (27.0, 9.0)
    """

    def __enter__(self):
        self._saved = _local.tapes
        _local.tapes = None
        return self

    def __exit__(self, *exc):
        _local.tapes = self._saved


class GradientTape:
    """Record operations for automatic differentiation.

    Trainable variables used inside the block are watched automatically;
    other tensors need `tape.watch(x)`.

    Args:
        persistent: If `True`, `gradient` may be called more than once.
        watch_accessed_variables: Watch trainable variables automatically.
            Defaults to `True`.

    Example:

    >>> import kerasish
    >>> x = kerasish.Variable(3.0)
    >>> with kerasish.GradientTape() as tape:
    ...     y = x * x
    >>> float(tape.gradient(y, x))
    6.0
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_vars = watch_accessed_variables
        self._records = []
        self._tracked = set()
        self._watched = []
        self._recording = False
        self._used = False
        # Gradients an inner tape computed from values this tape tracks:
        # this tape can not differentiate through them (first order only).
        self._inner_gradients = {}

    def __enter__(self):
        _push(self)
        self._recording = True
        return self

    def __exit__(self, *exc):
        if self._recording:
            _pop(self)
            self._recording = False

    def watch(self, tensor):
        """Ensure `tensor` (or each tensor in a structure) is watched."""
        for t in _flatten(tensor):
            if not hasattr(t, "_value"):
                raise ValueError(
                    "`GradientTape.watch` expects tensors or variables. "
                    f"Received: {type(t).__name__}")
            self._tracked.add(id(t))
            self._watched.append(t)

    def stop_recording(self):
        """Context manager that pauses this tape."""
        return _Paused(self)

    def reset(self):
        """Forget everything recorded so far."""
        self._records, self._tracked, self._watched = [], set(), []

    def watched_variables(self):
        return [t for t in self._watched if getattr(t, "_is_variable", False)]

    def record(self, prim, args, arrays, out, params, saved):
        tracked = self._tracked
        needs = []
        any_need = False
        for arg, array in zip(args, arrays):
            key = id(arg)
            if key not in tracked:
                if not (self._watch_vars and getattr(arg, "_auto_watch",
                                                     False)):
                    needs.append(False)
                    continue
                tracked.add(key)
                self._watched.append(arg)
            need = array.dtype.kind in "fc" or \
                array.dtype.name == "bfloat16"
            needs.append(need)
            any_need = any_need or need
        if not any_need:
            return
        tracked.add(id(out))
        self._records.append(
            _Record(prim, args, arrays, out, params, saved, tuple(needs)))

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients="none"):
        """Gradients of `target` with respect to `sources`.

        Args:
            target: A tensor, or a list of tensors whose sum is differentiated.
            sources: A tensor/variable, or a list, tuple or dict of them.
            output_gradients: Optional upstream gradients for `target`.
            unconnected_gradients: `"none"` (default) returns `None` for a
                source that does not affect the target; `"zero"` returns zeros.

        Returns:
            Gradients with the structure of `sources`.
        """
        if self._records is None:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute "
                "one set of gradients (or jacobians)")
        if unconnected_gradients not in ("none", "zero"):
            raise ValueError(
                "`unconnected_gradients` must be 'none' or 'zero'. "
                f"Received: unconnected_gradients={unconnected_gradients!r}")
        flat_sources = _flatten(sources)
        outer = self._outer_tapes(target)
        grads = self._seed(target, output_gradients)
        backward(self._records, grads, {id(s) for s in flat_sources})
        self._check_first_order(grads)
        if not self._persistent:
            self._records = None
            self._tracked = set()
        result = [self._result(grads, s, unconnected_gradients)
                  for s in flat_sources]
        for tape in outer:
            for g in result:
                if g is not None:
                    tape._tracked.add(id(g))
                    tape._inner_gradients[id(g)] = g
        return _pack_like(sources, result)

    def _outer_tapes(self, target):
        """Other recording tapes that tracked `target` (so they would need
        the derivative of this gradient)."""
        keys = {id(t) for t in _flatten(target)}
        return [tape for tape in active_tapes() or ()
                if tape is not self and keys & tape._tracked]

    def _check_first_order(self, grads):
        if any(key in grads for key in self._inner_gradients):
            raise NotImplementedError(
                "kerasish differentiates once: this target depends on a "
                "gradient computed by an inner GradientTape (a second-order "
                "gradient, e.g. a gradient penalty or a Hessian), which "
                "kerasish cannot differentiate again. Wrap that gradient "
                "in `ops.stop_gradient` to treat it as a constant.")

    def _seed(self, target, output_gradients):
        targets = _flatten(target)
        seeds = (_flatten(output_gradients) if output_gradients is not None
                 else [None] * len(targets))
        grads = {}
        for t, seed in zip(targets, seeds):
            value = np.asarray(t._value if hasattr(t, "_value") else t)
            g = (np.ones_like(value) if seed is None
                 else np.asarray(getattr(seed, "_value", seed),
                                 dtype=value.dtype))
            _accumulate(grads, id(t), g)
        return grads

    @staticmethod
    def _result(grads, source, unconnected):
        g = _result_like(grads, source)
        if g is None and unconnected == "zero":
            return Tensor(np.zeros(source.shape, source.dtype))
        return g


class _Paused:
    def __init__(self, tape):
        self.tape = tape

    def __enter__(self):
        self.was = self.tape._recording
        if self.was:
            _pop(self.tape)
            self.tape._recording = False

    def __exit__(self, *exc):
        if self.was:
            _push(self.tape)
            self.tape._recording = True


def backward(records, grads, keep):
    """The reverse walk: push `grads` (by `id`) back through `records`.

    Each output's gradient is popped once its VJP has run, unless its id
    is in `keep` (the sources); gradients of the inputs accumulate under
    their ids in `grads`.
    """
    for rec in reversed(records):
        key = id(rec.out)
        g = grads.get(key) if key in keep else grads.pop(key, None)
        if g is None:
            continue
        if isinstance(g, IndexedSlices):
            g = g.to_dense()
        for arg, gx, need in zip(rec.args, rec.prim.vjp(g, rec),
                                 rec.needs):
            if need and gx is not None:
                _accumulate(grads, id(arg), gx)
    return grads


def _result_like(grads, source):
    """The gradient of `source` (a tensor of its dtype), or `None`."""
    return gradient_like(grads.get(id(source)), source)


def gradient_like(g, source):
    """The gradient array `g` as a tensor of `source`'s dtype (sparse
    gradients and `None` as they are)."""
    if g is None or isinstance(g, IndexedSlices):
        return g
    return Tensor(np.asarray(g, dtype=source.dtype))


def _accumulate(grads, key, g):
    grads[key] = add_gradients(grads.get(key), g)


def add_gradients(prev, g):
    """`prev + g` for gradients: `prev` may be `None`, either may be
    `IndexedSlices` (which then does the adding)."""
    if prev is None:
        return g
    if isinstance(g, IndexedSlices) and not isinstance(prev, IndexedSlices):
        return g + prev
    return prev + g


def _flatten(structure):
    if isinstance(structure, dict):
        return [v for k in sorted(structure) for v in _flatten(structure[k])]
    if isinstance(structure, (list, tuple)):
        return [v for s in structure for v in _flatten(s)]
    return [structure]


def _pack_like(structure, flat):
    it = iter(flat)

    def pack(s):
        if isinstance(s, dict):
            packed = {k: pack(s[k]) for k in sorted(s)}
            return {k: packed[k] for k in s}
        if isinstance(s, (list, tuple)):
            return type(s)(pack(v) for v in s)
        return next(it)
    return pack(structure)
