"""`BaseImagePreprocessingLayer`: the protocol every image layer follows.

A call accepts a batch of images, one image, or a dict
`{"images", "labels", "bounding_boxes": {"boxes", "labels"},
"segmentation_masks"}`. The layer draws one random transformation per
call (`get_random_transformation`, from its `SeedGenerator`), then applies
it with `transform_images`, `transform_labels`, `transform_bounding_boxes`
and `transform_segmentation_masks`, so images, boxes and masks move
together. A single image is handled as a batch of one.
"""
import numpy as np

from kerasish import ops
from kerasish.backend import config
from kerasish.backend import random as random_backend
from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.ops.operation import infer_output_spec
from kerasish.layers.preprocessing.image import factors
from kerasish.layers.preprocessing.image.bounding_boxes import formats
from kerasish.layers.preprocessing.image.bounding_boxes.validation import (
    densify_bounding_boxes)


def to_tensor(value):
    if isinstance(value, (Tensor, KerasTensor)):
        return value
    return Tensor(np.asarray(value))


class BaseImagePreprocessingLayer(Layer):
    """Base class of the image preprocessing and augmentation layers.

    Subclasses override `get_random_transformation` (drawing everything
    random for one call) and the `transform_*` methods; geometric layers
    usually override only `_transform_images(images, transformation,
    interpolation)`, which serves both images and (with `"nearest"`)
    segmentation masks. `transform_labels` and `transform_bounding_boxes`
    default to no change: override them when the transformation mixes
    images or moves pixels.

    Args:
        factor: Strength of the augmentation, a number or a `(low, high)`
            pair within the class's `_FACTOR_BOUNDS`. Only for layers that
            take one.
        bounding_box_format: Format of `"bounding_boxes"` inputs (see
            `keras.utils.bounding_boxes.convert_format`). Required to pass
            boxes.
        data_format: `"channels_last"` or `"channels_first"`; defaults to
            `keras.config.image_data_format()`.
        **kwargs: Base layer arguments (`name`, `dtype`, ...).

    Example:

    >>> class Darken(BaseImagePreprocessingLayer):
    ...     _USE_BASE_FACTOR = False
    ...     def transform_images(self, images, transformation,
    ...                          training=True):
    ...         return ops.multiply(ops.cast(images, "float32"), 0.5)
    >>> Darken()(np.full((2, 2, 1), 8.0))[..., 0].numpy()
    array([[4., 4.],
           [4., 4.]], dtype=float32)
    """

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)
    _convert_input_args = False

    def __init__(self, factor=None, bounding_box_format=None,
                 data_format=None, **kwargs):
        super().__init__(**kwargs)
        if bounding_box_format is not None:
            bounding_box_format = formats.standardize_format(
                bounding_box_format)
        self.bounding_box_format = bounding_box_format
        self.data_format = config.standardize_data_format(data_format)
        if self._USE_BASE_FACTOR:
            self._set_factor(factor or 0.0)
        elif factor is not None:
            raise ValueError(f"Layer {type(self).__name__} does not take a "
                             f"`factor` argument. Received: factor={factor}")

    def _set_factor(self, factor):
        self.factor = factors.parse_factor(factor, self._FACTOR_BOUNDS)

    # -- layout ---------------------------------------------------------------
    @property
    def height_axis(self):
        return -3 if self.data_format == "channels_last" else -2

    @property
    def width_axis(self):
        return self.height_axis + 1

    @property
    def channel_axis(self):
        return -1 if self.data_format == "channels_last" else -3

    def image_size(self, images_or_shape):
        """`(height, width)` of images (or of an images shape)."""
        shape = getattr(images_or_shape, "shape", images_or_shape)
        return shape[self.height_axis], shape[self.width_axis]

    @staticmethod
    def batch_size(images):
        return 1 if len(images.shape) == 3 else images.shape[0]

    @staticmethod
    def images_of(data):
        return data["images"] if isinstance(data, dict) else data

    def _rng(self, seed):
        """A numpy Generator for `seed` (default: this layer's generator)."""
        return random_backend.make_rng(self.generator if seed is None
                                       else seed)

    def _is_batched(self, images):
        rank = len(images.shape)
        if rank not in (3, 4):
            raise ValueError(
                "Expected image tensor to have rank 3 (single image) or 4 "
                f"(batch of images). Received: data.shape="
                f"{tuple(images.shape)}")
        return rank == 4

    # -- the protocol ---------------------------------------------------------
    def get_random_transformation(self, data, training=True, seed=None):
        """Draw this call's transformation (`None`: nothing random)."""
        return None

    def _transform_images(self, images, transformation, interpolation):
        return images

    def transform_images(self, images, transformation, training=True):
        """Transform a batch of images (the default casts to the compute
        dtype and, in training, calls `_transform_images`)."""
        images = ops.cast(images, self.compute_dtype)
        if training:
            images = self._transform_images(images, transformation,
                                            getattr(self, "interpolation",
                                                    "bilinear"))
        return images

    def transform_labels(self, labels, transformation, training=True):
        return labels

    def transform_bounding_boxes(self, bounding_boxes, transformation,
                                 training=True):
        return bounding_boxes

    def transform_segmentation_masks(self, segmentation_masks,
                                     transformation, training=True):
        if training:
            return self._transform_images(segmentation_masks, transformation,
                                          "nearest")
        return segmentation_masks

    # -- calling --------------------------------------------------------------
    def call(self, data, training=True):
        inputs = dict(data) if isinstance(data, dict) else {"images": data}
        inputs["images"] = self._autocast(to_tensor(inputs["images"]))
        batched = self._is_batched(inputs["images"])
        if "bounding_boxes" in inputs:
            inputs["bounding_boxes"] = self._dense_boxes(
                inputs["bounding_boxes"])
        if not batched:
            inputs = _add_batch_axis(inputs)
        query = inputs if isinstance(data, dict) else inputs["images"]
        transformation = self.get_random_transformation(query,
                                                        training=training)
        outputs = self._transform_all(inputs, transformation, training)
        if not batched:
            outputs = _drop_batch_axis(outputs)
        return outputs if isinstance(data, dict) else outputs["images"]

    def _autocast(self, images):
        # As Keras's input conversion: floats take the compute dtype,
        # integers (e.g. uint8 pixels) are left to each layer.
        if images.dtype.kind == "f" and images.dtype != self.compute_dtype:
            return ops.cast(images, self.compute_dtype)
        return images

    def _dense_boxes(self, bounding_boxes):
        if not self.bounding_box_format:
            raise ValueError(
                "You passed an input with a 'bounding_boxes' key, but you "
                "didn't specify a bounding box format. Pass a "
                f"`bounding_box_format` argument to your "
                f"{type(self).__name__} layer, e.g. "
                "`bounding_box_format='xyxy'`.")
        return densify_bounding_boxes(bounding_boxes)

    def _transform_all(self, inputs, transformation, training):
        out = dict(inputs)
        out["images"] = self.transform_images(
            inputs["images"], transformation, training=training)
        if "bounding_boxes" in inputs:
            out["bounding_boxes"] = self.transform_bounding_boxes(
                inputs["bounding_boxes"], transformation, training=training)
        if "labels" in inputs:
            out["labels"] = self.transform_labels(
                to_tensor(inputs["labels"]), transformation,
                training=training)
        if "segmentation_masks" in inputs:
            out["segmentation_masks"] = self.transform_segmentation_masks(
                to_tensor(inputs["segmentation_masks"]), transformation,
                training=training)
        return out

    # -- shapes and config ----------------------------------------------------
    def compute_output_shape(self, input_shape):
        return input_shape

    def _output_dtype(self, input_dtype):
        return self.compute_dtype

    def compute_output_spec(self, data, training=None, **kwargs):
        if isinstance(data, dict):
            return self._traced_spec(data, training)
        shape = self.compute_output_shape(tuple(data.shape))
        return KerasTensor(shape, dtype=self._output_dtype(data.dtype))

    def _traced_spec(self, data, training):
        # Tracing runs the layer on zeros: keep the random stream untouched.
        generators = self._seed_generators
        states = [g.get_state() for g in generators]
        try:
            return infer_output_spec(self.call, (data,),
                                     {"training": training is not False})
        finally:
            for generator, state in zip(generators, states):
                generator.set_state(state)

    def get_config(self):
        config_ = super().get_config()
        config_["data_format"] = self.data_format
        if self.bounding_box_format is not None:
            config_["bounding_box_format"] = self.bounding_box_format
        return config_

    # -- value ranges ---------------------------------------------------------
    def _transform_value_range(self, images, original_range, target_range,
                               dtype="float32"):
        """Map values linearly from `original_range` to `target_range`."""
        if tuple(original_range) == tuple(target_range):
            return images
        images = ops.cast(images, dtype)
        low, high = (np.asarray(v, dtype) for v in original_range)
        new_low, new_high = (np.asarray(v, dtype) for v in target_range)
        unit = (images - low) / (high - low)
        return unit * (new_high - new_low) + new_low


def _add_batch_axis(inputs):
    out = dict(inputs)
    for key in ("images", "labels", "segmentation_masks"):
        if key in out:
            out[key] = ops.expand_dims(to_tensor(out[key]), 0)
    if "bounding_boxes" in out:
        out["bounding_boxes"] = {k: ops.expand_dims(v, 0) if k in (
            "boxes", "labels") else v for k, v in
            out["bounding_boxes"].items()}
    return out


def _drop_batch_axis(outputs):
    out = dict(outputs)
    for key in ("images", "labels", "segmentation_masks"):
        if key in out:
            out[key] = ops.squeeze(out[key], 0)
    if "bounding_boxes" in out:
        out["bounding_boxes"] = {k: ops.squeeze(v, 0) if k in (
            "boxes", "labels") else v for k, v in
            out["bounding_boxes"].items()}
    return out
