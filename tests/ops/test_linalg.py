"""keras.ops.linalg: parity with real Keras 3.15, gradients, shapes, errors.

`REF` was produced by tests/fixtures/make_linalg_reference.py (Keras 3.15.1,
JAX backend, float64); gradients (`grad_*`) are `jax.grad` of the same
losses as below.
"""
import math

import numpy as np
import pytest

import kerasish
from kerasish import GradientTape, Variable, ops
from kerasish.utils import check_grads

A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.5]])
B = np.array([[1.0, 2.0], [0.0, -1.0], [3.0, 1.0]])
G = np.array([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4], [-0.8, 0.2, 1.1]])
W = np.arange(9.0).reshape(3, 3) / 9.0

REF = {'cholesky': [[2.0, 0.0, 0.0], [0.5, 1.658312, 0.0],
              [0.25, -0.678401, 1.406155]],
 'cholesky_inverse': [[0.298851, -0.137931, -0.114943],
                      [-0.137931, 0.448276, 0.206897],
                      [-0.114943, 0.206897, 0.505747]],
 'cholesky_upper': [[2.0, 0.5, 0.25], [0.0, 1.658312, -0.678401],
                    [0.0, 0.0, 1.406155]],
 'det': 3.571,
 'eig_w_sorted': [0.566709, 0.566709, 0.966583],
 'eigh_w': [1.324453, 3.551098, 4.624449],
 'grad_cholesky': [[0.003687, -0.032852, 0.036205],
                   [-0.032852, 0.282837, 0.36381],
                   [0.036205, 0.36381, 0.316071]],
 'grad_det': [[0.85, -1.33, 0.86], [1.72, 1.93, 0.9], [-0.92, 3.12, 2.01]],
 'grad_eigh': [[0.743917, 0.49606, 0.808372], [0.49606, 0.76336, -0.332299],
               [0.808372, -0.332299, 1.492723]],
 'grad_inv': [[-0.016424, -0.064974, -0.054723],
              [-0.156119, -0.686603, -0.562632],
              [-0.303549, -0.993986, -0.884099]],
 'grad_qr_r': [[-0.12547, 0.391485], [0.083646, -0.237566],
               [0.041823, -0.013374]],
 'grad_svd_s': [[2.0, 4.0], [-0.0, -2.0], [6.0, 2.0]],
 'inv': [[0.238029, 0.481658, -0.257631], [-0.372445, 0.540465, 0.873705],
         [0.240829, 0.25203, 0.562868]],
 'lstsq': [-0.117143, -0.185714],
 'lu': [[1.5, 0.7, -0.4], [0.2, -1.34, 2.08],
        [-0.533333, -0.427861, 1.776617]],
 'matrix_rank': 1.0,
 'norm_matrix_-1': 2.1,
 'norm_matrix_-2': 0.82342,
 'norm_matrix_-inf': 2.1,
 'norm_matrix_1': 3.5,
 'norm_matrix_2': 2.631871,
 'norm_matrix_None': 3.212476,
 'norm_matrix_fro': 3.212476,
 'norm_matrix_inf': 3.5,
 'norm_matrix_nuc': 5.103088,
 'norm_vector_-inf': [0.0, 1.0],
 'norm_vector_0': [2.0, 3.0],
 'norm_vector_0.5': [7.464102, 11.656855],
 'norm_vector_1': [4.0, 4.0],
 'norm_vector_2': [3.162278, 2.44949],
 'norm_vector_3': [3.036589, 2.154435],
 'norm_vector_None': [3.162278, 2.44949],
 'norm_vector_inf': [3.0, 2.0],
 'pinv': [[-0.114286, 0.142857, 0.371429], [0.428571, -0.285714, -0.142857]],
 'piv': [1.0, 1.0, 2.0],
 'slogdet': (1.0, 1.272846),
 'solve': [[-0.534864, -0.263232], [2.24867, -0.411649],
           [1.929432, 0.792495]],
 'solve_tri_lower': [[3.333333, 6.666667], [-7.142857, -15.714286],
                     [6.450216, 8.614719]],
 'solve_tri_upper': [-8.614719, 1.558442, 2.727273],
 'svd_s': [3.658574, 1.617045]}



def close(actual, expected, tol=1e-5):
    np.testing.assert_allclose(np.asarray(actual, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64),
                               rtol=tol, atol=tol)


