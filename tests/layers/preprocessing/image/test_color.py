"""Colour and tone layers: value ranges, statistics of the random draws,
hand-computed values, dtypes and argument checks."""
import numpy as np
import pytest

from kerasish import layers

RNG = np.random.default_rng(0)
IMAGES = RNG.uniform(0, 255, (6, 8, 9, 3)).astype("float32")

RANDOM_COLOR = [
    (layers.RandomContrast, {"factor": 0.5}),
    (layers.RandomBrightness, {"factor": 0.3}),
    (layers.RandomColorDegeneration, {"factor": 0.8}),
    (layers.RandomColorJitter, {"brightness_factor": 0.2,
                                "contrast_factor": 0.3,
                                "saturation_factor": 0.6,
                                "hue_factor": 0.2}),
    (layers.RandomGrayscale, {"factor": 0.5}),
    (layers.RandomHue, {"factor": 0.6}),
    (layers.RandomSaturation, {"factor": 0.9}),
    (layers.RandomSharpness, {"factor": 0.9}),
    (layers.RandomInvert, {}),
    (layers.RandomPosterization, {"factor": 6}),
    (layers.Solarization, {"addition_factor": 0.3, "threshold_factor": 0.7}),
    (layers.RandomGaussianBlur, {"sigma": 0.9}),
    (layers.RandomErasing, {}),
]


@pytest.mark.parametrize("cls, kwargs", RANDOM_COLOR,
                         ids=[c[0].__name__ for c in RANDOM_COLOR])
def test_values_stay_in_range_and_draws_are_seeded(cls, kwargs):
    layer = cls(seed=7, **kwargs)
    out = np.asarray(layer(IMAGES, training=True))
    assert out.shape == IMAGES.shape and out.dtype == np.float32
    assert out.min() >= -1e-3 and out.max() <= 255.0 + 1e-3
    again = np.asarray(cls(seed=7, **kwargs)(IMAGES, training=True))
    np.testing.assert_array_equal(out, again)
    second = np.asarray(layer(IMAGES, training=True))
    assert not np.array_equal(out, second)
    np.testing.assert_array_equal(np.asarray(layer(IMAGES, training=False)),
                                  IMAGES)


def test_integer_images_come_out_in_the_compute_dtype():
    pixels = IMAGES.astype("uint8")
    for layer in (layers.RandomContrast(0.2), layers.RandomBrightness(0.1),
                  layers.Solarization(), layers.AutoContrast(),
                  layers.Equalization(), layers.RandomInvert()):
        assert str(layer(pixels, training=True).dtype) == "float32"
        assert str(layer(pixels, training=False).dtype) == "float32"
    clahe = layers.ContrastLimitedAdaptiveHistogramEqualization()
    assert str(clahe(pixels).dtype) == "uint8"
    assert str(layers.RandomGrayscale(1.0)(pixels).dtype) == "uint8"


def test_contrast_factor_range_follows_keras():
    # Keras 3 clips a single float's lower bound at 0: c in [1, 1 + f].
    layer = layers.RandomContrast(0.4, seed=0)
    assert layer.factor == (0, 0.4)
    factors = layer.get_random_transformation(np.zeros((4000, 2, 2, 1)))
    factors = factors["contrast_factor"].ravel()
    assert 1.0 <= factors.min() < 1.02 and 1.38 < factors.max() <= 1.4
    pair = layers.RandomContrast((0.1, 0.3))
    assert pair.factor == (0.1, 0.3)


def test_saturation_and_degeneration_read_a_float_symmetrically():
    # As Keras 3: f means (-|f|, |f|) for these two layers.
    assert layers.RandomSaturation(0.3).factor == (-0.3, 0.3)
    assert layers.RandomColorDegeneration(0.3).factor == (-0.3, 0.3)


def test_contrast_keeps_the_channel_means():
    out = np.asarray(layers.RandomContrast((-0.5, 0.5), value_range=(-1e4,
                                                                    1e4))(
        IMAGES, training=True))
    np.testing.assert_allclose(out.mean(axis=(1, 2)),
                               IMAGES.mean(axis=(1, 2)), rtol=1e-5)
    np.testing.assert_allclose(out.std(axis=(1, 2)),
                               1.5 * IMAGES.std(axis=(1, 2)), rtol=1e-4)


