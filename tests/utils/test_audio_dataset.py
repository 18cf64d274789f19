import os
import wave

import numpy as np
import pytest

import kerasish
from kerasish.utils import audio_dataset
from kerasish.utils.audio_dataset import audio_dataset_from_directory
from tests.fixtures.data_utils import folder_cases as cases
from tests.utils.folder_reference import collect, loads, ref, tree  # noqa


def _audio_dir(tree):
    return os.path.join(tree, "audio")


@pytest.mark.parametrize("name", sorted(cases.AUDIO_CALLS))
def test_matches_keras(name, ref, tree):
    kwargs = cases.AUDIO_CALLS[name]
    ds = audio_dataset_from_directory(_audio_dir(tree), shuffle=False,
                                      verbose=False, **kwargs)
    if kwargs.get("batch_size", 32) is None:
        x, y, _ = collect(ds, True, batched=False)
        np.testing.assert_array_equal(x, ref[f"audio_{name}_x"])
        np.testing.assert_array_equal(y, ref[f"audio_{name}_y"])
        assert ds.class_names == loads(ref[f"audio_{name}_class_names"])
        return
    batches = list(ds)
    assert len(batches) == len([k for k in ref
                                if k.startswith(f"audio_{name}_x")])
    for i, (x, y) in enumerate(batches):
        assert x.dtype == np.float32
        np.testing.assert_array_equal(x, ref[f"audio_{name}_x{i}"])
        np.testing.assert_array_equal(y, ref[f"audio_{name}_y{i}"])


def test_ragged_batches_keep_lengths(tree):
    ds = audio_dataset_from_directory(_audio_dir(tree), ragged=True,
                                      batch_size=2, shuffle=False,
                                      verbose=False)
    clips, labels = next(iter(ds))
    assert clips.dtype == object
    assert [c.shape for c in clips] == [(30, 1), (47, 1)]


def _write(path, samples, rate, width=2):
    with wave.open(str(path), "wb") as f:
        f.setnchannels(samples.shape[1])
        f.setsampwidth(width)
        f.setframerate(rate)
        f.writeframes(samples.astype(f"<i{width}").tobytes())


def test_decode_wav_like_tensorflow(tmp_path):
    samples = np.array([[0, -32768], [16384, 32767], [-1, 1]])
    _write(tmp_path / "s.wav", samples, 16000)
    audio, rate = audio_dataset.decode_wav(str(tmp_path / "s.wav"))
    assert rate == 16000 and audio.dtype == np.float32
    np.testing.assert_array_equal(audio, samples / 32768.0)
    padded, _ = audio_dataset.decode_wav(str(tmp_path / "s.wav"), 5)
    np.testing.assert_array_equal(padded[3:], 0.0)
    cut, _ = audio_dataset.decode_wav(str(tmp_path / "s.wav"), 1)
    assert cut.shape == (1, 2)


def test_other_encodings_rejected(tmp_path):
    (tmp_path / "a").mkdir()
    _write(tmp_path / "a" / "x.wav", np.zeros((4, 1)), 8000, width=4)
    ds = audio_dataset_from_directory(tmp_path, verbose=False)
    with pytest.raises(ValueError, match="only 16-bit PCM.*32-bit"):
        next(iter(ds))
    (tmp_path / "a" / "x.wav").write_bytes(b"RIFF0000WAVEjunk")
    with pytest.raises(ValueError, match="Could not decode"):
        next(iter(ds))


def test_resample_keeps_a_tone(tmp_path):
    rate_in, rate_out, freq = 16000, 8000, 440.0
    t = np.arange(1600) / rate_in
    audio = np.sin(2 * np.pi * freq * t)[:, None].astype("float32")
    out = audio_dataset.resample(audio, rate_in, rate_out)
    assert out.shape == (800, 1)
    expected = np.sin(2 * np.pi * freq * np.arange(800) / rate_out)
    # Away from the edges the band-limited interpolation is exact to ~1e-3.
    np.testing.assert_allclose(out[40:-40, 0], expected[40:-40], atol=2e-3)
    up = audio_dataset.resample(audio, rate_in, 44100)
    assert up.shape == (4410, 1)
    expected = np.sin(2 * np.pi * freq * np.arange(4410) / 44100)
    np.testing.assert_allclose(up[100:-100, 0], expected[100:-100],
                               atol=2e-3)


def test_resample_removes_frequencies_above_nyquist():
    t = np.arange(4800) / 48000
    tone = np.sin(2 * np.pi * 10000 * t)[:, None]   # above 8 kHz's Nyquist
    out = audio_dataset.resample(tone, 48000, 8000)
    assert np.abs(out[50:-50]).max() < 0.02


def test_sampling_rate_argument(tree):
    ds = audio_dataset_from_directory(_audio_dir(tree), sampling_rate=16000,
                                      output_sequence_length=40,
                                      batch_size=5, shuffle=False,
                                      verbose=False)
    x, _ = next(iter(ds))
    # Keras cuts to output_sequence_length at the file's rate, then resamples.
    assert x.shape == (5, 80, 1)


@pytest.mark.parametrize("kwargs, message", [
    (dict(ragged=True, output_sequence_length=3), "Cannot set both"),
    (dict(sampling_rate=8000.0), "integer value"),
    (dict(sampling_rate=0), "higher than 0"),
    (dict(label_mode="binary", class_names=["yes"]), "exactly 2"),
])
def test_argument_errors(kwargs, message, tree):
    with pytest.raises(ValueError, match=message):
        audio_dataset_from_directory(_audio_dir(tree), verbose=False,
                                     **kwargs)


def test_public_names():
    assert kerasish.utils.audio_dataset_from_directory is \
        audio_dataset_from_directory
