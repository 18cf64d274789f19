"""Read the Keras reference cases written by `make_reference.py`."""
import json
import os
import re

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
_DATA = {}


def data():
    if not _DATA:
        with np.load(os.path.join(HERE, "reference.npz")) as f:
            _DATA.update({k: f[k] for k in f.files})
    return _DATA


def case_names(prefix):
    names = {k.split("/")[0] for k in data() if k.startswith(prefix)}
    return sorted(names)


def _indexed(name, tag):
    pattern = re.compile(rf"^{re.escape(name)}/{tag}(\d+)$")
    found = sorted((int(m.group(1)), k) for k in data()
                   if (m := pattern.match(k)))
    return [data()[k] for _, k in found]


def load(name):
    """`{"weights", "inputs", "outputs", "arrays": {arg: [..]}, "spec"}`."""
    d = data()
    arrays = {}
    for key in d:
        m = re.match(rf"^{re.escape(name)}/k_([a-z_]+?)(\d+)$", key)
        if m:
            arrays.setdefault(m.group(1), []).append((int(m.group(2)), key))
    spec = d.get(f"{name}/spec")
    return {
        "weights": _indexed(name, "w"),
        "inputs": _indexed(name, "x"),
        "outputs": _indexed(name, "y"),
        "arrays": {k: [d[key] for _, key in sorted(v)]
                   for k, v in arrays.items()},
        "spec": json.loads(str(spec)) if spec is not None else None,
    }


def weights_file(name):
    return os.path.join(HERE, name)
