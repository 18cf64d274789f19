"""`RandomCrop`: a random `(height, width)` window in training, the
centred window at inference."""
from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.layers.preprocessing.image.center_crop import (aspect_window,
                                                             crop_boxes,
                                                             crop_window)
from kerasish.layers.preprocessing.image.resizing import (check_size,
                                                          set_output_size)
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class RandomCrop(BaseImagePreprocessingLayer):
    """Randomly crop images to `(height, width)` during training.

    In training, when an image is larger than the target in both
    dimensions, one random window of the target size is cut from the batch
    (the same offset for every image of the call). Otherwise, and at
    inference, the largest centred window with the target aspect ratio is
    cut and resized (bilinear) to the target size, so the output always
    has the target size (as Keras documents). Boxes and masks follow.

    Args:
        height: Output height.
        width: Output width.
        seed: Integer seed. Defaults to a random one (saved in the config).
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = RandomCrop(2, 2, seed=1)
    >>> layer(np.ones((3, 5, 5, 1)), training=True).shape
    (3, 2, 2, 1)
    >>> layer(np.arange(9.0).reshape(3, 3, 1), training=False)[..., 0].numpy()
    array([[1. , 2.5],
           [5.5, 7. ]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, height, width, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height = check_size(height, "height")
        self.width = check_size(width, "width")
        self.seed = seed if seed is not None else \
            random_backend.make_default_seed()
        self.generator = random_backend.SeedGenerator(seed)

    def get_random_transformation(self, data, training=True, seed=None):
        images = self.images_of(data)
        height, width = self.image_size(images)
        if training and height > self.height and width > self.width:
            rng = self._rng(seed)
            top = int(rng.uniform(0, height - self.height + 1))
            left = int(rng.uniform(0, width - self.width + 1))
            window = (top, left, self.height, self.width)
        else:
            window = aspect_window(height, width, self.height, self.width)
        return {"window": window, "input_shape": tuple(images.shape)}

    def _crop(self, images, transformation, interpolation):
        if transformation is None:
            transformation = self.get_random_transformation(images, False)
        images = crop_window(self, images, *transformation["window"])
        if self.image_size(images) != (self.height, self.width):
            images = ops.image.resize(images, (self.height, self.width),
                                      interpolation=interpolation,
                                      data_format=self.data_format)
        return images

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        return self._crop(images, transformation, "bilinear")

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation, training=True):
        return self._crop(segmentation_masks, transformation, "nearest")

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        size = self.image_size(transformation["input_shape"])
        return crop_boxes(self, bounding_boxes, size,
                          transformation["window"])

    def compute_output_shape(self, input_shape):
        return set_output_size(self, input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width,
                       "seed": self.seed, "data_format": self.data_format})
        return config
