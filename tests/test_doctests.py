"""Every docstring example in the `kerasish` package runs as a doctest.

Each module is one test: its examples run with `np`, `kerasish` and the
module's own names in scope, from fresh layer names (conftest), in a
temporary working folder (examples may write files).
"""
import doctest
import importlib
import pkgutil
import types

import numpy as np
import pytest

import kerasish
from tests import doctest_numbers

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
    result = doctest_numbers.testmod(
        module, extraglobs=globs,
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
        runner = doctest.DocTestRunner(
            checker=doctest_numbers.NumberChecker(),
            optionflags=doctest.ELLIPSIS)
        for test in doctest.DocTestFinder().find(
                function, f"kerasish.{family}.{name}",
                globs={"np": np, "kerasish": kerasish}):
            runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, \
            capsys.readouterr().out


FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("want, got", [
    # numpy's float32 log10(100) on some CPUs and builds.
    ("array([2.], dtype=float32)\n", "array([2.0000002], dtype=float32)\n"),
    ("array([0.5, 2. ])\n", "array([0.5      , 2.0000002])\n"),
    ("-8.742278e-08\n", "-8.7422777e-08\n"),
    ("0.1\n", "0.10000000149011612\n"),
    ("(4, 1) 0.333...\n", "(4, 1) 0.3333333\n"),
])
def test_printed_floats_match_within_float32_tolerance(want, got):
    checker = doctest_numbers.NumberChecker()
    assert checker.check_output(want, got, FLAGS)
    assert not doctest.OutputChecker().check_output(want, got, FLAGS) \
        or "..." in want


@pytest.mark.parametrize("want, got", [
    ("array([2.], dtype=float32)\n", "array([2.001], dtype=float32)\n"),
    ("array([2.], dtype=float32)\n", "array([2.], dtype=float64)\n"),
    ("array([1, 2])\n", "array([1, 3])\n"),
    ("Epoch 1/3 loss: 0.5\n", "Epoch 2/3 loss: 0.5\n"),
    ("[1.0, 2.0]\n", "[1.0, 2.0, 3.0]\n"),
    ("1e-07\n", "1e-05\n"),
])
def test_other_differences_still_fail(want, got):
    assert not doctest_numbers.NumberChecker().check_output(want, got, FLAGS)


def test_a_module_example_runs_with_the_checker(capsys):
    module = types.ModuleType("float_example")
    module.__doc__ = (">>> print(2.0000002)\n2.0\n"
                      ">>> print(3)\n4\n")
    result = doctest_numbers.testmod(module, optionflags=FLAGS)
    assert result == (1, 2), capsys.readouterr().out
