"""`AugMix`: mix several chains of random augmentations with the image."""
import numpy as np

from kerasish import ops
from kerasish.backend import random as random_backend
from kerasish.layers.preprocessing.image import augment_ops
from kerasish.layers.preprocessing.image.base import \
    BaseImagePreprocessingLayer
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class AugMix(BaseImagePreprocessingLayer):
    """AugMix augmentation (Hendrycks et al., 2020) during training.

    `num_chains` chains each apply up to `chain_depth` operations picked at
    random (shear, translation, rotation, posterization, solarization,
    auto-contrast, equalization, and with `all_ops` brightness, colour
    degeneration, contrast and sharpness), all of strength `factor`. The
    chains are mixed with Dirichlet(`alpha`) weights and the mix blended
    with the original image by a Beta(`alpha`, `alpha`) weight, then
    clipped to `value_range`. Segmentation masks go through the same
    chains and mixing; boxes are unchanged. Identity at inference.

    Args:
        value_range: Range of the pixel values. Defaults to `(0, 255)`.
        num_chains: Number of chains. Defaults to 3.
        chain_depth: Maximum operations per chain (each slot may be empty).
            Defaults to 3.
        factor: Strength of the operations, a float in `[0, 1]` or a pair.
            Defaults to 0.3.
        alpha: Dirichlet and Beta parameter. Defaults to 1.0.
        all_ops: Include the colour operations. Defaults to `True`.
        interpolation: `"bilinear"` (default) or `"nearest"` for the
            geometric operations.
        seed: Integer seed.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`).

    Example:

    >>> layer = AugMix(seed=0)
    >>> out = layer(np.random.default_rng(0).uniform(0, 255, (2, 8, 8, 3)))
    >>> values = out.numpy()
    >>> out.shape, bool(values.min() >= 0 and values.max() <= 255)
    ((2, 8, 8, 3), True)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3,
                 factor=0.3, alpha=1.0, all_ops=True,
                 interpolation="bilinear", seed=None, data_format=None,
                 **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range = value_range
        self.num_chains = int(num_chains)
        self.chain_depth = int(chain_depth)
        self._set_factor(factor)
        self.alpha = alpha
        self.all_ops = all_ops
        self.interpolation = interpolation
        self.seed = seed
        self.generator = random_backend.SeedGenerator(seed)
        self._augment_layers = list(augment_ops.GEOMETRIC + augment_ops.TONAL
                                    + (augment_ops.COLOR if all_ops else ()))
        augment_ops.build_ops(self, self._augment_layers, interpolation)

    def get_random_transformation(self, data, training=True, seed=None):
        if not training:
            return None
        seed = self.generator if seed is None else seed
        rng = random_backend.make_rng(seed)
        gamma = rng.gamma(self.alpha, size=(self.num_chains,))
        chains = []
        for _ in range(self.num_chains):
            picks = rng.integers(0, len(self._augment_layers) + 1,
                                 (self.chain_depth,))
            chains.append([
                (self._augment_layers[i], getattr(
                    self, self._augment_layers[i]).get_random_transformation(
                        data, seed=seed))
                for i in picks if i < len(self._augment_layers)])
        return {"chain_mixing_weights": (gamma / gamma.sum()).astype(
                    "float32"),
                "weight_sample": np.float32(rng.beta(self.alpha, self.alpha)),
                "chain_transforms": chains}

    def _mix(self, values, transformation, method):
        weights = transformation["chain_mixing_weights"]
        mixed = None
        for weight, chain in zip(weights, transformation["chain_transforms"]):
            chained = values
            for name, step in chain:
                chained = getattr(getattr(self, name), method)(chained, step)
            term = ops.cast(chained, self.compute_dtype) * weight
            mixed = term if mixed is None else mixed + term
        keep = transformation["weight_sample"]
        return ops.cast(values, self.compute_dtype) * keep + \
            mixed * (1.0 - keep)

    def transform_images(self, images, transformation, training=True):
        images = ops.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        images = self._mix(images, transformation, "transform_images")
        return ops.clip(images, self.value_range[0], self.value_range[1])

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation, training=True):
        if not training or transformation is None:
            return segmentation_masks
        return self._mix(segmentation_masks, transformation,
                         "transform_segmentation_masks")

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range,
                       "num_chains": self.num_chains,
                       "chain_depth": self.chain_depth, "factor": self.factor,
                       "alpha": self.alpha, "all_ops": self.all_ops,
                       "interpolation": self.interpolation,
                       "seed": self.seed})
        return config
