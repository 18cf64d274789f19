"""VGG19, as `keras.applications.vgg19` (built by `vgg16.VGG`)."""
from kerasish.applications import _builder, imagenet_utils
from kerasish.applications.vgg16 import DOC, VGG

WEIGHTS_PATH = ("https://storage.googleapis.com/tensorflow/"
                "keras-applications/vgg19/"
                "vgg19_weights_tf_dim_ordering_tf_kernels.h5")
WEIGHTS_PATH_NO_TOP = ("https://storage.googleapis.com/tensorflow/"
                       "keras-applications/vgg19/"
                       "vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5")
WEIGHTS_HASHES = ("cbe5617147190e668d6c5d5026f83318",
                  "253f8cb515780f3b799900260a226db6")


@_builder.with_doc(DOC, name="VGG19", default_name="vgg19", module="vgg19")
def VGG19(include_top=True, weights="imagenet", input_tensor=None,
          input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax", name="vgg19"):
    files = ((WEIGHTS_PATH.rsplit("/", 1)[1], WEIGHTS_PATH,
              WEIGHTS_HASHES[0]),
             (WEIGHTS_PATH_NO_TOP.rsplit("/", 1)[1], WEIGHTS_PATH_NO_TOP,
              WEIGHTS_HASHES[1]))
    return VGG((2, 2, 4, 4, 4), files, include_top, weights, input_tensor,
               input_shape, pooling, classes, classifier_activation, name)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="caffe")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "caffe", "vgg19", "VGG19")
decode_predictions.__doc__ = imagenet_utils.decode_doc("vgg19")
