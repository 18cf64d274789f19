"""`CenterCrop`: the central `(height, width)` window of each image."""
from kerasish import ops
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.layers.preprocessing.image.resizing import (check_size,
                                                          set_output_size)
from kerasish.saving.object_registration import builtin
from kerasish.layers.preprocessing.image.bounding_boxes import converters


def aspect_window(height, width, target_height, target_width):
    """`(top, left, crop_height, crop_width)` of the largest centred window
    with the target aspect ratio (Keras's `smart_resize` crop)."""
    crop_h = max(min(height, int(float(width * target_height)
                                 / target_width)), 1)
    crop_w = max(min(width, int(float(height * target_width)
                                / target_height)), 1)
    return (int(float(height - crop_h) / 2), int(float(width - crop_w) / 2),
            crop_h, crop_w)


def crop_window(layer, images, top, left, crop_h, crop_w):
    """Slice a spatial window out of (batched) images."""
    key = [slice(None)] * images.ndim
    key[layer.height_axis] = slice(top, top + crop_h)
    key[layer.width_axis] = slice(left, left + crop_w)
    return images[tuple(key)]


def smart_resize(layer, images, interpolation="bilinear"):
    """Crop to the target aspect ratio, then resize to the target size."""
    height, width = layer.image_size(images)
    window = aspect_window(height, width, layer.height, layer.width)
    images = crop_window(layer, images, *window)
    return ops.image.resize(images, (layer.height, layer.width),
                            interpolation=interpolation,
                            data_format=layer.data_format)


def crop_boxes(layer, bounding_boxes, input_size, window):
    """Boxes of the input image -> boxes of `window` resized to the layer's
    size, clipped (empty boxes get label -1), in the layer's format."""
    height, width = input_size
    top, left, crop_h, crop_w = window
    boxes = converters.convert_format(bounding_boxes["boxes"],
                                      layer.bounding_box_format, "xyxy",
                                      height=height, width=width)
    x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
    parts = [ops.clip(x1, left, left + crop_w) - left,
             ops.clip(y1, top, top + crop_h) - top,
             ops.clip(x2, left, left + crop_w) - left,
             ops.clip(y2, top, top + crop_h) - top]
    if (crop_h, crop_w) != (layer.height, layer.width):
        sizes = [(crop_w, layer.width), (crop_h, layer.height)] * 2
        parts = [p / old * new for p, (old, new) in zip(parts, sizes)]
    result = converters.clip_to_image_size(
        {**bounding_boxes, "boxes": ops.concatenate(parts, -1)},
        layer.height, layer.width)
    result["boxes"] = converters.convert_format(
        result["boxes"], "xyxy", layer.bounding_box_format,
        height=layer.height, width=layer.width)
    return result


def center_window(height, width, target_height, target_width):
    if height >= target_height and width >= target_width:
        return ((height - target_height) // 2, (width - target_width) // 2,
                target_height, target_width)
    return aspect_window(height, width, target_height, target_width)


@builtin("keras.layers")
class CenterCrop(BaseImagePreprocessingLayer):
    """Crop the centre `(height, width)` of images.

    Images smaller than the target (in either dimension) are instead
    cropped to the target aspect ratio and resized (bilinear), so the
    output always has the target size. Acts in training and inference.
    Outputs are in the compute dtype; masks keep their dtype (resized with
    `"nearest"`).

    Args:
        height: Output height.
        width: Output width.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> image = np.arange(16.0).reshape(4, 4, 1)
    >>> CenterCrop(2, 2)(image)[..., 0].numpy()
    array([[ 5.,  6.],
           [ 9., 10.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = check_size(height, "height")
        self.width = check_size(width, "width")

    def get_random_transformation(self, data, training=True, seed=None):
        return {"input_shape": tuple(self.images_of(data).shape)}

    def _crop(self, images, interpolation):
        height, width = self.image_size(images)
        if height >= self.height and width >= self.width:
            window = center_window(height, width, self.height, self.width)
            return crop_window(self, images, *window)
        return smart_resize(self, images, interpolation)

    def transform_images(self, images, transformation=None, training=True):
        return self._crop(ops.cast(images, self.compute_dtype), "bilinear")

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation=None, training=True):
        return self._crop(segmentation_masks, "nearest")

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        size = self.image_size(transformation["input_shape"])
        window = center_window(*size, self.height, self.width)
        return crop_boxes(self, bounding_boxes, size, window)

    def compute_output_shape(self, input_shape):
        return set_output_size(self, input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width,
                       "data_format": self.data_format})
        return config
