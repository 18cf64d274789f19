import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.utils import check_grads

# (subscripts, operand shapes): explicit and implicit modes, ellipses,
# traces/diagonals, broadcasting size-1 axes, letters summed in one operand.
CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bqhd,bkhd->bhqk", [(2, 3, 2, 4), (2, 5, 2, 4)]),
    ("bhqk,bkhd->bqhd", [(2, 2, 3, 5), (2, 5, 2, 4)]),
    ("abc,cde->abde", [(2, 3, 4), (4, 2, 3)]),
    ("...ij,jk->...ik", [(2, 3, 4, 5), (5, 2)]),
    ("...i,...i->...", [(2, 1, 3), (4, 3)]),
    ("ij...,jk->ik...", [(2, 3, 4), (3, 2)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(4, 4)]),
    ("iij,jk->ik", [(3, 3, 2), (2, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij,ij->ij", [(1, 4), (3, 4)]),
    ("ijk,j->ik", [(2, 3, 4), (3,)]),
    ("ij,kl->ijkl", [(2, 3), (2, 2)]),
    ("abc,ab->c", [(2, 3, 4), (2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("i,i", [(5,), (5,)]),
    ("ab,cd->", [(2, 3), (4, 2)]),
]


@pytest.mark.parametrize("subscripts,shapes", CASES)
def test_einsum_matches_numpy(subscripts, shapes, rng):
    arrays = [rng.standard_normal(s) for s in shapes]
    got = ops.einsum(subscripts, *arrays).numpy()
    np.testing.assert_allclose(got, np.einsum(subscripts, *arrays),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("subscripts,shapes", CASES)
def test_einsum_gradients(subscripts, shapes, rng):
    arrays = [rng.standard_normal(s) for s in shapes]
    check_grads(lambda *xs: ops.einsum(subscripts, *xs), arrays)


def test_einsum_promotes_int_to_float():
    out = ops.einsum("ij,j->i", np.ones((2, 3), "int32"),
                     np.ones(3, "float32"))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.numpy(), [3.0, 3.0])
    assert ops.einsum("i,i", np.arange(3), np.arange(3)).numpy() == 5


def test_einsum_symbolic():
    x = kerasish.Input((3, 4))
    y = ops.einsum("bij,jk->bik", x, np.ones((4, 2), "float32"))
    assert y.shape == (None, 3, 2)


def test_diagonal_gradient_only_touches_the_diagonal():
    x = kerasish.Variable(np.arange(9.0).reshape(3, 3))
    with kerasish.GradientTape() as tape:
        y = ops.einsum("ii->", x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.eye(3))


@pytest.mark.parametrize("subscripts,shapes,match", [
    ("ij,jk->ik", [(2, 3), (4, 5)], "incompatible sizes"),
    ("ij,jk->ik", [(2, 3)], "2 operand"),
    ("ijk->i", [(2, 3)], "does not match"),
    ("ij->k", [(2, 3)], "output subscript"),
    ("ij->ii", [(2, 2)], "output subscript"),
    ("i1->i", [(2, 2)], "only contain letters"),
])
def test_einsum_bad_input(subscripts, shapes, match):
    with pytest.raises(ValueError, match=match):
        ops.einsum(subscripts, *[np.ones(s) for s in shapes])
