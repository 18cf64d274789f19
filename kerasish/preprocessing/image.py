"""`kerasish.preprocessing.image`: Keras 3's `keras.preprocessing.image`."""
from kerasish.utils.image_utils import (array_to_img,  # noqa: F401
                                        img_to_array, load_img, save_img,
                                        smart_resize)
