"""`MaxNumBoundingBoxes`: pad or cut the boxes to a fixed count."""
from kerasish import ops
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


def _fit(values, count, fill):
    """Cut or pad axis 1 of `values` to `count` entries."""
    values = ops.convert_to_tensor(values)
    values = values[:, :count]
    missing = count - values.shape[1]
    if missing > 0:
        widths = [(0, 0)] * values.ndim
        widths[1] = (0, missing)
        values = ops.pad(values, widths,
                         constant_values=ops.cast(fill, values.dtype))
    return values


@builtin("keras.layers")
class MaxNumBoundingBoxes(BaseImagePreprocessingLayer):
    """Give every image exactly `max_number` bounding boxes.

    Extra boxes are dropped; missing ones are added with coordinates and
    label `fill_value`. Images, labels and masks pass through unchanged,
    so detection batches get a fixed shape.

    Args:
        max_number: Number of boxes per image.
        fill_value: Value of the added boxes and labels. Defaults to -1.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = MaxNumBoundingBoxes(3, bounding_box_format="xyxy")
    >>> data = {"images": np.zeros((1, 4, 4, 3)),
    ...         "bounding_boxes": {"boxes": np.ones((1, 1, 4)),
    ...                            "labels": np.array([[2]])}}
    >>> layer(data)["bounding_boxes"]["labels"].numpy()
    array([[ 2, -1, -1]])
    """

    _USE_BASE_FACTOR = False

    def __init__(self, max_number, fill_value=-1, **kwargs):
        super().__init__(**kwargs)
        if int(max_number) < 1:
            raise ValueError("`max_number` must be a positive integer. "
                             f"Received: max_number={max_number}")
        self.max_number = int(max_number)
        self.fill_value = int(fill_value)

    def transform_images(self, images, transformation=None, training=True):
        return images

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation=None, training=True):
        return segmentation_masks

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        result = dict(bounding_boxes)
        for key in ("boxes", "labels"):
            result[key] = _fit(bounding_boxes[key], self.max_number,
                               self.fill_value)
        return result

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, dict) and "bounding_boxes" in input_shape:
            boxes = dict(input_shape["bounding_boxes"])
            extra = set(boxes) - {"boxes", "labels"}
            if extra:
                raise KeyError("There are unsupported keys in "
                               f"`bounding_boxes`: {sorted(extra)}. Only "
                               "`boxes` and `labels` are supported.")
            for key in ("boxes", "labels"):
                shape = list(boxes[key])
                shape[1] = self.max_number
                boxes[key] = tuple(shape)
            return {**input_shape, "bounding_boxes": boxes}
        return input_shape

    def _output_dtype(self, input_dtype):
        return input_dtype

    def get_config(self):
        config = super().get_config()
        # `fill_value` too (Keras leaves it out, losing it in a round trip).
        config.update({"max_number": self.max_number,
                       "fill_value": self.fill_value})
        return config
