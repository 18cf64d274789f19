"""STFTSpectrogram and MelSpectrogram against Keras 3.15.1.

`tests/fixtures/text_audio/spectrograms.npz` holds Keras's outputs (and
STFT kernels) for the cases of `make_audio_fixtures.py`, computed with
real Keras on the JAX backend on the same deterministic test signal.
"""
import os

import h5py
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.utils import check_grads
from tests.fixtures.text_audio import make_audio_fixtures as cases
from tests.layers.harness import run_layer_test

REF = np.load(os.path.join(os.path.dirname(cases.__file__),
                           "spectrograms.npz"))

# Config keys of Keras 3.15.1's layers (from `layer.get_config()`).
STFT_KEYS = {"name", "trainable", "dtype", "mode", "frame_length",
             "frame_step", "fft_length", "window", "periodic", "scaling",
             "padding", "data_format", "expand_dims"}
MEL_KEYS = {"name", "trainable", "dtype", "fft_length", "sequence_stride",
            "sequence_length", "window", "sampling_rate", "num_mel_bins",
            "min_freq", "max_freq", "power_to_db", "top_db", "mag_exp",
            "min_power", "ref_power"}


@pytest.mark.parametrize("name, kwargs", cases.STFT_CASES,
                         ids=[c[0] for c in cases.STFT_CASES])
def test_stft_matches_keras(name, kwargs):
    layer = layers.STFTSpectrogram(**kwargs)
    x = cases._stft_input(kwargs)
    out, ref = layer(x).numpy(), REF[f"{name}/out"]
    assert out.shape == ref.shape
    assert layer.compute_output_shape((None,) + x.shape[1:])[1:] == \
        ref.shape[1:]
    mode = kwargs.get("mode", "log")
    if mode == "log":
        # Compare magnitudes: the log magnifies float32 rounding of the
        # (near-cancelling) small bins.
        np.testing.assert_allclose(np.exp(out), np.exp(ref), atol=1e-5,
                                   rtol=1e-4)
    elif mode == "angle":
        # The Nyquist bin's imaginary kernel is sin(-pi t): zero, but
        # Keras builds it in float32, where it is rounding noise (~1e-7),
        # so that bin's angle is noise there. Compare the other bins as
        # points on the unit circle (smooth across the ±pi cut).
        bins = 9
        keep = (np.arange(out.shape[-1]) % bins) != bins - 1
        np.testing.assert_allclose(np.exp(1j * out[..., keep]),
                                   np.exp(1j * ref[..., keep]), atol=2e-4)
    else:
        np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    for i, weight in enumerate(layer.weights):
        np.testing.assert_allclose(weight.numpy(), REF[f"{name}/w{i}"],
                                   atol=2e-6)


def test_stft_weights_named_ordered_and_trainable_as_keras():
    layer = layers.STFTSpectrogram(frame_length=16, frame_step=8)
    layer.build((None, 64, 1))
    assert [w.path for w in layer.weights] == [
        "stft_spectrogram/real_kernel", "stft_spectrogram/imag_kernel"]
    assert len(layer.trainable_weights) == 2
    frozen = layers.STFTSpectrogram(frame_length=16, trainable=False)
    frozen.build((None, 64, 1))
    assert len(frozen.non_trainable_weights) == 2
    assert not frozen.trainable_weights
    real = layers.STFTSpectrogram(mode="real", frame_length=8)
    real.build((None, 32, 1))
    assert [w.name for w in real.weights] == ["real_kernel"]


@pytest.mark.parametrize("kwargs, shape", [
    (dict(mode="magnitude", frame_length=8, frame_step=4), (2, 24, 2)),
    (dict(mode="stft", frame_length=8, frame_step=3, padding="same"),
     (2, 20, 1)),
    (dict(mode="psd", frame_length=8, frame_step=4, expand_dims=True,
          data_format="channels_first"), (2, 2, 24)),
    (dict(mode="log", frame_length=6, fft_length=8, window="hamming"),
     (1, 20, 3)),
])
def test_stft_layer_contract_and_gradients(kwargs, shape, tmp_path):
    out = run_layer_test(layers.STFTSpectrogram, kwargs, shape,
                         tmp_path=tmp_path)
    assert out.dtype == np.float32


def test_stft_angle_gradient_wrt_input():
    layer = layers.STFTSpectrogram(mode="angle", frame_length=8,
                                   frame_step=4, dtype="float64")
    x = np.random.default_rng(1).normal(size=(1, 24, 1))
    # Differentiate the unit vector (cos, sin): smooth across the ±pi cut.
    check_grads(lambda v: kerasish.ops.cos(layer(v)), [x])


def test_stft_bad_arguments_and_inputs():
    with pytest.raises(ValueError, match="frame_step=9, frame_length=8"):
        layers.STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="fft_length=4, frame_length=8"):
        layers.STFTSpectrogram(frame_length=8, fft_length=4)
    with pytest.raises(ValueError, match="mode=power"):
        layers.STFTSpectrogram(mode="power")
    with pytest.raises(ValueError, match="scaling=l2"):
        layers.STFTSpectrogram(scaling="l2")
    with pytest.raises(ValueError, match="padding=causal"):
        layers.STFTSpectrogram(padding="causal")
    with pytest.raises(ValueError, match="Unknown window"):
        layers.STFTSpectrogram(window="kaiserish")
    with pytest.warns(UserWarning, match="power of two"):
        layers.STFTSpectrogram(frame_length=8, fft_length=12)
    layer = layers.STFTSpectrogram(frame_length=8)
    with pytest.raises(TypeError, match="Received: input type=int64"):
        layer(np.ones((1, 16, 1), "int64"))
    with pytest.raises(ValueError, match="ndim=3"):
        layer(np.ones((16, 1), "float32"))


