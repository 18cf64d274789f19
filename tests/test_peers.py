"""tests/peers.py: an optional peer is a distribution, not a folder that
shares its name."""
import importlib.util
import os
import sys

import pytest

from tests import peers


def test_a_folder_named_like_a_module_is_not_installed(tmp_path,
                                                       monkeypatch):
    (tmp_path / "kerasish_fake_peer").mkdir()
    monkeypatch.syspath_prepend(str(tmp_path))
    # The trap: a bare name lookup finds the folder (a namespace package).
    assert importlib.util.find_spec("kerasish_fake_peer") is not None
    assert not peers.installed("kerasish_fake_peer")
    with pytest.raises(pytest.skip.Exception,
                       match="kerasish_fake_peer is not installed"):
        peers.importorskip("kerasish_fake_peer")


def test_an_installed_distribution_imports():
    assert peers.installed("pytest")
    assert peers.importorskip("pytest") is pytest
    assert peers.importorskip("_pytest", distribution="pytest")


def test_an_interpreter_is_asked_in_isolation(tmp_path, monkeypatch):
    info = tmp_path / "kerasish_fake_peer-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Name: kerasish_fake_peer\n"
                                   "Version: 1.0\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    assert peers.interpreter_has(sys.executable, "pytest")
    # Found through $PYTHONPATH only, which an isolated interpreter ignores.
    assert not peers.interpreter_has(sys.executable, "kerasish_fake_peer")


def test_no_folder_of_the_suite_is_on_sys_path():
    # By now collection has imported every test module of the run; one
    # that put e.g. tests/fixtures on sys.path would let its folder `keras`
    # pass for Keras in every test after it.
    suite = os.path.dirname(os.path.abspath(__file__))
    inside = [p for p in sys.path if os.path.abspath(p or os.curdir)
              .startswith(suite)]
    assert not inside
