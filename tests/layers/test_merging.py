"""Merging layers: values, broadcasting, masks, shapes, configs, errors."""
import numpy as np
import pytest

import kerasish
from kerasish import layers, ops
from kerasish.utils import check_grads

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4)).astype("float32")
B = RNG.standard_normal((3, 4)).astype("float32")
C = RNG.standard_normal((3, 4)).astype("float32")

ELEMENTWISE = [
    (layers.Add, layers.add, lambda *xs: sum(xs)),
    (layers.Multiply, layers.multiply, lambda a, b, c: a * b * c),
    (layers.Average, layers.average, lambda *xs: sum(xs) / 3),
    (layers.Maximum, layers.maximum, lambda *xs: np.maximum.reduce(xs)),
    (layers.Minimum, layers.minimum, lambda *xs: np.minimum.reduce(xs)),
]


@pytest.mark.parametrize("cls,fn,reference", ELEMENTWISE)
def test_elementwise_values_functional_forms_and_gradients(cls, fn,
                                                           reference):
    expected = reference(A, B, C)
    np.testing.assert_allclose(cls()([A, B, C]).numpy(), expected,
                               rtol=1e-6)
    np.testing.assert_allclose(fn([A, B, C]).numpy(), expected, rtol=1e-6)
    check_grads(lambda a, b, c: cls(dtype="float64")([a, b, c]),
                [A.astype("float64"), B.astype("float64"),
                 C.astype("float64")])


def test_subtract_and_its_arity():
    np.testing.assert_allclose(layers.subtract([A, B]).numpy(), A - B)
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Subtract()([A, B, C])


def test_elementwise_broadcasting_and_rank_expansion():
    x = np.ones((2, 3, 4), "float32")
    y = np.full((2, 4), 2.0, "float32")
    # Lower-rank inputs are expanded at axis 1, then broadcast.
    out = layers.Add()([x, y])
    assert out.shape == (2, 3, 4)
    np.testing.assert_array_equal(out.numpy(), 3.0)
    inp = [kerasish.Input((3, 4)), kerasish.Input((1, 4))]
    assert layers.Add()(inp).shape == (None, 3, 4)


def test_symbolic_shapes_and_model():
    a, b = kerasish.Input((4,)), kerasish.Input((4,))
    model = kerasish.Model([a, b], layers.Maximum()([a, b]))
    np.testing.assert_allclose(model.predict([A, B], verbose=0),
                               np.maximum(A, B))


def test_incompatible_shapes_raise_at_build():
    with pytest.raises(ValueError, match="incompatible shapes"):
        layers.Add()([kerasish.Input((3,)), kerasish.Input((4,))])
    with pytest.raises(ValueError, match="different batch sizes"):
        layers.Add()([np.ones((2, 3)), np.ones((3, 3))])
    with pytest.raises(ValueError, match="list"):
        layers.Add()(np.ones((2, 3)))


def _masked(x, mask):
    t = ops.convert_to_tensor(x)
    t._keras_mask = ops.convert_to_tensor(np.asarray(mask))
    return t


def test_masks_are_ored_for_elementwise_layers():
    x = _masked(np.ones((1, 3, 2), "float32"), [[True, False, False]])
    y = _masked(np.ones((1, 3, 2), "float32"), [[False, False, True]])
    out = layers.Add()([x, y])
    np.testing.assert_array_equal(out._keras_mask.numpy(),
                                  [[True, False, True]])
    plain = ops.convert_to_tensor(np.ones((1, 3, 2), "float32"))
    assert layers.Add()([x, plain])._keras_mask is None


def test_maximum_ignores_masked_entries():
    x = _masked(np.array([[[5.0], [1.0]]], "float32"), [[False, True]])
    y = _masked(np.array([[[2.0], [3.0]]], "float32"), [[True, False]])
    out = layers.Maximum()([x, y])
    # Masked entries take the other input's value.
    np.testing.assert_array_equal(out.numpy(), [[[2.0], [1.0]]])
    np.testing.assert_array_equal(out._keras_mask.numpy(), [[True, True]])


def test_multiply_treats_masked_entries_as_one():
    x = _masked(np.array([[[5.0], [4.0]]], "float32"), [[False, True]])
    y = _masked(np.array([[[2.0], [3.0]]], "float32"), [[False, True]])
    out = layers.Multiply()([x, y])
    np.testing.assert_array_equal(out.numpy(), [[[0.0], [12.0]]])
    np.testing.assert_array_equal(out._keras_mask.numpy(), [[False, True]])


