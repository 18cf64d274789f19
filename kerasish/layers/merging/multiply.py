"""`Multiply` and its functional form `multiply`."""
from kerasish import ops
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Multiply(Merge):
    """Elementwise product of a list of tensors.

    Masked-out entries count as 1 in the product; when every input has a
    mask, positions masked in all of them are 0 and the output carries the
    OR of the masks.

    Example:

    >>> Multiply()([np.full((1, 2), 2.0), np.full((1, 2), 3.0)]).numpy()
    array([[6., 6.]], dtype=float32)
    """

    def _merge_function(self, inputs):
        masks = [getattr(x, "_keras_mask", None) for x in inputs]
        masked = all(m is not None for m in masks)
        output = output_mask = None
        for x, mask in zip(inputs, masks):
            if mask is not None:
                mask = ops.broadcast_to(ops.expand_dims(mask, -1), x.shape)
                x = ops.where(mask, x, ops.cast(1, x.dtype))
                if masked:
                    output_mask = mask if output_mask is None else \
                        ops.logical_or(output_mask, mask)
            output = x if output is None else ops.multiply(output, x)
        if masked:
            output = ops.where(output_mask, output,
                               ops.cast(0, output.dtype))
            output._keras_mask = ops.any(output_mask, axis=-1)
        return output


def multiply(inputs, **kwargs):
    """Functional form of `Multiply`: `multiply([x1, x2, ...])`.

    Example:

    >>> a = np.array([[1.0, 2.0]], "float32")
    >>> b = np.array([[3.0, 1.0]], "float32")
    >>> np.asarray(kerasish.layers.multiply([a, b]))
    array([[3., 2.]], dtype=float32)
    """
    return Multiply(**kwargs)(inputs)
