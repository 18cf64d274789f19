import io
import os
import sys

import numpy as np
import pytest

import kerasish
from tests.fixtures.data_utils import image_cases as cases

pytest.importorskip("PIL")
from kerasish.utils import image_utils  # noqa: E402
from kerasish.utils.image_utils import (array_to_img, img_to_array,  # noqa
                                        load_img, save_img, smart_resize)

_REFERENCE = os.path.join(os.path.dirname(cases.__file__),
                          "image_utils.npz")


@pytest.fixture(scope="module")
def ref():
    with np.load(_REFERENCE) as data:
        return dict(data)


@pytest.fixture(scope="module")
def inputs(ref):
    return {k[3:]: v for k, v in ref.items() if k.startswith("in_")}


@pytest.fixture(scope="module")
def pngs(inputs, tmp_path_factory):
    folder = tmp_path_factory.mktemp("pngs")
    cases.write_pngs(inputs, str(folder))
    return folder


def test_inputs_rebuild_identically(inputs):
    for key, value in cases.inputs().items():
        np.testing.assert_array_equal(inputs[key], value)


@pytest.mark.parametrize("name", sorted(cases.ARRAY_TO_IMG))
def test_array_to_img_matches_keras(name, ref, inputs):
    img = array_to_img(**cases.array_to_img_kwargs(name, inputs))
    assert img.mode == str(ref[f"a2i_{name}_mode"])
    np.testing.assert_array_equal(np.asarray(img), ref[f"a2i_{name}"])


def test_load_img_matches_keras(ref, pngs):
    for key, file, kwargs in cases.load_img_cases():
        img = load_img(str(pngs / f"{file}.png"), **kwargs)
        out = img_to_array(img)
        assert out.dtype == np.float32
        np.testing.assert_array_equal(out, ref[key], err_msg=key)


def test_smart_resize_matches_keras(ref, inputs):
    for key, transform, args, kwargs in cases.smart_resize_cases():
        x = cases.smart_input(inputs["batch"], transform)
        out = smart_resize(x, *args, **kwargs)
        assert isinstance(out, np.ndarray)
        np.testing.assert_allclose(out, ref[key], rtol=1e-5, atol=1e-3,
                                   err_msg=key)


def test_smart_resize_crop_geometry():
    x = np.arange(6 * 10, dtype="float32").reshape(6, 10, 1)
    # A 6x10 image to 3x3: the centred 6x6 window (columns 2..7).
    out = smart_resize(x, (6, 6), interpolation="nearest")
    np.testing.assert_array_equal(out, x[:, 2:8])
    tensor = smart_resize(kerasish.ops.convert_to_tensor(x), (3, 3))
    assert isinstance(tensor, kerasish.Tensor)


def test_load_img_sources(pngs):
    path = pngs / "rgb.png"
    expected = img_to_array(load_img(str(path)))
    for source in (path, str(path).encode(),
                   io.BytesIO(path.read_bytes())):
        np.testing.assert_array_equal(img_to_array(load_img(source)),
                                      expected)
    with pytest.raises(TypeError, match="path should be path-like"):
        load_img(3)


def test_img_to_array_formats_and_dtype(pngs):
    img = load_img(pngs / "rgba.png", color_mode="rgba")
    assert img_to_array(img, data_format="channels_first").shape == (4, 9, 11)
    assert img_to_array(img, dtype="uint8").dtype == np.uint8
    gray = load_img(pngs / "rgb.png", color_mode="grayscale")
    assert img_to_array(gray).shape == (13, 17, 1)
    with pytest.raises(ValueError, match="Unsupported image shape"):
        img_to_array(np.zeros((2, 2, 2, 2)))


def test_save_img_round_trip(tmp_path, inputs):
    x = inputs["rgb"].astype("float32")
    save_img(tmp_path / "a.png", x, scale=False)
    np.testing.assert_array_equal(img_to_array(load_img(tmp_path / "a.png")),
                                  x)
    buffer = io.BytesIO()
    save_img(buffer, x, file_format="png", scale=False)
    buffer.seek(0)
    np.testing.assert_array_equal(img_to_array(load_img(buffer)), x)
    with pytest.warns(UserWarning, match="JPEG format does not support RGBA"):
        save_img(str(tmp_path / "b.jpg"), inputs["rgba"])
    assert load_img(tmp_path / "b.jpg", color_mode="rgba").size == (11, 9)


def test_errors(pngs):
    with pytest.raises(ValueError, match="rank 3"):
        array_to_img(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="Unsupported channel number: 2"):
        array_to_img(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="Invalid interpolation method"):
        load_img(pngs / "rgb.png", target_size=(3, 3), interpolation="cubic")
    with pytest.raises(ValueError, match="color_mode=.cmyk."):
        load_img(pngs / "rgb.png", color_mode="cmyk")
    with pytest.raises(ValueError, match="incorrect rank"):
        smart_resize(np.zeros((4, 4)), (2, 2))
    with pytest.raises(ValueError, match="tuple of 2 integers"):
        smart_resize(np.zeros((4, 4, 1)), (2, 2, 2))
    with pytest.raises(TypeError, match="unexpected keyword"):
        smart_resize(np.zeros((4, 4, 1)), (2, 2), antialias=True)


def test_missing_pillow_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r"kerasish\[image\]"):
        array_to_img(np.zeros((2, 2, 3)))


def test_public_names():
    for name in ("load_img", "save_img", "img_to_array", "array_to_img"):
        assert getattr(kerasish.utils, name) is getattr(image_utils, name)
