"""The symbolic core and process-wide state, below `ops` (as in Keras 3)."""
