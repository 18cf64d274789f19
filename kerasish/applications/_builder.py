"""Steps every application builder shares, in Keras's order.

check the arguments -> input shape -> input tensor -> body -> top or
pooling -> `Functional` over the source inputs -> load weights. Keeping
them here keeps each family's module down to its architecture.
"""
import os

from kerasish import backend, layers
from kerasish.applications import imagenet_utils
from kerasish.engine.functional import Functional
from kerasish.backend.common.keras_tensor import is_keras_tensor


def check_weights(weights, include_top, classes):
    """`weights` must be None, "imagenet" or an existing file."""
    if not (weights in {"imagenet", None} or
            isinstance(weights, (str, os.PathLike)) and
            os.path.exists(weights)):
        raise ValueError(
            "The `weights` argument should be either `None` (random "
            "initialization), 'imagenet' (pre-training on ImageNet), or the "
            "path to the weights file to be loaded.  Received: "
            f"weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError(
            "If using `weights='imagenet'` with `include_top=True`, "
            f"`classes` should be 1000.  Received classes={classes}")


def check_pooling(pooling):
    # Keras ignores an unknown value and returns the 4D feature map; a
    # typo deserves an error instead.
    if pooling not in (None, "avg", "max"):
        raise ValueError(
            "`pooling` should be one of `None`, 'avg' or 'max'. "
            f"Received: pooling={pooling!r}")


def channels_last():
    return backend.image_data_format() == "channels_last"


def channel_axis():
    """-1 or 1, as the channel axis of a 4D batch."""
    return -1 if channels_last() else 1


def bn_axis():
    """3 or 1: the explicit axis Keras gives BatchNormalization."""
    return 3 if channels_last() else 1


def input_shape_for(input_shape, default_size, min_size, include_top,
                    weights):
    return imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=min_size,
        data_format=backend.image_data_format(),
        require_flatten=include_top, weights=weights)


def image_input(input_tensor, input_shape):
    """A new `Input`, or the user's tensor (wrapped if not symbolic)."""
    if input_tensor is None:
        return layers.Input(shape=input_shape)
    if not is_keras_tensor(input_tensor):
        return layers.Input(tensor=input_tensor, shape=input_shape)
    return input_tensor


def get_source_inputs(tensor):
    """The `Input` tensors a symbolic tensor was computed from, in order."""
    sources, seen, stack = [], set(), [tensor]
    while stack:
        t = stack.pop()
        history = getattr(t, "_keras_history", None)
        if history is None:
            continue
        op, index, _ = history
        node = op._inbound_nodes[index]
        if node.is_input:
            if id(t) not in seen:
                seen.add(id(t))
                sources.append(t)
            continue
        stack.extend(reversed(node.input_tensors))
    return sources


def pool(x, pooling, avg_name=None, max_name=None):
    """Global pooling for feature extraction (`include_top=False`)."""
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=avg_name)(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=max_name)(x)
    return x


def dense_top(x, classes, classifier_activation, weights, **kwargs):
    """The `predictions` Dense layer, after checking its activation."""
    imagenet_utils.validate_activation(classifier_activation, weights)
    return layers.Dense(classes, activation=classifier_activation,
                        name="predictions", **kwargs)(x)


def make_model(input_tensor, img_input, outputs, name):
    """The `Functional` over the inputs `input_tensor` came from."""
    inputs = img_input if input_tensor is None else \
        get_source_inputs(input_tensor)
    return Functional(inputs, outputs, name=name)


def load_weights(model, weights, file_name=None, origin=None,
                 file_hash=None):
    """Load "imagenet" weights through the Keras cache, or a user file."""
    if weights == "imagenet":
        # lazy: read at call time: tests patch it
        from kerasish.utils.file_utils import get_file
        path = get_file(file_name, origin, cache_subdir="models",
                        file_hash=file_hash)
        model.load_weights(path)
    elif weights is not None:
        model.load_weights(weights)
    return model


def with_doc(doc, **names):
    """Decorator: set a function's docstring from a shared template."""
    def decorate(fn):
        fn.__doc__ = doc.format(**names)
        return fn
    return decorate
