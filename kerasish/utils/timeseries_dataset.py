"""`timeseries_dataset_from_array`: sliding windows over a timeseries.

Windows are described by their start positions only; each batch gathers
its windows from the array with one fancy index (`start + offsets`), so no
window is materialised before it is needed.
"""
import numpy as np
from kerasish.data import Dataset


def _as_array(values):
    if values is None or isinstance(values, np.ndarray):
        return values
    if hasattr(values, "_value"):
        return np.asarray(values._value)
    return np.asarray(values)


def _check_indices(start_index, end_index, length):
    # Keras tests these with `if start_index:`, so 0 means "unset".
    if start_index:
        if start_index < 0:
            raise ValueError("`start_index` must be 0 or greater. Received: "
                             f"start_index={start_index}")
        if start_index >= length:
            raise ValueError(
                "`start_index` must be lower than the length of the data. "
                f"Received: start_index={start_index}, for data of length "
                f"{length}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError(
                "`end_index` must be higher than `start_index`. Received: "
                f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= length:
            raise ValueError(
                "`end_index` must be lower than the length of the data. "
                f"Received: end_index={end_index}, for data of length "
                f"{length}")
        if end_index <= 0:
            raise ValueError("`end_index` must be higher than 0. Received: "
                             f"end_index={end_index}")


def _check_strides(sampling_rate, sequence_stride, length):
    for name, value in (("sampling_rate", sampling_rate),
                        ("sequence_stride", sequence_stride)):
        if value <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: "
                             f"{name}={value}")
        if value >= length:
            raise ValueError(
                f"`{name}` must be lower than the length of the data. "
                f"Received: {name}={value}, for data of length {length}")


def _start_positions(num_seqs, sequence_stride, shuffle, seed):
    positions = np.arange(0, max(num_seqs, 0), sequence_stride)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        # The same global shuffle of the windows as Keras for a given seed.
        np.random.RandomState(seed).shuffle(positions)
    return positions, seed


def timeseries_dataset_from_array(
        data, targets, sequence_length, sequence_stride=1, sampling_rate=1,
        batch_size=128, shuffle=False, seed=None, start_index=None,
        end_index=None, format="tf"):
    """Creates a dataset of sliding windows over a timeseries given as array.

    Window `i` holds the timesteps `s, s + r, ..., s + (sequence_length - 1)
    * r` with `s = start_index + i * sequence_stride` and `r =
    sampling_rate`; only windows ending before `end_index` are made. With
    `targets`, window `i` is paired with `targets[s]`.

    Args:
        data: Array (or tensor) of consecutive data points; axis 0 is time.
        targets: Targets of the windows: `targets[i]` is the target of the
            window starting at index `i`. `None` for a dataset of inputs
            only.
        sequence_length: Length of the output sequences (in timesteps).
        sequence_stride: Period between successive windows: for stride `s`,
            windows start at `data[i]`, `data[i + s]`, ... Defaults to 1.
        sampling_rate: Period between successive timesteps within a window.
            Defaults to 1.
        batch_size: Number of windows per batch (except maybe the last);
            `None` yields single windows. Defaults to 128.
        shuffle: Whether to shuffle the windows (else chronological order).
            Defaults to `False`.
        seed: Optional int; random seed for shuffling.
        start_index: Optional int; data points before it are not used.
        end_index: Optional int; data points from it on are not used.
        format: Accepted for compatibility: `"tf"` (default) or `"grain"`;
            both give a `kerasish.data.Dataset`.

    Returns:
        A `kerasish.data.Dataset` of `(batch_of_sequences,
        batch_of_targets)`, or of `batch_of_sequences` without targets.

    Example:

    >>> data = np.arange(20)
    >>> ds = timeseries_dataset_from_array(data[:-3], data[3:],
    ...                                    sequence_length=3, batch_size=4)
    >>> inputs, targets = next(iter(ds))
    >>> inputs.tolist(), targets.tolist()
    ([[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]], [3, 4, 5, 6])
    """
    data, targets = _as_array(data), _as_array(targets)
    _check_indices(start_index, end_index, len(data))
    _check_strides(sampling_rate, sequence_stride, len(data))
    if format not in ("tf", "grain"):
        raise ValueError('`format` should be either "tf" or "grain". '
                         f"Received: format={format}")
    start = start_index or 0
    end = len(data) if end_index is None else end_index
    num_seqs = end - start - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    positions, seed = _start_positions(num_seqs, sequence_stride, shuffle,
                                       seed)
    _check_targets(targets, positions, start, end)
    window = _Windows(data, targets, start, sequence_length, sampling_rate)
    ds = Dataset.from_tensor_slices(positions)
    if shuffle:
        ds = ds.shuffle(batch_size * 8 if batch_size else 1024, seed=seed)
    if batch_size is not None:
        ds = ds.batch(batch_size)
    return ds.map(window)


def _check_targets(targets, positions, start, end):
    if targets is None or not len(positions):
        return
    usable = min(len(targets), end) - start
    if positions.max() >= usable:
        raise ValueError(
            "`targets` is too short for the windows: the window starting at "
            f"index {start + positions.max()} has no target. Received: "
            f"len(targets)={len(targets)}, start_index={start}")


class _Windows:
    """Gathers the windows (and targets) of an array of start positions."""

    def __init__(self, data, targets, start, sequence_length,
                 sampling_rate):
        self.data, self.targets, self.start = data, targets, start
        self.offsets = np.arange(sequence_length) * sampling_rate

    def __call__(self, positions):
        starts = self.start + np.asarray(positions)
        windows = self.data[starts[..., None] + self.offsets]
        if self.targets is None:
            return windows
        return windows, self.targets[starts]
