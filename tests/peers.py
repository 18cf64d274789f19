"""Optional peers (Keras, TensorFlow, PyTorch, JAX, Flax) some tests use.

A peer counts as present only when its distribution is installed
(`importlib.metadata`), here or in an explicit interpreter. A bare module
name is not enough: once a test has put `tests/fixtures` on `sys.path`,
the folder `tests/fixtures/keras` imports as a namespace package, and
`import keras` or `importlib.util.find_spec("keras")` finds it.
"""
import importlib.metadata
import subprocess

import pytest


def installed(distribution):
    """Whether `distribution` (a pip name: "keras", "torch") is installed."""
    try:
        importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def importorskip(module, distribution=None):
    """`pytest.importorskip(module)` that skips unless the distribution
    (`module` by default) is installed."""
    distribution = distribution or module
    if not installed(distribution):
        pytest.skip(f"{distribution} is not installed",
                    allow_module_level=True)
    return pytest.importorskip(module)


def interpreter_has(python, distribution):
    """Whether the interpreter `python` has `distribution` installed; run
    isolated (`-I`), so neither this folder nor $PYTHONPATH can pass for
    it."""
    probe = ("import importlib.metadata as m; "
             f"m.distribution({distribution!r})")
    done = subprocess.run([python, "-I", "-c", probe], capture_output=True)
    return done.returncode == 0
