"""Shared pieces of the premade estimators: optimizers, per-call objects,
the combined train op, labels/weights helpers."""
import numpy as np

from kerasish.estimator.optimizer_names import (tf_named_class_instance,
                                              tf_named_optimizer)
from kerasish.optimizers.base_optimizer import Optimizer
from kerasish import optimizers
from kerasish.estimator.variable_store import active_store
from kerasish.backend import tape as tape_module
from kerasish.estimator.mode_keys import ModeKeys

_OPTIMIZERS = {"Adagrad": "Adagrad", "Adam": "Adam", "Ftrl": "Ftrl",
               "RMSProp": "RMSprop", "SGD": "SGD"}


def get_optimizer_instance(optimizer, learning_rate=None, global_step=None):
    """A new optimizer for one call (TF's `get_optimizer_instance_v2`),
    its variables under TF's names (`training/Adagrad/...`,
    `optimizer_names.py`).

    Args:
        optimizer: One of TF's names (`"Adagrad"`, `"Adam"`, `"Ftrl"`,
            `"RMSProp"`, `"SGD"`, created with `learning_rate`), an
            `Optimizer` (a fresh copy from its config is returned: the
            Estimator's variable store gives the copy the slots of the
            earlier calls), or a callable returning an optimizer.
        learning_rate: Rate for a named optimizer; None (TF's V2 DNN
            estimators pass none) gives the optimizer class's own default
            (Adagrad's 0.001). Defaults to None.
        global_step: The global step, as the optimizer's iteration counter
            (TF's `optimizer.iterations = global_step`); None gives the
            optimizer its own `iter` variable. Defaults to None.

    Returns:
        An `Optimizer`.

    Example:

    >>> opt = get_optimizer_instance("Adagrad", learning_rate=0.05)
    >>> type(opt).__name__, round(float(opt.learning_rate.numpy()), 2)
    ('Adagrad', 0.05)
    >>> opt.learning_rate.path
    'training/Adagrad/learning_rate'
    >>> round(float(get_optimizer_instance("Adagrad").learning_rate.numpy()),
    ...       3)
    0.001
    """
    if isinstance(optimizer, str):
        if optimizer not in _OPTIMIZERS:
            raise ValueError(f"Unsupported optimizer name: {optimizer}. "
                             f"Supported names are: {sorted(_OPTIMIZERS)}")
        config = {} if learning_rate is None else {
            "learning_rate": learning_rate}
        return tf_named_class_instance(
            getattr(optimizers, _OPTIMIZERS[optimizer]), config,
            global_step)
    if not isinstance(optimizer, Optimizer) and callable(optimizer):
        optimizer = optimizer()
        if isinstance(optimizer, Optimizer):
            # Only its config is used: its own variables are not saved.
            store = active_store()
            if store is not None:
                store.mark_local(optimizer.variables)
    if not isinstance(optimizer, Optimizer):
        raise ValueError("The given object is not a kerasish.optimizers."
                         f"Optimizer instance. Given: {optimizer!r}")
    return tf_named_optimizer(optimizer, global_step)


def per_call(key, factory):
    """`factory()` once per Estimator call (kept by the variable store).

    Inside `model_fn` the store's `memo` keeps the objects of one
    `train`/`evaluate`/`predict` call, so layers are not rebuilt for every
    batch; outside an Estimator it just calls `factory`.
    """
    store = active_store()
    return factory() if store is None else store.memo(key, factory)


def train_op_fn(pairs):
    """A `train_op_fn(loss)` applying each `(optimizer, variables)` pair's
    gradients, all computed from one backward pass of the loss."""
    def fn(loss):
        tapes = tape_module.active_tapes()
        if not tapes:
            raise ValueError("A premade model_fn must run under an "
                             "Estimator (its GradientTape) to train.")
        variables = [v for _, vs in pairs for v in vs]
        grads = tapes[-1].gradient(loss, variables)
        start = 0
        for optimizer, vs in pairs:
            optimizer.apply_gradients(zip(grads[start:start + len(vs)], vs))
            start += len(vs)
        return pairs[0][0].iterations
    return fn


def estimator_spec(head, features, labels, mode, logits, parts):
    """The head's spec for `logits`; in TRAIN, each part's optimizer
    (made once per call) trains its variables.

    Args:
        parts: `(key, optimizer, learning_rate, variables)` per trained
            part: `key` names the per-call optimizer, `optimizer` and
            `learning_rate` go to `get_optimizer_instance`.
    """
    fn = None
    if mode == ModeKeys.TRAIN:
        # The first part's optimizer counts its steps in the global step
        # (as TF's canned model_fns do); a second one has its own `iter`.
        store = active_store()
        step = getattr(store, "global_step", None)
        fn = train_op_fn([
            (per_call(key, lambda o=optimizer, r=rate, s=step if i == 0
                      else None: get_optimizer_instance(o, r, s)), variables)
            for i, (key, optimizer, rate, variables) in enumerate(parts)])
    return head.create_estimator_spec(features, mode, logits, labels=labels,
                                      train_op_fn=fn)


def check_features(features):
    if not isinstance(features, dict):
        raise ValueError("features should be a dictionary of arrays. Given "
                         f"type: {type(features).__name__}")


def check_hidden_units(hidden_units):
    units = list(hidden_units or [])
    if not units or any(not isinstance(u, (int, np.integer)) or u < 1
                        for u in units):
        raise ValueError("hidden_units must be a non-empty list of positive "
                         f"ints. Given: {hidden_units!r}")
    return tuple(int(u) for u in units)


def check_dropout(dropout):
    if dropout is not None and not 0 <= dropout < 1:
        raise ValueError(f"dropout must be in [0, 1). Given: {dropout!r}")
    return dropout
