"""`plot_bounding_box_gallery`: an image grid with true and predicted
boxes drawn on (matplotlib, the optional extra `kerasish[plot]`)."""
import numpy as np

from kerasish.backend import config
from kerasish.visualization.draw_bounding_boxes import draw_bounding_boxes
from kerasish.visualization.plot_image_gallery import (plot_image_gallery,
                                                       require_pyplot)


def _legend(true_color, pred_color):
    import matplotlib.patches as patches  # lazy: optional dependency
    return [patches.Patch(color=np.array(true_color) / 255.0,
                          label="Ground Truth"),
            patches.Patch(color=np.array(pred_color) / 255.0,
                          label="Prediction")]


def plot_bounding_box_gallery(images, bounding_box_format, y_true=None,
                              y_pred=None, value_range=(0, 255),
                              true_color=(0, 188, 212),
                              pred_color=(255, 235, 59), line_thickness=2,
                              font_scale=1.0, text_thickness=None,
                              class_mapping=None, ground_truth_mapping=None,
                              prediction_mapping=None, legend=False,
                              legend_handles=None, rows=None, cols=None,
                              data_format=None, **kwargs):
    """Show (or save) images with ground-truth and predicted boxes.

    Args:
        images: Images `(batch, height, width, channels)` (or channels
            first).
        bounding_box_format: Format of the boxes.
        y_true: Optional ground-truth boxes dict (`"boxes"`, `"labels"`),
            as for `draw_bounding_boxes`.
        y_pred: Optional predicted boxes dict (may hold `"confidences"`).
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        true_color: RGB colour of the ground truth. Defaults to
            `(0, 188, 212)`.
        pred_color: RGB colour of the predictions. Defaults to
            `(255, 235, 59)`.
        line_thickness: Box line width. Defaults to 2.
        font_scale: Text size factor. Defaults to 1.0.
        text_thickness: Text stroke width; defaults to `line_thickness`.
        class_mapping: Dict of class id -> name for both.
        ground_truth_mapping: Names for the ground truth (overrides
            `class_mapping`).
        prediction_mapping: Names for the predictions (overrides
            `class_mapping`).
        legend: Add a "Ground Truth" / "Prediction" legend. Defaults to
            `False`.
        legend_handles: Custom legend handles (not with `legend`).
        rows: Grid rows.
        cols: Grid columns.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Passed on to `plot_image_gallery` (`path`, `show`,
            `scale`, ...).

    Example:

    >>> boxes = {"boxes": np.array([[[1, 1, 6, 6]]]),
    ...          "labels": np.array([[0]])}
    >>> plot_bounding_box_gallery(np.zeros((1, 8, 8, 3)), "xyxy",
    ...                           y_true=boxes, path="boxes.png")
    """
    require_pyplot("plot_bounding_box_gallery")
    images = np.asarray(images)
    if images.ndim != 4:
        raise ValueError("`images` must be batched 4D tensor. "
                         f"Received: images.shape={images.shape}")
    if config.standardize_data_format(data_format) == "channels_first":
        images = np.moveaxis(images, 1, -1)
    if legend and legend_handles:
        raise ValueError("Only pass `legend` OR `legend_handles` to "
                         "`keras.visualization.plot_bounding_box_gallery()`.")
    low, high = value_range
    plotted = (np.asarray(images, "float32") - low) / (high - low) * 255.0
    drawn = [(y_true, true_color, ground_truth_mapping or class_mapping),
             (y_pred, pred_color, prediction_mapping or class_mapping)]
    for boxes, color, mapping in drawn:
        if boxes is not None:
            plotted = draw_bounding_boxes(
                plotted, boxes, bounding_box_format, class_mapping=mapping,
                color=color, line_thickness=line_thickness,
                text_thickness=text_thickness, font_scale=font_scale,
                data_format="channels_last")
    if legend:
        legend_handles = _legend(true_color, pred_color)
    return plot_image_gallery(plotted, value_range=(0, 255),
                              legend_handles=legend_handles, rows=rows,
                              cols=cols, data_format="channels_last",
                              **kwargs)
