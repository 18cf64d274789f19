"""Bounding-box formats, conversions, moves, IoU and anchor deltas.

Image preprocessing layers transform boxes with these (as Keras 3 keeps
them under its image preprocessing layers); `kerasish.utils.bounding_boxes`
is their public namespace.
"""
