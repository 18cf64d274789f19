"""`Embedding`: map integer ids to dense vectors (rows of a table)."""
import warnings

import numpy as np

from kerasish import constraints, initializers, ops, regularizers
from kerasish.backend import shape as S
from kerasish.backend.primitive import nondiff
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.layers.core.lora import LoraMixin
from kerasish.layers.core.quantized_embedding import EmbeddingQuantization
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object


def _check_dim(value, name):
    if not isinstance(value, (int, np.integer)) or \
            isinstance(value, bool) or value <= 0:
        raise ValueError(
            f"`{name}` must be a positive integer. Received: {name}={value} "
            f"(of type {type(value).__name__}).")
    return int(value)


@builtin("keras.layers")
class Embedding(LoraMixin, EmbeddingQuantization, Layer):
    """Turn non-negative integer ids into dense vectors of size `output_dim`.

    The output is `embeddings[inputs]`, of shape `inputs.shape +
    (output_dim,)`. In training, the gradient of the table holds only the
    looked-up rows (`IndexedSlices`), which the optimizers apply as row
    updates: a step costs O(batch), not O(input_dim).

    Args:
        input_dim: Size of the vocabulary (largest id + 1).
        output_dim: Size of each vector.
        embeddings_initializer: Defaults to `"uniform"` (±0.05).
        embeddings_regularizer: Optional regularizer of the table.
        embeddings_constraint: Optional constraint of the table.
        mask_zero: Whether id 0 is padding: the layer then emits a mask
            (`inputs != 0`) for downstream layers. Defaults to False.
        weights: Optional initial table (`(input_dim, output_dim)` array).
        lora_rank: Optional int: build with LoRA of this rank
            (`enable_lora`): the table is frozen and a low-rank update of
            it is trained.
        lora_alpha: Optional scale of the LoRA update (`lora_alpha /
            lora_rank`). As in Keras, an `Embedding` built with
            `lora_rank` uses `lora_alpha = lora_rank`; pass `lora_alpha`
            to `enable_lora` to change it.
        quantization_config: Optional `QuantizationConfig` of a quantized
            layer (`quantize("int8" | "int4")` sets it).
        **kwargs: Base layer arguments. The deprecated `input_length` is
            accepted and ignored, with a warning, as in Keras 3.

    Example:

    >>> layer = Embedding(1000, 4)
    >>> layer(np.array([[3, 7, 0]])).shape
    (1, 3, 4)
    """

    _lora_base = "embeddings"

    def __init__(self, input_dim, output_dim,
                 embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None,
                 mask_zero=False, weights=None, lora_rank=None,
                 lora_alpha=None, quantization_config=None, **kwargs):
        input_dim = _check_dim(input_dim, "input_dim")
        output_dim = _check_dim(output_dim, "output_dim")
        if kwargs.pop("input_length", None) is not None:
            warnings.warn("Argument `input_length` is deprecated. Just "
                          "remove it.")
        super().__init__(**kwargs)
        self._init_lora(lora_rank, lora_alpha)
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(
            embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(
            embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self.quantization_config = quantization_config
        self.autocast = False
        if weights is not None:
            self.build()
            if not (isinstance(weights, list) and len(weights) == 1):
                weights = [weights]
            self.set_weights(weights)

    def build(self, input_shape=None):
        if self.built:
            return
        shape = (self.input_dim, self.output_dim)
        mode = self.quantization_mode
        if mode:
            self.quantized_build(shape, mode, self.quantization_config)
        if mode not in ("int8", "int4"):
            self._embeddings = self.add_weight(
                shape=shape, name="embeddings",
                initializer=self.embeddings_initializer,
                regularizer=self.embeddings_regularizer,
                constraint=self.embeddings_constraint, trainable=True)
        self.built = True
        if self.lora_rank:
            # Keras's Embedding drops `lora_alpha` here (alpha = rank).
            self.enable_lora(self.lora_rank)

    @property
    def embeddings(self):
        """The table variable (its quantized values once quantized)."""
        if not self.built:
            raise AttributeError(
                "You must build the layer before accessing `embeddings`.")
        if self.quantization_mode is not None:
            return self._quantized_embeddings_value()
        if self.lora_enabled:
            return self._merged_lora(self._embeddings)
        return self._embeddings

    def call(self, inputs):
        ids = _checked_ids(inputs, input_dim=self.input_dim, name=self.name)
        outputs = S.take(self.embeddings, ids, axis=0)
        dtype = np.dtype(self.compute_dtype)
        if outputs.dtype != dtype:
            outputs = ops.cast(outputs, dtype)
        return outputs


    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return (*input_shape, self.output_dim)

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape),
                           dtype=self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "input_dim": self.input_dim,
            "output_dim": self.output_dim,
            "embeddings_initializer":
                initializers.serialize(self.embeddings_initializer),
            "embeddings_regularizer":
                regularizers.serialize(self.embeddings_regularizer),
            "activity_regularizer":
                regularizers.serialize(self.activity_regularizer),
            "embeddings_constraint":
                constraints.serialize(self.embeddings_constraint),
            "mask_zero": self.mask_zero,
            "quantization_config": serialize_keras_object(
                self.quantization_config),
        })
        return self._lora_config(config)

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.get("quantization_config") is not None:
            # lazy: kept out of `import kerasish`
            from kerasish import quantizers
            config["quantization_config"] = quantizers.deserialize(
                config["quantization_config"])
        return super().from_config(config)


@nondiff
def _checked_ids(ids, input_dim, name):
    """Integer ids, refused when outside `[0, input_dim)`.

    numpy would wrap negative ids around silently and Keras on JAX clamps
    them; either hides a data bug. A `nondiff` op, so a recorded step
    checks the ids of every batch.
    """
    ids = np.asarray(ids)
    if ids.dtype.kind not in "iu":
        ids = ids.astype(np.int32)
    if ids.size and (ids.min() < 0 or ids.max() >= input_dim):
        raise ValueError(
            f"Layer '{name}' (Embedding) received ids outside "
            f"[0, {input_dim}): found values in "
            f"[{ids.min()}, {ids.max()}]. `input_dim` must be larger "
            "than the largest id.")
    return ids
