"""The Examples in the docstrings of the recurrent and attention layers,
EinsumDense, the einsum op and the fused recurrent primitives run as
doctests."""
import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import kerasish
from tests import doctest_numbers

PACKAGES = ["kerasish.layers.rnn", "kerasish.layers.attention",
            "kerasish.backend.rnn"]
SINGLE = ["kerasish.layers.core.einsum_dense", "kerasish.ops.einsum",
          "kerasish.backend.einsum"]


def _modules():
    names = list(SINGLE)
    for package in PACKAGES:
        pkg = importlib.import_module(package)
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
