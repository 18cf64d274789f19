"""Every case of tests/fixtures/ops_cases.py against real Keras 3.15.1.

The reference (values, dtypes, shapes) is tests/fixtures/ops_reference.json,
written by tests/fixtures/make_ops_reference.py with Keras's JAX backend.
"""
import json
import os

import numpy as np
import pytest

from kerasish import ops
# Through the package: putting tests/fixtures on sys.path would make its
# folder `keras` importable as a (fake) Keras for every later test.
from tests.fixtures.ops_cases import CASES, NAMESPACE

FIXTURES = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures")

with open(os.path.join(FIXTURES, "ops_reference.json")) as _f:
    REFERENCE = json.load(_f)["cases"]


def _flatten(value):
    if isinstance(value, dict):
        return [leaf for key in sorted(value) for leaf in _flatten(value[key])]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _flatten(item)]
    return [value]


def _check_leaf(leaf, ref, case_id):
    if ref["dtype"] == "py":
        assert leaf == ref["values"], case_id
        return
    arr = np.asarray(leaf)
    assert str(arr.dtype) == ref["dtype"], (case_id, arr.dtype, ref["dtype"])
    assert list(arr.shape) == ref["shape"], (case_id, arr.shape)
    expected = np.asarray(ref["values"], dtype=np.float64 if arr.dtype.kind
                          in "fc" else None)
    if arr.dtype.kind == "c":
        arr = np.stack([arr.real, arr.imag], -1)
    if arr.dtype.kind in "fc":
        np.testing.assert_allclose(arr.astype(np.float64), expected,
                                   rtol=2e-6, atol=1e-6, err_msg=case_id)
    else:
        np.testing.assert_array_equal(arr, expected, err_msg=case_id)


@pytest.mark.parametrize("case_id,expr", CASES, ids=[c[0] for c in CASES])
def test_matches_keras(case_id, expr):
    ref = REFERENCE[case_id]
    result = eval(expr, dict(NAMESPACE, ops=ops))
    leaves = _flatten(result)
    assert len(leaves) == len(ref), case_id
    for leaf, leaf_ref in zip(leaves, ref):
        _check_leaf(leaf, leaf_ref, case_id)
