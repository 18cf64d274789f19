"""`audio_dataset_from_directory`: a labelled audio `Dataset` from folders.

WAV files are decoded with the standard library's `wave` module: 16-bit
PCM, as `tf.audio.decode_wav` reads them (float32 samples `int16 / 32768`
of shape `(samples, channels)`). Resampling to `sampling_rate` (Keras
needs tensorflow-io for it) is a band-limited windowed-sinc interpolation.
"""
import numpy as np

from kerasish.utils import directory_utils
from kerasish.data import Dataset

ALLOWED_FORMATS = (".wav",)


def audio_dataset_from_directory(
        directory, labels="inferred", label_mode="int", class_names=None,
        batch_size=32, sampling_rate=None, output_sequence_length=None,
        ragged=False, shuffle=True, seed=None, validation_split=None,
        subset=None, follow_links=False, verbose=True):
    """Generates a `Dataset` from audio files in a directory.

    With `main_directory/class_a/*.wav` and `main_directory/class_b/*.wav`,
    `audio_dataset_from_directory(main_directory)` yields batches of audio
    with labels 0 (`class_a`) and 1 (`class_b`). Only 16-bit PCM `.wav`
    files are supported.

    Args:
        directory: Folder of the data. With `labels="inferred"`, it holds
            one subfolder of audio files per class; otherwise its structure
            is ignored.
        labels: `"inferred"` (from the subfolder names, the default),
            `None` (no labels), or a list/tuple of integer labels, one per
            audio file, in the alphanumeric order of the file paths.
        label_mode: `"int"` (int32 labels, the default), `"categorical"`
            (one-hot float32 vectors), `"binary"` (float32 0/1 of shape
            `(batch_size, 1)`, for exactly 2 classes) or `None` (no labels).
        class_names: With `labels="inferred"`, the explicit list (and order)
            of the class subfolders to use. Defaults to all, sorted.
        batch_size: Size of the batches. Defaults to 32. `None` yields
            single clips.
        sampling_rate: Sample rate (int, Hz) to resample every clip to.
            Defaults to `None` (the files' own rates).
        output_sequence_length: Length of every clip (in samples of the
            file's rate, before resampling, as Keras): longer clips are
            truncated, shorter ones padded with zeros. Defaults to `None`:
            clips are padded to the longest one of their batch.
        ragged: Whether to keep clips at their own lengths: a batch is then
            a 1D object array of `(samples, channels)` arrays (kerasish has
            no ragged tensors). Defaults to `False`.
        shuffle: Whether to shuffle the data. Defaults to `True`; `False`
            keeps the alphanumeric order.
        seed: Optional random seed for shuffling.
        validation_split: Optional float between 0 and 1, the fraction of
            the data reserved for validation.
        subset: `"training"`, `"validation"` or `"both"` (returns the two
            datasets). Only used with `validation_split`.
        follow_links: Whether to visit subfolders pointed to by symlinks.
            Defaults to `False`.
        verbose: Whether to print the number of files and classes found.
            Defaults to `True`.

    Returns:
        A `kerasish.data.Dataset` yielding float32 audio of shape
        `(batch_size, samples, channels)`, paired with labels unless
        `label_mode` is `None`; with `subset="both"`, a `(train,
        validation)` pair. The datasets carry a `class_names` attribute.

    Example:

    >>> import os, wave
    >>> for i, (name, n) in enumerate([("no", 100), ("yes", 160)]):
    ...     os.makedirs(f"speech/{name}", exist_ok=True)
    ...     with wave.open(f"speech/{name}/{i}.wav", "wb") as w:
    ...         w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
    ...         w.writeframes(np.zeros(n, "<i2").tobytes())
    >>> ds = audio_dataset_from_directory("speech", shuffle=False)
    Found 2 files belonging to 2 classes.
    >>> audio, labels = next(iter(ds))
    >>> audio.shape, labels.tolist()
    ((2, 160, 1), [0, 1])
    """
    directory_utils.check_labels_args(labels, label_mode, class_names, "audio")
    _check_lengths(ragged, output_sequence_length, sampling_rate)
    if labels is None or label_mode is None:
        labels = label_mode = None
    directory_utils.check_validation_split_arg(validation_split, subset,
                                             shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, class_names = directory_utils.index_directory(
        directory, labels, formats=ALLOWED_FORMATS, class_names=class_names,
        shuffle=shuffle, seed=seed, follow_links=follow_links,
        verbose=verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be '
                         "exactly 2 class_names. Received: "
                         f"class_names={class_names}")

    def load(path):
        return read_audio(path, sampling_rate, output_sequence_length)

    def make(split_paths, split_labels, shuffled):
        ds = directory_utils.folder_dataset(
            split_paths, split_labels, label_mode,
            len(class_names) if class_names else 0, load, shuffle=shuffled,
            shuffle_buffer_size=batch_size * 8 if batch_size else 1024,
            seed=seed)
        if batch_size is not None:
            ds = _batch_audio(ds, batch_size, bool(label_mode),
                              "ragged" if ragged else "pad")
        ds = ds.prefetch(2)
        ds.class_names = class_names
        return ds

    return directory_utils.folder_splits(
        paths, labels, validation_split, subset, shuffle, make,
        f"audio files found in directory {directory}. Allowed format(s): "
        f"{ALLOWED_FORMATS}")


def _check_lengths(ragged, output_sequence_length, sampling_rate):
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and "
                         "`output_sequence_length`")
    if sampling_rate is None:
        return
    if not isinstance(sampling_rate, int):
        raise ValueError("`sampling_rate` should have an integer value. "
                         f"Received: sampling_rate={sampling_rate}")
    if sampling_rate <= 0:
        raise ValueError("`sampling_rate` should be higher than 0. "
                         f"Received: sampling_rate={sampling_rate}")