def test_stft_config_matches_keras_keys_and_round_trips():
    layer = layers.STFTSpectrogram(mode="psd", frame_length=12,
                                   window=[1.0] * 12, padding="same")
    config = layer.get_config()
    assert set(config) == STFT_KEYS
    assert config["frame_step"] is None and config["fft_length"] is None
    again = layers.deserialize(layers.serialize(layer))
    x = np.random.default_rng(0).normal(size=(1, 40, 1)).astype("float32")
    np.testing.assert_allclose(again(x).numpy(), layer(x).numpy())


def test_stft_model_trains_and_weights_interoperate(tmp_path):
    inputs = kerasish.Input((96, 2))
    x = layers.STFTSpectrogram(mode="magnitude", frame_length=16,
                               frame_step=8)(inputs)
    x = layers.GlobalAveragePooling1D()(x)
    model = kerasish.Model(inputs, layers.Dense(1)(x))
    assert model.output_shape == (None, 1)
    data = cases.signal((4, 96, 2))
    model.compile(optimizer="sgd", loss="mse")
    model.fit(data, np.ones((4, 1)), epochs=1, verbose=0)
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    with h5py.File(path) as f:
        group = f["layers/stft_spectrogram/vars"]
        assert [group[k].shape for k in ("0", "1")] == [(16, 1, 9)] * 2
    again = kerasish.models.load_model(_saved(model, tmp_path))
    np.testing.assert_allclose(again.predict(data, verbose=0),
                               model.predict(data, verbose=0), rtol=1e-6)


def _saved(model, tmp_path):
    path = str(tmp_path / "m.keras")
    model.save(path)
    return path


@pytest.mark.parametrize("name, kwargs", cases.MEL_CASES,
                         ids=[c[0] for c in cases.MEL_CASES])
def test_mel_matches_keras(name, kwargs):
    layer = layers.MelSpectrogram(**kwargs)
    x = cases.signal(cases.MEL_SHAPE)
    for got, ref in ((layer(x).numpy(), REF[f"{name}/out"]),
                     (layer(x[0]).numpy(), REF[f"{name}/unbatched"])):
        assert got.shape == ref.shape
        np.testing.assert_allclose(got, ref, rtol=1e-5,
                                   atol=2e-6 * np.abs(ref).max())
    assert layer.compute_output_shape(x.shape) == REF[f"{name}/out"].shape
    assert layer.compute_output_shape((None, None)) == \
        (None, kwargs["num_mel_bins"], None)


def test_mel_filterbank_values():
    from kerasish.layers.preprocessing.audio.mel_spectrogram import (
        linear_to_mel_weight_matrix)
    m = linear_to_mel_weight_matrix(3, 5, 8000, 0.0, 4000.0)
    # Hand check: band edges are equally spaced in mel between 0 and
    # mel(4000); bin 2 (2000 Hz) lies on the rising side of band 2.
    mel = 1127.0 * np.log(1 + np.array([1000.0, 2000.0, 3000.0, 4000.0])
                          / 700.0)
    edges = np.linspace(0.0, mel[-1], 5)
    expected_b2 = min((mel[1] - edges[1]) / (edges[2] - edges[1]),
                      (edges[3] - mel[1]) / (edges[3] - edges[2]))
    assert m.shape == (5, 3) and not m[0].any()
    np.testing.assert_allclose(m[2, 1], expected_b2, rtol=1e-6)
    assert np.all(m.max(axis=0) <= 1.0)


@pytest.mark.parametrize("power_to_db", [False, True])
def test_mel_gradient_wrt_input(power_to_db):
    layer = layers.MelSpectrogram(fft_length=16, sequence_stride=8,
                                  num_mel_bins=4, sampling_rate=800,
                                  power_to_db=power_to_db, top_db=200.0,
                                  dtype="float64")
    x = np.random.default_rng(2).normal(size=(2, 40))
    check_grads(layer, [x], rtol=1e-4)


def test_mel_config_matches_keras_keys_and_round_trips():
    layer = layers.MelSpectrogram(fft_length=64, sequence_stride=16,
                                  num_mel_bins=12, sampling_rate=8000)
    config = layer.get_config()
    assert set(config) == MEL_KEYS
    assert config["max_freq"] == 4000 and config["sequence_length"] == 64
    again = layers.deserialize(layers.serialize(layer))
    x = cases.signal(cases.MEL_SHAPE)
    np.testing.assert_allclose(again(x).numpy(), layer(x).numpy())


def test_mel_bad_arguments_and_inputs():
    with pytest.raises(ValueError, match="`sequence_length`=64"):
        layers.MelSpectrogram(fft_length=32, sequence_length=64)
    with pytest.raises(ValueError, match="window='blackman'"):
        layers.MelSpectrogram(window="blackman")
    with pytest.raises(ValueError, match=r"inputs.shape=\(1, 2, 64\)"):
        layers.MelSpectrogram(fft_length=16)(np.ones((1, 2, 64)))


def test_mel_in_a_model():
    inputs = kerasish.Input((160,))
    mel = layers.MelSpectrogram(fft_length=64, sequence_stride=16,
                                num_mel_bins=12, sampling_rate=8000)(inputs)
    assert mel.shape == (None, 12, 11)
    model = kerasish.Model(inputs, layers.Dense(2)(layers.Flatten()(mel)))
    assert model.predict(cases.signal(cases.MEL_SHAPE),
                         verbose=0).shape == (2, 2)