@pytest.mark.parametrize("name,fn", [
    ("inv", lambda: ops.inv(G)),
    ("det", lambda: ops.det(G)),
    ("solve", lambda: ops.solve(G, B)),
    ("solve_tri_lower", lambda: ops.solve_triangular(G, B, lower=True)),
    ("solve_tri_upper", lambda: ops.solve_triangular(G, B[:, 0])),
    ("cholesky", lambda: ops.cholesky(A)),
    ("cholesky_upper", lambda: ops.cholesky(A, upper=True)),
    ("cholesky_inverse", lambda: ops.cholesky_inverse(ops.cholesky(A))),
    ("lstsq", lambda: ops.lstsq(B, G[:, 0])),
    ("pinv", lambda: ops.pinv(B)),
    ("matrix_rank", lambda: ops.matrix_rank(np.outer(B[:, 0], B[:, 1]))),
    ("lu", lambda: ops.lu_factor(G)[0]),
    ("piv", lambda: ops.lu_factor(G)[1]),
    ("eigh_w", lambda: ops.eigh(A)[0]),
    ("svd_s", lambda: ops.svd(B, compute_uv=False)),
    ("eig_w_sorted",
     lambda: np.sort_complex(ops.eig(G)[0].numpy()).real),
])
def test_values_match_keras(name, fn):
    close(fn(), REF[name])


def test_slogdet_matches_keras():
    sign, logdet = ops.slogdet(G)
    close(sign, REF["slogdet"][0])
    close(logdet, REF["slogdet"][1])
    close(ops.math.logdet(A), np.log(np.linalg.det(A)))


@pytest.mark.parametrize("ord_", [None, "fro", "nuc", math.inf, -math.inf,
                                  1, -1, 2, -2], ids=str)
def test_matrix_norms_match_keras(ord_):
    close(ops.norm(G, ord=ord_), REF[f"norm_matrix_{ord_}"])


@pytest.mark.parametrize("ord_", [None, math.inf, -math.inf, 0, 1, 2, 3,
                                  0.5], ids=str)
def test_vector_norms_match_keras(ord_):
    close(ops.norm(B, ord=ord_, axis=0), REF[f"norm_vector_{ord_}"])


def test_norm_keepdims_axes_and_dtype():
    x = np.arange(24.0).reshape(2, 3, 4)
    out = ops.norm(x, ord="nuc", axis=(0, 2), keepdims=True)
    assert out.shape == (1, 3, 1)
    expected = [np.linalg.norm(x[:, i, :], "nuc") for i in range(3)]
    close(out.numpy().ravel(), expected)
    assert ops.norm(x, keepdims=True).shape == (1, 1, 1)
    assert ops.norm(np.arange(4)).dtype == "float32"
    close(ops.norm(x, ord=1, axis=(2, 1)), np.linalg.norm(x, 1, (2, 1)))


def test_decompositions_reconstruct():
    x = np.random.default_rng(1).standard_normal((2, 4, 3))
    q, r = ops.qr(x)
    close(ops.matmul(q, r), x)
    q, r = ops.qr(x, mode="complete")
    assert q.shape == (2, 4, 4) and r.shape == (2, 4, 3)
    close(ops.matmul(q, r), x)
    u, s, vh = ops.svd(x, full_matrices=False)
    close(ops.matmul(u * s[:, None, :], vh), x)
    u, s, vh = ops.svd(x)
    assert u.shape == (2, 4, 4) and vh.shape == (2, 3, 3)
    w, v = ops.eigh(A)
    close(ops.matmul(v * w, v.numpy().T), A)
    w, v = ops.eig(G)
    assert w.dtype == "complex128"
    close(np.abs(G @ v.numpy() - v.numpy() * w.numpy()), np.zeros((3, 3)))


def test_lu_factor_reconstructs_with_pivots():
    x = np.random.default_rng(2).standard_normal((2, 4, 4))
    lu, piv = ops.lu_factor(x)
    assert piv.dtype == "int32"
    for b in range(2):
        perm = np.arange(4)
        for i, p in enumerate(piv.numpy()[b]):
            perm[[i, p]] = perm[[p, i]]
        lower = np.tril(lu.numpy()[b], -1) + np.eye(4)
        close(lower @ np.triu(lu.numpy()[b]), x[b][perm])


def _grad(fn, x):
    v = Variable(x, dtype="float64")
    with GradientTape() as tape:
        y = fn(v)
    return tape.gradient(y, v).numpy()


def test_gradients_match_jax():
    close(_grad(lambda a: ops.sum(ops.cholesky(a) * W), A),
          REF["grad_cholesky"])
    close(_grad(lambda a: ops.sum(ops.eigh(a)[0] * np.arange(3.0))
                + ops.sum(ops.abs(ops.eigh(a)[1][:, 0])), G),
          REF["grad_eigh"])
    close(_grad(ops.det, G), REF["grad_det"])
    close(_grad(lambda a: ops.sum(ops.inv(a) * W), G), REF["grad_inv"])
    close(_grad(lambda a: ops.sum(ops.svd(a, compute_uv=False) ** 2), B),
          REF["grad_svd_s"])
    close(_grad(lambda a: ops.sum(ops.abs(ops.qr(a)[1]) * W[:2, :2]), B),
          REF["grad_qr_r"])


