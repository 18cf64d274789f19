"""Geometric layers: flips, crops, rotations, translations, zooms, shears,
perspective and elastic warps. Statistics of the random draws, seeded
determinism, inference identity, and boxes/masks moving with the pixels."""
import numpy as np
import pytest

from kerasish import layers
from kerasish.utils import check_grads

RNG = np.random.default_rng(0)
IMAGES = RNG.uniform(0, 255, (4, 10, 12, 3)).astype("float32")


def blob_data(batch=3):
    """Black images with one white rectangle, its box and its mask."""
    images = np.zeros((batch, 24, 30, 3), "float32")
    images[:, 6:12, 8:17] = 255.0
    boxes = np.tile(np.array([[[8.0, 6.0, 17.0, 12.0]]], "float32"),
                    (batch, 1, 1))
    masks = (images[..., :1] > 0).astype("int32")
    return {"images": images, "segmentation_masks": masks,
            "bounding_boxes": {"boxes": boxes,
                               "labels": np.ones((batch, 1), "int32")}}


def pixel_envelope(image):
    ys, xs = np.nonzero(image[..., 0] > 127.5)
    return np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1])


GEOMETRIC = [
    (layers.RandomFlip, {}),
    (layers.RandomRotation, {"factor": 0.1, "fill_mode": "constant"}),
    (layers.RandomTranslation, {"height_factor": 0.2, "width_factor": 0.2,
                                "fill_mode": "constant"}),
    (layers.RandomZoom, {"height_factor": 0.3, "fill_mode": "constant"}),
    (layers.RandomShear, {"x_factor": 0.3, "y_factor": 0.3,
                          "fill_mode": "constant"}),
    (layers.RandomPerspective, {"scale": 0.4}),
    (layers.RandomElasticTransform, {"fill_mode": "constant"}),
]


@pytest.mark.parametrize("cls, kwargs", GEOMETRIC,
                         ids=[c[0].__name__ for c in GEOMETRIC])
def test_boxes_and_masks_follow_the_pixels(cls, kwargs):
    if cls is not layers.RandomFlip:
        kwargs = dict(kwargs, interpolation="nearest")
    layer = cls(seed=3, bounding_box_format="xyxy", **kwargs)
    out = layer(blob_data(), training=True)
    images = np.asarray(out["images"])
    masks = np.asarray(out["segmentation_masks"])
    boxes = np.asarray(out["bounding_boxes"]["boxes"])
    assert masks.dtype == np.int32
    for i in range(len(images)):
        np.testing.assert_array_equal(masks[i, ..., 0] > 0,
                                      images[i, ..., 0] > 127.5)
        # The box is the envelope of the moved rectangle (to a pixel).
        np.testing.assert_allclose(boxes[i, 0], pixel_envelope(images[i]),
                                   atol=1.01)


@pytest.mark.parametrize("cls, kwargs", GEOMETRIC,
                         ids=[c[0].__name__ for c in GEOMETRIC])
def test_seeded_determinism_and_inference_identity(cls, kwargs):
    first = cls(seed=11, **kwargs)(IMAGES, training=True)
    again = cls(seed=11, **kwargs)(IMAGES, training=True)
    np.testing.assert_array_equal(np.asarray(first), np.asarray(again))
    layer = cls(seed=11, **kwargs)
    calls = [np.asarray(layer(IMAGES, training=True)) for _ in range(3)]
    assert not all(np.array_equal(calls[0], c) for c in calls[1:])
    np.testing.assert_array_equal(np.asarray(layer(IMAGES, training=False)),
                                  IMAGES)


def test_flip_is_numpy_flip():
    layer = layers.RandomFlip("horizontal", seed=0)
    out = np.asarray(layer(IMAGES, training=True))
    flipped = [np.array_equal(o, i[:, ::-1]) for o, i in zip(out, IMAGES)]
    kept = [np.array_equal(o, i) for o, i in zip(out, IMAGES)]
    assert all(f or k for f, k in zip(flipped, kept))
    both = np.asarray(layers.RandomFlip(seed=0)(IMAGES, training=True))
    assert all(np.array_equal(o, i[::-1, ::-1]) or np.array_equal(o, i)
               for o, i in zip(both, IMAGES))


