"""`plot_image_gallery`: a grid of images with optional label titles,
drawn with matplotlib (the optional extra `kerasish[plot]`)."""
import math

import numpy as np

from kerasish.backend import config


def require_pyplot(function):
    try:
        import matplotlib.pyplot as plt  # lazy: optional dependency
    except ImportError:
        raise ImportError(
            f"`{function}` needs matplotlib: install it with `pip install "
            "matplotlib` (or `pip install kerasish[plot]`).") from None
    return plt


def _scaled(images, value_range):
    low, high = value_range
    images = (np.asarray(images, "float32") - low) / (high - low) * 255.0
    return np.clip(images, 0, 255).astype("uint8")


def _titles(index, y_true, y_pred, label_map):
    parts = []
    if y_true is not None and index < len(y_true):
        parts.append(f"Label: {label_map.get(y_true[index], 'Unknown')}")
    if y_pred is not None and index < len(y_pred):
        parts.append(f"Pred: {label_map.get(y_pred[index], 'Unknown')}")
    return "  ".join(parts)


def _grid(batch_size, rows, cols):
    rows = rows or int(math.ceil(math.sqrt(batch_size)))
    cols = cols or int(math.ceil(batch_size / rows))
    return rows, cols


def _finish(plt, figure, path, show, transparent, dpi):
    if path is not None:
        figure.savefig(path, pad_inches=0, bbox_inches="tight",
                       transparent=transparent, dpi=dpi)
        plt.close(figure)
    elif show:
        plt.show()
        plt.close(figure)


def plot_image_gallery(images, y_true=None, y_pred=None, label_map=None,
                       rows=None, cols=None, value_range=(0, 255), scale=2,
                       path=None, show=None, transparent=True, dpi=60,
                       legend_handles=None, data_format=None):
    """Show (or save) a grid of images, titled with labels if given.

    Args:
        images: Images `(batch, height, width, channels)` (or channels
            first).
        y_true: Optional class ids, titled `Label: <name>`.
        y_pred: Optional predicted ids, titled `Pred: <name>`.
        label_map: Dict of class id -> name; required with `y_true` or
            `y_pred`.
        rows: Grid rows. Defaults to `ceil(sqrt(batch))`.
        cols: Grid columns. Defaults to `ceil(batch / rows)`.
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        scale: Size of each image in inches. Defaults to 2.
        path: Save the figure there instead of showing it.
        show: Show the figure; defaults to `path is None`.
        transparent: Transparent background when saving. Defaults to
            `True`.
        dpi: Resolution when saving. Defaults to 60.
        legend_handles: Optional matplotlib handles for a legend.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.

    Example:

    >>> plot_image_gallery(np.zeros((4, 8, 8, 3)), path="gallery.png")
    """
    plt = require_pyplot("plot_image_gallery")
    if path is not None and show:
        raise ValueError("plot_gallery() expects either `path` to be set, "
                         "or `show` to be true.")
    if (y_true is not None or y_pred is not None) and label_map is None:
        raise ValueError("If `y_true` or `y_pred` are provided, a "
                         "`label_map` must also be provided.")
    images = np.asarray(images)
    if images.ndim != 4:
        raise ValueError("`plot_image_gallery()` requires you to batch "
                         "your `np.array` samples together. Received: "
                         f"images.shape={images.shape}")
    if config.standardize_data_format(data_format) == "channels_first":
        images = np.moveaxis(images, 1, -1)
    show = path is None if show is None else show
    rows, cols = _grid(len(images), rows, cols)
    images = _scaled(images[:rows * cols], value_range)
    y_true = None if y_true is None else np.asarray(y_true).tolist()
    y_pred = None if y_pred is None else np.asarray(y_pred).tolist()
    figure, axes = plt.subplots(nrows=rows, ncols=cols, squeeze=False,
                                figsize=(cols * scale, rows * scale),
                                frameon=False, layout="tight")
    figure.subplots_adjust(wspace=0, hspace=0)
    if legend_handles is not None:
        figure.legend(handles=legend_handles, loc="lower center")
    for index, axis in enumerate(axes.ravel()):
        axis.axis("off")
        if index >= len(images):
            continue
        axis.imshow(images[index].squeeze(-1) if images.shape[-1] == 1
                    else images[index], cmap="gray" if images.shape[-1] == 1
                    else None)
        axis.margins(x=0, y=0)
        title = _titles(index, y_true, y_pred, label_map)
        if title:
            axis.set_title(title, fontsize=8)
    _finish(plt, figure, path, show, transparent, dpi)
