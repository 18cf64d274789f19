"""Pooling layers: Max/Average Pooling 1D/2D/3D and their Global forms."""
