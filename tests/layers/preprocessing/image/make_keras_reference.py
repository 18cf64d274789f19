"""Write `keras_reference.json`: outputs of real Keras 3 for the image
preprocessing layers and `keras.utils.bounding_boxes`, on fixed inputs and
deterministic settings (random layers with degenerate ranges).

Run from the repository root with the Keras + JAX interpreter:

    KERAS_BACKEND=jax /work/kvenv/bin/python \
        tests/layers/preprocessing/image/make_keras_reference.py

Every case stores its inputs next to Keras's output, so the tests never
depend on a random generator matching across environments.
"""
import json
import os

import numpy as np

import keras

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy",
           "rel_yxyx", "rel_xywh", "rel_center_xywh")


def _boxes(seed, shape):
    rng = np.random.default_rng(seed)
    boxes = (rng.random(shape + (4,)) * 50).astype("float32")
    boxes[..., 2:] += boxes[..., :2]
    return boxes


def bounding_box_cases():
    bb = keras.utils.bounding_boxes
    boxes = _boxes(0, (2, 3))
    cases = {"boxes": boxes}
    cases["convert"] = {f"{s}>{t}": bb.convert_format(
        boxes, s, t, height=60, width=80) for s in FORMATS for t in FORMATS}
    cases["clip"] = bb.clip_to_image_size(
        {"boxes": boxes * 1.5 - 10, "labels": np.array([[0, 1, 2],
                                                        [1, 2, 3]])},
        height=60, width=80)
    cases["affine"] = bb.affine_transform(
        boxes, np.array([30.0, -45.0]), np.array([0.1, -0.2]),
        np.array([0.05, 0.0]), np.array([1.2, 0.8]), np.array([10.0, 0.0]),
        np.array([0.0, -5.0]), 60, 80)
    cases["crop"] = bb.crop(boxes, 5, 7, 40, 30)
    cases["pad"] = bb.pad(boxes, 5, 7)
    cases["iou"] = bb.compute_iou(boxes[0], boxes[1], "xyxy")
    cases["iou_batched_masked"] = bb.compute_iou(boxes - 20, boxes, "xywh",
                                                 use_masking=True)
    cases["ciou"] = bb.compute_ciou(boxes[0], boxes[1], "xyxy")
    variance = [0.1, 0.1, 0.2, 0.2]
    cases["encode"] = bb.encode_box_to_deltas(boxes[0], boxes, "xyxy",
                                              "xywh", variance=variance)
    cases["decode"] = bb.decode_deltas_to_boxes(
        boxes[0], boxes / 50, "xyxy", "center_xywh", variance=variance)
    return cases


def _jsonable(value):
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    array = np.asarray(value)
    values = array.ravel().tolist()
    if array.dtype.kind == "f":
        # 9 significant digits restore a float32 exactly.
        values = [float(f"{v:.9g}") for v in values]
    return {"dtype": str(array.dtype), "shape": list(array.shape),
            "values": values}


def main():
    reference = {"keras_version": keras.__version__,
                 "bounding_boxes": bounding_box_cases()}
    for name, build in LAYER_CASES:
        reference[name] = build()
    with open(os.path.join(HERE, "keras_reference.json"), "w") as f:
        json.dump(_jsonable(reference), f, separators=(",", ":"))


def _images(seed, shape, integer=False):
    rng = np.random.default_rng(seed)
    images = rng.uniform(0, 255, shape)
    return images.round().astype("uint8") if integer else \
        images.astype("float32")


