"""Adam on embedding tables at the cost of the rows a step touches.

Keras's Adam updates every row of a table at every step, also the rows
whose gradient is zero: their moments decay and, while `m` is not zero,
they move. kerasish keeps those numbers (to float32 rounding) but brings an
idle row up to date only when something reads it. A row left with state
`(p, m, v)` after step t0 and not touched for k steps (g = 0) has

    m_k = beta_1^k m,     v_k = beta_2^k v,
    p_k = p - m * sum_{j=1..k} alpha_{t0+j} beta_1^j / (a_j s + eps),

with `a_j = beta_2^(j/2)` and `s = sqrt(v)`. Writing `u = s / (s + eps)`,
`1 / (a_j s + eps) = 1 / ((s + eps) (1 - (1 - a_j) u))`, a geometric series
in `(1 - a_j) u <= 0.1` when `j <= K` (the ring size is chosen so), hence

    p_k = p - m / (s + eps) * sum_n G_n u^n,
    G_n = sum_j alpha_{t0+j} beta_1^j (1 - a_j)^n.

The `G_n` depend only on t0 (the row's "cohort") and are summed as the
steps go, from each step's own `alpha` (so schedules stay exact). A row
idle for K - 1 steps is brought up to date and waits again, so a ring of K
cohorts is enough. The series keeps as many terms as a relative
error below 1e-13 takes (`series_terms`), at most 16 (below 0.1^16).

SGD with momentum defers the same way, in closed form without a series
(`MomentumRows`).

While rows are pending, the table and its `m`/`v` slots are
`DeferredVariable`s. A row gather (the Embedding lookup) brings just the
rows it reads up to date (`Variable._rows_source`); any other read of
their arrays brings every row up to date and makes them plain variables
again (the next step defers anew).
"""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.capture import _raw_get
from kerasish.backend.common.variable import Variable

_MAX_TERMS = 16         # series terms: a relative error below 0.1^16
_TOLERANCE = 1e-13      # fewer terms when they already give this
_MIN_SIZE = 1 << 16     # smaller tables: the dense update is as cheap
_MIN_RING = 8           # beta_2 so small that K < 8: update densely
_MAX_RING = 256
_MAX_STRIKES = 3        # read back right after deferring: stay dense


class DeferredVariable(Variable):
    """A variable with rows still to be brought up to date.

    Reading its array (`_value`, `numpy()`, `assign` ...) settles every
    row first; shape and dtype read nothing.
    """

    __slots__ = ()

    @property
    def _value(self):
        self._deferred.settle()
        return Tensor.__dict__["_value"].__get__(self, Tensor)

    @_value.setter
    def _value(self, value):
        self._deferred.settle()
        Tensor.__dict__["_value"].__set__(self, value)

    shape = property(lambda self: _raw_get(self).shape)
    dtype = property(lambda self: _raw_get(self).dtype)
    ndim = property(lambda self: _raw_get(self).ndim)
    size = property(lambda self: _raw_get(self).size)

    def _rows_source(self, ids):
        return self._deferred.rows_source(self, ids)


def ring_size(beta_2):
    """K such that `1 - beta_2^(K/2) <= 0.1` (0 when too small to defer)."""
    if not 0 < beta_2 < 1:
        return 0
    ring = min(int(2 * np.log(0.9) / np.log(beta_2)), _MAX_RING)
    return ring if ring >= _MIN_RING else 0


def series_terms(decay, ratio):
    """Terms of `sum_n (ratio_j u)^n` after which the rest, weighted by the
    steps' `decay` (`beta_1^j`), is below `_TOLERANCE` for any `u <= 1`."""
    total = decay.sum()
    for terms in range(2, _MAX_TERMS):
        rest = (decay * ratio ** terms / (1 - ratio)).sum()
        if rest <= _TOLERANCE * total:
            return terms
    return _MAX_TERMS


