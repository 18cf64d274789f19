"""Build the fixture cases in kerasish and describe them like the generator.

`structure(model)` mirrors `fixtures/make_fixtures.py::structure`, so a
model equals its Keras fixture exactly when the two records are equal.
"""
import gzip
import json
import os

import kerasish
from kerasish import applications

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")


def load_structures():
    with gzip.open(os.path.join(FIXTURES, "structures.json.gz"), "rt") as f:
        return json.load(f)


def build(function_name, kwargs):
    """The case's model with `weights=None`, from fresh automatic names."""
    kerasish.backend.clear_session()
    kwargs = dict(kwargs, weights=None)
    if isinstance(kwargs.get("input_tensor"), tuple):
        _, shape = kwargs["input_tensor"]
        inputs = kerasish.Input(shape)
        kwargs["input_tensor"] = kerasish.layers.Rescaling(1 / 255)(inputs)
    return getattr(applications, function_name)(**kwargs)


def _weight_record(layer, weight, paths):
    entry = [weight.name, list(weight.shape)]
    if weight.dtype != "float32":
        entry.append(weight.dtype)
    if paths and weight.path != f"{layer.name}/{weight.name}":
        entry += [None] * (3 - len(entry)) + [weight.path]
    return entry


def structure(model, paths=True):
    """The fixture record of `model`; `paths=False` leaves out the
    variable paths (a model rebuilt from a config has no name scopes)."""
    return {
        "name": model.name,
        "inputs": [list(t.shape) for t in model.inputs],
        "output": list(model.output.shape),
        "params": int(model.count_params()),
        "layers": [[layer.name, type(layer).__name__,
                    [_weight_record(layer, w, paths)
                     for w in layer.weights]]
                   for layer in model.layers],
    }


def first_difference(got, expected):
    """A readable description of the first mismatch, or None."""
    for key in ("name", "inputs", "output", "params"):
        if got[key] != expected[key]:
            return f"{key}: got {got[key]!r}, Keras {expected[key]!r}"
    for i, (a, b) in enumerate(zip(got["layers"], expected["layers"])):
        if a != b:
            return f"layer {i}: got {a!r}, Keras {b!r}"
    if len(got["layers"]) != len(expected["layers"]):
        return (f"{len(got['layers'])} layers, Keras has "
                f"{len(expected['layers'])}")
    return None