# (case name, layer class name, constructor arguments, input) run in
# training mode; deterministic settings only.
IMAGES = _images(1, (2, 6, 7, 3))
SMALL = _images(2, (1, 5, 6, 3))
LAYER_CALLS = [
    ("resize_bilinear", "Resizing", {"height": 4, "width": 5}, IMAGES),
    ("resize_up_bicubic", "Resizing",
     {"height": 10, "width": 11, "interpolation": "bicubic"}, IMAGES),
    ("resize_nearest", "Resizing",
     {"height": 5, "width": 4, "interpolation": "nearest"}, IMAGES),
    ("resize_antialias", "Resizing",
     {"height": 3, "width": 4, "antialias": True}, IMAGES),
    ("resize_crop_aspect", "Resizing",
     {"height": 4, "width": 4, "crop_to_aspect_ratio": True}, IMAGES),
    ("resize_pad_aspect", "Resizing",
     {"height": 4, "width": 4, "pad_to_aspect_ratio": True,
      "fill_value": 7.0}, IMAGES),
    ("resize_uint8", "Resizing", {"height": 4, "width": 6},
     _images(3, (2, 7, 9, 3), integer=True)),
    ("resize_channels_first", "Resizing",
     {"height": 4, "width": 3, "data_format": "channels_first"},
     _images(4, (2, 3, 7, 9))),
    ("center_crop", "CenterCrop", {"height": 3, "width": 5}, IMAGES),
    ("center_crop_upscale", "CenterCrop", {"height": 9, "width": 6}, IMAGES),
    ("rotation_90", "RandomRotation", {"factor": (0.25, 0.25)}, IMAGES),
    ("rotation_small_constant", "RandomRotation",
     {"factor": (0.1, 0.1), "fill_mode": "constant", "fill_value": 3.0},
     IMAGES),
    ("rotation_wrap_nearest", "RandomRotation",
     {"factor": (-0.15, -0.15), "fill_mode": "wrap",
      "interpolation": "nearest"}, IMAGES),
    ("rotation_nearest_fill", "RandomRotation",
     {"factor": (0.2, 0.2), "fill_mode": "nearest"}, IMAGES),
    ("translation", "RandomTranslation",
     {"height_factor": (0.2, 0.2), "width_factor": (-0.3, -0.3)}, IMAGES),
    ("translation_constant", "RandomTranslation",
     {"height_factor": (-0.25, -0.25), "width_factor": (0.1, 0.1),
      "fill_mode": "constant"}, IMAGES),
    ("zoom_in", "RandomZoom", {"height_factor": (-0.3, -0.3)}, IMAGES),
    ("zoom_out_constant", "RandomZoom",
     {"height_factor": (0.5, 0.5), "width_factor": (0.2, 0.2),
      "fill_mode": "constant"}, IMAGES),
    ("contrast", "RandomContrast",
     {"factor": (-0.5, 0.5), "value_range": (0, 255)}, IMAGES),
    ("brightness", "RandomBrightness", {"factor": (0.2, 0.2)}, IMAGES),
    ("brightness_darken_unit", "RandomBrightness",
     {"factor": (-0.3, -0.3), "value_range": (0, 1)}, IMAGES / 255.0),
    ("color_degeneration", "RandomColorDegeneration",
     {"factor": (0.4, 0.4)}, IMAGES),
    ("grayscale", "RandomGrayscale", {"factor": 1.0}, IMAGES),
    ("saturation", "RandomSaturation",
     {"factor": (0.3, 0.3), "value_range": (0, 1)}, IMAGES / 255.0),
    ("sharpness", "RandomSharpness", {"factor": (0.8, 0.8)}, IMAGES),
    ("invert", "RandomInvert", {"factor": (1.0, 1.0)}, IMAGES),
    ("posterization", "RandomPosterization", {"factor": (3, 3)}, IMAGES),
    ("posterization_unit", "RandomPosterization",
     {"factor": (5, 5), "value_range": (0, 1)}, IMAGES / 255.0),
    ("solarization", "Solarization", {}, IMAGES),
    ("solarization_unit", "Solarization", {"value_range": (0, 1)},
     IMAGES / 255.0),
    ("auto_contrast", "AutoContrast", {}, IMAGES),
    ("auto_contrast_unit", "AutoContrast", {"value_range": (0, 1)},
     IMAGES / 400.0),
    ("equalization", "Equalization", {}, IMAGES[:1]),
    ("equalization_bins", "Equalization", {"bins": 16},
     _images(5, (1, 16, 16, 3), integer=True)),
    ("clahe", "ContrastLimitedAdaptiveHistogramEqualization",
     {"tile_grid_size": (2, 3)}, _images(6, (2, 8, 9, 3))),
    ("clahe_padded_clip", "ContrastLimitedAdaptiveHistogramEqualization",
     {"tile_grid_size": (3, 2), "clip_limit": 2.0},
     _images(7, (1, 10, 7, 2))),
    ("clahe_unit", "ContrastLimitedAdaptiveHistogramEqualization",
     {"tile_grid_size": (2, 2), "value_range": (0, 1)},
     _images(8, (1, 6, 6, 1)) / 255.0),
    ("gaussian_blur", "RandomGaussianBlur",
     {"factor": (1.0, 1.0), "kernel_size": 5, "sigma": (0.7, 0.7)}, SMALL),
]

