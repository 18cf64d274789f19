"""`Adam`: adaptive moment estimation, Keras 3's exact update order."""
import numpy as np

from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.optimizers.base_optimizer import Optimizer, base_kwargs
from kerasish.optimizers.deferred_rows import apply_adam_rows
from kerasish.optimizers.flat_slots import FlatSlots, is_small, movable
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "adam")
class Adam(Optimizer):
    """Adam (Kingma & Ba, 2014), in Keras 3's update order (so float32
    results match Keras's):

        alpha = lr * sqrt(1 - beta_2^t) / (1 - beta_1^t)
        m += (g - m) * (1 - beta_1);  v += (g^2 - v) * (1 - beta_2)
        w -= m * alpha / (sqrt(v) + epsilon)

    For an `IndexedSlices` gradient (embedding rows) the result equals the
    dense update with zero rows: every row's moments decay and every row
    moves, but the gradient is never materialised as a dense table, and
    on large tables the rows no step touches are brought up to date in
    closed form only when read (`optimizers/deferred_rows.py`), so a step
    costs what its rows cost.

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        beta_1: Decay of the first moment. Defaults to 0.9.
        beta_2: Decay of the second moment. Defaults to 0.999.
        epsilon: Numerical fuzz. Defaults to 1e-7.
        amsgrad: Use the AMSGrad variant (the maximum of past second
            moments). Defaults to False.
        weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema,
        ema_momentum, ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0, -1.0])
    >>> _ = Adam(learning_rate=0.1).apply([np.array([0.5, -2.0], "float32")],
    ...                                   [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.9, -0.9]
    """

    _supports_sparse = True

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, weight_decay=None,
                 clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate,
                         **base_kwargs(locals()), **kwargs)
        self.beta_1, self.beta_2 = beta_1, beta_2
        self.epsilon, self.amsgrad = epsilon, amsgrad

    def build(self, var_list):
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(
            var_list, ["momentum", "velocity"])
        if self.amsgrad:
            self._velocity_hats = self.add_optimizer_variables(
                var_list, "velocity_hat")

    def _update_all(self, grads, variables, learning_rate):
        if type(self).update_step is not Adam.update_step:
            # A subclass's own rule: one `update_step` per variable.
            return super()._update_all(grads, variables, learning_rate)
        constants = {}          # per dtype, the same for every variable
        small = {}              # per dtype, small variables with dense g
        for g, v in zip(grads, variables):
            c = constants.get(v.dtype)
            if c is None:
                c = constants[v.dtype] = self._constants(learning_rate,
                                                         v.dtype)
            if not self.amsgrad and is_small(g, v):
                small.setdefault(v.dtype, []).append((g, v))
            else:
                self._step(g, v, c)
        for dtype, pairs in small.items():
            self._group_step(pairs, constants[dtype])

    def _group_step(self, pairs, constants):
        """`_step` for many small variables at once (`FlatSlots`): the
        same arithmetic, element for element."""
        groups = self.__dict__.setdefault("_flat_groups", {})
        dtype, key = pairs[0][1].dtype, tuple(id(v) for _, v in pairs)
        group = groups.get(dtype)
        if group is None or group.key != key or not group.linked():
            indices = [self._index_by_path[self._key(v)] for _, v in pairs]
            slots = [[self._momentums[i] for i in indices],
                     [self._velocities[i] for i in indices]]
            if not movable(slots[0] + slots[1]):
                groups.pop(dtype, None)
                for g, v in pairs:
                    self._step(g, v, constants)
                return
            group = groups[dtype] = FlatSlots([v for _, v in pairs], slots,
                                              key=key)
        (m, v), (t1, t2) = group.slots, group.scratch
        _update_moments(group.gather([g for g, _ in pairs]), m, v, t1,
                        constants)
        group.subtract(_update(m, v, t1, t2, constants))

    def update_step(self, gradient, variable, learning_rate):
        self._step(gradient, variable,
                   self._constants(learning_rate, variable.dtype))

    def _constants(self, learning_rate, dtype):
        """`(alpha, 1 - beta_1, 1 - beta_2, epsilon)` as scalars of
        `dtype`, for this step."""
        lr = np.asarray(getattr(learning_rate, "_value", learning_rate),
                        dtype)
        step = self._local_step(dtype)
        b1_power = np.power(np.asarray(self.beta_1, dtype), step)
        b2_power = np.power(np.asarray(self.beta_2, dtype), step)
        alpha = lr * np.sqrt(1 - b2_power) / (1 - b1_power)
        return (alpha, np.asarray(1 - self.beta_1, dtype),
                np.asarray(1 - self.beta_2, dtype),
                np.asarray(self.epsilon, dtype))

    def _moment_variables(self, variable):
        index = self._index_by_path[self._key(variable)]
        return self._momentums[index], self._velocities[index]

    def _slots(self, variable):
        """`(momentum, velocity, velocity_hat or None, scratch, scratch)`
        arrays of `variable`."""
        index = self._index_by_path[self._key(variable)]
        hat = self._velocity_hats[index]._value if self.amsgrad else None
        return (self._momentums[index]._value,
                self._velocities[index]._value, hat,
                *self._scratch(variable))

    def _step(self, gradient, variable, constants):
        if isinstance(gradient, IndexedSlices) and apply_adam_rows(
                self, gradient, variable, self._moment_variables(variable),
                constants):
            return
        m, v, v_hat, t1, t2 = self._slots(variable)
        if isinstance(gradient, IndexedSlices):
            self._sparse_moments(gradient, m, v, t1, *constants[1:3])
        else:
            _update_moments(np.asarray(getattr(gradient, "_value", gradient)),
                            m, v, t1, constants)
        if v_hat is not None:
            np.maximum(v_hat, v, out=v_hat)
            v = v_hat
        variable._value -= _update(m, v, t1, t2, constants)

    @staticmethod
    def _sparse_moments(gradient, m, v, scratch, c1, c2):
        """Dense-equivalent moment update for a deduplicated row gradient.

        With g = 0 outside the rows, `m += (0 - m) * c1` is exactly
        `m -= m * c1`; the touched rows then get the full formula from their
        old values.
        """
        rows, g = gradient.indices, gradient.values
        m_rows, v_rows = m[rows], v[rows]
        m -= np.multiply(m, c1, out=scratch)
        v -= np.multiply(v, c2, out=scratch)
        m[rows] = m_rows + (g - m_rows) * c1
        v[rows] = v_rows + (np.square(g) - v_rows) * c2

    def get_config(self):
        return {**super().get_config(), "beta_1": self.beta_1,
                "beta_2": self.beta_2, "epsilon": self.epsilon,
                "amsgrad": self.amsgrad}


def _update_moments(g, m, v, scratch, constants):
    """`m += (g - m) * (1 - beta_1)`, `v += (g^2 - v) * (1 - beta_2)`."""
    _, c1, c2, _ = constants
    np.subtract(g, m, out=scratch)
    scratch *= c1
    m += scratch
    np.square(g, out=scratch)
    scratch -= v
    scratch *= c2
    v += scratch


def _update(m, v, scratch, out, constants):
    """`m * alpha / (sqrt(v) + epsilon)` into `out`."""
    alpha, _, _, epsilon = constants
    np.sqrt(v, out=scratch)
    scratch += epsilon
    np.multiply(m, alpha, out=out)
    out /= scratch
    return out
