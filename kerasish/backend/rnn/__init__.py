"""Whole-sequence recurrent primitives: `lstm`, `gru`, `simple_rnn`.

Each runs a full sequence as one differentiable primitive (see `common`
for the shared design: one input-projection GEMM, a loop over time, and
backpropagation through time in a hand-written VJP).
"""
from kerasish.backend.rnn.common import FORWARD, derivative  # noqa: F401
from kerasish.backend.rnn.gru import gru  # noqa: F401
from kerasish.backend.rnn.lstm import lstm  # noqa: F401
from kerasish.backend.rnn.simple_rnn import simple_rnn  # noqa: F401
