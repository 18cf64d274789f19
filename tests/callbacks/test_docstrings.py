"""The Examples in the callbacks' and hooks' docstrings run as doctests."""
import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import kerasish
import kerasish.callbacks
import kerasish.train
from tests import doctest_numbers

MODULES = [f"{pkg.__name__}.{m.name}"
           for pkg in (kerasish.callbacks, kerasish.train)
           for m in pkgutil.iter_modules(pkg.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, capsys):
    module = importlib.import_module(name)
    result = doctest_numbers.testmod(module, extraglobs={"np": np},
                                     optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, capsys.readouterr().out
