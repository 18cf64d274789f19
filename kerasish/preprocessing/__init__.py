"""`kerasish.preprocessing`: Keras 3's `keras.preprocessing` namespace.

The image and sequence helpers and the dataset builders, under the names
Keras 3 exports them (they also live in `kerasish.utils`); the
preprocessing *layers* are in `kerasish.layers`.
"""
from kerasish.preprocessing import image, sequence  # noqa: F401
from kerasish.utils.image_dataset import (  # noqa: F401
    image_dataset_from_directory)
from kerasish.utils.text_dataset import (  # noqa: F401
    text_dataset_from_directory)
from kerasish.utils.timeseries_dataset import (  # noqa: F401
    timeseries_dataset_from_array)
