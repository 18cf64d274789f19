"""`Resizing`: resize images (and their boxes and masks) to a fixed size."""
import numbers

from kerasish import ops
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.ops.image_resize import RESIZE_INTERPOLATIONS
from kerasish.saving.object_registration import builtin
from kerasish.layers.preprocessing.image.bounding_boxes import converters


def check_size(value, name):
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) \
            or value <= 0:
        raise ValueError(f"`{name}` must be a positive integer. "
                         f"Received: {name}={value!r}")
    return int(value)


def set_output_size(layer, input_shape):
    """`input_shape` with the spatial sizes replaced by the layer's."""
    shape = list(input_shape)
    if len(shape) not in (3, 4):
        raise ValueError("Expected an images shape of rank 3 (single image) "
                         f"or 4 (batch). Received: input_shape={input_shape}")
    shape[layer.height_axis] = layer.height
    shape[layer.width_axis] = layer.width
    return tuple(shape)


@builtin("keras.layers")
class Resizing(BaseImagePreprocessingLayer):
    """Resize images to `(height, width)`.

    Values may be in any range; integer images stay integer (rounded and
    saturated). Boxes are stretched (or shifted and scaled with the aspect
    ratio options) and segmentation masks resized with `"nearest"`. The
    layer acts in training and in inference alike.

    Args:
        height: Output height.
        width: Output width.
        interpolation: `"bilinear"` (default), `"nearest"`, `"bicubic"`,
            `"lanczos3"`, `"lanczos5"` or `"area"`.
        crop_to_aspect_ratio: Crop the largest centred window with the
            target aspect ratio before resizing (no distortion). Defaults
            to `False`.
        pad_to_aspect_ratio: Pad the short side evenly to the target
            aspect ratio before resizing. Defaults to `False`.
        fill_mode: Padding mode for `pad_to_aspect_ratio`: only
            `"constant"`.
        fill_value: Padding value. Defaults to 0.0.
        antialias: Low-pass filter when downsampling. Defaults to `False`.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> image = np.arange(16.0).reshape(4, 4, 1)
    >>> Resizing(2, 2)(image)[..., 0].numpy()
    array([[ 2.5,  4.5],
           [10.5, 12.5]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height, width, interpolation="bilinear",
                 crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
                 fill_mode="constant", fill_value=0.0, antialias=False,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = check_size(height, "height")
        self.width = check_size(width, "width")
        self.interpolation = factors.check_choice(
            interpolation, RESIZE_INTERPOLATIONS, "interpolation")
        if crop_to_aspect_ratio and pad_to_aspect_ratio:
            raise ValueError("Only one of `pad_to_aspect_ratio` and "
                             "`crop_to_aspect_ratio` can be `True`.")
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode = factors.check_choice(fill_mode, ("constant",),
                                              "fill_mode")
        self.fill_value = fill_value
        self.antialias = bool(antialias)

    def get_random_transformation(self, data, training=True, seed=None):
        return self.image_size(self.images_of(data))

    def _resize(self, images, interpolation):
        return ops.image.resize(
            images, (self.height, self.width), interpolation=interpolation,
            antialias=self.antialias,
            crop_to_aspect_ratio=self.crop_to_aspect_ratio,
            pad_to_aspect_ratio=self.pad_to_aspect_ratio,
            fill_mode=self.fill_mode, fill_value=self.fill_value,
            data_format=self.data_format)

    def transform_images(self, images, transformation=None, training=True):
        return self._resize(images, self.interpolation)

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation=None, training=True):
        return self._resize(segmentation_masks, "nearest")

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        height, width = transformation
        boxes = bounding_boxes["boxes"]
        # All-zero and all -1 rows are padding: they stay zero.
        padding = ops.logical_or(ops.all(ops.equal(boxes, -1), axis=-1),
                                 ops.all(ops.equal(boxes, 0), axis=-1))
        xyxy = converters.convert_format(boxes, self.bounding_box_format,
                                         "xyxy", height=height, width=width)
        xyxy = self._move_boxes(xyxy, float(height), float(width))
        result = converters.clip_to_image_size(
            {**bounding_boxes, "boxes": xyxy}, self.height, self.width)
        result["boxes"] = ops.where(ops.expand_dims(padding, -1), 0.0,
                                    result["boxes"])
        result["boxes"] = converters.convert_format(
            result["boxes"], "xyxy", self.bounding_box_format,
            height=self.height, width=self.width)
        return result

    def _move_boxes(self, boxes, height, width):
        """Boxes in the input image -> boxes in the resized image."""
        x1, y1, x2, y2 = ops.split(boxes, 4, axis=-1)
        if self.pad_to_aspect_ratio:
            ratio = min(self.height / height, self.width / width)
            dx = (self.width - width * ratio) // 2
            dy = (self.height - height * ratio) // 2
            return ops.concatenate([x1 * ratio + dx, y1 * ratio + dy,
                                    x2 * ratio + dx, y2 * ratio + dy], -1)
        if self.crop_to_aspect_ratio:
            source, target = width / height, self.width / self.height
            new_w = self.height * source if source > target else self.width
            new_h = self.height if source > target else self.width / source
            sx, sy = new_w / width, new_h / height
            dx, dy = (new_w - self.width) // 2, (new_h - self.height) // 2
            return ops.concatenate([x1 * sx - dx, y1 * sy - dy,
                                    x2 * sx - dx, y2 * sy - dy], -1)
        sx, sy = self.width / width, self.height / height
        return ops.concatenate([x1 * sx, y1 * sy, x2 * sx, y2 * sy], -1)

    def compute_output_shape(self, input_shape):
        return set_output_size(self, input_shape)

    def _output_dtype(self, input_dtype):
        return input_dtype

    def get_config(self):
        config = super().get_config()
        config.update({
            "height": self.height, "width": self.width,
            "interpolation": self.interpolation,
            "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
            "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
            "fill_mode": self.fill_mode, "fill_value": self.fill_value,
            "antialias": self.antialias, "data_format": self.data_format})
        return config
