"""The global step: how many training steps a model has taken.

As in `model_to_estimator`, the global step of a Keras model is its
optimizer's iteration counter (`optimizer.iterations`, saved in every
weights file at `optimizer/vars/0`), so checkpoints carry it and a restored
model continues counting. With `gradient_accumulation_steps` it counts
every step, not only the applied updates.
"""
import numpy as np

from kerasish.backend.common.variable import Variable

_DEFAULT = {}


def _active_model():
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.train.monitored_session import active_session_model
    return active_session_model()


def get_global_step(model=None):
    """The global step `Variable` of `model` (or of the active session's
    model), or `None` if there is none.

    Args:
        model: A compiled model; `None` means the model of the innermost
            open `MonitoredSession`, else the standalone global step.

    Example:

    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> int(get_global_step(model).numpy())
    0
    """
    model = model if model is not None else _active_model()
    if model is None:
        return _DEFAULT.get("step")
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None:
        return None
    return optimizer._iterations


def create_global_step(model=None):
    """Create the standalone int64 `global_step` variable (as TF's
    `tf.compat.v1.train.create_global_step`); an error if one exists.

    A compiled model's global step is its optimizer's iteration counter,
    which always exists, so with a model (or inside a session) this
    raises, as TF does for an existing step.

    Example:

    >>> import kerasish as keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> create_global_step(model)
    Traceback (most recent call last):
    ...
    ValueError: "global_step" already exists.
    """
    if get_global_step(model) is not None:
        raise ValueError('"global_step" already exists.')
    if model is not None or _active_model() is not None:
        raise ValueError(
            "The model has no optimizer, so it has no global step. Call "
            "`model.compile(optimizer=...)` first.")
    _DEFAULT["step"] = Variable(np.zeros((), np.int64), dtype="int64",
                                trainable=False, name="global_step")
    return _DEFAULT["step"]


def get_or_create_global_step(model=None):
    """The global step of `model` (see `get_global_step`), creating a
    standalone int64 `global_step` variable when there is no model.

    Example:

    >>> step = get_or_create_global_step()
    >>> step.path
    'global_step'
    """
    step = get_global_step(model)
    return step if step is not None else create_global_step(model)


def mirror_standalone_step(model):
    """Give the standalone step (made before the model, TF1's idiom) the
    value of `model`'s step.

    In TF that variable is the graph's one step, which the train op
    advances and a restore sets; here the model counts its own steps, so
    the session copies them into a standalone step a script kept, after
    each restore and each step, before the hooks read it.
    """
    standalone = _DEFAULT.get("step")
    step = None if model is None else get_global_step(model)
    if standalone is not None and step is not None:
        standalone.assign(np.asarray(step.numpy(), np.int64))


def global_step_value(model):
    step = get_global_step(model)
    return None if step is None else int(np.asarray(step.numpy()))
