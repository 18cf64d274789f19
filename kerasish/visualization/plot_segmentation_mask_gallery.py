"""`plot_segmentation_mask_gallery`: images next to their true and
predicted masks (matplotlib, the optional extra `kerasish[plot]`)."""
import numpy as np

from kerasish.backend import config
from kerasish.visualization.draw_segmentation_masks import \
    draw_segmentation_masks
from kerasish.visualization.plot_image_gallery import (plot_image_gallery,
                                                       require_pyplot)


def plot_segmentation_mask_gallery(images, num_classes, value_range=(0, 255),
                                   y_true=None, y_pred=None,
                                   color_mapping=None, blend=True, alpha=0.8,
                                   ignore_index=-1, data_format=None,
                                   **kwargs):
    """Show (or save) each image in a row with its masks drawn on copies.

    Args:
        images: Images `(batch, height, width, channels)` (or channels
            first).
        num_classes: Number of classes (ids `0 .. num_classes - 1`).
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        y_true: Optional true masks `(batch, height, width[, 1])`.
        y_pred: Optional predicted masks, same shape.
        color_mapping: Optional dict of class id -> RGB colour.
        blend: Blend the colours with the image. Defaults to `True`.
        alpha: Opacity of the colours. Defaults to 0.8.
        ignore_index: Class id left undrawn. Defaults to -1.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Passed on to `plot_image_gallery` (`path`, `show`,
            `scale`, ...).

    Example:

    >>> masks = np.zeros((2, 8, 8, 1), "int32")
    >>> plot_segmentation_mask_gallery(np.zeros((2, 8, 8, 3)), 2,
    ...                                y_true=masks, path="masks.png")
    """
    require_pyplot("plot_segmentation_mask_gallery")
    data_format = config.standardize_data_format(data_format)
    images = np.asarray(images)
    if images.ndim != 4:
        raise ValueError("`images` must be batched 4D tensor. "
                         f"Received: images.shape={images.shape}")
    if data_format == "channels_first":
        images = np.moveaxis(images, 1, -1)
    low, high = value_range
    pixels = (np.asarray(images, "float32") - low) / (high - low) * 255.0
    columns = [pixels]
    for masks in (y_true, y_pred):
        if masks is not None:
            masks = np.asarray(masks).astype("int32")
            if data_format == "channels_first" and masks.ndim == 4:
                masks = np.moveaxis(masks, 1, -1)
            columns.append(draw_segmentation_masks(
                pixels, masks, num_classes=num_classes,
                color_mapping=color_mapping, alpha=alpha, blend=blend,
                ignore_index=ignore_index, data_format="channels_last"))
    gallery = np.stack([np.asarray(c, "float32") for c in columns], axis=1)
    gallery = gallery.reshape((-1,) + gallery.shape[2:])
    return plot_image_gallery(gallery, value_range=(0, 255),
                              rows=len(images), cols=len(columns),
                              data_format="channels_last", **kwargs)
