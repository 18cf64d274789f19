"""Load `keras_reference.json` (written by `make_keras_reference.py` with
real Keras 3.15 on JAX) as numpy arrays."""
import functools
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def _decode(value):
    if isinstance(value, dict) and set(value) == {"dtype", "shape",
                                                  "values"}:
        return np.asarray(value["values"], value["dtype"]).reshape(
            value["shape"])
    if isinstance(value, dict):
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


@functools.lru_cache(maxsize=None)
def _load():
    with open(os.path.join(HERE, "keras_reference.json")) as f:
        return json.load(f)


def reference(name):
    """The decoded cases of one section (`"bounding_boxes"`, a layer)."""
    return _decode(_load()[name])
