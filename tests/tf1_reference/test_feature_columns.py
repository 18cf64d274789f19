"""Feature columns against TF 2.15.1, with fixed embedding and linear weights.

Every column of `feature_columns.json` (built from the same spec by
`columns.build_column` on both sides) reads the same features: floats,
strings with `""` missing and an out-of-vocabulary value, ints with `-1`
missing, multivalent strings padded with `""`, and example weights.
Compared: each column's `input_layer` / `DenseFeatures` output, all
columns together (TF orders them by name), shared embeddings, and
`linear_model` / `LinearModel` outputs with every weight set to the same
values (and the same variable names).
"""
import numpy as np
import pytest

from kerasish import feature_column as fc
from tests.tf1_reference.columns import build_column
from tests.tf1_reference.util import assert_close, load

FIXTURE = load("feature_columns")
OOV_DROPPED = "indicator_vocab_oov_dropped"
CROSSED_WITH_MISSING = ("indicator_crossed_missing_string",
                        "indicator_crossed_oov_id")
CROSSED_RAW_KEY_FIRST = "indicator_crossed"
OWN_TESTS = (OOV_DROPPED, CROSSED_RAW_KEY_FIRST) + CROSSED_WITH_MISSING


def features():
    out = {}
    for key, entry in FIXTURE["features"].items():
        dtype = str if entry["dtype"] == "string" else entry["dtype"]
        out[key] = np.asarray(entry["value"], dtype=dtype)
    return out


def constant(array):
    def initializer(shape, dtype=None):
        assert tuple(shape) == array.shape
        return array.copy()
    return initializer


@pytest.fixture
def vocab_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text(FIXTURE["vocab_file"])
    return str(path)


def column(spec, vocab_file):
    return build_column(spec, fc, constant, vocab_file)


CASES = sorted(FIXTURE["columns"])


@pytest.mark.parametrize("name", [n for n in CASES if n not in OWN_TESTS])
def test_column_output(name, vocab_file):
    case = FIXTURE["columns"][name]
    layer = fc.DenseFeatures([column(case["spec"], vocab_file)])
    assert_close(layer(features()).numpy(), case["output"], what=name)


@pytest.mark.parametrize("name", CROSSED_WITH_MISSING)
def test_crossed_column_crosses_missing_values_as_tf(name, vocab_file):
    # TF crosses a raw "" string and the -1 id of an out-of-vocabulary
    # value like any other value.
    case = FIXTURE["columns"][name]
    layer = fc.DenseFeatures([column(case["spec"], vocab_file)])
    assert_close(layer(features()).numpy(), case["output"], what=name)


def test_crossed_column_crosses_columns_before_raw_features(vocab_file):
    # TF's sparse_cross takes the categorical columns' ids before the raw
    # features, whatever the order of `keys`: crossed_column(["city",
    # age_buckets]) lands in the buckets of crossed_column([age_buckets,
    # "city"]).
    for name in [CROSSED_RAW_KEY_FIRST, "indicator_crossed_columns_first"]:
        case = FIXTURE["columns"][name]
        layer = fc.DenseFeatures([column(case["spec"], vocab_file)])
        assert_close(layer(features()).numpy(), case["output"], what=name)


def test_out_of_vocabulary_without_default_is_dropped_as_tf(vocab_file):
    # TF's default_value=-1: an OOV value gets no id (a zero indicator row).
    case = FIXTURE["columns"][OOV_DROPPED]
    layer = fc.DenseFeatures([column(case["spec"], vocab_file)])
    assert_close(layer(features()).numpy(), case["output"])


def test_all_columns_together_in_tf_order(vocab_file):
    together = FIXTURE["input_layer_all_columns"]
    columns = [column(FIXTURE["columns"][n]["spec"], vocab_file)
               for n in together["cases"]]
    assert [c.name for c in columns] == together["column_names"]
    # The output, one block per column in TF's order (by name); the blocks
    # of columns with a test of their own are compared there.
    order = sorted(range(len(columns)), key=lambda i: columns[i].name)
    got = fc.DenseFeatures(columns)(features()).numpy()
    want = np.asarray(together["output"])
    assert got.shape == want.shape
    start = 0
    for i in order:
        name = together["cases"][i]
        width = np.asarray(FIXTURE["columns"][name]["output"]).shape[1]
        if name not in OWN_TESTS:
            assert_close(got[:, start:start + width],
                         want[:, start:start + width], what=name)
        start += width


def _shared(make, vocab_file, case_name):
    case = FIXTURE[case_name]
    spec = case["spec"]
    cats = [column(c, vocab_file) for c in spec["categoricals"]]
    columns = make(cats, spec["dimension"], combiner=spec["combiner"],
                   initializer=constant(np.asarray(spec["table"],
                                                   np.float32)))
    assert [c.name for c in columns] == case["names"]
    layer = fc.DenseFeatures(columns)
    assert_close(layer(features()).numpy(), case["output"])
    # One table for both columns, named as TF names it (TF 1 under
    # input_layer/, TF 2 by the columns' names alone).
    [table] = layer.weights
    [tf_name] = case["variables"]
    tf_name = tf_name.split(":")[0]
    if "/" in tf_name:
        tf_name = tf_name.split("/", 1)[1]
    assert table.path.endswith(tf_name)


def test_shared_embedding_columns(vocab_file):
    _shared(lambda *a, **k: fc.shared_embedding_columns(*a, **k), vocab_file,
            "shared_embedding")


def test_shared_embeddings_v2(vocab_file):
    _shared(lambda *a, **k: fc.shared_embeddings(*a, **k), vocab_file,
            "shared_embeddings_v2")


@pytest.mark.parametrize("case", FIXTURE["linear_model"],
                         ids=lambda c: f"{c['sparse_combiner']}-{c['units']}")
def test_linear_model_with_fixed_weights(case, vocab_file):
    specs = []
    for name in case["columns"]:
        spec = FIXTURE["columns"][name]["spec"]
        specs.append(spec["categorical"] if spec["type"] == "indicator"
                     else spec)
    model = fc.LinearModel([column(s, vocab_file) for s in specs],
                           units=case["units"],
                           sparse_combiner=case["sparse_combiner"])
    x = features()
    model(x)
    assert sorted(v.path for v in model.weights) == sorted(case["weights"])
    for variable in model.weights:
        variable.assign(np.asarray(case["weights"][variable.path],
                                   np.float32))
    assert_close(model(x).numpy(), case["output"], rtol=1e-5, atol=1e-4)
