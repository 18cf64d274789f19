"""`kerasish.visualization`: drawing boxes and masks (numpy; the masks
against Keras 3.15 values from
tests/layers/preprocessing/image/make_keras_reference.py), the bitmap
font, and the matplotlib galleries."""
import sys

import numpy as np
import pytest

import kerasish
from kerasish.visualization import (draw_bounding_boxes,
                                    draw_segmentation_masks, font)
from tests.layers.preprocessing.image.reference import reference

RED = (255, 0, 0)


def boxes(rows, labels):
    return {"boxes": np.array([rows], "float32"),
            "labels": np.array([labels])}


def test_namespace_is_lazy_and_complete():
    import subprocess
    code = ("import sys, kerasish; assert 'kerasish.visualization' not in "
            "sys.modules; v = kerasish.visualization; "
            "assert 'matplotlib' not in sys.modules; print(sorted(n for n in "
            "dir(v) if not n.startswith('_') and callable(getattr(v, n))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True).stdout
    for name in ("draw_bounding_boxes", "draw_segmentation_masks",
                 "plot_bounding_box_gallery", "plot_image_gallery",
                 "plot_segmentation_mask_gallery"):
        assert name in out
    assert "visualization" in dir(kerasish)


def test_rectangle_outline_and_thickness():
    out = draw_bounding_boxes(np.zeros((1, 10, 10, 3)),
                              boxes([[2, 3, 7, 8]], [0]), "xyxy", color=RED,
                              line_thickness=1)
    red = out[0, ..., 0] == 255
    assert out.dtype == np.uint8 and out.shape == (1, 10, 10, 3)
    assert red[3, 2:8].all() and red[8, 2:8].all()
    assert red[3:9, 2].all() and red[3:9, 7].all()
    assert red.sum() == 2 * 6 + 2 * 4 and not red[5, 5]
    thick = draw_bounding_boxes(np.zeros((1, 12, 12, 3)),
                                boxes([[3, 3, 8, 8]], [0]), "xyxy",
                                color=RED, line_thickness=3)
    assert (thick[0, 2:5, 4, 0] == 255).all()     # 3 rows around y = 3
    assert thick[0, 5, 5, 0] == 0


def test_formats_padding_labels_and_float_images():
    images = np.full((1, 10, 10, 3), 0.5)
    out = draw_bounding_boxes(images, boxes([[5, 5, 6, 6], [0, 0, 0, 0]],
                                            [1, -1]), "center_xywh",
                              color=RED, line_thickness=1)
    assert out[0, 0, 0, 0] == 127                  # [0, 1] floats scaled
    assert (out[0, 2, 2:9, 0] == 255).all()        # the box 2..8
    first = np.moveaxis(np.zeros((1, 10, 10, 3)), -1, 1)
    cf = draw_bounding_boxes(first, boxes([[1, 1, 4, 4]], [0]), "xyxy",
                             color=RED, line_thickness=1,
                             data_format="channels_first")
    assert cf.shape == (1, 10, 10, 3) and cf[0, 1, 1, 0] == 255


def test_class_names_and_confidences_are_written():
    images = np.zeros((1, 60, 90, 3))
    labeled = boxes([[5, 40, 60, 55]], [2])
    plain = draw_bounding_boxes(images, labeled, "xyxy", color=RED)
    named = draw_bounding_boxes(images, labeled, "xyxy", color=RED,
                                class_mapping={2: "cat"}, font_scale=0.5)
    text = (named[0, ..., 0] == 255) & (plain[0, ..., 0] == 0)
    ys, xs = np.nonzero(text)
    # Above the box, starting at its left edge: 3 glyphs of 5 + gaps.
    assert ys.max() < 40 - 8 + 1 and xs.min() == 5 and xs.max() <= 5 + 17
    labeled["confidences"] = np.array([[0.875]])
    longer = draw_bounding_boxes(images, labeled, "xyxy", color=RED,
                                 class_mapping={2: "cat"}, font_scale=0.5)
    assert (longer[0, ..., 0] == 255).sum() > (named[0, ..., 0] == 255).sum()


def test_draw_bounding_boxes_errors():
    with pytest.raises(ValueError, match="4D"):
        draw_bounding_boxes(np.zeros((4, 4, 3)), boxes([[0, 0, 1, 1]], [0]),
                            "xyxy")
    with pytest.raises(TypeError, match="dict"):
        draw_bounding_boxes(np.zeros((1, 4, 4, 3)), [1, 2], "xyxy")
    with pytest.raises(ValueError, match="'labels'"):
        draw_bounding_boxes(np.zeros((1, 4, 4, 3)), {"boxes": 1}, "xyxy")


def test_font():
    assert len(font.GLYPHS) == 95
    assert font.glyph("A").shape == (7, 5)
    np.testing.assert_array_equal(font.glyph("é"), font.glyph("?"))
    assert font.glyph("I")[:, 2].all() and font.glyph(" ").sum() == 0
    assert font.render("ab", scale=2).shape == (14, 22)
    assert font.render("l", thickness=2).sum() > font.render("l").sum()


def test_segmentation_masks_match_keras():
    ref = reference("visualization")
    out = draw_segmentation_masks(ref["images"], ref["masks"], num_classes=4,
                                  alpha=0.6)
    np.testing.assert_array_equal(out, ref["blend"])
    mapped = draw_segmentation_masks(
        ref["images"], ref["masks"], num_classes=2, alpha=0.3,
        color_mapping={0: [10, 20, 30], 1: [200, 0, 9]})
    np.testing.assert_array_equal(mapped, ref["mapping"])


def test_segmentation_masks_defaults_and_options():
    images = np.full((1, 2, 3, 3), 100.0)
    masks = np.array([[[0, 1, 2], [-1, 2, 5]]])
    out = draw_segmentation_masks(images, masks, alpha=1.0)
    # Every present class (up to the largest id) gets a colour.
    assert out[0, 1, 1].tolist() == [(2 * (2**25 - 1)) % 255,
                                     (2 * (2**15 - 1)) % 255,
                                     (2 * (2**21 - 1)) % 255]
    assert out[0, 1, 0].tolist() == [100, 100, 100]   # ignore_index
    raw = draw_segmentation_masks(images, masks, num_classes=2, blend=False)
    assert raw.dtype == np.float32
    assert raw[0, 0, 2].tolist() == [100.0] * 3       # id 2 >= num_classes
    with pytest.raises(TypeError, match="integer"):
        draw_segmentation_masks(images, masks.astype("float32"))


def test_galleries_save_pictures(tmp_path):
    pytest.importorskip("matplotlib")
    from kerasish.visualization import (plot_bounding_box_gallery,
                                        plot_image_gallery,
                                        plot_segmentation_mask_gallery)
    rng = np.random.default_rng(0)
    images = rng.uniform(0, 1, (5, 16, 16, 3))
    path = tmp_path / "images.png"
    plot_image_gallery(images, y_true=[0, 1, 0], label_map={0: "a", 1: "b"},
                       value_range=(0, 1), path=str(path))
    assert path.stat().st_size > 0
    labeled = {"boxes": np.array([[[2, 2, 9, 9]]] * 5),
               "labels": np.zeros((5, 1), "int32")}
    path = tmp_path / "boxes.png"
    plot_bounding_box_gallery(images, "xyxy", y_true=labeled, y_pred=labeled,
                              value_range=(0, 1), legend=True,
                              class_mapping={0: "x"}, path=str(path))
    assert path.stat().st_size > 0
    path = tmp_path / "masks.png"
    masks = rng.integers(0, 3, (5, 16, 16, 1))
    plot_segmentation_mask_gallery(images * 255, 3, y_true=masks,
                                   y_pred=masks, path=str(path))
    assert path.stat().st_size > 0


def test_gallery_errors():
    pytest.importorskip("matplotlib")
    from kerasish.visualization import (plot_bounding_box_gallery,
                                        plot_image_gallery)
    with pytest.raises(ValueError, match="`path` to be set, or `show`"):
        plot_image_gallery(np.zeros((1, 4, 4, 3)), path="x.png", show=True)
    with pytest.raises(ValueError, match="label_map"):
        plot_image_gallery(np.zeros((1, 4, 4, 3)), y_true=[0])
    with pytest.raises(ValueError, match="batch"):
        plot_image_gallery(np.zeros((4, 4, 3)), path="x.png")
    with pytest.raises(ValueError, match="legend"):
        plot_bounding_box_gallery(np.zeros((1, 4, 4, 3)), "xyxy",
                                  legend=True, legend_handles=[1])
