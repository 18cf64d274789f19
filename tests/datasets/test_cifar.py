import os
import pathlib
import pickle
import tarfile

import numpy as np
import pytest

import kerasish
from kerasish.datasets import cifar, cifar10, cifar100
from tests.datasets.fake_cache import (assert_same, fake_files,  # noqa
                                       keras_home, keras_outputs,
                                       patch_hash)


def _fake_batches(fake_files, name):
    """(data, labels) of each batch of a fake archive, read directly."""
    out = {}
    with tarfile.open(os.path.join(fake_files, name)) as archive:
        for member in archive.getmembers():
            batch = pickle.loads(archive.extractfile(member).read(),
                                 encoding="bytes")
            out[os.path.basename(member.name)] = batch
    return out


def test_cifar10_from_keras_cache(keras_home, monkeypatch, fake_files):
    patch_hash(monkeypatch, cifar10, fake_files, "cifar-10-python.tar.gz")
    (x_train, y_train), (x_test, y_test) = cifar10.load_data()
    batches = _fake_batches(fake_files, "cifar-10-python.tar.gz")
    parts = [batches[f"data_batch_{i}"] for i in range(1, 6)]
    expected = np.concatenate([b[b"data"] for b in parts]).reshape(
        -1, 3, 32, 32).transpose(0, 2, 3, 1)
    np.testing.assert_array_equal(x_train, expected)
    np.testing.assert_array_equal(
        y_train[:, 0], np.concatenate([b[b"labels"] for b in parts]))
    assert (x_train.dtype, y_train.dtype, y_test.dtype) == (np.uint8,) * 3
    assert x_test.shape == (4, 32, 32, 3) and y_test.shape == (4, 1)
    # Extracted where Keras extracts it.
    assert (keras_home / "datasets" / "cifar-10-batches-py-target" /
            "cifar-10-batches-py" / "test_batch").is_file()


def test_cifar10_channels_first_and_download(tmp_path, monkeypatch,
                                             fake_files):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    patch_hash(monkeypatch, cifar10, fake_files, "cifar-10-python.tar.gz")
    monkeypatch.setattr(cifar10, "ORIGIN", pathlib.Path(
        fake_files, "cifar-10-python.tar.gz").as_uri())
    kerasish.config.set_image_data_format("channels_first")
    try:
        (x_train, _), _ = cifar10.load_data()
    finally:
        kerasish.config.set_image_data_format("channels_last")
    assert x_train.shape[1:] == (3, 32, 32)
    assert (tmp_path / "datasets" / "cifar-10-batches-py-target_archive"
            ).is_file()


@pytest.mark.parametrize("mode", ["fine", "coarse"])
def test_cifar100_matches_keras(mode, keras_home, keras_outputs,
                                monkeypatch, fake_files):
    patch_hash(monkeypatch, cifar100, fake_files, "cifar-100-python.tar.gz")
    assert_same(cifar100.load_data(mode), keras_outputs[f"cifar100_{mode}"])


def test_cifar100_label_mode_error():
    with pytest.raises(ValueError, match="label_mode=medium"):
        cifar100.load_data("medium")


def test_unpickler_refuses_code(tmp_path):
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo hacked",))
    path = tmp_path / "data_batch_1"
    path.write_bytes(pickle.dumps({b"data": Evil(), b"labels": []}))
    with pytest.raises(pickle.UnpicklingError, match="Refusing"):
        cifar.load_batch(str(path))
    evil = np.empty(1, dtype=object)
    evil[0] = Evil()
    np.savez(tmp_path / "evil.npz", x=evil)
    with pytest.raises(pickle.UnpicklingError, match="posix.system"):
        cifar.load_npz(tmp_path / "evil.npz")


def test_load_npz_plain_and_object_arrays(tmp_path):
    lists = np.empty(2, dtype=object)
    lists[:] = [[1, 2], [3]]
    np.savez(tmp_path / "a.npz", x=np.arange(3), y=lists)
    arrays = cifar.load_npz(tmp_path / "a.npz")
    assert arrays["x"].tolist() == [0, 1, 2]
    assert arrays["y"].tolist() == [[1, 2], [3]]


def test_namespace():
    assert kerasish.datasets.cifar10.load_data is cifar10.load_data
    assert kerasish.datasets.cifar100.load_data is cifar100.load_data