class _DeferredTable:
    """What every deferred table shares: its variables become
    `DeferredVariable`s, lookups bring their rows up to date, any other
    read settles everything. Subclasses give `apply`, `_catch_up` (the
    closed form that advances gathered idle rows, in place) and
    `_pending()`.

    Args:
        variables: The table, then its optimizer slots.
        strikes: Per-path count of deferrals read back at once (shared
            with the optimizer, so a table that is always read stays
            dense).
    """

    def __init__(self, variables, strikes):
        self.variables = variables
        self.arrays = tuple(_raw_get(v) for v in variables)
        self.strikes = strikes
        self.step = 0
        self.last = np.zeros(len(self.arrays[0]), np.int64)
        for variable in variables:
            variable._deferred = self
            variable.__class__ = DeferredVariable

    def flush(self, rows, to):
        """Apply the idle steps of `rows` up to step `to`; returns the rows
        that had some."""
        rows = np.asarray(rows).ravel()
        idle = to - self.last[rows]
        pending = idle > 0
        if not pending.any():
            return rows[:0]
        rows = np.unique(rows[pending])     # a lookup repeats ids
        idle = to - self.last[rows]
        values = [a[rows].astype(np.float64) for a in self.arrays]
        expand = (slice(None),) + (None,) * (values[0].ndim - 1)
        self._catch_up(values, idle, to, expand)
        for array, value in zip(self.arrays, values):
            array[rows] = value
        self.last[rows] = to
        return rows

    def rows_source(self, variable, ids):
        """`variable`'s array with rows `ids` up to date (a lookup)."""
        self._looked_up(self.flush(ids, self.step))
        return _raw_get(variable)

    def _looked_up(self, rows):
        """Rows a lookup brought up to date."""

    def settle(self):
        """Bring every row up to date; the variables become plain again."""
        self.flush(self._pending(), self.step)
        if self.step < 2:
            path = self.variables[0].path
            self.strikes[path] = self.strikes.get(path, 0) + 1
        for variable in self.variables:
            variable.__class__ = Variable
            variable._deferred = None

    def _live_rows(self, slots):
        """Rows whose optimizer state is not all zeros (the others do not
        change while untouched)."""
        rows = len(self.arrays[0])
        live = np.zeros(rows, bool)
        for slot in slots:
            live |= (slot.reshape(rows, -1) != 0).any(1)
        return np.flatnonzero(live)


class AdamRows(_DeferredTable):
    """The pending rows of one table under one Adam (module docstring).

    Args:
        variables: `(table, momentum, velocity)` variables.
        beta_1, beta_2, epsilon: The optimizer's constants.
        strikes: See `_DeferredTable`.
    """

    def __init__(self, variables, beta_1, beta_2, epsilon, strikes):
        super().__init__(variables, strikes)
        self.beta_1, self.beta_2 = float(beta_1), float(beta_2)
        self.epsilon = float(epsilon)
        self.ring = ring_size(self.beta_2)
        ages = np.arange(1, self.ring + 1)
        self._ages = ages
        decay = self.beta_1 ** ages
        ratio = 1 - self.beta_2 ** (ages / 2)
        self.terms = series_terms(decay, ratio)
        self._weights = decay[:, None] * \
            ratio[:, None] ** np.arange(self.terms)
        self.coeffs = np.zeros((self.ring, self.terms))
        self.cohorts = [[] for _ in range(self.ring)]
        self.cohorts[0].append(self._live_rows(self.arrays[1:]))

    # -- one optimizer step ----------------------------------------------------
    def apply(self, rows, values, constants):
        """Adam's step for a deduplicated row gradient (`rows`, `values`):
        the touched rows as the dense update computes them, the others
        deferred."""
        alpha, c1, c2, epsilon = constants
        step = self.step + 1
        # The cohort idle since step - K comes up to date with the touched
        # rows (one pass), then waits in the cohort of step - 1.
        idle = self._idle_cohort(step - self.ring)
        self.flush(np.concatenate([rows, idle]) if idle.size else rows,
                   step - 1)
        p, m, v = self.arrays
        m_rows, v_rows = m[rows], v[rows]
        m_rows = m_rows + (values - m_rows) * c1
        v_rows = v_rows + (np.square(values) - v_rows) * c2
        m[rows], v[rows] = m_rows, v_rows
        p[rows] -= m_rows * alpha / (np.sqrt(v_rows) + epsilon)
        self.last[rows] = step
        if idle.size:
            self.cohorts[(step - 1) % self.ring].append(idle)
        self.coeffs[(step - self._ages) % self.ring] += \
            float(alpha) * self._weights
        slot = step % self.ring
        self.coeffs[slot] = 0
        self.cohorts[slot] = [rows]
        self.step = step

    def _idle_cohort(self, born):
        """The rows of cohort `born` that no step has touched since."""
        parts = self.cohorts[born % self.ring] if born >= 0 else []
        if not parts:
            return np.empty(0, np.int64)
        rows = np.unique(np.concatenate(parts))
        return rows[self.last[rows] == born]

    # -- bringing rows up to date ----------------------------------------------
    def _catch_up(self, values, idle, to, expand):
        p, m, v = values
        coeffs = self.coeffs[(to - idle) % self.ring]
        s = np.sqrt(v)
        s_eps = s + self.epsilon
        u = s / s_eps
        series = coeffs[:, self.terms - 1][expand]
        for n in range(self.terms - 2, -1, -1):
            series = series * u + coeffs[:, n][expand]
        p -= m * series / s_eps
        m *= (self.beta_1 ** idle)[expand]
        v *= (self.beta_2 ** idle)[expand]

    def _looked_up(self, rows):
        if rows.size:
            self.cohorts[self.step % self.ring].append(rows)

    def _pending(self):
        parts = [np.concatenate(c) for c in self.cohorts if c]
        return np.unique(np.concatenate(parts)) if parts else \
            np.empty(0, np.int64)


