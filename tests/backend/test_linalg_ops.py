"""Backend linear-algebra and elementwise primitives: forward parity with
numpy and float64 VJP checks on batched inputs, including the conditions
under which the gradients exist."""
import numpy as np
import pytest

from kerasish.backend import elementwise as E
from kerasish.backend import linalg_decomp as LD
from kerasish.backend import linalg_ops as LO
from kerasish.utils import check_grads

rng = np.random.default_rng(3)
BATCH = rng.standard_normal((2, 3, 3))
SPD = BATCH @ np.swapaxes(BATCH, -1, -2) + 3 * np.eye(3)


def unpacked(prim, shapes, **params):
    return lambda a: LD.unpack_tensor(prim(a, **params), shapes)


@pytest.mark.parametrize("prim,inputs,reference", [
    (LO.inv, [BATCH], np.linalg.inv),
    (LO.det, [BATCH], np.linalg.det),
    (LO.logabsdet, [BATCH], lambda a: np.linalg.slogdet(a)[1]),
    (LO.solve, [BATCH, rng.standard_normal((2, 3, 2))], np.linalg.solve),
    (LO.cholesky, [SPD], np.linalg.cholesky),
    (LO.pinv, [rng.standard_normal((2, 4, 3))],
     lambda a: np.linalg.pinv(a, rcond=10 * 4 * np.finfo(float).eps)),
], ids=["inv", "det", "logabsdet", "solve", "cholesky", "pinv"])
def test_forward_and_gradients(prim, inputs, reference):
    np.testing.assert_allclose(prim(*inputs).numpy(), reference(*inputs),
                               rtol=1e-10, atol=1e-12)
    check_grads(prim, inputs)


def test_solve_triangular_reads_one_triangle_only():
    a = BATCH + 3 * np.eye(3)
    b = rng.standard_normal((2, 3))
    lower = LO.solve_triangular(a, b, lower=True).numpy()
    np.testing.assert_allclose(np.tril(a) @ lower[..., None], b[..., None])
    garbage = a + np.triu(np.full((3, 3), 9.0), 1)
    np.testing.assert_allclose(
        LO.solve_triangular(garbage, b, lower=True).numpy(), lower)
    check_grads(lambda x, y: LO.solve_triangular(x, y, lower=False), [a, b])


def test_cholesky_gradient_is_symmetric():
    from kerasish import GradientTape, Variable, ops
    v = Variable(SPD[0], dtype="float64")
    with GradientTape() as tape:
        y = ops.sum(LO.cholesky(v) * np.arange(9.0).reshape(3, 3))
    g = tape.gradient(y, v).numpy()
    np.testing.assert_allclose(g, g.T)


def test_cofactor_of_rank_deficient_matrix():
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    expected = np.array([[np.linalg.det(np.delete(np.delete(a, i, 0), j, 1))
                          * (-1) ** (i + j) for j in range(3)]
                         for i in range(3)])
    np.testing.assert_allclose(LO.cofactor(a), expected, atol=1e-12)


def test_pack_roundtrip():
    parts = [rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5))]
    packed = LD.pack(parts, [(3, 4), (5,)])
    assert packed.shape == (2, 17)
    for got, want in zip(LD.unpack(packed, [(3, 4), (5,)]), parts):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape,mode", [((2, 4, 3), "reduced"),
                                        ((3, 3), "complete"),
                                        ((2, 3, 5), "reduced"),
                                        ((5, 2), "complete")])
def test_qr_gradients(shape, mode):
    a = rng.standard_normal(shape)
    q, r = LD.unpack_tensor(LD.qr(a, mode=mode),
                            LD.qr_shapes(*shape[-2:], mode))
    np.testing.assert_allclose((q.numpy() @ r.numpy()), a, atol=1e-12)
    check_grads(unpacked(LD.qr, LD.qr_shapes(*shape[-2:], mode), mode=mode),
                [a])


@pytest.mark.parametrize("shape,full", [((2, 4, 3), False), ((3, 5), False),
                                        ((3, 3), True)])
def test_svd_gradients(shape, full):
    a = rng.standard_normal(shape)
    check_grads(unpacked(LD.svd, LD.svd_shapes(*shape[-2:], full),
                         full_matrices=full), [a])
    check_grads(LD.singular_values, [a])


def test_svd_full_matrices_undefined_gradient_raises():
    from kerasish import GradientTape, Variable, ops
    v = Variable(rng.standard_normal((4, 2)), dtype="float64")
    with GradientTape() as tape:
        u, s, vt = LD.unpack_tensor(LD.svd(v, full_matrices=True),
                                    LD.svd_shapes(4, 2, True))
        y = ops.sum(u[:, 3])
    with pytest.raises(ValueError, match="full_matrices"):
        tape.gradient(y, v)


def test_eigh_gradients_and_symmetrised_input():
    a = rng.standard_normal((2, 4, 4))
    check_grads(unpacked(LD.eigh, LD.eigh_shapes(4)), [a])
    w, _ = LD.unpack_tensor(LD.eigh(a), LD.eigh_shapes(4))
    sym = (a + np.swapaxes(a, -1, -2)) / 2
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(sym))


@pytest.mark.parametrize("prim,x", [
    (E.arcsin, rng.uniform(-0.9, 0.9, 4)),
    (E.arccos, rng.uniform(-0.9, 0.9, 4)),
    (E.arctan, rng.standard_normal(4)), (E.arcsinh, rng.standard_normal(4)),
    (E.arccosh, rng.uniform(1.2, 3.0, 4)),
    (E.arctanh, rng.uniform(-0.9, 0.9, 4)),
    (E.cbrt, rng.uniform(0.3, 2.0, 4)), (E.log2, rng.uniform(0.3, 2.0, 4)),
    (E.log10, rng.uniform(0.3, 2.0, 4)), (E.i0, rng.standard_normal(4) * 4),
    (E.real, rng.standard_normal(4)), (E.conj, rng.standard_normal(4)),
], ids=lambda p: getattr(p, "name", ""))
def test_elementwise_gradients(prim, x):
    check_grads(prim, [x])


def test_binary_elementwise_gradients():
    check_grads(E.arctan2, [rng.standard_normal((3, 2)),
                            rng.uniform(0.5, 1.0, 2)])
    check_grads(E.hypot, [rng.uniform(0.5, 1.0, 3), rng.standard_normal(3)])
    check_grads(E.fmod, [rng.standard_normal(4) * 3, rng.uniform(0.5, 1, 4)])


def test_complex_round_trip_gradients():
    def parts(re, im):
        z = E.complex_from_parts(re * 2.0, im)
        return E.real(E.conj(z) * z), E.imag(z * z)
    check_grads(parts, [rng.standard_normal(3), rng.standard_normal(3)])


def test_cumprod_gradient_with_zeros_along_an_axis():
    x = rng.standard_normal((3, 5))
    x[0, 1] = x[0, 3] = x[2, 0] = 0.0
    check_grads(lambda v: E.cumprod(v, axis=1), [x])
    check_grads(lambda v: E.cumprod(v, axis=0), [x])
