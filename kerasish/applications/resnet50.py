"""`keras.applications.resnet50`: ResNet50 and its pre/post-processing.

The same objects as `kerasish.applications.resnet`, under the module name
older Keras code imports.
"""
from kerasish.applications.resnet import (ResNet50,  # noqa: F401
                                          decode_predictions,
                                          preprocess_input)
