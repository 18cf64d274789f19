"""A model file naming a path (a feature column's or a lookup layer's
vocabulary file) never makes loading read it in safe mode; outside safe
mode only a regular file of bounded size is read."""
import os

import numpy as np
import pytest

import kerasish as keras
from kerasish import feature_column as fc
from kerasish.saving import file_refs
from tests.saving.hostile import (replace_strings, rewrite_h5_config,
                                  rewrite_keras)

FEATURES = {"pet": np.array([["dog"], ["cat"]])}


def _vocab_model(folder):
    vocab = os.path.join(folder, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("cat\ndog\n")
    column = fc.categorical_column_with_vocabulary_file("pet", vocab)
    inputs = {"pet": keras.Input((1,), dtype="string", name="pet")}
    x = fc.DenseFeatures([fc.indicator_column(column)])(inputs)
    return keras.Model(inputs, keras.layers.Dense(1)(x)), vocab


def _targets(folder):
    secret = os.path.join(folder, "secret.txt")
    with open(secret, "w") as f:
        f.write("cat\nhunter2\n")
    fifo = os.path.join(folder, "fifo")
    os.mkfifo(fifo)
    return {"passwd": "/etc/passwd", "secret": secret, "zero": "/dev/zero",
            "fifo": fifo}


def _hostile_files(tmp_path, target):
    """The vocabulary model as .keras, legacy .h5 and a folder, each
    naming `target` as its vocabulary file."""
    model, vocab = _vocab_model(str(tmp_path))
    model.save(tmp_path / "m.keras")
    model.save(tmp_path / "m.h5")
    model.save(tmp_path / "dir", zipped=False)
    swap = lambda config: replace_strings(config, vocab, target)  # noqa
    rewrite_keras(tmp_path / "m.keras", tmp_path / "bad.keras", swap)
    rewrite_h5_config(tmp_path / "m.h5", swap)
    config = tmp_path / "dir" / "config.json"
    config.write_text(config.read_text().replace(f'"{vocab}"',
                                                 f'"{target}"'))
    return [str(tmp_path / "bad.keras"), str(tmp_path / "m.h5"),
            str(tmp_path / "dir")]


@pytest.mark.timeout(30, method="thread")  # open() of a FIFO blocks in C
@pytest.mark.parametrize("which", ["passwd", "secret", "zero", "fifo"])
def test_feature_column_vocabulary_file_is_refused_in_safe_mode(
        tmp_path, which):
    target = _targets(str(tmp_path))[which]
    for path in _hostile_files(tmp_path, target):
        with pytest.raises(ValueError, match="outside of the model archive"
                           ) as info:
            keras.saving.load_model(path)
        assert target in str(info.value) and "safe_mode=False" in \
            str(info.value)


@pytest.mark.timeout(30, method="thread")  # open() of a FIFO blocks in C
@pytest.mark.parametrize("which", ["zero", "fifo"])
def test_outside_safe_mode_only_a_regular_file_is_read(tmp_path, which):
    target = _targets(str(tmp_path))[which]
    for path in _hostile_files(tmp_path, target):
        with pytest.raises(ValueError, match="expected a regular file"):
            model = keras.saving.load_model(path, safe_mode=False)
            model.predict(FEATURES, verbose=0)


def test_outside_safe_mode_a_trusted_vocabulary_file_loads(tmp_path):
    model, vocab = _vocab_model(str(tmp_path))
    model.save(tmp_path / "m.keras")
    loaded = keras.saving.load_model(tmp_path / "m.keras", safe_mode=False)
    np.testing.assert_array_equal(loaded.predict(FEATURES, verbose=0),
                                  model.predict(FEATURES, verbose=0))


def test_oversized_vocabulary_file_is_refused(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:       # sparse: no disk space used
        f.truncate(file_refs.MAX_REFERENCED_FILE_BYTES + 1)
    with pytest.raises(ValueError, match="larger than the 268435456 bytes"):
        fc.categorical_column_with_vocabulary_file("pet", str(big))


@pytest.mark.timeout(30, method="thread")  # open() of a FIFO blocks in C
def test_lookup_vocabulary_file_must_be_regular_outside_safe_mode(tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo):
        with pytest.raises(ValueError, match="expected a regular file"):
            keras.layers.StringLookup(vocabulary=path)
    vocab = tmp_path / "v.txt"
    vocab.write_text("a\nb\n")
    layer = keras.layers.StringLookup(vocabulary=str(vocab))
    assert layer.get_vocabulary() == ["[UNK]", "a", "b"]


def test_string_lookup_vocabulary_file_is_refused_in_safe_mode(tmp_path):
    model = keras.Sequential([keras.Input((1,), dtype="string"),
                              keras.layers.StringLookup(vocabulary=["a"])])
    model.save(tmp_path / "m.keras")

    def name_passwd(config):
        config["config"]["layers"][1]["config"]["vocabulary"] = "/etc/passwd"
        return config
    rewrite_keras(tmp_path / "m.keras", tmp_path / "bad.keras", name_passwd)
    with pytest.raises(ValueError, match="outside of the model archive"):
        keras.saving.load_model(tmp_path / "bad.keras")
