"""Image layers against real Keras 3.15 outputs on deterministic settings
(values from make_keras_reference.py, run with Keras on JAX)."""
import numpy as np
import pytest

import kerasish
from tests.layers.preprocessing.image.reference import reference

LAYERS = reference("layers")
BOXES = reference("boxes")

# Float32 results may differ by an ulp or two where the order of
# operations differs (XLA fuses differently); integer-valued outputs and
# lookups are exact, except that a resized uint8 value whose float32
# result lands within an ulp of .5 may round the other way (by 1).
TOLERANCE = {"resize_uint8": 1}


def _kwargs(case):
    return {k: tuple(v) if isinstance(v, list) else v
            for k, v in case["kwargs"].items()}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_output_matches_keras(name):
    case = LAYERS[name]
    layer = getattr(kerasish.layers, case["class_name"])(**_kwargs(case))
    out = layer(case["input"], training=True)
    expected = case["output"]
    assert out.shape == expected.shape
    assert str(out.dtype) == str(expected.dtype)
    atol = TOLERANCE.get(name, 2e-4 if expected.dtype.kind == "f" else 0)
    if name.startswith(("equalization", "solarization", "posterization",
                        "invert")):
        atol = 1e-6  # lookups and bit operations: exact
    np.testing.assert_allclose(np.asarray(out, "float64"),
                               expected.astype("float64"), rtol=1e-5,
                               atol=atol)


def test_unbatched_input_matches_batched():
    case = LAYERS["rotation_small_constant"]
    layer = kerasish.layers.RandomRotation(**_kwargs(case))
    out = layer(case["input"][1], training=True)
    np.testing.assert_allclose(np.asarray(out), case["output"][1], atol=2e-4)


@pytest.mark.parametrize("name", sorted(k for k in BOXES
                                        if k not in ("images",
                                                     "bounding_boxes")))
def test_boxes_match_keras(name):
    case = BOXES[name]
    layer = getattr(kerasish.layers, case["class_name"])(**_kwargs(case))
    labels = BOXES["bounding_boxes"]["labels"]
    out = layer({"images": BOXES["images"],
                 "bounding_boxes": {"boxes": case["input_boxes"],
                                    "labels": labels}}, training=True)
    boxes = out["bounding_boxes"]
    np.testing.assert_allclose(np.asarray(boxes["boxes"]),
                               case["output"]["boxes"], atol=2e-4)
    np.testing.assert_array_equal(np.asarray(boxes["labels"]),
                                  case["output"]["labels"])
