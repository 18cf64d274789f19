"""Output shapes of ops called on KerasTensors (`kerasish.ops.symbolic`).

Expected shapes are what Keras 3.15 on its JAX backend gives for the same
calls (checked by running it).
"""
import numpy as np
import pytest

import kerasish
from kerasish import ops
from kerasish.ops import operation


def seq():
    return kerasish.Input((None, 8))


def image():
    return kerasish.Input((None, None, 3))


@pytest.mark.parametrize("make, expected", [
    # Constants larger than a small placeholder fit an unknown axis.
    (lambda: ops.top_k(kerasish.Input((None,)), 5)[0], (None, 5)),
    (lambda: ops.take(seq(), [4, 0], axis=1), (None, 2, 8)),
    (lambda: seq()[:, 5], (None, 8)),
    (lambda: ops.slice(seq(), (0, 0, 0), (1, 4, 8)), (1, 4, 8)),
    (lambda: ops.conv(image(), np.zeros((5, 5, 3, 2), "float32")),
     (None, None, None, 2)),
    (lambda: ops.max_pool(image(), 4), (None, None, None, 3)),
    (lambda: ops.image.extract_patches(image(), 4), (None, None, None, 48)),
    (lambda: ops.argpartition(kerasish.Input((None,)), 4), (None, None)),
    (lambda: ops.stft(kerasish.Input((None,)), 16, 8, 16)[0],
     (None, None, 9)),
    # Shape rules where no placeholder size can work.
    (lambda: ops.reshape(seq(), (-1, 2, 6)), (None, 2, 6)),
    (lambda: ops.reshape(seq(), (None, 2, 4)), (None, 2, 4)),
    (lambda: ops.reshape(kerasish.Input((4, 6)), (-1, 2, 6)), (None, 2, 6)),
])
def test_output_shape_matches_keras(make, expected):
    assert make().shape == expected


@pytest.mark.parametrize("make, expected", [
    (lambda: ops.split(seq(), 2, axis=1), [(None, None, 8)] * 2),
    (lambda: ops.split(seq(), [2, 5], axis=1),
     [(None, 2, 8), (None, 3, 8), (None, None, 8)]),
    (lambda: ops.hsplit(seq(), 2), [(None, None, 8)] * 2),
    (lambda: ops.vsplit(kerasish.Input((None, 4)), 2), [(None, None, 4)] * 2),
    (lambda: ops.array_split(seq(), 3, axis=1), [(None, None, 8)] * 3),
    (lambda: ops.nonzero(kerasish.Input((None,))), [(None,), (None,)]),
    (lambda: ops.split(kerasish.Input((6, 4)), 3, axis=1),
     [(None, 2, 4)] * 3),
])
def test_multi_output_shapes_match_keras(make, expected):
    assert [t.shape for t in make()] == expected


def test_reshape_rule_keeps_checking_known_sizes():
    with pytest.raises(ValueError, match="at most one unknown"):
        ops.reshape(seq(), (-1, -1, 4))
    with pytest.raises(ValueError, match="reshape"):
        ops.reshape(kerasish.Input(batch_shape=(2, 4, 6)), (-1, 5))


def test_nonzero_spec_dtype_matches_eager():
    eager = ops.nonzero(np.array([0, 1, 2]))
    spec = ops.nonzero(kerasish.Input((None,)))
    assert {str(t.dtype) for t in spec} == {str(eager[0].dtype)}


def test_model_with_shape_rules_runs_and_reloads(tmp_path):
    x = kerasish.Input((None, 8))
    model = kerasish.Model(x, [ops.reshape(x, (-1, 2, 4)),
                               ops.split(x, 2, axis=1)[1]])
    data = np.arange(2 * 4 * 8, dtype="float32").reshape(2, 4, 8)
    folded, half = model.predict(data, verbose=0)
    np.testing.assert_array_equal(folded, data.reshape(-1, 2, 4))
    np.testing.assert_array_equal(half, data[:, 2:])
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    assert [t.shape for t in loaded.outputs] == [(None, 2, 4),
                                                 (None, None, 8)]
    for a, b in zip(loaded.predict(data, verbose=0), (folded, half)):
        np.testing.assert_array_equal(a, b)


def test_large_placeholders_fall_back_to_small_sizes():
    # (None, 512, 512) at Keras's size 89 is 23M entries: the op is traced
    # on the small sizes instead, and the shape is the same.
    big = kerasish.Input((512, 512))
    assert operation.op_trace_sizes((big,), {}) == operation._SMALL_SIZES
    assert operation.op_trace_sizes((seq(),), {}) == \
        operation._OP_TRACE_SIZES
    assert ops.matmul(big, big).shape == (None, 512, 512)
