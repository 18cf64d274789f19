import os
import pathlib

import numpy as np
import pytest

import kerasish
from kerasish.datasets import fashion_mnist, mnist
from tests.datasets.fake_cache import (assert_same, fake_files,  # noqa
                                       keras_home, keras_outputs,
                                       patch_hash, sha256)


def test_mnist_reads_keras_cache(keras_home, keras_outputs, monkeypatch,
                                 fake_files):
    patch_hash(monkeypatch, mnist, fake_files, "mnist.npz")
    result = mnist.load_data()
    assert_same(result, keras_outputs["mnist"])
    (x_train, y_train), (x_test, _) = result
    assert x_train.shape == (7, 28, 28) and x_train.dtype == np.uint8


def test_mnist_downloads_from_origin_folder(tmp_path, monkeypatch,
                                            fake_files, capsys):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "home"))
    patch_hash(monkeypatch, mnist, fake_files, "mnist.npz")
    monkeypatch.setattr(mnist, "ORIGIN_FOLDER",
                        pathlib.Path(fake_files).as_uri() + "/")
    (x_train, _), _ = mnist.load_data()
    assert x_train.shape == (7, 28, 28)
    cached = tmp_path / "home" / "datasets" / "mnist.npz"
    assert sha256(cached) == sha256(os.path.join(fake_files, "mnist.npz"))
    assert "Downloading data from file://" in capsys.readouterr().out


def test_mnist_corrupt_cache_is_downloaded_again_or_reported(
        keras_home, monkeypatch, fake_files):
    # The true hash does not match the fake file: get_file re-downloads,
    # and offline that is a clear error naming the cache path.
    monkeypatch.setattr(mnist, "ORIGIN_FOLDER", "http://127.0.0.1:9/")
    with pytest.raises(OSError, match="datasets/mnist.npz"):
        mnist.load_data()


def test_fashion_mnist_matches_keras(keras_home, keras_outputs):
    result = fashion_mnist.load_data()
    assert_same(result, keras_outputs["fashion_mnist"])
    assert result[0][0].shape == (6, 28, 28)


def test_namespace():
    assert kerasish.datasets.mnist.load_data is mnist.load_data
    assert kerasish.datasets.fashion_mnist.load_data is \
        fashion_mnist.load_data
