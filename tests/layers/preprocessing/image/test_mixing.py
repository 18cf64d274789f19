"""Layers that mix images of a batch or chain other layers: CutMix, MixUp,
AugMix, RandAugment; and MaxNumBoundingBoxes."""
import numpy as np
import pytest

from kerasish import layers

RNG = np.random.default_rng(0)


def constant_batch(batch=8, size=(12, 10)):
    """Image i is filled with the value i; labels are one-hot."""
    images = np.ones((batch,) + size + (3,), "float32") * \
        np.arange(batch, dtype="float32")[:, None, None, None]
    return images, np.eye(batch, dtype="float32")


def test_mixup_mixes_images_labels_and_masks_consistently():
    images, labels = constant_batch()
    masks = np.arange(8, dtype="float32")[:, None, None, None] * np.ones(
        (8, 12, 10, 1), "float32")
    out = layers.MixUp(alpha=0.5, seed=1)(
        {"images": images, "labels": labels, "segmentation_masks": masks},
        training=True)
    mixed_images = np.asarray(out["images"])[:, 0, 0, 0]
    mixed_labels = np.asarray(out["labels"])
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0, rtol=1e-6)
    # Each image's value is the label-weighted mean of the source values.
    np.testing.assert_allclose(mixed_labels @ np.arange(8.0), mixed_images,
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(out["segmentation_masks"])[
        :, 0, 0, 0], mixed_images, rtol=1e-5, atol=1e-5)
    assert np.count_nonzero(mixed_labels) > 8


def test_mixup_weights_follow_the_beta_distribution():
    layer = layers.MixUp(alpha=0.2, seed=0)
    t = layer.get_random_transformation(np.zeros((5000, 1, 1, 1)))
    weights = t["mix_weight"]
    assert abs(weights.mean() - 0.5) < 0.02
    # Beta(0.2, 0.2) puts most of its mass near 0 and 1.
    assert np.mean((weights < 0.1) | (weights > 0.9)) > 0.5
    assert sorted(t["permutation_order"].tolist()) == list(range(5000))


def test_mixup_concatenates_boxes_and_is_identity_at_inference():
    images, labels = constant_batch(2)
    boxes = {"boxes": np.array([[[0, 0, 2, 2]], [[1, 1, 3, 3]]], "float32"),
             "labels": np.array([[1], [2]])}
    layer = layers.MixUp(seed=0, bounding_box_format="xyxy")
    out = layer({"images": images, "bounding_boxes": boxes}, training=True)
    assert out["bounding_boxes"]["boxes"].shape == (2, 2, 4)
    assert out["bounding_boxes"]["labels"].shape == (2, 2)
    same = layer({"images": images, "labels": labels}, training=False)
    np.testing.assert_array_equal(np.asarray(same["images"]), images)
    np.testing.assert_array_equal(np.asarray(same["labels"]), labels)


def test_cutmix_pastes_rectangles_and_mixes_labels_by_area():
    images, labels = constant_batch()
    out = layers.CutMix(seed=3)({"images": images, "labels": labels},
                                training=True)
    mixed = np.asarray(out["images"])
    mixed_labels = np.asarray(out["labels"])
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0, rtol=1e-5)
    for i in range(8):
        own = mixed[i, ..., 0] == i
        kept_fraction = own.mean()
        if kept_fraction < 1.0:
            ys, xs = np.nonzero(~own)
            # The pasted part is one rectangle from one other image.
            assert (~own).sum() == (np.ptp(ys) + 1) * (np.ptp(xs) + 1)
            assert len(np.unique(mixed[i][~own])) == 1
        # Label weight of the image itself = its kept area (up to the
        # rectangle's sub-pixel edges).
        assert mixed_labels[i, i] == pytest.approx(kept_fraction, abs=0.25)


