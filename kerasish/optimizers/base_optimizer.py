"""`Optimizer`: the update rule machinery shared by every optimizer.

`apply(grads, variables)` runs Keras 3's pipeline: build slots on first use,
drop `None` gradients (warning), unscale `loss_scale_factor`, accumulate
gradients, clip (`clipnorm` / `clipvalue` / `global_clipnorm`), decay
weights, call `update_step` per variable, project with constraints, update
the EMA, and count `iterations`. Slot variables are created per trainable
variable in its order (`m_0, v_0, m_1, v_1, ...`, as Keras saves them) and
looked up by the variable's path, which is stable across processes. Updates
happen in place on numpy arrays. Embedding gradients arrive as
`IndexedSlices` rows; optimizers that know how apply them as row updates,
others see a dense gradient.
"""
import warnings

import numpy as np

from kerasish.backend import config
from kerasish.backend.indexed_slices import IndexedSlices
from kerasish.backend.tensor import Tensor
from kerasish.engine import naming
from kerasish.engine.variable import Variable


def _array(g):
    if g is None or isinstance(g, IndexedSlices):
        return g
    return g._value if isinstance(g, Tensor) else np.asarray(g)


class Optimizer:
    """Base class of optimizers.

    Args:
        learning_rate: Float, a `LearningRateSchedule`, or a callable.
        weight_decay: Decoupled weight decay factor, or None.
        clipnorm: Clip each gradient to this L2 norm.
        clipvalue: Clip each gradient entry to `[-clipvalue, clipvalue]`.
        global_clipnorm: Clip all gradients to this joint L2 norm.
        use_ema: Keep an exponential moving average of the weights.
        ema_momentum: EMA momentum (default 0.99).
        ema_overwrite_frequency: Overwrite weights with the EMA every N steps.
        loss_scale_factor: Multiply the loss, divide the gradients by it.
        gradient_accumulation_steps: Apply averaged gradients every N steps.
        name: Optimizer name (default snake_case class name).
    """

    # Subclasses whose update_step handles IndexedSlices rows set this.
    _supports_sparse = False

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:
            warnings.warn(
                "Argument `decay` is no longer supported and will be ignored.")
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        self.name = name or naming.auto_name(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue = clipnorm, clipvalue
        self.global_clipnorm = global_clipnorm
        self.use_ema, self.ema_momentum = use_ema, ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._validate()
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index_by_path = {}
        self._exclude_ids, self._exclude_names = set(), None
        self._iterations = self.add_variable((), "zeros", dtype="int32",
                                             name="iteration")
        self._learning_rate = self._make_learning_rate(learning_rate)

    def _validate(self):
        steps = self.gradient_accumulation_steps
        if steps and not steps >= 2:
            raise ValueError(
                "`gradient_accumulation_steps` must be an integer >= 2. "
                f"Received: gradient_accumulation_steps={steps}")
        if self.use_ema:
            if not 0 <= self.ema_momentum <= 1:
                raise ValueError("`ema_momentum` must be in the range [0, 1]."
                                 f" Received: ema_momentum={self.ema_momentum}")
            freq = self.ema_overwrite_frequency
            if freq and (not isinstance(freq, int) or freq < 1):
                raise ValueError(
                    "`ema_overwrite_frequency` must be an integer >= 1 or "
                    f"None. Received: ema_overwrite_frequency={freq}")
        clips = [self.clipnorm, self.clipvalue, self.global_clipnorm]
        if sum(c is not None for c in clips) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` "
                f"can be set. Received: clipnorm={self.clipnorm}, "
                f"clipvalue={self.clipvalue}, "
                f"global_clipnorm={self.global_clipnorm}")

    def _make_learning_rate(self, learning_rate):
        from kerasish.optimizers.schedules import LearningRateSchedule
        if isinstance(learning_rate, LearningRateSchedule) or \
                callable(learning_rate):
            return learning_rate
        if isinstance(learning_rate, (int, np.integer)) and \
                not isinstance(learning_rate, bool):
            learning_rate = float(learning_rate)
        if not isinstance(learning_rate, (float, np.floating)):
            raise ValueError(
                "Argument `learning_rate` should be float, or an instance of "
                "LearningRateSchedule, or a callable (that takes in the "
                "current iteration value and returns the corresponding "
                f"learning rate value). Received instead: "
                f"learning_rate={learning_rate}")
        return self.add_variable((), "zeros", dtype=config.floatx(),
                                 name="learning_rate",
                                 value=float(learning_rate))

    # -- variables -----------------------------------------------------------
    @property
    def variables(self):
        return list(self._variables)

    @property
    def iterations(self):
        """Number of applied updates (a Variable)."""
        if self.gradient_accumulation_steps:
            return Tensor(self._iterations._value //
                          self.gradient_accumulation_steps)
        return self._iterations

    def add_variable(self, shape, initializer="zeros", dtype=None,
                     aggregation="none", name=None, value=None):
        """Create an optimizer state variable (non-trainable)."""
        from kerasish import initializers
        init = initializers.get(initializer) if value is None else \
            np.full(shape, value, dtype=dtype or config.floatx())
        with naming.name_scope(self.name):
            variable = Variable(init, shape=shape, dtype=dtype,
                                trainable=False, name=name,
                                aggregation=aggregation)
        self._variables.append(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None,
                                    initializer="zeros"):
        """A slot shaped like `reference_variable`, named after its path."""
        name = f"{reference_variable.path.replace('/', '_')}_{name or 'var'}"
        return self.add_variable(reference_variable.shape, initializer,
                                 dtype=reference_variable.dtype, name=name)

    def add_optimizer_variables(self, trainable_variables, name,
                                initializer="zeros"):
        """Slots for each variable: one list per name, interleaved."""
        names = [name] if isinstance(name, str) else list(name)
        inits = [initializer] * len(names) if isinstance(initializer, str) \
            or not isinstance(initializer, (list, tuple)) \
            else list(initializer)
        slots = tuple([] for _ in names)
        for variable in trainable_variables:
            for i, (slot_name, init) in enumerate(zip(names, inits)):
                slots[i].append(
                    None if variable.overwrite_with_gradient else
                    self.add_variable_from_reference(variable, slot_name,
                                                     init))
        return slots[0] if isinstance(name, str) else slots

    def build(self, variables):
        """Create the slot variables for `variables` (once)."""
        if self.use_ema:
            self._average = self.add_optimizer_variables(variables,
                                                         "average")
        if self.gradient_accumulation_steps:
            self._accumulated = self.add_optimizer_variables(
                variables, "gradient_accumulator")
        for i, variable in enumerate(variables):
            self._index_by_path[self._key(variable)] = i
        self._trainable_variables = list(variables)
        self.built = True

    @staticmethod
    def _key(variable):
        return id(variable)

    def _get_variable_index(self, variable):
        return self._index_by_path[self._key(variable)]

    def _scratch(self, variable, count=2):
        """Reusable temporaries shaped like `variable` (no fresh pages per
        step: allocating multi-MB temporaries costs page faults)."""
        key = id(variable)
        cache = self.__dict__.setdefault("_scratch_buffers", {})
        buffers = cache.get(key)
        if buffers is None or len(buffers) < count:
            buffers = cache[key] = [np.empty(variable.shape, variable.dtype)
                                    for _ in range(count)]
        return buffers

    def assign(self, variable, value):
        variable.assign(value)

    def assign_add(self, variable, value):
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        variable.assign_sub(value)

    # -- learning rate --------------------------------------------------------
    @property
    def learning_rate(self):
        from kerasish.optimizers.schedules import LearningRateSchedule
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            return Tensor(np.asarray(lr(self._iterations._value),
                                     dtype=config.floatx()))
        if isinstance(lr, Variable):
            return lr
        return Tensor(np.asarray(lr(), dtype=config.floatx()))

    @learning_rate.setter
    def learning_rate(self, value):
        from kerasish.optimizers.schedules import LearningRateSchedule
        if isinstance(value, LearningRateSchedule) or callable(value):
            if isinstance(self._learning_rate, Variable):
                self._variables.remove(self._learning_rate)
            self._learning_rate = value
            return
        if not isinstance(self._learning_rate, Variable):
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` "
                "object as its `learning_rate` constructor argument, hence "
                "its learning rate is not settable. If you need the learning "
                "rate to be settable, you should instantiate the optimizer "
                "with a float `learning_rate` argument.")
        self._learning_rate.assign(np.asarray(getattr(value, "_value",
                                                      value)))

    def _lr_value(self, dtype):
        return np.asarray(getattr(self.learning_rate, "_value",
                                  self.learning_rate)).astype(dtype)

    # -- applying gradients ---------------------------------------------------
    def apply_gradients(self, grads_and_vars):
        """Apply `[(gradient, variable), ...]`; returns `iterations`."""
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            return self._iterations
        grads, variables = zip(*grads_and_vars)
        self.apply(list(grads), list(variables))
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """Apply `grads` to `trainable_variables` (one update step)."""
        if len(grads) == 0:
            return
        variables = self._resolve_variables(grads, trainable_variables)
        grads, variables = self._filter_empty(grads, variables)
        grads = [self._prepare(g, v) for g, v in zip(grads, variables)]
        if self.loss_scale_factor is not None:
            grads = [_scale(g, 1.0 / self.loss_scale_factor) for g in grads]
        if self.gradient_accumulation_steps:
            self._accumulate_and_maybe_update(grads, variables)
        else:
            self._update(grads, variables)
        self._iterations._value += 1

    def _resolve_variables(self, grads, variables):
        if variables is None:
            if not self.built:
                raise ValueError(
                    "When passing `grads` without `variables`, the optimizer "
                    "must already be built on a list of variables. Call "
                    "`optimizer.build(trainable_variables)` first.")
            if len(grads) != len(self._trainable_variables):
                raise ValueError(
                    "When passing `grads` as a list of gradient tensors, the "
                    "gradients must match `optimizer.variables` one-to-one. "
                    f"Received a list of {len(grads)} gradients, but the "
                    f"optimizer is tracking {len(self._trainable_variables)} "
                    "trainable variables.")
            return list(self._trainable_variables)
        variables = list(variables)
        if not self.built:
            with naming.name_scope(self.name):
                self.build(variables)
        for v in variables:
            if self._key(v) not in self._index_by_path:
                raise ValueError(
                    f"Unknown variable: {v.path}. This optimizer can only be "
                    "called for the variables it was originally built with. "
                    "When working with a new set of variables, you should "
                    "recreate a new optimizer instance.")
        return variables

    def _filter_empty(self, grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError("No gradients provided for any variable.")
        if len(kept) < len(grads):
            missing = [v.path for g, v in zip(grads, variables) if g is None]
            warnings.warn(
                f"Gradients do not exist for variables {missing} when "
                "minimizing the loss. If using `model.compile()`, did you "
                "forget to provide a `loss` argument?")
        return [g for g, _ in kept], [v for _, v in kept]

    def _prepare(self, g, variable):
        g = _array(g)
        if isinstance(g, IndexedSlices):
            if not self._supports_sparse or self._dense_pipeline():
                return g.to_dense().astype(variable.dtype, copy=False)
            rows, values = g.deduplicate()
            return IndexedSlices(rows, values.astype(variable.dtype,
                                                     copy=False),
                                 g.dense_shape)
        if g.shape != variable.shape:
            raise ValueError(
                f"Gradient for variable {variable.path} has shape {g.shape}, "
                f"but the variable has shape {variable.shape}.")
        return g.astype(variable.dtype, copy=False)

    def _dense_pipeline(self):
        # Accumulation needs dense buffers; keep those cases simple.
        return bool(self.gradient_accumulation_steps)

    def _update(self, grads, variables):
        grads = self._clip(grads)
        self._apply_weight_decay(variables)
        lr = self.learning_rate
        for g, v in zip(grads, variables):
            self.update_step(g, v, lr)
        for v in variables:
            if v.constraint is not None:
                v.assign(v.constraint(v))
        if self.use_ema:
            self._update_ema()

    def _accumulate_and_maybe_update(self, grads, variables):
        steps = self.gradient_accumulation_steps
        accs = [self._accumulated[self._get_variable_index(v)]
                for v in variables]
        if (int(self._iterations._value) + 1) % steps == 0:
            averaged = [(g + acc._value) / steps for g, acc in zip(grads,
                                                                   accs)]
            self._update(averaged, variables)
            for acc in accs:
                acc._value[...] = 0
        else:
            for g, acc in zip(grads, accs):
                acc._value += g

    def update_step(self, gradient, variable, learning_rate):
        """Apply one gradient to one variable (implemented by subclasses)."""
        raise NotImplementedError(
            f"Optimizer {type(self).__name__} must implement update_step().")

    # -- clipping and decay ---------------------------------------------------
    def _clip(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [_clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            norm = np.sqrt(sum(float(np.sum(np.square(_values(g))))
                               for g in grads))
            clip = self.global_clipnorm
            scale = clip * min(1.0 / norm if norm else np.inf, 1.0 / clip)
            return [_scale(g, scale) for g in grads]
        if self.clipvalue and self.clipvalue > 0:
            v = self.clipvalue
            return [_map_values(g, lambda a: np.clip(a, -v, v))
                    for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Skip weight decay for these variables or name fragments."""
        if self.built:
            raise ValueError(
                "`exclude_from_weight_decay()` can only be configured before "
                "the optimizer is built.")
        self._exclude_ids = {id(v) for v in var_list or []}
        self._exclude_names = list(var_names) if var_names else None

    def _use_weight_decay(self, variable):
        if id(variable) in self._exclude_ids:
            return False
        if self._exclude_names:
            return not any(n in variable.name for n in self._exclude_names)
        return True

    def _apply_weight_decay(self, variables):
        if self.weight_decay is None:
            return
        for v in variables:
            if self._use_weight_decay(v):
                lr = self._lr_value(v.dtype)
                wd = np.asarray(self.weight_decay, v.dtype)
                v._value -= v._value * wd * lr

    # -- EMA ----------------------------------------------------------------
    def _update_ema(self):
        not_first = int(self.iterations._value) != 0
        momentum = np.float32(self.ema_momentum if not_first else 0.0)
        for v, avg in zip(self._trainable_variables, self._average):
            if avg is not None:
                avg._value[...] = momentum * avg._value + (1 - momentum) * \
                    v._value
        freq = self.ema_overwrite_frequency
        if freq and (int(self.iterations._value) + 1) % freq == 0:
            self._overwrite_with_average(self._trainable_variables)

    def _overwrite_with_average(self, variables):
        for v in variables:
            avg = self._average[self._get_variable_index(v)]
            if avg is not None:
                v.assign(avg._value)

    def finalize_variable_values(self, var_list):
        """At the end of fit: replace weights with their EMA if used."""
        if self.use_ema:
            self._overwrite_with_average(var_list)

    def scale_loss(self, loss):
        if self.loss_scale_factor is not None:
            return loss * self.loss_scale_factor
        return loss

    # -- state ----------------------------------------------------------------
    def save_own_variables(self, store):
        for i, variable in enumerate(self.variables):
            store[str(i)] = variable.numpy()

    def load_own_variables(self, store):
        if len(store.keys()) != len(self.variables):
            msg = (f"Skipping variable loading for optimizer '{self.name}', "
                   f"because it has {len(self.variables)} variables whereas "
                   f"the saved optimizer has {len(store.keys())} variables. ")
            if not self.variables:
                msg += ("This is likely because the optimizer has not been "
                        "called/built yet.")
            warnings.warn(msg, stacklevel=2)
            return
        for i, variable in enumerate(self.variables):
            variable.assign(np.asarray(store[str(i)]).astype(variable.dtype))

    def get_weights(self):
        return [v.numpy() for v in self.variables]

    def set_weights(self, weights):
        if len(weights) != len(self.variables):
            raise ValueError(
                f"Optimizer '{self.name}' has {len(self.variables)} "
                f"variables, but {len(weights)} weights were given.")
        for variable, value in zip(self.variables, weights):
            if tuple(np.shape(value)) != tuple(variable.shape):
                raise ValueError(
                    f"Optimizer variable {variable.path} has shape "
                    f"{variable.shape}, received weight shape "
                    f"{np.shape(value)}.")
            variable.assign(value)

    def get_config(self):
        from kerasish.optimizers.schedules import LearningRateSchedule
        from kerasish.saving.serialization_lib import serialize_keras_object
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            lr = serialize_keras_object(lr)
        elif isinstance(lr, Variable):
            lr = float(lr._value)
        else:
            lr = serialize_keras_object(lr)
        return {"name": self.name, "learning_rate": lr,
                "weight_decay": self.weight_decay, "clipnorm": self.clipnorm,
                "global_clipnorm": self.global_clipnorm,
                "clipvalue": self.clipvalue, "use_ema": self.use_ema,
                "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency,
                "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps":
                    self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            from kerasish.saving.serialization_lib import \
                deserialize_keras_object
            config["learning_rate"] = deserialize_keras_object(
                config["learning_rate"], custom_objects=custom_objects)
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"


# -- gradient helpers (dense arrays or deduplicated IndexedSlices) ----------
def _values(g):
    return g.values if isinstance(g, IndexedSlices) else g


def _map_values(g, fn):
    if isinstance(g, IndexedSlices):
        return IndexedSlices(g.indices, fn(g.values), g.dense_shape)
    return fn(g)


def _scale(g, factor):
    return _map_values(g, lambda a: a * np.asarray(factor, a.dtype))


def _clip_by_norm(g, clipnorm):
    values = _values(g)
    l2 = float(np.sqrt(np.sum(np.square(values, dtype=np.float64))))
    if l2 <= 0:
        return g
    return _map_values(
        g, lambda a: (a * np.asarray(clipnorm, a.dtype)) /
        np.asarray(max(l2, clipnorm), a.dtype))
