"""Recurrent layers: cells, the generic `RNN`, LSTM/GRU/SimpleRNN, and the
`Bidirectional` and `TimeDistributed` wrappers."""
