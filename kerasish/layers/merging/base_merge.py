"""`Merge`: the base of the layers that combine a list of tensors."""
from kerasish import ops
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer


def _broadcast_dims(shape1, shape2, layer):
    """Broadcast two shapes (batch axis excluded), numpy's rule, with None
    for unknown sizes."""
    if shape1 is None or shape2 is None:
        return None
    if len(shape1) < len(shape2):
        shape1, shape2 = shape2, shape1
    if not shape2:
        return tuple(shape1)
    out = list(shape1[:len(shape1) - len(shape2)])
    for i, j in zip(shape1[len(shape1) - len(shape2):], shape2):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1:
            out.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(
                f"Layer '{layer.name}' ({type(layer).__name__}): inputs have "
                f"incompatible shapes. Received shapes {tuple(shape1)} and "
                f"{tuple(shape2)}")
        else:
            out.append(i)
    return tuple(out)


class Merge(Layer):
    """Base of `Add`, `Subtract`, `Multiply`, `Average`, `Maximum`,
    `Minimum`, `Concatenate` and `Dot`: called on a list of tensors.

    Inputs of different ranks are expanded at axis 1 until they match; the
    other axes broadcast. The output mask is the OR of the input masks
    (None as soon as one input has none).
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self._reshape_required = False

    def _merge_function(self, inputs):
        raise NotImplementedError(
            f"{type(self).__name__} must implement `_merge_function`.")

    def _check_list(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or not input_shape or \
                not isinstance(input_shape[0], (tuple, list)):
            raise ValueError(
                f"A merge layer ({type(self).__name__}) should be called on a "
                "list of at least 1 input. Received: "
                f"input_shape={input_shape}")

    def build(self, input_shape):
        self._check_list(input_shape)
        batch_sizes = {s[0] for s in input_shape if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) cannot merge "
                "tensors with different batch sizes. Received tensors with "
                f"shapes {list(map(tuple, input_shape))}")
        self.compute_output_shape(input_shape)
        self._reshape_required = len(set(map(len, input_shape))) != 1

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(
                f"A merge layer ({type(self).__name__}) should be called on "
                f"a list of inputs. Received: inputs={inputs!r:.200} (not a "
                "list of tensors)")
        if self._reshape_required:
            top = max(x.ndim for x in inputs)
            inputs = [self._expand(x, top) for x in inputs]
        return self._merge_function(list(inputs))

    @staticmethod
    def _expand(x, ndim):
        for _ in range(ndim - x.ndim):
            x = ops.expand_dims(x, axis=1)
        return x

    def _apply_merge_op_and_or_mask(self, op_fn, inputs):
        """Fold `op_fn` over the inputs; masked-out entries take the other
        operand's value, and the output mask is the OR of the masks."""
        output = output_mask = None
        for x in inputs:
            mask = getattr(x, "_keras_mask", None)
            if mask is not None:
                mask = ops.broadcast_to(ops.expand_dims(mask, -1), x.shape)
            if output is None:
                output, output_mask = x, mask
                continue
            if mask is not None:
                x = ops.where(mask, x, output)
            if output_mask is not None:
                output = ops.where(output_mask, output, x)
            output_mask = (ops.logical_or(output_mask, mask)
                           if mask is not None and output_mask is not None
                           else None)
            output = op_fn(output, x)
        if output_mask is not None:
            output._keras_mask = ops.any(output_mask, axis=-1)
        return output

    def compute_output_shape(self, input_shape):
        self._check_list(input_shape)
        shapes = [None if s is None else tuple(s) for s in input_shape]
        out = None if shapes[0] is None else shapes[0][1:]
        for shape in shapes[1:]:
            out = _broadcast_dims(out, None if shape is None else shape[1:],
                                  self)
        batch_sizes = {s[0] for s in shapes if s is not None} - {None}
        batch = batch_sizes.pop() if len(batch_sizes) == 1 else None
        return (batch,) + tuple(out)

    def compute_output_spec(self, inputs, *args, **kwargs):
        shape = self.compute_output_shape([tuple(x.shape) for x in inputs])
        return KerasTensor(shape, dtype=self.compute_dtype)

    def compute_mask(self, inputs, mask=None):
        if mask is None:
            return None
        if not isinstance(mask, (tuple, list)) or \
                not isinstance(inputs, (tuple, list)) or \
                len(mask) != len(inputs):
            raise ValueError(
                "`inputs` and `mask` should be lists of the same length. "
                f"Received: {len(inputs) if isinstance(inputs, list) else 1}"
                f" inputs and mask={mask!r:.200}")
        if any(m is None for m in mask):
            return None
        output_mask = mask[0]
        for m in mask[1:]:
            output_mask = ops.logical_or(output_mask, m)
        return output_mask
