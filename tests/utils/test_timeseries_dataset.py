import os

import numpy as np
import pytest

import kerasish
from kerasish.utils.timeseries_dataset import timeseries_dataset_from_array
from tests.fixtures.data_utils import timeseries_cases as cases

_REFERENCE = os.path.join(os.path.dirname(cases.__file__), "timeseries.npz")


@pytest.fixture(scope="module")
def ref():
    with np.load(_REFERENCE) as data:
        return dict(data)


def _collect(ds, labelled):
    xs, ys, sizes = [], [], []
    for element in ds:
        x, y = element if labelled else (element, None)
        xs.append(np.asarray(x))
        sizes.append(len(x))
        if labelled:
            ys.append(np.asarray(y))
    return xs, ys, sizes


@pytest.mark.parametrize("name", sorted(set(cases.CALLS) - {"shuffled"}))
def test_windows_match_keras(name, ref):
    kwargs = cases.kwargs_of(name, cases.arrays())
    labelled = kwargs["targets"] is not None
    xs, ys, sizes = _collect(timeseries_dataset_from_array(**kwargs),
                             labelled)
    assert sizes == ref[f"{name}_sizes"].tolist()
    if not xs:
        assert ref[f"{name}_x"].size == 0
        return
    join = np.concatenate if kwargs["batch_size"] else np.stack
    x = join(xs)
    assert x.dtype == ref[f"{name}_x"].dtype
    np.testing.assert_array_equal(x, ref[f"{name}_x"])
    if labelled:
        np.testing.assert_array_equal(join(ys), ref[f"{name}_y"])


def test_shuffled_windows_are_keras_windows(ref):
    kwargs = cases.kwargs_of("shuffled", cases.arrays())
    ds = timeseries_dataset_from_array(**kwargs)
    xs, ys, sizes = _collect(ds, True)
    assert sizes == ref["shuffled_sizes"].tolist()
    x, y = np.concatenate(xs), np.concatenate(ys)
    assert sorted(map(tuple, x.tolist())) == sorted(
        map(tuple, ref["shuffled_x"].tolist()))
    np.testing.assert_array_equal(x[:, 0], y)      # targets[start]
    assert x[:, 0].tolist() != sorted(x[:, 0].tolist())
    # Same seed, same first epoch.
    again = np.concatenate(_collect(timeseries_dataset_from_array(**kwargs),
                                    True)[0])
    np.testing.assert_array_equal(x, again)


def test_docstring_example_two():
    data = np.arange(50, dtype="float32")
    ds = timeseries_dataset_from_array(data[:-10], data[10:],
                                       sequence_length=10)
    inputs, targets = next(iter(ds))
    np.testing.assert_array_equal(inputs[0], data[:10])
    assert targets[0] == data[10]


def test_fit_on_windows():
    series = np.sin(np.arange(200) / 5).astype("float32")[:, None]
    ds = timeseries_dataset_from_array(series[:-8], series[8:],
                                       sequence_length=8, batch_size=16)
    model = kerasish.Sequential([kerasish.Input((8, 1)),
                                 kerasish.layers.Flatten(),
                                 kerasish.layers.Dense(1)])
    model.compile("adam", "mse")
    history = model.fit(ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_tensor_input():
    data = kerasish.ops.arange(10)
    ds = timeseries_dataset_from_array(data, None, 3, batch_size=None)
    assert np.asarray(next(iter(ds))).tolist() == [0, 1, 2]


@pytest.mark.parametrize("kwargs, message", [
    (dict(start_index=-1), "start_index=-1"),
    (dict(start_index=20), "start_index=20, for data of length 20"),
    (dict(start_index=5, end_index=5), "higher than `start_index`"),
    (dict(end_index=20), "end_index=20, for data of length 20"),
    (dict(end_index=-2), "end_index=-2"),
    (dict(sampling_rate=0), "sampling_rate=0"),
    (dict(sampling_rate=20), "sampling_rate=20, for data"),
    (dict(sequence_stride=-1), "sequence_stride=-1"),
    (dict(sequence_stride=25), "sequence_stride=25, for data"),
    (dict(format="pandas"), 'either "tf" or "grain"'),
])
def test_argument_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        timeseries_dataset_from_array(np.arange(20), None, 3, **kwargs)


def test_targets_too_short_for_start_index():
    with pytest.raises(ValueError, match="`targets` is too short"):
        timeseries_dataset_from_array(np.arange(20), np.arange(10), 3,
                                      start_index=5)


def test_public_names():
    assert kerasish.utils.timeseries_dataset_from_array is \
        timeseries_dataset_from_array