# -- decoding -----------------------------------------------------------------
def decode_wav(path, desired_samples=-1):
    """`(audio, rate)`: float32 `(samples, channels)` in [-1, 1) from a
    16-bit PCM WAV file, truncated or zero-padded to `desired_samples`
    (`-1`: as is), as `tf.audio.decode_wav`."""
    import wave  # lazy: kept out of `import kerasish`
    try:
        with wave.open(path, "rb") as f:
            width, channels = f.getsampwidth(), f.getnchannels()
            rate, frames = f.getframerate(), f.readframes(f.getnframes())
    except (wave.Error, EOFError) as e:
        raise ValueError(
            f"Could not decode the audio file {path}: only 16-bit PCM WAV "
            f"files are supported ({e}).") from e
    if width != 2:
        raise ValueError(
            f"Could not decode the audio file {path}: only 16-bit PCM WAV "
            f"files are supported; this file has {8 * width}-bit samples.")
    audio = np.frombuffer(frames, "<i2").reshape(-1, channels)
    audio = audio.astype("float32") / 32768.0
    if desired_samples is not None and desired_samples >= 0:
        audio = audio[:desired_samples]
        missing = desired_samples - len(audio)
        if missing:
            audio = np.pad(audio, ((0, missing), (0, 0)))
    return audio, rate


def read_audio(path, sampling_rate=None, output_sequence_length=None):
    """One clip as Keras's audio datasets read it: decode (to
    `output_sequence_length` samples), then resample to `sampling_rate`."""
    audio, rate = decode_wav(path, -1 if output_sequence_length is None
                             else output_sequence_length)
    if sampling_rate is not None and sampling_rate != rate:
        audio = resample(audio, rate, sampling_rate)
    return audio


def _kaiser(x, beta=8.6):
    return np.i0(beta * np.sqrt(np.clip(1.0 - x * x, 0.0, None))) / \
        np.i0(beta)


def resample(audio, rate_in, rate_out, zero_crossings=16, chunk=8192):
    """Band-limited resampling of `(samples, channels)` audio: each output
    sample is a Kaiser-windowed sinc interpolation of the input, low-passed
    at the lower Nyquist frequency. Output length `ceil(n * out / in)`."""
    n_in = len(audio)
    n_out = -(-n_in * rate_out // rate_in)
    cutoff = min(1.0, rate_out / rate_in)
    half = int(np.ceil(zero_crossings / cutoff))
    taps = np.arange(-half + 1, half + 1)
    out = np.empty((n_out,) + audio.shape[1:], dtype="float32")
    signal = audio.astype("float64")
    # Chunks of output samples bound the (chunk, taps) gather's memory.
    for start in range(0, n_out, chunk):
        times = np.arange(start, min(start + chunk, n_out)) * (
            rate_in / rate_out)
        index = np.floor(times).astype(np.int64)[:, None] + taps
        distance = times[:, None] - index
        weights = cutoff * np.sinc(cutoff * distance) * _kaiser(
            distance / (half + 1))
        weights[(index < 0) | (index >= n_in)] = 0.0
        gathered = signal[np.clip(index, 0, max(n_in - 1, 0))]
        out[start:start + len(times)] = np.einsum("ot,otc->oc", weights,
                                                  gathered)
    return out


# -- batching -----------------------------------------------------------------
def _stack_clips(clips, mode):
    channels = {clip.shape[1] for clip in clips}
    if len(channels) > 1:
        raise ValueError("All audio clips of a batch must have the same "
                         f"number of channels. Received: {sorted(channels)}")
    if mode == "ragged":
        batch = np.empty(len(clips), dtype=object)
        batch[:] = list(clips)
        return batch
    length = max(len(clip) for clip in clips)
    batch = np.zeros((len(clips), length, channels.pop()), dtype="float32")
    for i, clip in enumerate(clips):
        batch[i, :len(clip)] = clip
    return batch


def _batch_audio(ds, batch_size, labelled, mode):
    """Batches with clips zero-padded to the longest (`mode="pad"`, tf.data's
    `padded_batch`) or kept whole in an object array (`"ragged"`)."""

    def iterate():
        buffer = []
        for element in ds:
            buffer.append(element)
            if len(buffer) == batch_size:
                yield _make_batch(buffer, labelled, mode)
                buffer = []
        if buffer:
            yield _make_batch(buffer, labelled, mode)
    card = ds.cardinality()
    return Dataset(iterate, -(-card // batch_size) if card >= 0 else card)


def _make_batch(elements, labelled, mode):
    if not labelled:
        return _stack_clips(elements, mode)
    clips, labels = zip(*elements)
    return _stack_clips(clips, mode), np.stack(labels)
