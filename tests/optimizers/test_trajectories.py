"""Optimizer trajectories against real Keras 3.15.1/JAX.

`fixtures/keras_trajectories.py` was written by
`fixtures/gen_trajectories.py` from the cases of
`fixtures/trajectory_cases.py`: six fixed gradients applied to a kernel
and a bias; every step's weights and, at the end, every optimizer variable
(iteration, learning rate, slots in Keras's order) are compared.
"""
import numpy as np
import pytest

import kerasish
from kerasish import optimizers
from tests.optimizers.fixtures.keras_trajectories import KERAS_TRAJECTORIES
from tests.optimizers.fixtures.trajectory_cases import (B0, CASES, STEPS, W0,
                                                        gradients)


def make_optimizer(spec):
    kwargs = dict(spec["kwargs"])
    if spec["schedule"]:
        name, args = spec["schedule"]
        kwargs["learning_rate"] = getattr(optimizers.schedules, name)(**args)
    if "inner" in kwargs:
        name, args = kwargs.pop("inner")
        kwargs["inner_optimizer"] = getattr(optimizers, name)(**args)
    return getattr(optimizers, spec["cls"])(**kwargs)


def run(spec, steps=STEPS):
    opt = make_optimizer(spec)
    w, b = kerasish.Variable(W0.copy()), kerasish.Variable(B0.copy())
    history = []
    for step in range(steps):
        opt.apply(list(gradients(step)), [w, b])
        history.append((w.numpy().copy(), b.numpy().copy()))
    return opt, w, b, history


@pytest.mark.parametrize("name", sorted(CASES))
def test_trajectory_matches_keras(name):
    opt, _, _, history = run(CASES[name])
    expected = KERAS_TRAJECTORIES[name]
    for step, ((w, b), (ew, eb)) in enumerate(zip(history,
                                                   expected["steps"])):
        np.testing.assert_allclose(w, ew, rtol=2e-5, atol=1e-6,
                                   err_msg=f"kernel after step {step + 1}")
        np.testing.assert_allclose(b, eb, rtol=2e-5, atol=1e-6,
                                   err_msg=f"bias after step {step + 1}")
    assert len(opt.variables) == len(expected["variables"])
    for i, (v, ev) in enumerate(zip(opt.variables, expected["variables"])):
        np.testing.assert_allclose(v.numpy(), ev, rtol=2e-5, atol=1e-6,
                                   err_msg=f"optimizer variable {i}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_state_restores_exactly(name):
    # Three steps, snapshot, three more; a fresh optimizer restored from
    # the snapshot continues bit-identically.
    spec = CASES[name]
    opt, w, b, _ = run(spec, steps=3)
    state, weights = opt.get_weights(), (w.numpy().copy(), b.numpy().copy())
    for step in range(3, STEPS):
        opt.apply(list(gradients(step)), [w, b])
    clone = make_optimizer(spec)
    w2, b2 = kerasish.Variable(weights[0]), kerasish.Variable(weights[1])
    clone.build([w2, b2])
    clone.set_weights(state)
    for step in range(3, STEPS):
        clone.apply(list(gradients(step)), [w2, b2])
    np.testing.assert_array_equal(w2.numpy(), w.numpy())
    np.testing.assert_array_equal(b2.numpy(), b.numpy())
    for v, v2 in zip(opt.variables, clone.variables):
        np.testing.assert_array_equal(v.numpy(), v2.numpy())
