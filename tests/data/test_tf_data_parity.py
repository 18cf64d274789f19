"""`kerasish.data.Dataset` against tf.data (TensorFlow 2.15), element by
element: the pipelines of tests/fixtures/data_cases.py, read through
`.numpy()`, `.shape` and `.dtype` (tests/fixtures/tf_data/reference.json,
from tests/fixtures/make_tf_data_reference.py)."""
import json
import os

import numpy as np
import pytest

from kerasish import tree
from kerasish.data import Dataset
from tests.fixtures.data_cases import CASES, record

REFERENCE = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "fixtures", "tf_data", "reference.json")

with open(REFERENCE) as _f:
    EXPECTED = json.load(_f)["cases"]


def test_every_case_has_a_reference():
    assert set(EXPECTED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pipeline_elements_match_tf_data(name):
    dataset = CASES[name](Dataset, lambda shape, dtype: None)
    expected = EXPECTED[name]
    got = record(dataset, tree.flatten)
    assert len(got) == len(expected["elements"])
    for got_leaves, want_leaves in zip(got, expected["elements"]):
        assert len(got_leaves) == len(want_leaves)
        for leaf, want in zip(got_leaves, want_leaves):
            assert leaf["shape"] == want["shape"]
            assert leaf["dtype"] == want["dtype"]
            assert leaf["numpy_type"] == want["numpy_type"]
            assert leaf["numpy_dtype"] == want["numpy_dtype"]
            if want["dtype"] == "string":
                assert leaf["value"] == want["value"]
                continue
            np.testing.assert_array_equal(
                np.asarray(leaf["value"], want["dtype"]),
                np.asarray(want["value"], want["dtype"]))
    assert dataset.cardinality() == expected["cardinality"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_iteration_gives_the_same_elements(name):
    # tf.data datasets are re-iterable recipes (cache serves the 2nd pass).
    dataset = CASES[name](Dataset, lambda shape, dtype: None)
    first = record(dataset, tree.flatten)
    assert record(dataset, tree.flatten) == first


def _ragged(lengths):
    return Dataset.from_generator(
        lambda: (np.arange(n, dtype="int64") for n in lengths))


def test_padded_batch_to_a_smaller_size_raises_naming_the_shapes():
    # tf.data: "Attempted to pad to a smaller size than the input element."
    with pytest.raises(ValueError, match=r"pad to a smaller size .* "
                       r"padded_shapes=\[2\]"):
        list(_ragged([1, 3]).padded_batch(2, padded_shapes=[2]))


def test_padded_batch_needs_one_rank_per_component():
    with pytest.raises(ValueError, match="must have rank 1. Received: "
                       r"padded_shapes=\[2, 2\]"):
        list(_ragged([1, 2]).padded_batch(2, padded_shapes=[2, 2]))


def test_padded_batch_rejects_a_bad_batch_size():
    with pytest.raises(ValueError, match="Received: batch_size=0"):
        _ragged([1]).padded_batch(0)


def test_zip_rejects_what_is_not_a_dataset():
    with pytest.raises(TypeError, match="Dataset.zip expected datasets"):
        Dataset.zip((Dataset.range(2), [1, 2]))
