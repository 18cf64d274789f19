"""Every docstring example in the `kerasish` package runs as a doctest.

Each module is one test: its examples run with `np`, `kerasish` and the
module's own names in scope, from fresh layer names (conftest), in a
temporary working folder (examples may write files).
"""
import doctest
import importlib
import pkgutil

import numpy as np
import pytest

import kerasish

MODULES = sorted(m.name for m in pkgutil.walk_packages(
    kerasish.__path__, prefix="kerasish."))


def test_every_module_is_collected():
    assert len(MODULES) > 300
    assert {"kerasish.cli", "kerasish.utils.plotting",
            "kerasish.datasets.movie_reviews"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    globs = {"np": np, "kerasish": kerasish}
    globs.update({k: getattr(module, k) for k in dir(module)
                  if not k.startswith("__")})
    result = doctest.testmod(
        module, extraglobs=globs, report=True,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, capsys.readouterr().out


FAMILIES = ["initializers", "regularizers", "constraints", "losses"]


@pytest.mark.parametrize("family", FAMILIES)
def test_factory_made_functions_examples(family, capsys):
    # get/serialize/deserialize are built by saving.get_utils.make_get, so
    # module-walking doctest does not see them as the family's own.
    package = importlib.import_module(f"kerasish.{family}")
    for name in ("get", "serialize", "deserialize"):
        function = getattr(package, name)
        assert ">>> " in function.__doc__
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for test in doctest.DocTestFinder().find(
                function, f"kerasish.{family}.{name}",
                globs={"np": np, "kerasish": kerasish}):
            runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, \
            capsys.readouterr().out
