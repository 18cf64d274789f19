"""Pickling and deep-copying models, as Keras 3 supports them.

A model pickles as the bytes of its `.keras` file and unpickles by
loading them (with `safe_mode=False`: unpickling already runs arbitrary
code, so the file's lambdas add no risk). Keras offers this for
distributed-computing frameworks and scikit-learn (`check_estimator`
pickles fitted estimators); `.keras` files remain the saving format.
"""
import os
import tempfile
from kerasish.saving import saving_lib


def model_to_bytes(model):
    """The `.keras` file of `model`, as bytes."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.keras")
        saving_lib.save_model(model, path)
        with open(path, "rb") as f:
            return f.read()


def model_from_bytes(data):
    """The model of `.keras` file bytes (the inverse of `model_to_bytes`).

    Example:

    >>> import copy
    >>> model = kerasish.Sequential([kerasish.Input((2,)),
    ...                              kerasish.layers.Dense(1)])
    >>> clone = copy.deepcopy(model)    # through Model.__reduce__
    >>> bool(np.all(clone.get_weights()[0] == model.get_weights()[0]))
    True
    """
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.keras")
        with open(path, "wb") as f:
            f.write(data)
        return saving_lib.load_model(path, safe_mode=False)
