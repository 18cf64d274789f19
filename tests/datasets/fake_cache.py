"""A Keras cache (`$KERAS_HOME/datasets`) holding the fake dataset files of
tests/fixtures/data_utils/dataset_files.py under the names Keras gives
them, and real Keras's outputs on those files (datasets.json)."""
import hashlib
import json
import os
import shutil

import numpy as np
import pytest

from tests.fixtures.data_utils import dataset_files

REFERENCE = os.path.join(os.path.dirname(dataset_files.__file__),
                         "datasets.json")
# Where Keras keeps each source file in its cache (archives that get_file
# extracts are stored under "<fname>_archive").
CACHE_NAMES = {
    "mnist.npz": "mnist.npz", "imdb.npz": "imdb.npz",
    "imdb_word_index.json": "imdb_word_index.json",
    "reuters.npz": "reuters.npz",
    "reuters_word_index.json": "reuters_word_index.json",
    "boston_housing.npz": "boston_housing.npz",
    "california_housing.npz": "california_housing.npz",
    "cifar-10-python.tar.gz": "cifar-10-batches-py-target_archive",
    "cifar-100-python.tar.gz": "cifar-100-python-target_archive",
}


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def md5(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


@pytest.fixture(scope="session")
def fake_files(tmp_path_factory):
    return dataset_files.write_all(str(tmp_path_factory.mktemp("fake")))


@pytest.fixture
def keras_home(tmp_path, monkeypatch, fake_files):
    """A KERAS_HOME whose cache holds the fake files, as if Keras had
    downloaded them."""
    home = tmp_path / "keras_home"
    cache = home / "datasets"
    shutil.copytree(os.path.join(fake_files, "fashion-mnist"),
                    cache / "fashion-mnist")
    for source, name in CACHE_NAMES.items():
        shutil.copy(os.path.join(fake_files, source), cache / name)
    monkeypatch.setenv("KERAS_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def keras_outputs():
    with open(REFERENCE) as f:
        return json.load(f)


def patch_hash(monkeypatch, module, fake_files, source, attr="FILE_HASH",
               digest=sha256):
    """Point `module.<attr>` at the fake file's hash."""
    monkeypatch.setattr(module, attr,
                        digest(os.path.join(fake_files, source)))


def assert_same(result, expected):
    """`result` ((x_train, y_train), (x_test, y_test)) equals Keras's."""
    (x_train, y_train), (x_test, y_test) = result
    for name, array in (("x_train", x_train), ("y_train", y_train),
                        ("x_test", x_test), ("y_test", y_test)):
        assert dataset_files.describe(np.asarray(array)) == expected[name], \
            name
