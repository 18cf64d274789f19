"""ResNet50V2/101V2/152V2, as `keras.applications.resnet_v2`.

Pre-activation residual blocks (`resnet.residual_block_v2`) in the ResNet
builder; Keras's ImageNet files load by layer order.
"""
from kerasish.applications import _builder, imagenet_utils
from kerasish.applications.resnet import (DOC, ResNet,
                                          stack_residual_blocks_v2)

_FORMAT = dict(paper="Identity Mappings in Deep Residual Networks",
               url="https://arxiv.org/abs/1603.05027", module="resnet_v2",
               preprocessing="pixels scaled to [-1, 1]")


def _v2_stack(depths):
    def stack_fn(x):
        for i, (filters, blocks) in enumerate(zip((64, 128, 256, 512),
                                                  depths)):
            x = stack_residual_blocks_v2(x, filters, blocks,
                                         stride1=1 if i == 3 else 2,
                                         name=f"conv{i + 2}")
        return x
    return stack_fn


def _resnet_v2(depths, weights_name, include_top, weights, input_tensor,
               input_shape, pooling, classes, classifier_activation, name):
    return ResNet(_v2_stack(depths), preact=True, use_bias=True,
                  include_top=include_top, weights=weights,
                  input_tensor=input_tensor, input_shape=input_shape,
                  pooling=pooling, classes=classes,
                  classifier_activation=classifier_activation, name=name,
                  weights_name=weights_name)


@_builder.with_doc(DOC, name="ResNet50V2", default_name="resnet50v2",
                   **_FORMAT)
def ResNet50V2(include_top=True, weights="imagenet", input_tensor=None,
               input_shape=None, pooling=None, classes=1000,
               classifier_activation="softmax", name="resnet50v2"):
    return _resnet_v2((3, 4, 6, 3), "resnet50v2", include_top, weights,
                      input_tensor, input_shape, pooling, classes,
                      classifier_activation, name)


@_builder.with_doc(DOC, name="ResNet101V2", default_name="resnet101v2",
                   **_FORMAT)
def ResNet101V2(include_top=True, weights="imagenet", input_tensor=None,
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="resnet101v2"):
    return _resnet_v2((3, 4, 23, 3), "resnet101v2", include_top, weights,
                      input_tensor, input_shape, pooling, classes,
                      classifier_activation, name)


@_builder.with_doc(DOC, name="ResNet152V2", default_name="resnet152v2",
                   **_FORMAT)
def ResNet152V2(include_top=True, weights="imagenet", input_tensor=None,
                input_shape=None, pooling=None, classes=1000,
                classifier_activation="softmax", name="resnet152v2"):
    return _resnet_v2((3, 8, 36, 3), "resnet152v2", include_top, weights,
                      input_tensor, input_shape, pooling, classes,
                      classifier_activation, name)


def preprocess_input(x, data_format=None):
    return imagenet_utils.preprocess_input(x, data_format=data_format,
                                           mode="tf")


def decode_predictions(preds, top=5):
    return imagenet_utils.decode_predictions(preds, top=top)


preprocess_input.__doc__ = imagenet_utils.preprocess_doc(
    "tf", "resnet_v2", "ResNetV2")
decode_predictions.__doc__ = imagenet_utils.decode_doc("resnet_v2")
