import subprocess
import sys

import kerasish
from kerasish.utils import (image_utils, sequence_utils, image_dataset,
                            text_dataset, timeseries_dataset)

# Public names of Keras 3.15's `keras.preprocessing` modules (dir() of each).
KERAS_NAMES = {
    "": ["image", "image_dataset_from_directory", "sequence",
         "text_dataset_from_directory", "timeseries_dataset_from_array"],
    "image": ["array_to_img", "img_to_array", "load_img", "save_img",
              "smart_resize"],
    "sequence": ["pad_sequences"],
}


def _public(module):
    return sorted(n for n in dir(module) if not n.startswith("_"))


def test_same_public_names_as_keras():
    package = kerasish.preprocessing
    assert _public(package) == KERAS_NAMES[""]
    assert _public(package.image) == KERAS_NAMES["image"]
    assert _public(package.sequence) == KERAS_NAMES["sequence"]


def test_names_are_the_utils_functions():
    package = kerasish.preprocessing
    assert package.image.smart_resize is image_utils.smart_resize
    assert package.image.load_img is kerasish.utils.load_img
    assert package.sequence.pad_sequences is sequence_utils.pad_sequences
    assert package.image_dataset_from_directory is \
        image_dataset.image_dataset_from_directory
    assert package.text_dataset_from_directory is \
        text_dataset.text_dataset_from_directory
    assert package.timeseries_dataset_from_array is \
        timeseries_dataset.timeseries_dataset_from_array


def test_loaded_lazily():
    code = ("import sys, kerasish; "
            "assert 'kerasish.preprocessing' not in sys.modules; "
            "assert 'preprocessing' in dir(kerasish); "
            "kerasish.preprocessing.image; "
            "assert 'kerasish.preprocessing' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
