import os

import numpy as np
import pytest

import kerasish
from kerasish.utils.text_dataset import text_dataset_from_directory
from tests.fixtures.data_utils import folder_cases as cases
from tests.utils.folder_reference import collect, loads, ref, tree  # noqa


@pytest.mark.parametrize("name", sorted(cases.TEXT_CALLS))
def test_matches_keras(name, ref, tree):
    kwargs = cases.TEXT_CALLS[name]
    labelled = kwargs.get("labels", "inferred") is not None
    batched = kwargs.get("batch_size", 32) is not None
    ds = text_dataset_from_directory(os.path.join(tree, "texts"),
                                     shuffle=False, verbose=False, **kwargs)
    x, y, sizes = collect(ds, labelled, batched)
    key = f"text_{name}"
    assert x.dtype.kind == "U"
    assert x.tolist() == ref[f"{key}_x"].tolist()
    assert ds.class_names == loads(ref[f"{key}_class_names"])
    if batched:
        assert sizes == ref[f"{key}_sizes"].tolist()
    if labelled:
        assert y.dtype == ref[f"{key}_y"].dtype
        np.testing.assert_array_equal(y, ref[f"{key}_y"])


@pytest.mark.parametrize("seed", cases.SPLIT_SEEDS)
def test_validation_split_membership_matches_keras(seed, ref, tree):
    train, val = text_dataset_from_directory(
        os.path.join(tree, "texts"), validation_split=0.45, subset="both",
        seed=seed, verbose=False)
    for part, ds in (("training", train), ("validation", val)):
        texts, _, _ = collect(ds, True)
        assert sorted(texts.tolist()) == loads(
            ref[f"text_split_{seed}_{part}"])


def test_max_length_counts_characters(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.txt").write_bytes("café au lait".encode())
    ds = text_dataset_from_directory(tmp_path, max_length=4, verbose=False)
    texts, _, _ = collect(ds, True)
    assert texts.tolist() == ["café"]


def test_texts_feed_a_model(tree):
    ds = text_dataset_from_directory(os.path.join(tree, "texts"),
                                     batch_size=4, seed=1, verbose=False)
    lookup = kerasish.layers.StringLookup(
        vocabulary=["neg review 0: café — \r\nline two"])
    texts, labels = next(iter(ds))
    assert np.asarray(lookup(texts)).shape == (4,)


@pytest.mark.parametrize("kwargs, message", [
    (dict(label_mode="categorical", labels=[0, 1]), "len\\(labels\\) is 2"),
    (dict(max_length=-1), "max_length=-1"),
    (dict(format="numpy"), 'either "tf" or "grain"'),
    (dict(labels=(0, 1, 0, 1, 0, 1, 0), class_names=["neg"]),
     "only pass `class_names`"),
    (dict(validation_split=0.01, subset="training", seed=1),
     "No training text files found"),
])
def test_argument_errors(kwargs, message, tree):
    with pytest.raises(ValueError, match=message):
        text_dataset_from_directory(os.path.join(tree, "texts"),
                                    verbose=False, **kwargs)


def test_manual_labels_and_no_files(tree, tmp_path):
    ds = text_dataset_from_directory(
        os.path.join(tree, "texts"), labels=[3, 0, 3, 1, 1, 0, 3],
        label_mode="categorical", shuffle=False, verbose=False)
    assert ds.class_names == ["0", "1", "3"]
    _, labels, _ = collect(ds, True)
    # As tf.one_hot: a label beyond the number of classes is all zeros.
    np.testing.assert_array_equal(labels[0], [0, 0, 0])
    np.testing.assert_array_equal(labels[3], [0, 1, 0])
    with pytest.raises(ValueError, match="No text files found"):
        text_dataset_from_directory(tmp_path, verbose=False)


def test_public_names():
    assert kerasish.utils.text_dataset_from_directory is \
        text_dataset_from_directory
