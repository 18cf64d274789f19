"""SciPy sparse matrices as `fit`/`evaluate`/`predict` inputs.

Keras slices a `scipy.sparse` input into sparse batches that its sparse-
aware layers consume. kerasish has no sparse tensors, so each batch is
densified as it is sliced: the model sees the same numbers, and memory
stays one batch of dense rows. Every format is read as CSR (fast row
slicing; COO cannot be indexed at all).
"""
import numpy as np

from kerasish.backend import config


def is_scipy_sparse(x):
    """Whether `x` is a `scipy.sparse` matrix or array (scipy is not
    imported for the check)."""
    return type(x).__module__.startswith("scipy.sparse") and \
        hasattr(x, "tocsr")


def to_csr(x):
    """`x` as CSR rows, floats in floatx as for dense inputs."""
    x = x.tocsr()
    if x.dtype.kind == "f" and x.dtype != config.floatx():
        x = x.astype(config.floatx())
    return x


def rows(a, start, stop):
    """Rows `start:stop` of an array, dense."""
    part = a[start:stop]
    return part.toarray() if is_scipy_sparse(part) else part


def take_rows(a, index):
    """Rows `index` of an array, dense."""
    if is_scipy_sparse(a):
        return a[index].toarray()
    return np.take(a, index, 0)
