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
    return {"dtype": str(array.dtype), "shape": list(array.shape),
            "values": array.ravel().tolist()}


def main():
    reference = {"keras_version": keras.__version__,
                 "bounding_boxes": bounding_box_cases()}
    for name, build in LAYER_CASES:
        reference[name] = build()
    with open(os.path.join(HERE, "keras_reference.json"), "w") as f:
        json.dump(_jsonable(reference), f, separators=(",", ":"))


LAYER_CASES = []

if __name__ == "__main__":
    main()
