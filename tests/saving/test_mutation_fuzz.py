"""Mutation fuzz: damaged files give a clear error or load identically.

A small trained model is saved in each format; a few hundred mutants of
each file (bit flips, overwritten bytes, zeroed runs, truncations, with a
fixed seed) are loaded in-process; half the `.keras` mutants damage the
weights member inside a valid zip (its CRC recomputed, as a tool that
re-zips the file would), so the weights checksums are what must catch
them. Each load must raise a clear error (a
`ValueError` or `OSError` naming the problem), warn naming the file (as
Keras does for optimizer state it cannot restore), or give exactly the
saved model: the same config, weights, optimizer state and predictions.
A crash, a hang (pytest-timeout) or a silent change fails the test.
"""
import io
import warnings
import zipfile

import numpy as np
import pytest

import kerasish as keras

MUTANTS = 200
X = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)


def _model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                              keras.layers.BatchNormalization(),
                              keras.layers.Dense(2, name="head")])
    model.compile("adam", "mse")
    return model


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    model = _model()
    model.fit(X, X[:, :2], epochs=2, verbose=0)
    files = {}
    for fmt in (".keras", ".h5", ".weights.h5"):
        path = folder / f"m{fmt}"
        model.save_weights(path) if fmt == ".weights.h5" else \
            model.save(path)
        files[fmt] = path.read_bytes()
    expected = {"config": model.get_config(),
                "weights": model.get_weights(),
                "optimizer": [np.asarray(v) for v in
                              model.optimizer.variables],
                "pred": model.predict(X, verbose=0)}
    return folder, files, expected


def mutate(data, rng):
    """One random mutation of the bytes `data`."""
    data = bytearray(data)
    kind = rng.integers(4)
    at = int(rng.integers(len(data)))
    if kind == 0:                            # 1-3 bit flips
        for at in rng.integers(len(data), size=rng.integers(1, 4)):
            data[at] ^= 1 << int(rng.integers(8))
    elif kind == 1:                          # a byte overwritten
        data[at] = int(rng.integers(256))
    elif kind == 2:                          # a run of zeros or 0xff
        run = data[at:at + int(rng.integers(2, 64))]
        data[at:at + len(run)] = bytes([int(rng.choice([0, 255]))]) * \
            len(run)
    else:                                    # truncated
        data = data[:at]
    return bytes(data)


def mutate_weights_member(data, rng):
    """The .keras zip `data` with its weights member mutated, re-zipped."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            member = src.read(info.filename)
            if info.filename == "model.weights.h5":
                member = mutate(member, rng)
            dst.writestr(info.filename, member)
    return out.getvalue()


def _same(model, expected, with_config=True):
    if with_config and model.get_config() != expected["config"]:
        return "config"
    for a, b in zip(model.get_weights(), expected["weights"]):
        if a.shape != b.shape or not np.array_equal(a, b):
            return "weights"
    if len(model.get_weights()) != len(expected["weights"]):
        return "weights"
    optimizer = [np.asarray(v) for v in model.optimizer.variables]
    if len(optimizer) != len(expected["optimizer"]) or not all(
            np.array_equal(a, b) for a, b in zip(optimizer,
                                                 expected["optimizer"])):
        return "optimizer state"
    if not np.array_equal(model.predict(X, verbose=0), expected["pred"]):
        return "predictions"
    return None


def _load(fmt, path, target):
    if fmt == ".weights.h5":
        target.set_weights([np.zeros_like(w) for w in target.get_weights()])
        for v in target.optimizer.variables:
            v.assign(np.zeros(v.shape, v.dtype))
        target.load_weights(path)
        return target
    return keras.saving.load_model(path)


@pytest.mark.timeout(60, method="thread")  # a hang in C code too
@pytest.mark.parametrize("fmt, seed", [(".keras", 1), (".h5", 2),
                                       (".weights.h5", 3)])
def test_mutants_give_a_clear_error_or_the_same_model(saved, fmt, seed):
    folder, files, expected = saved
    rng = np.random.default_rng(seed)
    target = _model()
    target.optimizer.build(target.trainable_variables)
    outcomes = {"error": 0, "warned": 0, "same": 0}
    silent = []
    for i in range(MUTANTS):
        path = folder / f"mutant-{i}{fmt}"
        damage = mutate_weights_member if fmt == ".keras" and i % 2 \
            else mutate
        path.write_bytes(damage(files[fmt], rng))
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                model = _load(fmt, path, target)
        except (ValueError, OSError) as error:
            assert str(error).strip(), f"mutant {i}: empty message"
            outcomes["error"] += 1
            continue
        if any(str(path) in str(w.message) for w in caught):
            outcomes["warned"] += 1
            continue
        assert not caught, f"mutant {i}: {caught[0].message}"
        problem = _same(model, expected, with_config=fmt != ".weights.h5")
        if problem:
            silent.append((i, problem))
        else:
            outcomes["same"] += 1
    assert not silent, f"loaded with a silent change: {silent}"
    assert outcomes["error"] > MUTANTS // 4, outcomes
