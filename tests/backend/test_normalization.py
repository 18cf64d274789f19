"""Fused normalization primitives: forward against numpy, VJPs in float64."""
import numpy as np
import pytest

from kerasish.backend import normalization as BN
from kerasish.utils import check_grads


def _standardize(x, axes, scale, offset, eps=1e-3):
    mean, var = BN.moments(np.asarray(x), axes)
    return BN.standardize(x, mean, var, scale, offset, axes=axes,
                          epsilon=eps)


@pytest.mark.parametrize("shape,axes", [((6, 4), (0,)), ((3, 5, 4), (0, 1)),
                                        ((2, 3, 4, 5), (0, 2, 3)),
                                        ((3, 4, 5), (1, 2))])
def test_standardize_forward_and_gradients(shape, axes):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape) * 2 + 1
    kept = [1 if i in axes else n for i, n in enumerate(shape)]
    scale = rng.standard_normal(kept)
    offset = rng.standard_normal(kept)
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    expected = (x - mean) / np.sqrt(var + 1e-3) * scale + offset
    np.testing.assert_allclose(
        np.asarray(_standardize(x, axes, scale, offset)), expected,
        rtol=1e-12)
    check_grads(lambda *a: _standardize(a[0], axes, a[1], a[2]),
                [x, scale, offset])


def test_standardize_without_scale_and_offset():
    x = np.random.default_rng(1).standard_normal((5, 3))
    out = np.asarray(_standardize(x, (0,), 1.0, 0.0, eps=0.0))
    np.testing.assert_allclose(out.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(out.std(0), 1, rtol=1e-12)
    check_grads(lambda v: _standardize(v, (0,), 1.0, 0.0), [x])


def test_batch_norm_with_given_statistics_gradients():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 3))
    mean, scale, offset = (rng.standard_normal((1, 3)) for _ in range(3))
    var = rng.random((1, 3)) + 0.2
    expected = (x - mean) / np.sqrt(var + 1e-3) * scale + offset
    np.testing.assert_allclose(
        np.asarray(BN.batch_norm(x, mean, var, scale, offset,
                                 epsilon=1e-3)), expected, rtol=1e-12)
    check_grads(lambda *a: BN.batch_norm(*a, epsilon=1e-3),
                [x, mean, var, scale, offset])


def test_float32_stays_float32():
    x = np.ones((3, 2), "float32")
    mean, var = BN.moments(x, (0,))
    out = BN.standardize(x, mean, var, np.ones((1, 2), "float32"),
                         np.zeros((1, 2), "float32"), axes=(0,),
                         epsilon=1e-3)
    assert out.dtype == np.float32
