import os

import numpy as np
import pytest

import kerasish
from kerasish.utils.image_dataset import image_dataset_from_directory
from tests.fixtures.data_utils import folder_cases as cases
from tests.utils.folder_reference import collect, loads, ref, tree  # noqa

# TensorFlow's bicubic kernel meets the border differently from
# `ops.image.resize` (up to 0.13 of 255 here); everything else matches.
TF_BORDER_TOLERANCE = {"pad_bicubic": 0.2}


def _load(tree, name, **extra):
    kwargs = dict(cases.IMAGE_CALLS[name], **extra)
    return image_dataset_from_directory(
        os.path.join(tree, "images"), shuffle=False, verbose=False, **kwargs)


@pytest.mark.parametrize("name", sorted(cases.IMAGE_CALLS))
def test_matches_keras(name, ref, tree):
    # Each format against Keras's own pipeline for it: tf.data ("tf") or
    # the TensorFlow-free one ("grain").
    kwargs = cases.IMAGE_CALLS[name]
    labelled = kwargs.get("labels", "inferred") is not None
    batched = kwargs.get("batch_size", 32) is not None
    for fmt in cases.FORMATS.get(name, ("grain", "tf")):
        ds = _load(tree, name, format=fmt)
        x, y, sizes = collect(ds, labelled, batched)
        key = f"image_{fmt}_{name}"
        assert ds.class_names == loads(ref[f"{key}_class_names"])
        assert cases.relative(ds.file_paths, tree) == loads(
            ref[f"{key}_paths"])
        assert x.shape == ref[f"{key}_x"].shape
        assert x.dtype == ref[f"{key}_x"].dtype
        if batched:
            assert sizes == ref[f"{key}_sizes"].tolist()
        if labelled:
            assert y.dtype == ref[f"{key}_y"].dtype
            np.testing.assert_array_equal(y, ref[f"{key}_y"])
        atol = TF_BORDER_TOLERANCE.get(name, 2e-3) if fmt == "tf" else 2e-3
        np.testing.assert_allclose(x, ref[f"{key}_x"], rtol=1e-5,
                                   atol=atol, err_msg=key)


def test_tf_format_decodes_and_pads_as_tensorflow(tmp_path):
    # Keras's tf.data pipeline: libpng's gray levels (floored, where
    # Pillow rounds), resize_with_pad (fit, then zero margins) and uint8
    # images for "nearest". Expected values derived by hand from TF's
    # definitions and checked against Keras 3.15 (TensorFlow).
    from PIL import Image
    rgb = np.zeros((14, 12, 3), "uint8")
    rgb[..., 0], rgb[..., 1], rgb[..., 2] = 201, 101, 3
    folder = tmp_path / "images" / "a"
    folder.mkdir(parents=True)
    Image.fromarray(rgb).save(folder / "x.png")
    root = str(tmp_path / "images")

    def first(**kwargs):
        ds = image_dataset_from_directory(root, shuffle=False, verbose=False,
                                          labels=None, **kwargs)
        return np.asarray(next(iter(ds)))[0]

    gray = first(image_size=(14, 12), color_mode="grayscale")
    assert gray.dtype == np.float32
    assert (gray == 119).all()    # floor(60.099 + 59.287 + 0.342)
    assert (first(image_size=(14, 12), color_mode="grayscale",
                  format="grain") == 120).all()       # Pillow rounds
    padded = first(image_size=(10, 10), pad_to_aspect_ratio=True)
    assert (padded[:, :8] == rgb[0, 0]).all()   # 14x12 fits as 10x8 ...
    assert (padded[:, 8:] == 0).all()           # ... at the left edge
    nearest = first(image_size=(7, 6), interpolation="nearest")
    assert nearest.dtype == np.uint8 and (nearest == rgb[0, 0]).all()
    assert first(image_size=(7, 6), interpolation="nearest",
                 format="grain").dtype == np.float32


@pytest.mark.parametrize("seed", cases.SPLIT_SEEDS)
def test_validation_split_membership_matches_keras(seed, ref, tree):
    train, val = image_dataset_from_directory(
        os.path.join(tree, "images"), image_size=(3, 3),
        validation_split=0.3, subset="both", seed=seed, verbose=False)
    assert cases.relative(train.file_paths, tree) == loads(
        ref[f"image_split_{seed}_training"])
    assert cases.relative(val.file_paths, tree) == loads(
        ref[f"image_split_{seed}_validation"])
    alone = image_dataset_from_directory(
        os.path.join(tree, "images"), image_size=(3, 3),
        validation_split=0.3, subset="validation", seed=seed, verbose=False)
    assert alone.file_paths == val.file_paths
    # Every training image appears once per epoch (in a shuffled order).
    images, labels, _ = collect(train, True)
    assert len(images) == len(train.file_paths) == 7