rng = np.random.default_rng(0)
SPD = A + 0.1 * np.eye(3)


@pytest.mark.parametrize("fn,inputs", [
    (ops.inv, [G]),
    (ops.det, [rng.standard_normal((2, 3, 3))]),
    (lambda x: ops.slogdet(x)[1], [G]),
    (ops.math.logdet, [SPD]),
    (ops.solve, [G, B]),
    (ops.solve, [G, B[:, 0]]),
    (lambda a, b: ops.solve_triangular(a, b, lower=True), [G + 2 * np.eye(3),
                                                          B]),
    (ops.cholesky, [SPD]),
    (lambda x: ops.cholesky(x, upper=True), [SPD]),
    (ops.cholesky_inverse, [np.linalg.cholesky(SPD)]),
    (lambda x: ops.qr(x), [rng.standard_normal((4, 3))]),
    (lambda x: ops.qr(x, mode="complete"), [rng.standard_normal((4, 2))]),
    (lambda x: ops.qr(x), [rng.standard_normal((2, 4))]),
    (lambda x: ops.svd(x, full_matrices=False), [rng.standard_normal((3, 5))]),
    (lambda x: ops.svd(x), [rng.standard_normal((3, 3))]),
    (lambda x: ops.svd(x, compute_uv=False), [rng.standard_normal((4, 2))]),
    (ops.eigh, [G]),
    (ops.pinv, [B]),
    (ops.lstsq, [B, G[:, :2]]),
    (lambda x: ops.norm(x, ord="nuc"), [G]),
    (lambda x: ops.norm(x, ord=2), [G]),
    (lambda x: ops.norm(x, ord=3, axis=-1), [G]),
    (lambda x: ops.norm(x, ord=-1), [G]),
], ids=lambda v: getattr(v, "__name__", ""))
def test_gradient_checks(fn, inputs):
    check_grads(fn, inputs)


def test_svd_full_matrices_gradient_through_thin_part_only():
    x = rng.standard_normal((4, 2))
    check_grads(lambda a: ops.svd(a)[1], [x])
    check_grads(lambda a: ops.svd(a)[0][:, :2] * ops.svd(a)[1], [x])
    with pytest.raises(ValueError, match="full_matrices=False"):
        _grad(lambda a: ops.sum(ops.svd(a)[0]), x)


def test_eigenvalue_gradients_finite_with_repeated_eigenvalues():
    g = _grad(lambda a: ops.sum(ops.eigh(a)[0] ** 2), np.eye(3))
    close(g, 2 * np.eye(3))


def test_det_gradient_at_singular_matrix_is_cofactor():
    close(_grad(ops.det, np.array([[1.0, 2.0], [2.0, 4.0]])),
          [[4.0, -2.0], [-2.0, 1.0]])


def test_jvp_matches_jacobian_product():
    x = rng.standard_normal(3)
    t = rng.standard_normal(3)
    out, tangent = ops.jvp(lambda v: ops.sin(v) * v[0], (x,), (t,))
    jac = np.diag(np.cos(x) * x[0])
    jac[:, 0] += np.sin(x)
    close(out, np.sin(x) * x[0])
    close(tangent, jac @ t)
    out, tangent, aux = ops.jvp(lambda a, b: (ops.matmul(a, b), "aux"),
                                (G, B), (np.eye(3), np.zeros((3, 2))),
                                has_aux=True)
    assert aux == "aux"
    close(tangent, B)


def test_integer_inputs_are_computed_in_floatx():
    assert ops.inv(np.array([[2, 0], [0, 4]])).dtype == "float32"
    assert ops.det(np.eye(2, dtype="int32")).dtype == "float32"


def test_symbolic_shapes():
    x = kerasish.Input((4, 3))
    sq = kerasish.Input((3, 3))
    assert ops.inv(sq).shape == (None, 3, 3)
    assert ops.det(sq).shape == (None,)
    assert [t.shape for t in ops.qr(x)] == [(None, 4, 3), (None, 3, 3)]
    assert [t.shape for t in ops.svd(x)] == [(None, 4, 4), (None, 3),
                                            (None, 3, 3)]
    assert ops.svd(x, compute_uv=False).shape == (None, 3)
    assert [t.shape for t in ops.eigh(sq)] == [(None, 3), (None, 3, 3)]
    assert ops.solve(sq, kerasish.Input((3, 2))).shape == (None, 3, 2)
    assert ops.cholesky(sq).shape == (None, 3, 3)
    assert ops.pinv(x).shape == (None, 3, 4)
    assert ops.matrix_rank(x).shape == (None,)
    assert ops.norm(x, axis=-1).shape == (None, 4)
    assert [t.shape for t in ops.lu_factor(sq)] == [(None, 3, 3), (None, 3)]


