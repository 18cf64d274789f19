"""The written-out step of a `Program` (`capture_codegen`): the tape's
gradients in the corners of the walk, readable source and tracebacks."""
import gc
import linecache
import traceback

import numpy as np
import pytest

from kerasish import GradientTape, Variable, ops
from kerasish.backend import shape as S
from kerasish.backend import capture as T
from kerasish.backend.primitive import primitive


def t(value):
    return ops.convert_to_tensor(np.asarray(value, "float32"))


def _tape_and_replay(f, capture_inputs, inputs, sources):
    _, trace = T.capture(f, capture_inputs)
    assert trace.escaped is None
    with GradientTape() as tape:
        out = f(*inputs)
    last = out[-1] if isinstance(out, tuple) else out
    expected = tape.gradient(last, sources)
    replayed, grads = trace.replay_with_gradients(inputs, sources)
    return expected, grads, trace


def _dense(g):
    return None if g is None else np.asarray(
        g.to_dense() if hasattr(g, "to_dense") else g)


def test_sparse_gradient_into_a_vjp_is_made_dense():
    table = Variable(np.arange(12, dtype="float32").reshape(6, 2))

    def f(ids):
        scaled = table * 2.0           # receives the rows' IndexedSlices
        return ops.sum(S.take(scaled, ids, axis=0) ** 2)

    ids = ops.convert_to_tensor(np.array([1, 4, 4]))
    expected, grads, _ = _tape_and_replay(
        f, [ops.convert_to_tensor(np.array([0, 2, 5]))], [ids], [table])
    np.testing.assert_array_equal(_dense(grads[0]), _dense(expected[0]))


def test_list_arguments_and_constants():
    w = Variable([[1.0, 2.0]])

    def f(x):
        joined = ops.concatenate([x * w, t([[3.0, 4.0]]), w], axis=0)
        return ops.sum(joined * joined)

    expected, grads, _ = _tape_and_replay(f, [t([[1.0, 1.0]])],
                                          [t([[0.5, -2.0]])], [w])
    np.testing.assert_array_equal(_dense(grads[0]), _dense(expected[0]))


def test_a_variable_returned_as_the_target():
    w = Variable([1.0, 2.0])
    expected, grads, _ = _tape_and_replay(lambda x: (x * w, w),
                                          [t([1.0, 1.0])], [t([3.0, 4.0])],
                                          [w])
    np.testing.assert_array_equal(_dense(grads[0]), [1.0, 1.0])
    np.testing.assert_array_equal(_dense(expected[0]), [1.0, 1.0])


def test_the_step_is_written_again_when_trainability_changes():
    w, b = Variable([2.0]), Variable([1.0])
    _, trace = T.capture(lambda x: ops.sum(x * w + b), [t([1.0])])
    _, grads = trace.replay_with_gradients([t([3.0])], [w, b])
    assert [float(g.numpy()[0]) for g in grads] == [3.0, 1.0]
    w.trainable = False
    _, grads = trace.replay_with_gradients([t([3.0])], [w, b])
    assert grads[0] is None and float(grads[1].numpy()[0]) == 1.0
    w.trainable = True
    _, grads = trace.replay_with_gradients([t([5.0])], [w, b])
    assert [float(g.numpy()[0]) for g in grads] == [5.0, 1.0]


@primitive
def _checked_double(x):
    if np.any(x < 0):
        raise ValueError("negative input")
    return x * 2


def test_source_is_readable_and_shows_in_tracebacks():
    w = Variable([1.0])
    _, trace = T.capture(lambda x: ops.sum(_checked_double(x) * w),
                         [t([1.0])])
    trace.replay_with_gradients([t([1.0])], [w])
    source = trace.program()._training.source
    assert source.startswith("def step(a0, tensors, scope):")
    assert "# 0: _checked_double" in source and "scope.close()" in source
    with pytest.raises(ValueError, match="negative input") as info:
        trace.replay_with_gradients([t([-1.0])], [w])
    text = "".join(traceback.format_tb(info.tb))
    assert "<kerasish program" in text and "K0(" in text
    assert T.active_tapes() is None        # the forward's marker is gone


def _compiled_program():
    w = Variable([1.0])
    _, trace = T.capture(lambda x: ops.sum(x * w), [t([1.0])])
    trace.replay_with_gradients([t([2.0])], [w])
    return trace, trace.program()._training.__code__.co_filename


def test_a_dropped_program_takes_its_source_lines_along():
    trace, name = _compiled_program()
    assert linecache.getline(name, 1).startswith("def step(")
    del trace
    gc.collect()
    _compiled_program()          # the next compile clears dropped sources
    assert name not in linecache.cache


def test_collecting_a_program_leaves_linecache_alone():
    # `linecache.checkcache` walks a copy of the keys and then reads each
    # entry: a collection in between must not remove one.
    trace, name = _compiled_program()
    names = list(linecache.cache)
    del trace
    gc.collect()
    for key in names:
        assert len(linecache.cache[key]) in (1, 4)


def test_operation_names_cannot_add_code():
    def evil(x):
        return x + 1.0
    op = primitive(evil, name="evil\nimport os; os.system('x')  # ")
    op.defvjp(lambda g, out, x: (g,))
    w = Variable([1.0])
    _, trace = T.capture(lambda x: ops.sum(op(x * w)), [t([1.0])])
    trace.replay_with_gradients([t([2.0])], [w])
    source = trace.program()._training.source
    assert "import os" not in source
    assert "# 1: evil_import_os__os_system__x______" in source