def test_flip_probability_is_one_half():
    layer = layers.RandomFlip("vertical", seed=5)
    images = np.arange(2.0).reshape(1, 2, 1, 1).repeat(2000, axis=0)
    out = np.asarray(layer(images, training=True))
    assert 0.45 < np.mean(out[:, 0, 0, 0] == 1.0) < 0.55


def test_flip_mode_error():
    with pytest.raises(ValueError, match="mode"):
        layers.RandomFlip("diagonal")


def test_rotation_angles_stay_in_range():
    layer = layers.RandomRotation((0.1, 0.2), seed=0)
    angles = layer.get_random_transformation(np.zeros((500, 4, 4, 1)))
    assert 36.0 <= angles["angle"].min() and angles["angle"].max() <= 72.0
    assert angles["rotation_matrix"].shape == (500, 8)


def test_four_quarter_turns_restore_the_image():
    layer = layers.RandomRotation((0.25, 0.25), interpolation="nearest")
    out = IMAGES[:, :10, :10]
    for _ in range(4):
        out = layer(out, training=True)
    np.testing.assert_allclose(np.asarray(out), IMAGES[:, :10, :10])


def test_translation_and_zoom_ranges():
    translation = layers.RandomTranslation((-0.2, 0.1), 0.3, seed=0)
    t = translation.get_random_transformation(np.zeros((400, 10, 20, 1)))
    dx, dy = t["translations"][:, 0], t["translations"][:, 1]
    assert -6.0 <= dx.min() < -5.0 and 5.0 < dx.max() <= 6.0
    assert -2.0 <= dy.min() and dy.max() <= 1.0
    zoom = layers.RandomZoom((-0.5, -0.2), seed=0)
    z = zoom.get_random_transformation(np.zeros((400, 8, 8, 1)))
    assert 0.5 <= z["height_zoom"].min() and z["height_zoom"].max() <= 0.8
    np.testing.assert_array_equal(z["height_zoom"], z["width_zoom"])


def test_random_crop_training_and_inference():
    layer = layers.RandomCrop(4, 5, seed=0, bounding_box_format="xyxy")
    data = blob_data(2)
    out = layer(data, training=True)
    assert out["images"].shape == (2, 4, 5, 3)
    crops = {np.asarray(layer(IMAGES, training=True)).tobytes()
             for _ in range(8)}
    assert len(crops) > 1
    # The cropped boxes are the blob's pixels inside the window.
    images = np.asarray(out["images"])
    for image, box in zip(images, np.asarray(out["bounding_boxes"]["boxes"])):
        if (image[..., 0] > 127.5).any():
            np.testing.assert_allclose(box[0], pixel_envelope(image))
    # Inference: the largest centred window of the target aspect ratio,
    # resized (as Keras documents).
    inference = layer(IMAGES, training=False)
    np.testing.assert_allclose(
        np.asarray(inference),
        np.asarray(layers.Resizing(4, 5, crop_to_aspect_ratio=True)(IMAGES)),
        rtol=1e-6)


def test_random_crop_of_smaller_images_resizes():
    layer = layers.RandomCrop(20, 16, seed=0)
    assert layer(IMAGES, training=True).shape == (4, 20, 16, 3)
    assert isinstance(layer.get_config()["seed"], int)


def test_center_crop_and_resizing_masks_keep_their_dtype():
    data = blob_data(1)
    for layer in (layers.CenterCrop(12, 10), layers.CenterCrop(40, 30),
                  layers.Resizing(7, 9), layers.RandomCrop(30, 40)):
        out = layer({"images": data["images"],
                     "segmentation_masks": data["segmentation_masks"]})
        masks = np.asarray(out["segmentation_masks"])
        assert masks.dtype == np.int32
        assert set(np.unique(masks)) <= {0, 1}


def test_affine_layers_are_differentiable_in_the_images():
    images = RNG.uniform(0, 1, (2, 6, 7, 3))
    for layer in (layers.RandomRotation((0.1, 0.1), dtype="float64"),
                  layers.RandomZoom((0.3, 0.3), fill_mode="constant",
                                    dtype="float64"),
                  layers.RandomTranslation((0.2, 0.2), (-0.2, -0.2),
                                           fill_mode="wrap",
                                           dtype="float64"),
                  layers.Resizing(4, 9, interpolation="bicubic",
                                  dtype="float64")):
        check_grads(lambda x: layer(x, training=True), [images])


