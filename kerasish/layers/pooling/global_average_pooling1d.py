"""`GlobalAveragePooling1D`: average over every step."""
from kerasish import ops
from kerasish.layers.pooling.base_global_pooling import GlobalAveragePooling
from kerasish.saving.object_registration import builtin


@builtin("keras.layers", "GlobalAvgPool1D")
class GlobalAveragePooling1D(GlobalAveragePooling):
    """Global average pooling over the one spatial axis.

    Supports masking: with a mask `(batch, steps)` (from an `Embedding`
    with `mask_zero=True`, say), only the unmasked steps are averaged.
    The output carries no mask.

    Args:
        data_format: `"channels_last"` (the default), inputs
            `(batch, steps, features)`, or `"channels_first"`, inputs
            `(batch, features, steps)`.
        keepdims: Keep the spatial axis with size 1. Defaults to False.

    Output shape: `(batch, channels)`, or with `keepdims=True` the input
    shape with every spatial axis of size 1.

    Example:

    >>> x = np.ones((2, 4, 3), "float32")
    >>> GlobalAveragePooling1D(keepdims=True)(x).shape
    (2, 1, 3)
    """

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(pool_dimensions=1, data_format=data_format,
                         keepdims=keepdims, **kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        steps = 1 if self.data_format == "channels_last" else 2
        channel = 2 if self.data_format == "channels_last" else 1
        keep = ops.cast(ops.expand_dims(mask, channel), "bool")
        # `where`, as Keras: a NaN/inf at a masked step reaches neither the
        # sum nor its gradient (a product with 0 would let it through).
        total = ops.sum(ops.where(keep, inputs, 0), axis=steps,
                        keepdims=self.keepdims)
        return ops.divide(total, ops.sum(ops.cast(keep, inputs.dtype),
                                         axis=steps, keepdims=self.keepdims))

    def compute_mask(self, inputs, mask=None):
        return None