def test_model_with_inv_runs():
    sq = kerasish.Input((2, 2))
    model = kerasish.Model(sq, ops.inv(sq))
    x = np.array([[[2.0, 0.0], [0.0, 4.0]]], dtype="float32")
    close(model.predict(x, verbose=0), np.linalg.inv(x))


@pytest.mark.parametrize("call,match", [
    (lambda: ops.inv(np.ones(3)), "rank >= 2"),
    (lambda: ops.det(np.ones((2, 3))), "square"),
    (lambda: ops.inv(np.zeros((2, 2))), "singular"),
    (lambda: ops.cholesky(-np.eye(2)), "positive definite"),
    (lambda: ops.solve(np.eye(3), np.ones(2)), "Incompatible shapes"),
    (lambda: ops.qr(np.eye(2), mode="full"), "mode"),
    (lambda: ops.norm(np.eye(2), ord="bad"), "ord"),
    (lambda: ops.norm(np.ones(3), ord="fro", axis=0), "vector norm"),
    (lambda: ops.norm(np.eye(2), ord=3), "matrix norm"),
    (lambda: ops.norm(np.ones((2, 3)), axis=2), "out of bounds"),
    (lambda: ops.lstsq(np.ones((3, 2)), np.ones(2)), "b.shape"),
    (lambda: ops.jvp(lambda x: x, (np.ones(2),), (np.ones(3),)), "shape"),
])
def test_bad_inputs_raise_clear_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_inverse_of_a_batch(upper):
    # Reference from Keras 3.15 on TensorFlow (its JAX backend fails on a
    # batch): one inverse per matrix.
    a = np.array([[[4.0, 2.0], [2.0, 5.0]], [[9.0, 3.0], [3.0, 2.0]]],
                 dtype="float32")
    out = ops.cholesky_inverse(ops.cholesky(a, upper=upper), upper=upper)
    close(out, [[[0.3125, -0.125], [-0.125, 0.25]],
                [[0.222222, -0.333333], [-0.333333, 1.0]]])
    check_grads(lambda f: ops.cholesky_inverse(f, upper=upper),
                [np.linalg.cholesky(a.astype("float64")).swapaxes(-1, -2)
                 if upper else np.linalg.cholesky(a.astype("float64"))])


def test_lu_factor_is_differentiable_as_in_keras():
    # jax.grad of sum(lu * w) with Keras 3.15 (JAX backend).
    a = np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]], dtype="float32")
    w = np.array([[1.0, -1.0], [2.0, 0.5], [0.3, 1.0]], dtype="float32")
    x = kerasish.ops.convert_to_tensor(a)
    with GradientTape() as tape:
        tape.watch(x)
        y = ops.sum(ops.lu_factor(x)[0] * w)
    close(tape.gradient(y, x), [[0.9, -0.6], [0.646667, -0.843333],
                                [0.32, 0.26]])
    for shape in [(2, 3, 3), (2, 4)]:
        check_grads(lambda m: ops.lu_factor(m)[0],
                    [rng.standard_normal(shape)])


def test_solve_triangular_reads_b_as_matrices_unless_its_last_axis_fits():
    # Keras 3.15 (JAX's rule): b of one axis less than a is a batch of
    # vectors only when it ends with a's size; here it is (1, 2, 3)
    # matrices, broadcast against a's (2, 1) batch.
    a = np.array([[[[2.0, 0.0], [1.0, 4.0]]], [[[1.0, 0.0], [3.0, 2.0]]]],
                 dtype="float32")
    b = np.array([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], dtype="float32")
    out = ops.solve_triangular(a, b, lower=True)
    assert out.shape == (2, 1, 2, 3)
    close(out, [[[[0.5, 1.0, 1.5], [0.875, 1.0, 1.125]]],
                [[[1.0, 2.0, 3.0], [0.5, -0.5, -1.5]]]])
    assert ops.solve_triangular(kerasish.KerasTensor((2, 1, 2, 2)),
                                kerasish.KerasTensor((1, 2, 3))).shape == \
        (2, 1, 2, 3)
    check_grads(lambda x, y: ops.solve_triangular(x, y, lower=True),
                [a.astype("float64"), b.astype("float64")])