class MomentumRows(_DeferredTable):
    """The pending rows of one table under SGD with momentum `mu`: idle
    for k steps, `m_k = mu^k m` and `w_k = w + m * sum_{j=1..k} mu^j`
    (times `mu` with Nesterov momentum), exactly, whatever the learning
    rates were, since an untouched row's step does not involve them.

    Args:
        variables: `(table, momentum)` variables.
        momentum, nesterov: The optimizer's settings.
        strikes: See `_DeferredTable`.
    """

    def __init__(self, variables, momentum, nesterov, strikes):
        super().__init__(variables, strikes)
        self.momentum, self.nesterov = float(momentum), bool(nesterov)
        # Rows with a momentum (the others do not move while untouched).
        self.live = np.zeros(len(self.last), bool)
        self.live[self._live_rows(self.arrays[1:])] = True

    def apply(self, rows, values, learning_rate):
        """SGD's step for a deduplicated row gradient, as the dense update
        computes the touched rows."""
        step = self.step + 1
        self.flush(rows, step - 1)
        w, m = self.arrays
        momentum = np.asarray(self.momentum, m.dtype)
        m_rows = m[rows] * momentum - values * learning_rate
        m[rows] = m_rows
        if self.nesterov:
            w[rows] += m_rows * momentum - values * learning_rate
        else:
            w[rows] += m_rows
        self.last[rows] = step
        self.live[rows] = True
        self.step = step

    def _catch_up(self, values, idle, to, expand):
        w, m = values
        mu = self.momentum
        powers = mu ** idle
        total = idle * 1.0 if mu == 1 else mu * (1 - powers) / (1 - mu)
        if self.nesterov:
            total = total * mu
        w += m * total[expand]
        m *= powers[expand]

    def _pending(self):
        return np.flatnonzero(self.live & (self.last < self.step))


def apply_sgd_rows(optimizer, gradient, variable, momentum, learning_rate):
    """SGD-with-momentum's step for an `IndexedSlices` gradient through
    `MomentumRows`; False when this table is updated densely instead."""
    state = getattr(variable, "_deferred", None)
    if state is None:
        if optimizer.nesterov not in (True, False) or \
                not _eligible(optimizer, variable, (momentum,)):
            return False
        state = MomentumRows(
            (variable, momentum), optimizer.momentum, optimizer.nesterov,
            optimizer.__dict__.setdefault("_deferred_strikes", {}))
    state.apply(gradient.indices, gradient.values, learning_rate)
    return True


def apply_adam_rows(optimizer, gradient, variable, slots, constants):
    """Adam's step for an `IndexedSlices` gradient through `AdamRows`;
    False when this table is updated densely instead."""
    state = getattr(variable, "_deferred", None)
    if state is None:
        if not _adam_eligible(optimizer, variable, slots):
            return False
        state = AdamRows(
            (variable,) + tuple(slots), optimizer.beta_1, optimizer.beta_2,
            optimizer.epsilon,
            optimizer.__dict__.setdefault("_deferred_strikes", {}))
    state.apply(gradient.indices, gradient.values, constants)
    return True


def _adam_eligible(optimizer, variable, slots):
    """Plain Adam whose constants are numbers (see `_eligible`)."""
    if optimizer.amsgrad or not all(
            isinstance(b, (float, int)) for b in
            (optimizer.beta_1, optimizer.beta_2, optimizer.epsilon)):
        return False
    return ring_size(optimizer.beta_2) > 0 and \
        _eligible(optimizer, variable, slots)


def _eligible(optimizer, variable, slots):
    """A large float table, without weight decay or EMA (which touch
    every row), that nothing else reads each step."""
    if optimizer.weight_decay or optimizer.use_ema:
        return False
    if variable.regularizer is not None or variable.constraint is not None:
        return False
    if variable.dtype not in (np.float32, np.float64) or \
            variable.size < _MIN_SIZE or variable.ndim < 2:
        return False
    if any(type(s) is not Variable or s.dtype != variable.dtype
           for s in slots):
        return False
    strikes = optimizer.__dict__.get("_deferred_strikes", {})
    return strikes.get(variable.path, 0) < _MAX_STRIKES
