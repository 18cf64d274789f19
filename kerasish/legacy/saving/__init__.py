"""`keras.legacy.saving`: Keras 2's `{"class_name", "config"}` serialization.

The same functions as `kerasish.utils.legacy`.
"""
from kerasish.utils.legacy import (  # noqa: F401
    deserialize_keras_object, serialize_keras_object)
