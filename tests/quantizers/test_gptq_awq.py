"""GPTQ and AWQ through `Model.quantize`, against Keras 3.15.1.

tests/fixtures/quantization/make_models.py calibrated the same small
language model (an embedding, then two blocks) with Keras and stored the
calibration windows, quantized variables and outputs in models.npz.
"""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import kerasish
from kerasish import layers, quantizers

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures",
                        "quantization")
REF = np.load(os.path.join(FIXTURES, "models.npz"))
DATA = ["the quick brown fox jumps", "over the lazy dog again"]


def calibrated_model():
    embedding = layers.Embedding(20, 8, name="emb")
    block1 = kerasish.Sequential([
        kerasish.Input((6, 8)),
        layers.EinsumDense("abc,cde->abde", output_shape=(None, 2, 4),
                           bias_axes="de", name="qkv"),
        layers.Reshape((6, 8)),
        layers.Dense(8, name="mix")], name="block1")
    block2 = kerasish.Sequential([
        kerasish.Input((6, 8)), layers.Dense(16, activation="relu",
                                             name="up"),
        layers.Dense(8, name="down")], name="block2")
    model = kerasish.Sequential([kerasish.Input((6,), dtype="int32"),
                                 embedding, block1, block2], name="lm")
    count = len(model.get_weights())
    model.set_weights([REF[f"cal_w{i}"] for i in range(count)])
    return model, {"pre_block_layers": [embedding],
                   "sequential_blocks": [block1, block2]}


class Tokenizer:
    def tokenize(self, text):
        return np.array([ord(c) % 20 for c in text], "int32")


CONFIGS = {
    "gptq4g4": lambda s: quantizers.GPTQConfig(
        DATA, Tokenizer(), weight_bits=4, num_samples=4, sequence_length=6,
        group_size=4, quantization_layer_structure=s),
    "gptq8act": lambda s: quantizers.GPTQConfig(
        DATA, Tokenizer(), weight_bits=8, num_samples=4, sequence_length=6,
        group_size=-1, activation_order=True, symmetric=True,
        quantization_layer_structure=s),
    "awq4g4": lambda s: quantizers.AWQConfig(
        DATA, Tokenizer(), num_samples=4, sequence_length=6, group_size=4,
        num_grid_points=5, quantization_layer_structure=s),
}


# Integer codes allowed to differ by one step (on few entries), and output
# tolerance: 8-bit GPTQ with activation order sits on rounding ties that
# numpy's and XLA's float32 Hessian inverses break differently.
CODE_SLACK = {"gptq4g4": 0, "gptq8act": 1, "awq4g4": 0}
OUTPUT_ATOL = {"gptq4g4": 1e-4, "gptq8act": 0.01 * 240, "awq4g4": 1e-4}


def _check_variable(w, expected, slack):
    actual = np.asarray(w, "float64")
    if np.dtype(w.dtype).kind in "iu" and slack:
        off = np.abs(actual - expected)
        assert off.max() <= slack and np.mean(off > 0) <= 0.1, w.path
    else:
        np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-4,
                                   err_msg=w.path)


@pytest.mark.parametrize("tag", sorted(CONFIGS))
def test_calibrated_quantization_matches_keras(tag):
    model, structure = calibrated_model()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model.quantize(tag[:4].rstrip("4"), config=CONFIGS[tag](structure))
    for name in ("qkv", "mix", "up", "down"):
        block = "block1" if name in ("qkv", "mix") else "block2"
        layer = model.get_layer(block).get_layer(name)
        for i, w in enumerate(layer.weights):
            _check_variable(w, REF[f"cal_{tag}_{name}_{i}"], CODE_SLACK[tag])
    np.testing.assert_allclose(model(REF["cal_x"]), REF[f"cal_{tag}_y"],
                               rtol=1e-4, atol=OUTPUT_ATOL[tag])


@pytest.mark.parametrize("strategy", ["linspace", "random"])
def test_calibration_windows_match_keras(strategy):
    from kerasish.quantizers.calibration import get_dataloader
    windows = get_dataloader(Tokenizer(), 6, DATA, num_samples=4,
                             strategy=strategy)
    np.testing.assert_array_equal(windows, REF[f"cal_windows_{strategy}"])


def test_strided_windows_follow_python_hash_as_keras():
    # Keras offsets strided windows by hash(("gptq-calib", seed)), so they
    # depend on PYTHONHASHSEED; the fixture was made with PYTHONHASHSEED=0.
    code = ("import numpy as np; from tests.quantizers.test_gptq_awq "
            "import Tokenizer, DATA, REF; from kerasish.quantizers."
            "calibration import get_dataloader; np.testing."
            "assert_array_equal(get_dataloader(Tokenizer(), 6, DATA, "
            "num_samples=4), REF['cal_windows'])")
    root = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)
    env = dict(os.environ, PYTHONHASHSEED="0")
    subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                   check=True)


def test_calibrated_modes_need_a_layer_structure():
    model, _ = calibrated_model()
    config = quantizers.GPTQConfig(DATA, Tokenizer(), num_samples=4,
                                   sequence_length=6, group_size=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(ValueError, match="valid quantization structure"):
            model.quantize("gptq", config=config)


def test_gptq_cannot_be_enabled_through_the_dtype_policy():
    dense = layers.Dense(2)
    dense.build((None, 4))
    with pytest.raises(ValueError, match="Implicitly enabling GPTQ"):
        dense.dtype_policy = "gptq/4/-1_from_float32"