def test_concatenate_values_shapes_and_masks(tmp_path):
    out = layers.Concatenate()([A, B[:, :2]])
    np.testing.assert_array_equal(out.numpy(),
                                  np.concatenate([A, B[:, :2]], -1))
    np.testing.assert_array_equal(layers.concatenate([A, B], axis=0),
                                  np.concatenate([A, B]))
    assert layers.Concatenate(axis=1)(
        [kerasish.Input((2, 3)), kerasish.Input((5, 3))]).shape == (None, 7, 3)
    x = _masked(np.ones((1, 2, 3), "float32"), [[True, False]])
    y = ops.convert_to_tensor(np.ones((1, 2, 3), "float32"))
    np.testing.assert_array_equal(
        layers.Concatenate(axis=1)([x, y])._keras_mask.numpy(),
        [[True, False, True, True]])
    check_grads(lambda a, b: layers.Concatenate(dtype="float64")([a, b]),
                [A.astype("float64"), B.astype("float64")])
    assert layers.Concatenate(axis=1).get_config()["axis"] == 1


def test_concatenate_mismatch_raises_clearly():
    with pytest.raises(ValueError, match="matching shapes except for the "
                                         "concatenation axis"):
        layers.Concatenate(axis=1)([kerasish.Input((2, 3)),
                                    kerasish.Input((5, 4))])
    with pytest.raises(ValueError, match="out of bounds"):
        layers.Concatenate(axis=3)([kerasish.Input((2,)),
                                    kerasish.Input((2,))])


def test_dot_values_axes_and_normalize():
    x = np.arange(10, dtype="float32").reshape(1, 5, 2)
    y = np.arange(10, 20, dtype="float32").reshape(1, 2, 5)
    np.testing.assert_array_equal(
        layers.Dot(axes=(1, 2))([x, y]).numpy(),
        [[[260.0, 360.0], [320.0, 445.0]]])
    out = layers.dot([A, B], axes=1)
    assert out.shape == (3, 1)
    np.testing.assert_allclose(out.numpy()[:, 0], (A * B).sum(1), rtol=1e-5)
    cos = layers.Dot(axes=-1, normalize=True)([A, B]).numpy()[:, 0]
    expected = (A * B).sum(1) / np.linalg.norm(A, axis=1) / \
        np.linalg.norm(B, axis=1)
    np.testing.assert_allclose(cos, expected, rtol=1e-5)
    check_grads(lambda a, b: layers.Dot(axes=1, normalize=True,
                                        dtype="float64")([a, b]),
                [A.astype("float64"), B.astype("float64")])
    shape = layers.Dot(axes=(1, 2))([kerasish.Input((5, 2)),
                                     kerasish.Input((2, 5))]).shape
    assert shape == (None, 2, 2)


@pytest.mark.parametrize("axes,error", [("a", TypeError), ((1,), ValueError),
                                        ((1.0, 2), ValueError)])
def test_dot_rejects_bad_axes(axes, error):
    with pytest.raises(error, match="axes"):
        layers.Dot(axes=axes)


def test_dot_shape_mismatch_and_batch_axis():
    with pytest.raises(ValueError, match="incompatible input shapes"):
        layers.Dot(axes=1)([kerasish.Input((3,)), kerasish.Input((4,))])
    with pytest.raises(ValueError, match="batch axis"):
        layers.Dot(axes=0)([A, B])


@pytest.mark.parametrize("cls,kwargs", [
    (layers.Add, {}), (layers.Subtract, {}), (layers.Multiply, {}),
    (layers.Average, {}), (layers.Maximum, {}), (layers.Minimum, {}),
    (layers.Concatenate, {"axis": 1}),
    (layers.Dot, {"axes": (1, 1), "normalize": True})])
def test_config_round_trip(cls, kwargs):
    layer = cls(**kwargs)
    config = layer.get_config()
    assert cls.from_config(config).get_config() == config
    assert set(config) == {"name", "trainable", "dtype"} | set(kwargs)


def test_merge_model_saves_and_loads(tmp_path):
    a, b = kerasish.Input((4,)), kerasish.Input((4,))
    h = layers.concatenate([layers.add([a, b]), layers.multiply([a, b])])
    model = kerasish.Model([a, b], layers.Dense(1)(h))
    path = str(tmp_path / "merge.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    np.testing.assert_allclose(loaded.predict([A, B], verbose=0),
                               model.predict([A, B], verbose=0), rtol=1e-6)


def test_dot_batch_mismatch_is_named_with_shapes():
    with pytest.raises(ValueError, match=r"different batch sizes. Received "
                       r"inputs with shapes \(2, 3\) and \(4, 3\)"):
        layers.Dot(axes=1)([np.ones((2, 3), "float32"),
                            np.ones((4, 3), "float32")])
