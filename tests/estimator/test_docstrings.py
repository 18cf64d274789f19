"""The Examples in kerasish.estimator's docstrings run as doctests."""
import doctest
import importlib
import logging
import pkgutil

import numpy as np
import pytest

import kerasish
import kerasish.estimator as package

MODULES = [f"kerasish.estimator.{m.name}"
           for m in pkgutil.iter_modules(package.__path__)]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, capsys):
    module = importlib.import_module(name)
    globs = {"np": np, "kerasish": kerasish}
    globs.update({k: getattr(module, k) for k in dir(module)
                  if not k.startswith("__")})
    logging.disable(logging.WARNING)  # "Using temporary folder ..."
    try:
        result = doctest.testmod(module, extraglobs=globs,
                                 optionflags=doctest.ELLIPSIS |
                                 doctest.NORMALIZE_WHITESPACE)
    finally:
        logging.disable(logging.NOTSET)
    assert result.failed == 0, capsys.readouterr().out
