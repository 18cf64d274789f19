"""The standard layer checks (`run_layer_test`) for every image layer:
build on call, symbolic vs real shapes, config round trip, gradients with
respect to the images where the layer is differentiable (deterministic
settings, so repeated calls agree)."""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.layers.harness import run_layer_test

SHAPE = (2, 8, 9, 3)

# (class, constructor arguments, output shape, gradient check)
CASES = [
    (layers.Resizing, {"height": 4, "width": 5}, (2, 4, 5, 3), True),
    (layers.Resizing, {"height": 12, "width": 6, "interpolation": "bicubic",
                       "crop_to_aspect_ratio": True}, (2, 12, 6, 3), True),
    (layers.CenterCrop, {"height": 5, "width": 7}, (2, 5, 7, 3), True),
    (layers.CenterCrop, {"height": 10, "width": 4}, (2, 10, 4, 3), True),
    (layers.RandomCrop, {"height": 5, "width": 5, "seed": 3},
     (2, 5, 5, 3), False),
    (layers.RandomFlip, {"seed": 1}, SHAPE, False),
    (layers.RandomRotation, {"factor": (0.1, 0.1), "fill_mode": "constant"},
     SHAPE, True),
    (layers.RandomTranslation, {"height_factor": (0.2, 0.2),
                                "width_factor": (-0.1, -0.1)}, SHAPE, True),
    (layers.RandomZoom, {"height_factor": (-0.2, -0.2),
                         "fill_mode": "nearest"}, SHAPE, True),
    (layers.RandomShear, {"x_factor": 0.2, "y_factor": (0.1, 0.3),
                          "seed": 2}, SHAPE, False),
    (layers.RandomPerspective, {"scale": 0.3, "seed": 2}, SHAPE, False),
    (layers.RandomElasticTransform, {"seed": 2}, SHAPE, False),
    (layers.RandomContrast, {"factor": (-0.5, 0.5), "value_range": (-9, 9)},
     SHAPE, True),
    (layers.RandomBrightness, {"factor": (0.1, 0.1), "value_range": (-9, 9)},
     SHAPE, True),
    (layers.RandomColorDegeneration, {"factor": (0.4, 0.4),
                                      "value_range": (-9, 9)}, SHAPE, True),
    (layers.RandomColorJitter, {"brightness_factor": 0.1,
                                "contrast_factor": 0.2, "hue_factor": 0.1,
                                "saturation_factor": 0.3, "seed": 1},
     SHAPE, False),
    (layers.RandomGrayscale, {"factor": 1.0}, SHAPE, True),
    (layers.RandomHue, {"factor": 0.5, "value_range": (0, 1), "seed": 1},
     SHAPE, False),
    (layers.RandomSaturation, {"factor": 0.7, "seed": 1}, SHAPE, False),
    (layers.RandomSharpness, {"factor": (0.8, 0.8), "value_range": (-9, 9)},
     SHAPE, True),
    (layers.RandomInvert, {"factor": (1.0, 1.0)}, SHAPE, True),
    (layers.RandomPosterization, {"factor": 4, "seed": 1}, SHAPE, False),
    (layers.Solarization, {"addition_factor": 0.2, "threshold_factor": 0.5,
                           "seed": 1}, SHAPE, False),
    (layers.AutoContrast, {}, SHAPE, True),
    (layers.Equalization, {"bins": 64}, SHAPE, False),
    (layers.ContrastLimitedAdaptiveHistogramEqualization,
     {"tile_grid_size": (2, 3)}, SHAPE, False),
    (layers.RandomGaussianBlur, {"factor": (1.0, 1.0), "sigma": (0.5, 0.5),
                                 "kernel_size": (3, 5),
                                 "value_range": (-9, 9)}, SHAPE, True),
    (layers.RandomErasing, {"seed": 4, "fill_value": (1.0, 2.0, 3.0)},
     SHAPE, False),
    (layers.CutMix, {"seed": 1}, SHAPE, False),
    (layers.MixUp, {"alpha": 0.4, "seed": 1}, SHAPE, False),
    (layers.AugMix, {"seed": 1, "num_chains": 2}, SHAPE, False),
    (layers.RandAugment, {"seed": 1, "num_ops": 3}, SHAPE, False),
    (layers.MaxNumBoundingBoxes, {"max_number": 4}, SHAPE, True),
]


@pytest.mark.parametrize("cls, kwargs, out_shape, grads", CASES,
                         ids=[f"{c[0].__name__}-{i}"
                              for i, c in enumerate(CASES)])
def test_layer_contract(cls, kwargs, out_shape, grads, tmp_path):
    rng = np.random.default_rng(0)
    data = rng.uniform(0, 1, SHAPE).astype("float32")
    out = run_layer_test(cls, kwargs, SHAPE, expected_output_shape=out_shape,
                         expected_num_trainable_weights=0,
                         expected_num_non_trainable_weights=0,
                         input_data=data, grad_check=grads,
                         call_kwargs={"training": True},
                         tmp_path=tmp_path, atol=1e-5)
    assert out.dtype == np.float32


@pytest.mark.parametrize("cls, kwargs, out_shape, grads", CASES,
                         ids=[f"{c[0].__name__}-{i}"
                              for i, c in enumerate(CASES)])
def test_channels_first_and_unbatched(cls, kwargs, out_shape, grads):
    kwargs = dict(kwargs, data_format="channels_first")
    if cls is layers.Pipeline:
        return
    layer = cls(**kwargs)
    images = np.random.default_rng(1).uniform(0, 1, (2, 3, 8, 9))
    out = layer(images.astype("float32"), training=True)
    expected = (out_shape[0], out_shape[3]) + out_shape[1:3]
    assert out.shape == expected
    single = layer(images[0].astype("float32"), training=True)
    assert single.shape == expected[1:]
    assert layer.compute_output_shape((None,) + images.shape[1:]) == \
        (None,) + expected[1:]


def test_every_layer_is_registered_and_exported():
    names = {c[0].__name__ for c in CASES} | {"Pipeline"}
    assert len(names) == 32
    for name in names:
        cls = getattr(kerasish.layers, name)
        config = kerasish.layers.serialize(
            cls(**next((c[1] for c in CASES if c[0] is cls), {}))
            if name != "Pipeline" else cls([]))
        assert config["module"] == "keras.layers"
        assert config["class_name"] == name
