"""The sub-layers AugMix and RandAugment choose from, built with one
strength `factor` (as Keras builds them)."""
from kerasish.layers.preprocessing.image.auto_contrast import AutoContrast
from kerasish.layers.preprocessing.image.equalization import Equalization
from kerasish.layers.preprocessing.image.random_brightness import \
    RandomBrightness
from kerasish.layers.preprocessing.image.random_color_degeneration import \
    RandomColorDegeneration
from kerasish.layers.preprocessing.image.random_contrast import \
    RandomContrast
from kerasish.layers.preprocessing.image.random_posterization import \
    RandomPosterization
from kerasish.layers.preprocessing.image.random_rotation import \
    RandomRotation
from kerasish.layers.preprocessing.image.random_sharpness import \
    RandomSharpness
from kerasish.layers.preprocessing.image.random_shear import RandomShear
from kerasish.layers.preprocessing.image.random_translation import \
    RandomTranslation
from kerasish.layers.preprocessing.image.solarization import Solarization

GEOMETRIC = ("random_shear", "random_translation", "random_rotation")
TONAL = ("random_posterization", "solarization", "auto_contrast",
         "equalization")
COLOR = ("random_brightness", "random_color_degeneration",
         "random_contrast", "random_sharpness")


def build_ops(layer, names, interpolation):
    """Create the named sub-layers as attributes of `layer` (the attribute
    names are Keras's, so saved layouts match)."""
    factor, value_range, seed = layer.factor, layer.value_range, layer.seed
    common = {"data_format": layer.data_format, "dtype": layer.dtype_policy}
    makers = {
        "random_shear": lambda: RandomShear(
            x_factor=factor, y_factor=factor, interpolation=interpolation,
            seed=seed, **common),
        "random_translation": lambda: RandomTranslation(
            height_factor=factor, width_factor=factor,
            interpolation=interpolation, seed=seed, **common),
        "random_rotation": lambda: RandomRotation(
            factor=factor, interpolation=interpolation, seed=seed, **common),
        "random_posterization": lambda: RandomPosterization(
            factor=max(1, int(8 * factor[1])), value_range=value_range,
            seed=seed, **common),
        "solarization": lambda: Solarization(
            addition_factor=factor, threshold_factor=factor,
            value_range=value_range, seed=seed, **common),
        "auto_contrast": lambda: AutoContrast(value_range=value_range,
                                              **common),
        "equalization": lambda: Equalization(value_range=value_range,
                                             **common),
        "random_brightness": lambda: RandomBrightness(
            factor=factor, value_range=value_range, seed=seed, **common),
        "random_color_degeneration": lambda: RandomColorDegeneration(
            factor=factor, value_range=value_range, seed=seed, **common),
        "random_contrast": lambda: RandomContrast(
            factor=factor, value_range=value_range, seed=seed, **common),
        "random_sharpness": lambda: RandomSharpness(
            factor=factor, value_range=value_range, seed=seed, **common),
    }
    for name in names:
        setattr(layer, name, makers[name]())