def test_brightness_delta_statistics():
    layer = layers.RandomBrightness((-0.2, 0.1), value_range=(0, 1), seed=0)
    deltas = layer.get_random_transformation(np.zeros((2000, 1, 1, 1)))
    deltas = deltas["rgb_delta"].ravel()
    assert -0.2 <= deltas.min() < -0.19 and 0.09 < deltas.max() <= 0.1
    assert abs(deltas.mean() + 0.05) < 0.01


def test_color_degeneration_endpoints():
    gray = np.asarray(layers.RandomColorDegeneration((1.0, 1.0))(IMAGES))
    np.testing.assert_allclose(gray[..., 0], gray[..., 2], rtol=1e-6)
    same = np.asarray(layers.RandomColorDegeneration((0.0, 0.0))(IMAGES))
    np.testing.assert_allclose(same, IMAGES, rtol=1e-6)


def test_grayscale_channels_are_equal_luma():
    out = np.asarray(layers.RandomGrayscale(1.0)(IMAGES, training=True))
    luma = IMAGES @ np.array([0.2989, 0.587, 0.114], "float32")
    for channel in range(3):
        np.testing.assert_allclose(out[..., channel], luma, rtol=1e-5)
    kept = layers.RandomGrayscale(0.0)(IMAGES, training=True)
    np.testing.assert_array_equal(np.asarray(kept), IMAGES)


def test_hue_and_saturation_identities():
    unit = IMAGES / 255.0
    half = layers.RandomSaturation((0.5, 0.5), value_range=(0, 1))
    np.testing.assert_allclose(np.asarray(half(unit)), unit, atol=1e-5)
    full_turn = layers.RandomHue((0.0, 0.0), value_range=(0, 1))
    np.testing.assert_allclose(np.asarray(full_turn(unit)), unit, atol=1e-5)
    # A half turn of hue swaps a colour with its complement.
    red = np.array([[[1.0, 0.0, 0.0]]], "float32")
    cyan = layers.RandomHue((1.0, 1.0), value_range=(0, 1))(red)
    np.testing.assert_allclose(np.asarray(cyan), [[[0.0, 1.0, 1.0]]],
                               atol=1e-6)


def test_sharpness_blurs_below_one_half_and_sharpens_above():
    image = np.zeros((1, 5, 5, 1), "float32")
    image[0, 2, 2] = 130.0
    blur = np.asarray(layers.RandomSharpness((0.0, 0.0))(image))
    sharp = np.asarray(layers.RandomSharpness((1.0, 1.0))(image))
    assert blur[0, 2, 2, 0] == pytest.approx(50.0)   # 5/13 of the peak
    assert blur[0, 1, 2, 0] == pytest.approx(10.0)   # 1/13 to neighbours
    assert sharp[0, 2, 2, 0] == pytest.approx(210.0)
    assert sharp[0, 1, 2, 0] == 0.0                   # clipped at 0


def test_invert_probability():
    layer = layers.RandomInvert(factor=(0.3, 0.3), seed=0)
    t = layer.get_random_transformation(np.zeros((4000, 1, 1, 1)))
    assert 0.27 < t["apply_inversion"].mean() < 0.33


def test_posterization_bits_are_drawn_inclusively():
    layer = layers.RandomPosterization(3, seed=0)
    shifts = layer.get_random_transformation(np.zeros((300, 1, 1, 1)))
    assert sorted(set((8 - shifts["shift_factor"]).tolist())) == [1, 2, 3]
    out = np.asarray(layers.RandomPosterization((1, 1))(IMAGES))
    assert set(np.unique(out)) <= {0.0, 128.0}


def test_solarization_threshold_semantics():
    values = np.array([[[0.0], [100.0], [127.0], [128.0], [200.0]]])
    layer = layers.Solarization(threshold_factor=(128 / 255, 128 / 255))
    assert np.asarray(layer(values))[..., 0].tolist() == \
        [[0.0, 100.0, 127.0, 127.0, 55.0]]
    shifted = layers.Solarization(addition_factor=(0.2, 0.2),
                                  threshold_factor=(1.0, 1.0),
                                  value_range=(0, 1))
    np.testing.assert_allclose(np.asarray(shifted(values / 255.0)),
                               np.clip(values / 255.0 + 0.2, 0, 1),
                               atol=1e-6)


