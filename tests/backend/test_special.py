"""erf/erfc/erfinv/gelu primitives: accuracy against libm and gradients."""
import math

import numpy as np
import pytest

from kerasish.backend import special
from kerasish.utils import check_grads


def _libm(fn, x):
    return np.vectorize(fn, otypes=[np.float64])(x)


def test_erf_matches_libm_to_float64_roundoff():
    x = np.linspace(-9.0, 9.0, 40001)
    np.testing.assert_allclose(special.erf_array(x), _libm(math.erf, x),
                               rtol=5e-15, atol=3e-16)


def test_erfc_keeps_relative_accuracy_in_the_far_tail():
    x = np.concatenate([np.linspace(-6, 6, 2001), np.linspace(6, 26, 501)])
    np.testing.assert_allclose(special.erfc_array(x), _libm(math.erfc, x),
                               rtol=2e-13, atol=0)


def test_special_values_and_dtypes():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan])
    out = special.erf_array(x)
    np.testing.assert_array_equal(out[:4], [0.0, -0.0, 1.0, -1.0])
    assert np.signbit(out[1]) and np.isnan(out[4])
    np.testing.assert_array_equal(special.erfc_array([np.inf, -np.inf]),
                                  [0.0, 2.0])
    assert special.erf_array(np.float32([0.5])).dtype == np.float32
    assert special.erf_array(np.array([1, 2])).dtype == np.float64


def test_erfinv_inverts_erf_and_handles_the_ends():
    y = np.linspace(-0.999999, 0.999999, 2001)
    np.testing.assert_allclose(special.erf_array(special.erfinv_array(y)), y,
                               rtol=0, atol=4e-16)
    np.testing.assert_array_equal(
        special.erfinv_array(np.array([1.0, -1.0, 0.0])), [np.inf, -np.inf,
                                                           0.0])
    assert np.isnan(special.erfinv_array(np.array([1.5]))).all()
    # erfinv(0.5), a published constant.
    assert special.erfinv_array(np.array([0.5]))[0] == pytest.approx(
        0.4769362762044699, rel=1e-15)


@pytest.mark.parametrize("prim", [special.erf, special.erfc])
def test_erf_gradients(prim):
    x = np.linspace(-4, 4, 17) + 0.013
    check_grads(prim, [x], rtol=1e-7)


def test_erfinv_gradient():
    check_grads(special.erfinv, [np.linspace(-0.95, 0.95, 11)], rtol=1e-7)


@pytest.mark.parametrize("approximate", [False, True])
def test_gelu_gradient(approximate):
    x = np.linspace(-5, 5, 23) + 0.01
    check_grads(lambda v: special.gelu(v, approximate=approximate), [x],
                rtol=1e-7)


def test_exact_gelu_values():
    x = np.array([-2.0, -0.5, 0.0, 1.0, 3.0])
    expected = x * 0.5 * (1 + _libm(math.erf, x / math.sqrt(2)))
    np.testing.assert_allclose(np.asarray(special.gelu(x)), expected,
                               rtol=1e-14, atol=1e-16)