# Bounding boxes through deterministic geometric layers ("xyxy" unless
# the case says otherwise).
BOX_IMAGES = np.zeros((2, 20, 30, 3), "float32")
BOXES = {"boxes": np.array([[[2.0, 3.0, 10.0, 12.0], [15.0, 1.0, 28.0, 9.0],
                             [0.0, 0.0, 0.0, 0.0]],
                            [[5.0, 5.0, 25.0, 18.0], [1.0, 10.0, 4.0, 19.0],
                             [20.0, 2.0, 29.0, 6.0]]], "float32"),
         "labels": np.array([[1, 2, -1], [3, 4, 5]], "int32")}
BOX_CALLS = [
    ("resize", "Resizing", {"height": 10, "width": 12}),
    ("resize_pad", "Resizing",
     {"height": 10, "width": 10, "pad_to_aspect_ratio": True}),
    ("resize_crop", "Resizing",
     {"height": 10, "width": 10, "crop_to_aspect_ratio": True}),
    ("center_crop", "CenterCrop", {"height": 12, "width": 16}),
    ("center_crop_upscale", "CenterCrop", {"height": 24, "width": 20}),
    ("rotation", "RandomRotation", {"factor": (0.1, 0.1)}),
    ("translation", "RandomTranslation",
     {"height_factor": (0.2, 0.2), "width_factor": (-0.1, -0.1)}),
    ("zoom", "RandomZoom", {"height_factor": (-0.2, -0.2)}),
    ("zoom_out", "RandomZoom", {"height_factor": (0.3, 0.3)}),
    ("resize_center_xywh", "Resizing",
     {"height": 10, "width": 12, "bounding_box_format": "center_xywh"}),
]


def _run(class_name, kwargs, data):
    layer = getattr(keras.layers, class_name)(**kwargs)
    return layer(data, training=True)


def layer_cases():
    cases = {}
    for name, class_name, kwargs, images in LAYER_CALLS:
        cases[name] = {"class_name": class_name, "kwargs": kwargs,
                       "input": images,
                       "output": _run(class_name, kwargs, images)}
    return cases


def box_cases():
    cases = {"images": BOX_IMAGES, "bounding_boxes": BOXES}
    for name, class_name, kwargs in BOX_CALLS:
        kwargs = {"bounding_box_format": "xyxy", **kwargs}
        boxes = BOXES
        if kwargs["bounding_box_format"] != "xyxy":
            boxes = {**BOXES, "boxes": keras.utils.bounding_boxes
                     .convert_format(BOXES["boxes"], "xyxy",
                                     kwargs["bounding_box_format"])}
        out = _run(class_name, kwargs, {"images": BOX_IMAGES,
                                        "bounding_boxes": dict(boxes)})
        cases[name] = {"class_name": class_name, "kwargs": kwargs,
                       "input_boxes": boxes["boxes"],
                       "output": out["bounding_boxes"]}
    return cases


def visualization_cases():
    rng = np.random.default_rng(9)
    images = rng.uniform(0, 255, (2, 5, 6, 3)).astype("float32")
    masks = rng.integers(-1, 4, (2, 5, 6, 1)).astype("int32")
    draw = keras.visualization.draw_segmentation_masks
    return {"images": images, "masks": masks,
            "blend": draw(images, masks, num_classes=4, alpha=0.6),
            "mapping": draw(images, masks, num_classes=2,
                            color_mapping={0: [10, 20, 30], 1: [200, 0, 9]},
                            alpha=0.3)}


LAYER_CASES = [("layers", layer_cases), ("boxes", box_cases),
               ("visualization", visualization_cases)]

if __name__ == "__main__":
    main()
