"""Image preprocessing and augmentation layers (Keras 3's
`keras.layers.Resizing`, `RandomFlip`, ..., `Pipeline`)."""
from kerasish.layers.preprocessing.image.resizing import Resizing
from kerasish.layers.preprocessing.image.center_crop import CenterCrop
from kerasish.layers.preprocessing.image.random_crop import RandomCrop
from kerasish.layers.preprocessing.image.random_flip import RandomFlip
from kerasish.layers.preprocessing.image.random_rotation import \
    RandomRotation
from kerasish.layers.preprocessing.image.random_translation import \
    RandomTranslation
from kerasish.layers.preprocessing.image.random_zoom import RandomZoom
from kerasish.layers.preprocessing.image.random_shear import RandomShear
from kerasish.layers.preprocessing.image.random_perspective import \
    RandomPerspective
from kerasish.layers.preprocessing.image.random_elastic_transform import \
    RandomElasticTransform
from kerasish.layers.preprocessing.image.random_contrast import \
    RandomContrast
from kerasish.layers.preprocessing.image.random_brightness import \
    RandomBrightness
from kerasish.layers.preprocessing.image.random_color_degeneration import \
    RandomColorDegeneration
from kerasish.layers.preprocessing.image.random_color_jitter import \
    RandomColorJitter
from kerasish.layers.preprocessing.image.random_grayscale import \
    RandomGrayscale
from kerasish.layers.preprocessing.image.random_hue import RandomHue
from kerasish.layers.preprocessing.image.random_saturation import \
    RandomSaturation
from kerasish.layers.preprocessing.image.random_sharpness import \
    RandomSharpness
from kerasish.layers.preprocessing.image.random_invert import RandomInvert
from kerasish.layers.preprocessing.image.random_posterization import \
    RandomPosterization
from kerasish.layers.preprocessing.image.solarization import Solarization
from kerasish.layers.preprocessing.image.auto_contrast import AutoContrast
from kerasish.layers.preprocessing.image.equalization import Equalization
from kerasish.layers.preprocessing.image.clahe import \
    ContrastLimitedAdaptiveHistogramEqualization
from kerasish.layers.preprocessing.image.random_gaussian_blur import \
    RandomGaussianBlur
from kerasish.layers.preprocessing.image.random_erasing import RandomErasing
from kerasish.layers.preprocessing.image.cut_mix import CutMix
from kerasish.layers.preprocessing.image.mix_up import MixUp
from kerasish.layers.preprocessing.image.aug_mix import AugMix
from kerasish.layers.preprocessing.image.rand_augment import RandAugment
from kerasish.layers.preprocessing.image.max_num_bounding_boxes import \
    MaxNumBoundingBoxes
from kerasish.layers.preprocessing.image.pipeline import Pipeline

__all__ = ["AugMix", "AutoContrast", "CenterCrop",
           "ContrastLimitedAdaptiveHistogramEqualization", "CutMix",
           "Equalization", "MaxNumBoundingBoxes", "MixUp", "Pipeline",
           "RandAugment", "RandomBrightness", "RandomColorDegeneration",
           "RandomColorJitter", "RandomContrast", "RandomCrop",
           "RandomElasticTransform", "RandomErasing", "RandomFlip",
           "RandomGaussianBlur", "RandomGrayscale", "RandomHue",
           "RandomInvert", "RandomPerspective", "RandomPosterization",
           "RandomRotation", "RandomSaturation", "RandomSharpness",
           "RandomShear", "RandomTranslation", "RandomZoom", "Resizing",
           "Solarization"]
