import numpy as np
import pytest

import kerasish
from kerasish.data import Dataset
from kerasish.utils import directory_utils
from kerasish.utils.dataset_utils import split_dataset
from tests import peers

# Expected splits printed by real Keras 3.15 (tf.data path) for the same
# calls, e.g. `keras.utils.split_dataset(np.arange(10), left_size=0.6,
# shuffle=True, seed=3)`.


def _flat(ds):
    return [np.asarray(e).tolist() for e in ds]


def test_array_split_with_seed_matches_keras():
    left, right = split_dataset(np.arange(10), left_size=0.6, shuffle=True,
                                seed=3)
    assert _flat(left) == [1, 5, 6, 0, 9, 4]
    assert _flat(right) == [7, 2, 8, 3]


def test_tuple_split_matches_keras():
    x, y = np.arange(24).reshape(12, 2), np.arange(12) * 10
    left, right = split_dataset((x, y), right_size=5, shuffle=True, seed=11)
    assert [(a.tolist(), int(b)) for a, b in left] == [
        ([4, 5], 20), ([10, 11], 50), ([0, 1], 0), ([12, 13], 60),
        ([20, 21], 100), ([8, 9], 40), ([2, 3], 10)]
    assert [(a.tolist(), int(b)) for a, b in right] == [
        ([6, 7], 30), ([18, 19], 90), ([22, 23], 110), ([16, 17], 80),
        ([14, 15], 70)]


def test_both_sizes_leave_a_gap():
    left, right = split_dataset(np.arange(10), left_size=3, right_size=4)
    assert _flat(left) == [0, 1, 2]
    assert _flat(right) == [6, 7, 8, 9]


def test_batched_dataset_is_split_by_sample_and_rebatched():
    ds = Dataset.from_tensor_slices(np.arange(10)).batch(4)
    left, right = split_dataset(ds, left_size=0.5, shuffle=True, seed=0)
    assert _flat(left) == [[7, 8, 1, 5], [3]]
    assert _flat(right) == [[4, 2, 0, 9], [6]]


def test_dict_dataset_and_cardinality():
    ds = Dataset.from_tensor_slices({"a": np.arange(6.0),
                                     "b": np.arange(6) * 2})
    left, right = split_dataset(ds, right_size=0.5)
    assert left.cardinality() == 3
    assert [int(e["b"]) for e in right] == [6, 8, 10]


def test_split_feeds_fit():
    x = np.random.rand(20, 3).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    train, test = split_dataset((x, y), left_size=0.75)
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 kerasish.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.fit(train.batch(5), epochs=1, verbose=0)
    assert np.isfinite(model.evaluate(test.batch(5), verbose=0))


def test_shuffle_leaves_global_random_state_alone():
    import random
    random.seed(0)
    expected = random.random()
    random.seed(0)
    split_dataset(np.arange(10), left_size=5, shuffle=True, seed=1)
    assert random.random() == expected


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(), ValueError, "At least one of"),
    (dict(left_size=0, right_size=0), ValueError, "Both `left_size`"),
    (dict(left_size=10), ValueError, "left_size=10"),
    (dict(right_size=1.5), ValueError, "right_size=1.5"),
    (dict(left_size=0.6, right_size=0.6), ValueError, "greater than 1"),
    (dict(left_size=6, right_size=6), ValueError, "should be smaller"),
    (dict(left_size="half"), TypeError, "Invalid `left_size` Type"),
    (dict(left_size=0.01), ValueError, "left side dataset split will be "
     "empty"),
])
def test_size_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        split_dataset(np.arange(10), **kwargs)


def test_dataset_errors():
    with pytest.raises(TypeError, match="must be either"):
        split_dataset({"a": np.arange(3)}, left_size=1)
    with pytest.raises(ValueError, match="different lengths"):
        split_dataset([np.arange(3), np.arange(4)], left_size=1)
    with pytest.raises(ValueError, match="Expected a list of"):
        split_dataset([np.arange(3), [1, 2, 3]], left_size=1)
    with pytest.raises(ValueError, match="empty"):
        split_dataset(Dataset.from_tensor_slices(np.zeros((0, 2))),
                      left_size=1)


def test_encode_labels_and_split_helpers():
    labels = np.array([0, 2, 1])
    np.testing.assert_array_equal(
        directory_utils.encode_labels(labels, "categorical", 3), np.eye(3)[
            [0, 2, 1]])
    assert directory_utils.encode_labels(labels, "int", 3).dtype == np.int32
    assert directory_utils.encode_labels([0, 1], "binary", 2).shape == (2, 1)
    samples, labels = directory_utils.get_training_or_validation_split(
        list("abcde"), np.arange(5), 0.4, "validation")
    assert samples == ["d", "e"] and labels.tolist() == [3, 4]


def test_public_name():
    assert kerasish.utils.split_dataset is split_dataset


def test_torch_backend_split():
    torch = peers.importorskip("torch")
    x = np.arange(10, dtype="float32")
    left, right = split_dataset(x, left_size=0.7, shuffle=True, seed=2,
                                preferred_backend="torch")
    assert isinstance(left, torch.utils.data.Subset)
    assert len(left) == 7 and len(right) == 3
    values = sorted(float(left[i][0]) for i in range(7)) + sorted(
        float(right[i][0]) for i in range(3))
    assert sorted(values) == x.tolist()
    ds = Dataset.from_tensor_slices((x, x * 2)).batch(3)
    left, right = split_dataset(ds, right_size=2, preferred_backend="torch")
    # As Keras: torch's random_split picks the members (unbatched samples).
    assert len(right) == 2
    assert all(float(b) == 2 * float(a) for a, b in right)
