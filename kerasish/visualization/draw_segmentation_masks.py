"""`draw_segmentation_masks`: colour the classes of segmentation masks
over images."""
import numpy as np

from kerasish.backend import config


def color_palette(num_classes):
    """Keras's default palette: class `i` gets `(i * [2**25 - 1, 2**15 - 1,
    2**21 - 1]) % 255` (class 0 is black)."""
    palette = np.array([2**25 - 1, 2**15 - 1, 2**21 - 1])
    return [((i * palette) % 255).tolist() for i in range(num_classes)]


def _masks_channels_last(masks, data_format):
    masks = np.asarray(masks)
    if masks.ndim == 4 and data_format == "channels_first":
        masks = np.moveaxis(masks, 1, -1)
    if masks.ndim == 4:
        if masks.shape[-1] != 1:
            raise ValueError("`segmentation_masks` must have one channel. "
                             f"Received: shape={masks.shape}")
        masks = masks[..., 0]
    if masks.ndim != 3:
        raise ValueError("`segmentation_masks` must be shaped (batch, "
                         "height, width) or (batch, height, width, 1). "
                         f"Received: shape={masks.shape}")
    if masks.dtype.kind not in "iu":
        raise TypeError("`segmentation_masks` must be in integer dtype. "
                        f"Received: segmentation_masks.dtype={masks.dtype}")
    return masks


def draw_segmentation_masks(images, segmentation_masks, num_classes=None,
                            color_mapping=None, alpha=0.8, blend=True,
                            ignore_index=-1, data_format=None):
    """Overlay segmentation masks on images.

    Pixels of class `c` (`0 <= c < num_classes`) take the class colour,
    blended with the image by `alpha`; pixels equal to `ignore_index` (or
    outside the classes) keep the image.

    Args:
        images: Images `(batch, height, width, channels)` (or channels
            first), values in `[0, 255]`.
        segmentation_masks: Integer masks `(batch, height, width)` or
            `(batch, height, width, 1)`.
        num_classes: Number of classes (ids `0 .. num_classes - 1`).
            Defaults to the largest id in the masks plus one.
        color_mapping: Optional dict (or list) of class id -> RGB colour;
            defaults to Keras's palette.
        alpha: Opacity of the colours, in `[0, 1]`. Defaults to 0.8.
        blend: Blend the colours with the images (uint8 result). With
            `False` the colours are painted as they are (float32 result).
            Defaults to `True`.
        ignore_index: Class id left undrawn. Defaults to -1.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.

    Returns:
        A numpy array of the images with the masks drawn, channels last.

    Example:

    >>> images = np.zeros((1, 2, 2, 3))
    >>> masks = np.array([[[0, 1], [1, 0]]])
    >>> out = draw_segmentation_masks(images, masks, num_classes=2,
    ...                               color_mapping={0: [0, 0, 0],
    ...                                              1: [255, 0, 0]},
    ...                               alpha=1.0)
    >>> out[0, :, :, 0].tolist()
    [[0, 255], [255, 0]]
    """
    data_format = config.standardize_data_format(data_format)
    images = np.asarray(images, "float32")
    if images.ndim != 4:
        raise ValueError("`images` must be batched 4D tensor. "
                         f"Received: images.shape={images.shape}")
    if data_format == "channels_first":
        images = np.moveaxis(images, 1, -1)
    masks = _masks_channels_last(segmentation_masks, data_format)
    if num_classes is None:
        num_classes = int(masks.max()) + 1
    colors = color_palette(num_classes) if color_mapping is None else \
        [color_mapping[i] for i in range(num_classes)]
    painted = images.copy()
    for class_id, color in enumerate(colors):
        painted[masks == class_id] = np.asarray(color, "float32")[
            :images.shape[-1]]
    valid = (masks != ignore_index)[..., None]
    if not blend:
        return np.where(valid, painted, images).astype("float32")
    blended = images * (1 - alpha) + painted * alpha
    return np.where(valid, blended, images).astype("uint8")
