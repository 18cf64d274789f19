"""`RandAugment`: apply a few operations picked at random."""
from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import augment_ops
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin

# Keras's order (the indices drawn refer to it).
_AUGMENT_LAYERS = augment_ops.GEOMETRIC + augment_ops.COLOR + \
    augment_ops.TONAL


@builtin("keras.layers")
class RandAugment(BaseImagePreprocessingLayer):
    """RandAugment (Cubuk et al., 2020) during training.

    `num_ops` times, one operation is picked uniformly among shear,
    translation, rotation, brightness, colour degeneration, contrast,
    sharpness, posterization, solarization, auto-contrast and
    equalization (all of strength `factor`) and applied; boxes and masks
    follow the geometric operations. Identity at inference.

    Args:
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        num_ops: Number of operations applied in sequence. Defaults to 2.
        factor: Strength, a float in `[0, 1]` or a pair. Defaults to 0.5.
        interpolation: `"bilinear"` (default) or `"nearest"`.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`,
            `bounding_box_format`).

    Example:

    >>> layer = RandAugment(seed=0)
    >>> layer(np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3))).shape
    (2, 8, 8, 3)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)
    _AUGMENT_LAYERS = list(_AUGMENT_LAYERS)

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5,
                 interpolation="bilinear", seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.num_ops = int(num_ops)
        self._set_factor(factor)
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)
        augment_ops.build_ops(self, self._AUGMENT_LAYERS, interpolation)
        for name in self._AUGMENT_LAYERS:
            getattr(self, name).bounding_box_format = \
                self.bounding_box_format

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        seed = self.generator if seed is None else seed
        rng = random_backend.make_rng(seed)
        picks = rng.integers(0, len(self._AUGMENT_LAYERS), (self.num_ops,))
        names = [self._AUGMENT_LAYERS[i] for i in picks]
        return {"layer_idxes": picks,
                "transforms": [(name, getattr(self, name)
                                .get_random_transformation(data, seed=seed))
                               for name in names]}

    def _apply(self, values, transformation, method):
        for name, step in transformation["transforms"]:
            values = getattr(getattr(self, name), method)(values, step)
        return values

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        images = self._apply(images, transformation, "transform_images")
        return ops.cast(images, self.compute_dtype)

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        if not training or transformation is None:
            return bounding_boxes
        return self._apply(bounding_boxes, transformation,
                           "transform_bounding_boxes")

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        return self._apply(segmentation_masks, transformation,
                           "transform_segmentation_masks")

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range,
                       "num_ops": self.num_ops, "factor": self.factor,
                       "interpolation": self.interpolation,
                       "seed": self.seed})
        return config
