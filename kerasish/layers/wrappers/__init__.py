"""Layers wrapping models of other frameworks: `TorchModuleWrapper` (torch),
`JaxLayer` and `FlaxLayer` (jax, flax). The frameworks are optional extras,
imported only when a wrapper is created."""
