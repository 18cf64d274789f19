"""The Examples in the docstrings of the activation, normalization,
regularization, merging, preprocessing and core layers, the activations,
initializers/regularizers/constraints and the nn/math ops run as doctests."""
import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import kerasish
from tests import doctest_numbers

PACKAGES = ["kerasish.layers.activations", "kerasish.layers.normalization",
            "kerasish.layers.regularization", "kerasish.layers.merging",
            "kerasish.layers.preprocessing", "kerasish.activations",
            "kerasish.initializers", "kerasish.regularizers",
            "kerasish.constraints"]
SINGLE = ["kerasish.layers.core.embedding", "kerasish.layers.core.identity",
          "kerasish.layers.core.lambda_layer", "kerasish.layers.core.masking",
          "kerasish.ops.nn_activations", "kerasish.ops.nn_normalization",
          "kerasish.ops.math", "kerasish.backend.special"]


def _modules():
    names = list(SINGLE)
    for package in PACKAGES:
        try:
            pkg = importlib.import_module(package)
        except ImportError:
            continue
        names += [f"{package}.{m.name}"
                  for m in pkgutil.iter_modules(pkg.__path__)]
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name, capsys):
    module = importlib.import_module(name)
    globs = {"np": np, "kerasish": kerasish}
    globs.update({k: getattr(module, k) for k in dir(module)
                  if not k.startswith("__")})
    result = doctest_numbers.testmod(module, extraglobs=globs,
                                     optionflags=doctest.ELLIPSIS |
                                     doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, capsys.readouterr().out
