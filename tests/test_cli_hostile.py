"""`kerasish diff` reads no data from outside the files it compares."""
import h5py
import numpy as np
import pytest

import kerasish as keras
from kerasish import cli

SECRET = b"root:x:0:0:secret-canary\n" * 4


@pytest.fixture
def weights(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)])
    path = str(tmp_path / "good.weights.h5")
    model.save_weights(path)
    return path


def _external(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(SECRET)
    path = str(tmp_path / "external.weights.h5")
    with h5py.File(path, "w") as f:
        f.create_dataset("layers/dense/vars/0", shape=(len(SECRET),),
                         dtype="u1", external=[(str(secret), 0,
                                                len(SECRET))])
    return path


def _virtual(tmp_path):
    source = str(tmp_path / "source.h5")
    with h5py.File(source, "w") as f:
        f["data"] = np.frombuffer(SECRET, "u1")
    layout = h5py.VirtualLayout(shape=(len(SECRET),), dtype="u1")
    layout[:] = h5py.VirtualSource(source, "data", shape=(len(SECRET),))
    path = str(tmp_path / "virtual.weights.h5")
    with h5py.File(path, "w") as f:
        f.create_virtual_dataset("layers/dense/vars/0", layout)
    return path


@pytest.mark.parametrize("make, what", [
    (_external, "a dataset stored in an external file"),
    (_virtual, "a virtual dataset")])
@pytest.mark.parametrize("side", [0, 1])
def test_diff_refuses_external_and_virtual_datasets(tmp_path, weights,
                                                    capsys, make, what,
                                                    side):
    hostile = make(tmp_path)
    pair = [hostile, weights] if side == 0 else [weights, hostile]
    status = cli.main(["diff", *pair])
    out, err = capsys.readouterr()
    assert status == 2
    assert what in err and hostile in err
    assert b"secret-canary" not in (out + err).encode()
    assert "root:x" not in out + err
