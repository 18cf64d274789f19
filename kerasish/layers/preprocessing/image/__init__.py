"""Image preprocessing and augmentation layers (Keras 3's
`keras.layers.Resizing`, `RandomFlip`, ..., `Pipeline`)."""
from kerasish.layers.preprocessing.image.base import (  # noqa: F401
    BaseImagePreprocessingLayer)
from kerasish.layers.preprocessing.image.resizing import Resizing  # noqa
from kerasish.layers.preprocessing.image.center_crop import (  # noqa: F401
    CenterCrop)
from kerasish.layers.preprocessing.image.random_crop import (  # noqa: F401
    RandomCrop)
from kerasish.layers.preprocessing.image.random_flip import (  # noqa: F401
    RandomFlip)
from kerasish.layers.preprocessing.image.random_rotation import (  # noqa
    RandomRotation)
from kerasish.layers.preprocessing.image.random_translation import (  # noqa
    RandomTranslation)
from kerasish.layers.preprocessing.image.random_zoom import (  # noqa: F401
    RandomZoom)
from kerasish.layers.preprocessing.image.random_shear import (  # noqa: F401
    RandomShear)
from kerasish.layers.preprocessing.image.random_perspective import (  # noqa
    RandomPerspective)
from kerasish.layers.preprocessing.image.random_elastic_transform import (  # noqa: E501,F401
    RandomElasticTransform)
from kerasish.layers.preprocessing.image.random_contrast import (  # noqa
    RandomContrast)
from kerasish.layers.preprocessing.image.random_brightness import (  # noqa
    RandomBrightness)
from kerasish.layers.preprocessing.image.random_color_degeneration import (  # noqa: E501,F401
    RandomColorDegeneration)
from kerasish.layers.preprocessing.image.random_color_jitter import (  # noqa
    RandomColorJitter)
from kerasish.layers.preprocessing.image.random_grayscale import (  # noqa
    RandomGrayscale)
from kerasish.layers.preprocessing.image.random_hue import (  # noqa: F401
    RandomHue)
from kerasish.layers.preprocessing.image.random_saturation import (  # noqa
    RandomSaturation)
from kerasish.layers.preprocessing.image.random_sharpness import (  # noqa
    RandomSharpness)
from kerasish.layers.preprocessing.image.random_invert import (  # noqa
    RandomInvert)
from kerasish.layers.preprocessing.image.random_posterization import (  # noqa: E501,F401
    RandomPosterization)
from kerasish.layers.preprocessing.image.solarization import (  # noqa
    Solarization)
from kerasish.layers.preprocessing.image.auto_contrast import (  # noqa
    AutoContrast)
from kerasish.layers.preprocessing.image.equalization import (  # noqa
    Equalization)
from kerasish.layers.preprocessing.image.clahe import (  # noqa: F401
    ContrastLimitedAdaptiveHistogramEqualization)
from kerasish.layers.preprocessing.image.random_gaussian_blur import (  # noqa
    RandomGaussianBlur)
from kerasish.layers.preprocessing.image.random_erasing import (  # noqa
    RandomErasing)
from kerasish.layers.preprocessing.image.cut_mix import CutMix  # noqa
from kerasish.layers.preprocessing.image.mix_up import MixUp  # noqa: F401
from kerasish.layers.preprocessing.image.aug_mix import AugMix  # noqa
from kerasish.layers.preprocessing.image.rand_augment import (  # noqa
    RandAugment)
from kerasish.layers.preprocessing.image.max_num_bounding_boxes import (  # noqa: E501,F401
    MaxNumBoundingBoxes)
from kerasish.layers.preprocessing.image.pipeline import Pipeline  # noqa

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