def test_seeded_shuffle_is_reproducible(tree):
    def first_epoch():
        ds = image_dataset_from_directory(
            os.path.join(tree, "images"), image_size=(3, 3), batch_size=3,
            seed=5, verbose=False)
        return collect(ds, True)
    (x1, y1, _), (x2, y2, _) = first_epoch(), first_epoch()
    np.testing.assert_array_equal(x1, x2)
    np.testing.assert_array_equal(y1, y2)


def test_messages(tree, capsys):
    image_dataset_from_directory(os.path.join(tree, "images"),
                                 validation_split=0.2, subset="training",
                                 seed=1, image_size=(2, 2))
    assert capsys.readouterr().out == (
        "Found 10 files belonging to 3 classes.\n"
        "Using 8 files for training.\n")
    image_dataset_from_directory(os.path.join(tree, "images"), labels=None,
                                 image_size=(2, 2))
    assert capsys.readouterr().out == "Found 10 files.\n"


def test_fit_on_image_dataset(tree):
    ds = image_dataset_from_directory(os.path.join(tree, "images"),
                                      image_size=(4, 4), batch_size=4,
                                      seed=3, verbose=False)
    model = kerasish.Sequential([
        kerasish.Input((4, 4, 3)), kerasish.layers.Rescaling(1 / 255),
        kerasish.layers.Flatten(), kerasish.layers.Dense(3)])
    model.compile("adam", kerasish.losses.SparseCategoricalCrossentropy(
        from_logits=True))
    history = model.fit(ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2


def test_gif_first_frame_and_follow_links(tmp_path):
    from PIL import Image
    (tmp_path / "data" / "a").mkdir(parents=True)
    frames = [Image.new("RGB", (4, 4), c) for c in ("red", "blue")]
    frames[0].save(tmp_path / "data" / "a" / "anim.gif", save_all=True,
                   append_images=frames[1:])
    (tmp_path / "elsewhere").mkdir()
    Image.new("RGB", (4, 4), "white").save(tmp_path / "elsewhere" / "w.png")
    os.symlink(tmp_path / "elsewhere", tmp_path / "data" / "a" / "link")
    ds = image_dataset_from_directory(tmp_path / "data", image_size=(4, 4),
                                      shuffle=False, verbose=False)
    assert len(ds.file_paths) == 1
    x, _, _ = collect(ds, True)
    np.testing.assert_allclose(x[0, 0, 0], [255, 0, 0], atol=1)
    ds = image_dataset_from_directory(tmp_path / "data", image_size=(4, 4),
                                      shuffle=False, verbose=False,
                                      follow_links=True)
    assert [os.path.basename(p) for p in ds.file_paths] == ["anim.gif",
                                                            "w.png"]


@pytest.mark.parametrize("kwargs, message", [
    (dict(label_mode="binary"), "exactly 2 class_names"),
    (dict(class_names=["cats", "horses"]), "did not match the names"),
    (dict(color_mode="cmyk"), "color_mode=cmyk"),
    (dict(crop_to_aspect_ratio=True, pad_to_aspect_ratio=True),
     "Only one of"),
    (dict(validation_split=0.2, subset="training"), "provide a `seed`"),
    (dict(validation_split=0.2), "`subset` is set"),
    (dict(validation_split=1.5, subset="training", seed=1), "between 0"),
    (dict(labels=[0, 1]), "len\\(labels\\) is 2"),
    (dict(labels=[0] * 10, class_names=["cats"]), "only pass `class_names`"),
    (dict(labels="folders"), "list/tuple of integer labels"),
    (dict(label_mode="sparse"), "label_mode=sparse"),
    (dict(format="torch"), 'either "tf" or "grain"'),
    (dict(interpolation="cubic"), "interpolation=cubic"),
    (dict(image_size=(1, 2, 3)), "image_size=\\(1, 2, 3\\)"),
    (dict(labels=None, class_names=["a"]), "cannot be specified"),
])
def test_argument_errors(kwargs, message, tree):
    with pytest.raises(ValueError, match=message):
        image_dataset_from_directory(os.path.join(tree, "images"),
                                     verbose=False, **kwargs)


def test_missing_or_empty_directory(tmp_path):
    with pytest.raises(ValueError, match="existing folder"):
        image_dataset_from_directory(tmp_path / "nope")
    (tmp_path / "empty" / "a").mkdir(parents=True)
    with pytest.raises(ValueError, match="No images found in directory"):
        image_dataset_from_directory(tmp_path / "empty", verbose=False)


def test_public_names():
    assert kerasish.utils.image_dataset_from_directory is \
        image_dataset_from_directory
