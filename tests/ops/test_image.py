"""keras.ops.image: gradients, properties, symbolic shapes and bad inputs.
Numbers against Keras 3.15.1 (resize with every interpolation and
antialiasing, warps, filters, patches...) are in test_ops_parity.py."""
import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.utils import check_grads

rng = np.random.default_rng(0)
image = ops.image


def imgs(*shape):
    return rng.random(shape)


@pytest.mark.parametrize("name,fn,inputs", [
    ("resize_bilinear_up", lambda x: image.resize(x, (5, 7)), [imgs(1, 3, 4,
                                                                    2)]),
    ("resize_bilinear_aa", lambda x: image.resize(x, (2, 3), antialias=True),
     [imgs(2, 5, 7, 1)]),
    ("resize_bicubic", lambda x: image.resize(x, (4, 3),
                                              interpolation="bicubic"),
     [imgs(3, 5, 2)]),
    ("resize_lanczos3", lambda x: image.resize(x, (6, 6),
                                               interpolation="lanczos3"),
     [imgs(1, 4, 4, 1)]),
    ("resize_area", lambda x: image.resize(x, (3, 2), interpolation="area"),
     [imgs(1, 5, 4, 2)]),
    ("resize_nearest", lambda x: image.resize(x, (5, 3),
                                              interpolation="nearest"),
     [imgs(1, 3, 4, 1)]),
    ("resize_pad", lambda x: image.resize(x, (4, 4), pad_to_aspect_ratio=True),
     [imgs(3, 5, 1)]),
    ("scale_and_translate", lambda x, s, t: image.scale_and_translate(
        x, (1, 5, 6, 1), s, t, [1, 2], "cubic"),
     [imgs(1, 4, 4, 1), np.array([1.3, 1.6]), np.array([0.4, -0.2])]),
    ("scale_and_translate_aa", lambda x, s: image.scale_and_translate(
        x, (3, 4), s, np.zeros(2), [0, 1], "lanczos3", antialias=True),
     [imgs(6, 7), np.array([0.55, 0.6])]),
    ("affine", lambda x, t: image.affine_transform(x, t),
     # Coordinates stay >= 0.001 away from integers (interpolation kinks).
     [imgs(2, 5, 6, 1), np.array([[0.913, -0.227, 0.371, 0.117, 0.823, 0.353,
                                   0, 0], [1.127, 0.163, -0.319, 0.061, 0.967,
                                           0.413, 0, 0]])]),
    ("affine_reflect_projective", lambda x, t: image.affine_transform(
        x, t, fill_mode="reflect"),
     [imgs(4, 4, 2), np.array([0.913, -0.227, 0.371, 0.117, 0.823, 0.353,
                               0.021, 0.013])]),
    ("map_coordinates", lambda x, c: image.map_coordinates(x, c, 1,
                                                           "mirror"),
     [imgs(4, 5), np.array([[0.3, 2.6, -0.4], [1.2, 3.7, 4.4]])]),
    ("perspective", lambda x, p: image.perspective_transform(
        x, p, np.array([[0.2, 0.1], [5.1, 0.4], [0.3, 3.6], [4.6, 4.2]])),
     [imgs(1, 5, 6, 1), np.array([[0.0, 0.0], [5.0, 0.0], [0.0, 4.0],
                                  [5.0, 4.0]])]),
    ("gaussian_blur", lambda x: image.gaussian_blur(x, (3, 5), (0.9, 1.4)),
     [imgs(1, 6, 5, 2)]),
    ("sobel", image.sobel_edges, [imgs(1, 4, 5, 2)]),
    ("ssim", lambda a, b: image.ssim(a, b, filter_size=5),
     [imgs(2, 7, 8, 2), imgs(2, 7, 8, 2)]),
    ("patches", lambda x: image.extract_patches(x, (2, 3), strides=(1, 2),
                                                padding="same"),
     [imgs(1, 4, 5, 2)]),
    ("patches_3d", lambda x: image.extract_patches_3d(x, 2, dilation_rate=1),
     [imgs(4, 4, 4, 1)]),
    ("rgb_to_grayscale", image.rgb_to_grayscale, [imgs(3, 4, 3)]),
    ("rgb_to_hsv", image.rgb_to_hsv, [0.1 + 0.8 * imgs(3, 4, 3)]),
    ("hsv_to_rgb", image.hsv_to_rgb, [0.1 + 0.8 * imgs(3, 4, 3)]),
    ("crop", lambda x: image.crop_images(x, 1, 1, target_height=2,
                                         target_width=2), [imgs(4, 4, 1)]),
    ("pad", lambda x: image.pad_images(x, 1, 0, bottom_padding=2,
                                       right_padding=1), [imgs(2, 3, 3, 1)]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_gradients(name, fn, inputs):
    check_grads(fn, inputs)


def test_resize_preserves_constants_and_identity():
    ones = np.ones((1, 5, 7, 2), "float32")
    for interpolation in ("bilinear", "bicubic", "lanczos3", "lanczos5",
                          "area", "nearest"):
        for size in ((3, 4), (9, 12)):
            out = image.resize(ones, size, interpolation=interpolation,
                               antialias=True)
            np.testing.assert_allclose(out.numpy(), 1.0, atol=1e-6)
    x = imgs(1, 4, 4, 1).astype("float32")
    np.testing.assert_array_equal(image.resize(x, (4, 4)).numpy(), x)


def test_area_downscale_by_two_is_block_average():
    x = imgs(1, 4, 6, 1)
    out = image.resize(x, (2, 3), interpolation="area").numpy()
    expected = x.reshape(1, 2, 2, 3, 2, 1).mean(axis=(2, 4))
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def test_map_coordinates_matches_scipy_style_modes():
    grid = np.arange(5.0)
    coords = [np.array([-1.0, 5.0, 6.0, -2.0])]
    expected = {"nearest": [0, 4, 4, 0], "wrap": [4, 0, 1, 3],
                "mirror": [1, 3, 2, 2], "reflect": [0, 4, 3, 1]}
    for mode, values in expected.items():
        out = image.map_coordinates(grid, coords, 0, fill_mode=mode)
        np.testing.assert_array_equal(out.numpy(), values)


def test_affine_identity_and_fill():
    x = imgs(2, 4, 5, 3)
    identity = [1.0, 0, 0, 0, 1.0, 0, 0, 0]
    np.testing.assert_allclose(image.affine_transform(x, identity).numpy(), x)
    shifted = image.affine_transform(x, [1.0, 0, 10, 0, 1.0, 0, 0, 0],
                                     fill_value=0.5)
    np.testing.assert_allclose(shifted.numpy(), 0.5)


def test_elastic_transform_is_seeded_and_identity_without_alpha():
    x = imgs(2, 8, 8, 1).astype("float32")
    a = image.elastic_transform(x, seed=3).numpy()
    b = image.elastic_transform(x, seed=3).numpy()
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, x)
    still = image.elastic_transform(x, alpha=0.0, seed=3)
    np.testing.assert_allclose(still.numpy(), x, atol=1e-6)
    assert image.elastic_transform((x * 255).astype("uint8"),
                                   seed=1).dtype == "uint8"


def test_gaussian_blur_default_data_format_is_the_global_one():
    x = np.zeros((1, 5, 5, 3), "float32")
    x[0, 2, 2, :] = 1.0
    default = image.gaussian_blur(x).numpy()
    explicit = image.gaussian_blur(x, data_format="channels_last").numpy()
    np.testing.assert_array_equal(default, explicit)
    np.testing.assert_allclose(default.sum(axis=(1, 2)), 1.0, rtol=1e-6)


def test_ssim_identical_images_and_range():
    a, b = imgs(2, 12, 12, 3), imgs(2, 12, 12, 3)
    np.testing.assert_allclose(image.ssim(a, a).numpy(), [1.0, 1.0])
    score = image.ssim(a, b).numpy()
    assert np.all(score < 0.5) and np.all(score > -1.0)


def test_patches_reassemble_the_image():
    x = imgs(1, 4, 6, 2)
    patches = image.extract_patches(x, 2).numpy()
    back = patches.reshape(1, 2, 3, 2, 2, 2).transpose(0, 1, 3, 2, 4, 5)
    np.testing.assert_array_equal(back.reshape(x.shape), x)


def test_symbolic_shapes():
    x = kerasish.Input((8, 10, 3))
    assert image.resize(x, (4, 5)).shape == (None, 4, 5, 3)
    assert image.rgb_to_grayscale(x).shape == (None, 8, 10, 1)
    assert image.extract_patches(x, 2).shape == (None, 4, 5, 12)
    assert image.sobel_edges(x).shape == (None, 8, 10, 3, 2)
    assert image.crop_images(x, 1, 2, target_height=5,
                             target_width=6).shape == (None, 5, 6, 3)
    assert image.affine_transform(x, np.eye(3).ravel()[:8]).shape == (
        None, 8, 10, 3)
    assert image.ssim(x, x, filter_size=3).shape == (None,)


def test_model_with_resize_trains():
    inputs = kerasish.Input((4, 4, 1))
    up = image.resize(inputs, (8, 8))
    out = kerasish.layers.Dense(1)(kerasish.layers.Flatten()(up))
    model = kerasish.Model(inputs, out)
    model.compile("sgd", "mse")
    x = imgs(8, 4, 4, 1).astype("float32")
    history = model.fit(x, x.sum(axis=(1, 2)), epochs=2, verbose=0)
    assert np.all(np.isfinite(history.history["loss"]))


@pytest.mark.parametrize("call,error,match", [
    (lambda: image.resize(np.ones((4, 4)), (2, 2)), ValueError, "rank"),
    (lambda: image.resize(np.ones((4, 4, 1)), (2, 2), interpolation="cubic"),
     ValueError, "interpolation"),
    (lambda: image.resize(np.ones((4, 4, 1)), (2,)), ValueError, "two"),
    (lambda: image.resize(np.ones((4, 4, 1)), (2, 2), fill_mode="reflect"),
     ValueError, "fill_mode"),
    (lambda: image.resize(np.ones((4, 4, 1)), (2, 2),
                          crop_to_aspect_ratio=True,
                          pad_to_aspect_ratio=True), ValueError, "Only one"),
    (lambda: image.scale_and_translate(np.ones((4, 4)), (2, 2), [1, 1], [0, 0],
                                       [0, 1], "nearest"), ValueError,
     "method"),
    (lambda: image.affine_transform(np.ones((4, 4, 1)), np.ones(8),
                                    interpolation="bicubic"), ValueError,
     "interpolation"),
    (lambda: image.affine_transform(np.ones((4, 4, 1)), np.ones((1, 1, 8))),
     ValueError, "transform rank"),
    (lambda: image.resize(np.ones((4, 4, 1)), (0, 2)), ValueError,
     "positive height"),
    (lambda: image.resize(np.ones((4, 4, 1)), (3, -2)), ValueError,
     "positive height"),
    (lambda: image.affine_transform(np.ones((4, 4, 1)), np.ones((2, 6))),
     ValueError, r"8 values.*\(2, 6\)"),
    (lambda: image.affine_transform(np.ones((4, 4, 1)), np.ones(8),
                                    fill_mode="edge"), ValueError,
     "fill_mode"),
    (lambda: image.map_coordinates(np.ones((3, 3)), [np.ones(2)], 1),
     ValueError, "rank of `inputs`"),
    (lambda: image.map_coordinates(np.ones(3), [np.ones(2)], 3), ValueError,
     "order"),
    (lambda: image.perspective_transform(np.ones((4, 4, 1)), np.ones((3, 2)),
                                         np.ones((3, 2))), ValueError,
     "start_points"),
    (lambda: image.rgb_to_grayscale(np.ones((4, 4, 2))), ValueError,
     "channel size"),
    (lambda: image.rgb_to_hsv(np.ones((4, 4, 3), "int32")), ValueError,
     "float"),
    (lambda: image.crop_images(np.ones((4, 4, 1)), 1, 1), ValueError,
     "exactly two"),
    (lambda: image.crop_images(np.ones((4, 4, 1)), 1, 0, target_height=5,
                               target_width=2), ValueError, "target_height"),
    (lambda: image.pad_images(np.ones((4, 4, 1)), -1, 0, target_height=5,
                              target_width=5), ValueError, "top_padding"),
    (lambda: image.extract_patches(np.ones((4, 4, 1)), "2"), TypeError,
     "size"),
    (lambda: image.extract_patches(np.ones((4, 4, 1)), (2, 2, 2, 2)),
     ValueError, "length 2 or 3"),
    (lambda: image.extract_patches(np.ones((4, 4, 1)), 2, padding="full"),
     ValueError, "padding"),
    (lambda: image.ssim(np.ones((4, 4, 1)), np.ones((4, 4, 1))), ValueError,
     "filter_size"),
])
def test_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_functional_config_round_trip_with_image_and_named_ops():
    import json
    inputs = kerasish.Input((8, 6, 3))
    outputs = [image.resize(inputs, (4, 3), interpolation="bicubic"),
               image.extract_patches(inputs, 2),
               image.rgb_to_grayscale(inputs),
               ops.svd(inputs[..., 0], compute_uv=False),
               ops.rfft(ops.reshape(inputs, (-1, 144)))[0]]
    model = kerasish.Model(inputs, outputs)
    config = json.loads(json.dumps(model.get_config()))
    names = {layer["class_name"]: layer["module"]
             for layer in config["layers"][1:]}
    assert names["Resize"] == "keras.src.ops.image"
    assert names["RGBToGrayscale"] == "keras.src.ops.image"
    assert names["SVD"] == "keras.src.ops.linalg"
    assert names["RFFT"] == "keras.src.ops.math"
    clone = kerasish.Model.from_config(config)
    x = imgs(2, 8, 6, 3).astype("float32")
    for a, b in zip(model.predict(x, verbose=0), clone.predict(x, verbose=0)):
        np.testing.assert_allclose(a, b)


@pytest.mark.parametrize("fn", [
    lambda x: image.resize(x, (3, 5), interpolation="bicubic"),
    lambda x: image.resize(x, (4, 4), pad_to_aspect_ratio=True),
    lambda x: image.affine_transform(x, [1.0, 0.1, 0.5, -0.2, 0.9, 1.0,
                                         0.0, 0.0]),
    lambda x: image.map_coordinates(x[:, :, 0], [[0.5, 2.2], [1.5, 3.7]], 1),
    lambda x: image.rgb_to_hsv(x),
    lambda x: image.perspective_transform(
        x, [[0, 0], [5, 0], [5, 4], [0, 4]], [[0, 1], [5, 0], [4, 4], [1, 4]]),
])
def test_bfloat16_images_stay_floating_point(fn):
    # Keras 3.15 (JAX) keeps bfloat16 images bfloat16 and interpolates
    # them (kerasish once rounded them like integer images).
    pytest.importorskip("ml_dtypes")
    x = np.random.default_rng(0).uniform(0, 1, (5, 6, 3)).astype("float32")
    out = fn(ops.cast(x, "bfloat16"))
    assert out.dtype == "bfloat16"
    # bfloat16 coordinates are coarse; rounding to 0/1 would be off by 0.5.
    np.testing.assert_allclose(ops.cast(out, "float32").numpy(),
                               fn(x).numpy(), atol=0.1)


def test_pad_images_to_a_target_on_unknown_spatial_axes():
    # Keras 3.15: Input((None, None, 3)) padded to 20x30 is (None, 20, 30, 3).
    inputs = kerasish.Input((None, None, 3))
    out = image.pad_images(inputs, 1, 2, target_height=20, target_width=30)
    assert out.shape == (None, 20, 30, 3)
    assert image.pad_images(inputs, 1, 2, 3, 4).shape == (None, None, None,
                                                          3)
    model = kerasish.Model(inputs, out)
    result = model.predict(np.ones((2, 8, 9, 3), "float32"), verbose=0)
    assert result.shape == (2, 20, 30, 3)
    assert result[0, :, :, 0].sum() == 72.0