def test_cutmix_boxes_of_the_pasted_image_are_cut_to_the_patch():
    images, _ = constant_batch(2, (20, 20))
    boxes = {"boxes": np.array([[[0.0, 0.0, 20.0, 20.0]],
                                [[0.0, 0.0, 20.0, 20.0]]], "float32"),
             "labels": np.array([[1], [2]])}
    layer = layers.CutMix(factor=(1.0, 1.0), seed=5,
                          bounding_box_format="xyxy")
    out = layer({"images": images, "bounding_boxes": boxes}, training=True)
    result = np.asarray(out["bounding_boxes"]["boxes"])
    assert result.shape == (2, 2, 4)
    for i in range(2):
        pasted = np.asarray(out["images"])[i, ..., 0] != i
        if pasted.any():
            ys, xs = np.nonzero(pasted)
            np.testing.assert_allclose(
                result[i, 1], [xs.min(), ys.min(), xs.max() + 1,
                               ys.max() + 1], atol=1.0)


def test_augmix_stays_in_range_and_is_seeded():
    images = RNG.uniform(0, 255, (3, 16, 16, 3)).astype("float32")
    a = np.asarray(layers.AugMix(seed=4)(images, training=True))
    b = np.asarray(layers.AugMix(seed=4)(images, training=True))
    np.testing.assert_array_equal(a, b)
    assert a.min() >= 0.0 and a.max() <= 255.0
    assert not np.allclose(a, images)
    narrow = layers.AugMix(all_ops=False, value_range=(0, 1), seed=0)
    assert "random_brightness" not in narrow._augment_layers
    out = np.asarray(narrow(images / 255.0, training=True))
    assert out.min() >= 0.0 and out.max() <= 1.0
    np.testing.assert_array_equal(
        np.asarray(layers.AugMix()(images, training=False)), images)


def test_randaugment_applies_num_ops_and_moves_boxes():
    layer = layers.RandAugment(num_ops=3, seed=2, bounding_box_format="xyxy")
    t = layer.get_random_transformation(np.zeros((2, 8, 8, 3)))
    assert len(t["transforms"]) == 3
    images = np.zeros((2, 24, 24, 3), "float32")
    images[:, 8:14, 6:12] = 255.0
    boxes = {"boxes": np.tile([[[6.0, 8.0, 12.0, 14.0]]], (2, 1, 1)),
             "labels": np.ones((2, 1), "int32")}
    for seed in range(4):
        layer = layers.RandAugment(num_ops=1, factor=0.3, seed=seed,
                                   interpolation="nearest",
                                   bounding_box_format="xyxy")
        out = layer({"images": images, "bounding_boxes": boxes},
                    training=True)
        assert out["bounding_boxes"]["boxes"].shape == (2, 1, 4)
    values = np.asarray(layers.RandAugment(seed=0)(
        RNG.uniform(0, 255, (4, 8, 8, 3)), training=True))
    assert values.min() >= -1e-3 and values.max() <= 255.0 + 1e-3


def test_max_num_bounding_boxes_pads_and_cuts():
    data = {"images": np.zeros((2, 4, 4, 3), "uint8"),
            "bounding_boxes": {"boxes": RNG.uniform(0, 4, (2, 5, 4)),
                               "labels": np.arange(10).reshape(2, 5)}}
    cut = layers.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")(data)
    assert cut["bounding_boxes"]["boxes"].shape == (2, 3, 4)
    assert str(cut["images"].dtype) == "uint8"
    padded = layers.MaxNumBoundingBoxes(7, fill_value=-2,
                                        bounding_box_format="xyxy")(data)
    labels = np.asarray(padded["bounding_boxes"]["labels"])
    assert labels[:, 5:].tolist() == [[-2, -2]] * 2
    assert np.all(np.asarray(padded["bounding_boxes"]["boxes"])[:, 5:] == -2)
    layer = layers.MaxNumBoundingBoxes(7)
    shape = layer.compute_output_shape(
        {"images": (None, 4, 4, 3),
         "bounding_boxes": {"boxes": (None, 5, 4), "labels": (None, 5)}})
    assert shape["bounding_boxes"] == {"boxes": (None, 7, 4),
                                       "labels": (None, 7)}
    assert layer.get_config()["max_number"] == 7