def test_fixed_transformation_gradients_for_random_layers():
    images = RNG.uniform(0, 1, (2, 6, 6, 1))
    shear = layers.RandomShear(0.3, 0.2, seed=0, dtype="float64")
    t = shear.get_random_transformation(images)
    check_grads(lambda x: shear.transform_images(x, t), [images])
    perspective = layers.RandomPerspective(factor=(1, 1), scale=0.5, seed=0,
                                           dtype="float64")
    t = perspective.get_random_transformation(images)
    check_grads(lambda x: perspective.transform_images(x, t), [images])


@pytest.mark.parametrize("fmt", ["xywh", "center_yxhw", "rel_xyxy"])
def test_box_formats_are_kept(fmt):
    from kerasish.utils.bounding_boxes import convert_format
    data = blob_data(2)
    data["bounding_boxes"]["boxes"] = np.asarray(convert_format(
        data["bounding_boxes"]["boxes"], "xyxy", fmt, height=24, width=30))
    layer = layers.RandomRotation((0.05, 0.05), bounding_box_format=fmt)
    reference = layers.RandomRotation((0.05, 0.05),
                                      bounding_box_format="xyxy")
    out = layer(data, training=True)["bounding_boxes"]["boxes"]
    expected = reference(blob_data(2), training=True)["bounding_boxes"][
        "boxes"]
    np.testing.assert_allclose(
        np.asarray(convert_format(out, fmt, "xyxy", height=24, width=30)),
        np.asarray(expected), atol=1e-4)


def test_channels_first_boxes():
    data = blob_data(2)
    data["images"] = np.moveaxis(data["images"], -1, 1)
    layer = layers.RandomTranslation((0.1, 0.1), (0.2, 0.2),
                                     data_format="channels_first",
                                     bounding_box_format="xyxy",
                                     interpolation="nearest")
    out = layer(data, training=True)
    image = np.moveaxis(np.asarray(out["images"])[0], 0, -1)
    np.testing.assert_allclose(
        np.asarray(out["bounding_boxes"]["boxes"])[0, 0],
        pixel_envelope(image), atol=1.01)


def test_single_image_dict_and_ragged_boxes():
    layer = layers.RandomFlip("horizontal", seed=0,
                              bounding_box_format="xyxy")
    single = {"images": np.zeros((10, 10, 3)),
              "bounding_boxes": {"boxes": np.array([[0.0, 0.0, 2.0, 3.0]]),
                                 "labels": np.array([4])}}
    out = layer(single, training=True)
    assert out["images"].shape == (10, 10, 3)
    assert out["bounding_boxes"]["boxes"].shape == (1, 4)
    ragged = {"images": np.zeros((2, 10, 10, 3)),
              "bounding_boxes": {"boxes": [[[0, 0, 2, 3]],
                                           [[1, 1, 4, 4], [5, 5, 9, 9]]],
                                 "labels": [[1], [2, 3]]}}
    out = layer(ragged, training=True)["bounding_boxes"]
    assert out["boxes"].shape == (2, 2, 4)
    assert np.asarray(out["labels"])[0].tolist() == [1, -1]


def test_boxes_need_a_format():
    with pytest.raises(ValueError, match="bounding_box_format"):
        layers.RandomFlip()(blob_data(), training=True)
    with pytest.raises(ValueError, match="bounding box format"):
        layers.RandomFlip(bounding_box_format="corners")


@pytest.mark.parametrize("make, message", [
    (lambda: layers.RandomRotation(1.5), "factor"),
    (lambda: layers.RandomRotation(0.1, fill_mode="mirror"), "fill_mode"),
    (lambda: layers.RandomZoom(-1.0), r"\(-1.0, 1.0\]"),
    (lambda: layers.RandomTranslation(0.1, (0.1, 0.2, 0.3)), "width_factor"),
    (lambda: layers.RandomShear(x_factor=-0.2), "x_factor"),
    (lambda: layers.RandomPerspective(scale=2.0), "scale"),
    (lambda: layers.RandomElasticTransform(interpolation="cubic"),
     "interpolation"),
    (lambda: layers.Resizing(0, 4), "height"),
    (lambda: layers.Resizing(4, 4, interpolation="fancy"), "interpolation"),
    (lambda: layers.CenterCrop(3, 2.5), "width"),
])
def test_argument_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_rank_error_names_the_shape():
    with pytest.raises(ValueError, match=r"rank 3 .* or 4"):
        layers.RandomFlip()(np.zeros((4, 4)), training=True)
