"""LoRA: low-rank adapters on a layer's kernel, as Keras's `enable_lora`.

`enable_lora(rank)` freezes the layer's base weight `W` and adds two
float32 weights `A` (`W.shape[:-1] + (rank,)`) and `B` (`(rank,
W.shape[-1])`); the layer then computes with `W + (alpha / rank) * A @ B`.
Dense, EinsumDense, Embedding and the convolutions share this mixin; each
names its base weight (`_lora_base`: "kernel" or "embeddings").

Weights files hold the *merged* weight in the base weight's slot and no
adapter weights, as Keras writes them; loading a file into a LoRA layer
sets the base weight and zeroes the adapters (`MergedWeight`).
"""
import numpy as np

from kerasish import initializers, ops
from kerasish.layers.core.quantized_base import parent_scope
from kerasish.backend.tape import stop_recording


class LoraMixin:
    """`enable_lora`, the merged weight and LoRA's config entries."""

    _lora_base = "kernel"

    def _init_lora(self, lora_rank, lora_alpha):
        if lora_rank is not None and (
                not isinstance(lora_rank, (int, np.integer)) or
                isinstance(lora_rank, bool) or lora_rank <= 0):
            raise ValueError(
                f"{type(self).__name__}: `lora_rank` must be a positive "
                f"integer or None. Received: lora_rank={lora_rank!r}")
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform",
                    b_initializer="zeros"):
        """Freeze the base weight and train a rank-`rank` update of it.

        Args:
            rank: Rank of the update `A @ B`.
            lora_alpha: The update is scaled by `lora_alpha / rank`.
                Defaults to `rank` (a scale of 1).
            a_initializer: Initializer of `A`. Defaults to `"he_uniform"`.
            b_initializer: Initializer of `B`. Defaults to `"zeros"`, so
                the layer's outputs do not change at first.

        Example:

        >>> import numpy as np
        >>> from kerasish import layers
        >>> layer = layers.Dense(3)
        >>> layer.build((None, 4))
        >>> layer.enable_lora(2)
        >>> [w.name for w in layer.trainable_weights]
        ['bias', 'lora_kernel_a', 'lora_kernel_b']
        """
        self._check_lora_allowed()
        base = getattr(self, f"_{self._lora_base}")
        prefix = f"lora_{self._lora_base}"
        regularizer = getattr(self, f"{self._lora_base}_regularizer")
        shapes = (tuple(base.shape[:-1]) + (rank,), (rank, base.shape[-1]))
        with parent_scope(self):
            for suffix, shape, init in zip(
                    "ab", shapes, (a_initializer, b_initializer)):
                setattr(self, f"{prefix}_{suffix}", self.add_weight(
                    name=f"{prefix}_{suffix}", shape=shape,
                    initializer=initializers.get(init), dtype="float32",
                    regularizer=regularizer))
        base.trainable = False
        self.lora_enabled = True
        self.lora_rank = rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else rank

    def _check_lora_allowed(self):
        if getattr(self, f"{self._lora_base}_constraint") is not None:
            noun = "embedding" if self._lora_base == "embeddings" \
                else self._lora_base
            raise ValueError(
                f"Lora is incompatible with {noun} constraints. In order "
                f"to enable lora on layer '{self.name}', remove the "
                f"`{self._lora_base}_constraint` argument.")
        if not self.built:
            raise ValueError(
                "Cannot enable lora on a layer that isn't yet built. "
                f"Layer '{self.name}' is not built.")
        if self.lora_enabled:
            raise ValueError(
                "lora is already enabled. This can only be done once per "
                f"layer. Layer: '{self.name}'")
        if self.quantization_mode is not None:
            raise ValueError(
                f"Layer '{self.name}' is quantized "
                f"(mode={self.quantization_mode!r}); kerasish enables LoRA "
                "on float layers only. Enable LoRA before quantizing, or "
                "quantize a model whose LoRA update is merged.")

    def _lora_update(self):
        """`(alpha / rank) * A @ B`, the learned change of the base weight."""
        prefix = f"lora_{self._lora_base}"
        a, b = getattr(self, f"{prefix}_a"), getattr(self, f"{prefix}_b")
        return (self.lora_alpha / self.lora_rank) * ops.matmul(a, b)

    def _merged_lora(self, base):
        """The base weight with the LoRA update added, in compute dtype."""
        return ops.cast(ops.add(base, self._lora_update()),
                        self.compute_dtype)

    def _lora_config(self, config):
        if self.lora_rank:
            config["lora_rank"] = self.lora_rank
            config["lora_alpha"] = self.lora_alpha
        return config

    def _lora_saved_variables(self):
        """Own variables as weights files hold them: the merged base weight
        in the base weight's slot, the adapters left out (Keras's layout)."""
        base = getattr(self, f"_{self._lora_base}")
        prefix = f"lora_{self._lora_base}"
        adapters = {id(getattr(self, f"{prefix}_{s}")) for s in "ab"}
        out = []
        for v in self._trainable_variables + self._non_trainable_variables:
            if v is base:
                out.append(MergedWeight(self, base))
            elif id(v) not in adapters:
                out.append(v)
        return out


class MergedWeight:
    """A LoRA layer's base weight as weights files see it.

    Reading gives the merged weight; assigning sets the base weight and
    zeroes the adapters, as Keras's `load_own_variables` does.
    """

    def __init__(self, layer, base):
        self.layer, self.base = layer, base
        self.name, self.path = base.name, base.path
        self.shape, self.dtype = base.shape, base.dtype

    def numpy(self):
        with stop_recording():
            merged = ops.add(ops.convert_to_numpy(self.base),
                             self.layer._lora_update())
        return np.asarray(ops.convert_to_numpy(merged), dtype=self.dtype)

    def assign(self, value):
        self.base.assign(value)
        prefix = f"lora_{self.layer._lora_base}"
        for suffix in "ab":
            adapter = getattr(self.layer, f"{prefix}_{suffix}")
            adapter.assign(np.zeros(adapter.shape, adapter.dtype))
