"""Shared access to tests/fixtures/data_utils/folders.npz (real Keras's
directory datasets) and the file trees they were made from."""
import json
import os

import numpy as np
import pytest

from tests.fixtures.data_utils import folder_cases as cases

PATH = os.path.join(os.path.dirname(cases.__file__), "folders.npz")


@pytest.fixture(scope="session")
def ref():
    with np.load(PATH) as data:
        return dict(data)


@pytest.fixture(scope="session")
def tree(tmp_path_factory):
    pytest.importorskip("PIL")
    return str(cases.build_tree(str(tmp_path_factory.mktemp("tree"))))


def collect(ds, labelled, batched=True):
    """Concatenated inputs and labels of a dataset, and its batch sizes."""
    xs, ys, sizes = [], [], []
    for element in ds:
        x, y = element if labelled else (element, None)
        xs.append(np.asarray(x))
        sizes.append(len(x) if np.ndim(x) else 0)
        if labelled:
            ys.append(np.asarray(y))
    join = np.concatenate if batched else np.stack
    return join(xs), (join(ys) if labelled else None), sizes


def loads(value):
    return json.loads(str(value))