def test_auto_contrast_stretches_each_channel_and_keeps_constants():
    images = IMAGES * 0.5 + 40.0
    images[0, ..., 1] = 77.0
    out = np.asarray(layers.AutoContrast()(images, training=False))
    np.testing.assert_allclose(out[1:].min(axis=(1, 2)), 0.0, atol=1e-4)
    np.testing.assert_allclose(out[1:].max(axis=(1, 2)), 255.0, atol=1e-3)
    np.testing.assert_array_equal(out[0, ..., 1], 77.0)


def test_equalization_is_per_image_and_flattens_the_histogram():
    image = RNG.normal(100, 10, (1, 32, 32, 1)).clip(0, 255).astype(
        "float32")
    out = np.asarray(layers.Equalization()(image))
    hist = np.histogram(out, bins=4, range=(0, 256))[0]
    assert hist.min() > 0.15 * out.size
    pair = np.concatenate([image, np.full_like(image, 3.0)])
    out_pair = np.asarray(layers.Equalization()(pair, training=False))
    np.testing.assert_array_equal(out_pair[:1], out)
    np.testing.assert_array_equal(out_pair[1], 3.0)


def test_clahe_keeps_constant_images_and_rejects_bad_grids():
    flat = np.full((1, 16, 16, 1), 80, "uint8")
    out = np.asarray(layers.ContrastLimitedAdaptiveHistogramEqualization(
        tile_grid_size=(4, 4))(flat))
    assert out.dtype == np.uint8 and np.all(out == out.flat[0])
    with pytest.raises(ValueError, match="tile_grid_size"):
        layers.ContrastLimitedAdaptiveHistogramEqualization(
            tile_grid_size=(0, 2))


def test_gaussian_blur_preserves_the_mean_inside():
    image = np.zeros((1, 9, 9, 1), "float32")
    image[0, 4, 4] = 90.0
    out = np.asarray(layers.RandomGaussianBlur(
        factor=(1.0, 1.0), kernel_size=(5, 3), sigma=(0.8, 0.8))(image))
    assert out.sum() == pytest.approx(90.0, rel=1e-5)
    # kernel_size[0] runs along the width, [1] along the height (Keras).
    assert np.count_nonzero(out[0, :, 4, 0]) == 3
    assert np.count_nonzero(out[0, 4, :, 0]) == 5
    with pytest.raises(ValueError, match="odd"):
        layers.RandomGaussianBlur(kernel_size=4)


def test_erasing_rectangles_and_fill_values():
    layer = layers.RandomErasing(factor=(1.0, 1.0), scale=(0.1, 0.3),
                                 fill_value=(1.0, 2.0, 3.0), seed=0)
    out = np.asarray(layer(IMAGES + 10.0))
    for image in out:
        erased = image[..., 0] == 1.0
        ys, xs = np.nonzero(erased)
        assert erased.sum() == (ys.max() - ys.min() + 1) * (
            xs.max() - xs.min() + 1)
        np.testing.assert_array_equal(image[erased], [[1.0, 2.0, 3.0]] *
                                      erased.sum())
    with pytest.raises(ValueError, match="fill_value"):
        layers.RandomErasing(fill_value=(1.0, 2.0))


@pytest.mark.parametrize("make, message", [
    (lambda: layers.RandomContrast(1.5), r"\[0, 1\]"),
    (lambda: layers.RandomBrightness(0.2, value_range=(0,)), "value_range"),
    (lambda: layers.RandomPosterization(9), r"\[1, 8\]"),
    (lambda: layers.Solarization(addition_factor=1.2), "addition_factor"),
    (lambda: layers.RandomGrayscale(1.5), "between 0 and 1"),
    (lambda: layers.Equalization(bins=0), "bins"),
    (lambda: layers.AutoContrast(factor=0.3), "does not take a `factor`"),
])
def test_argument_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()
