"""`Concatenate` and its functional form `concatenate`."""
from kerasish import ops
from kerasish.backend import shape as S
from kerasish.backend.tensor import Tensor
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


@builtin("keras.layers")
class Concatenate(Merge):
    """Join a list of tensors along `axis`; every other axis must match.

    Args:
        axis: The concatenation axis. Defaults to -1.
        **kwargs: Base layer arguments.

    Example:

    >>> Concatenate()([np.zeros((2, 3)), np.ones((2, 1))]).shape
    (2, 4)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        self._check_list(input_shape)
        self.compute_output_shape(input_shape)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            return super().call(inputs)
        if all(type(x) is Tensor for x in inputs) and \
                len({x.dtype for x in inputs}) == 1:
            # Same-dtype tensors (the usual case) skip the op-level dtype
            # promotion: this layer sits on the hot path of wide models.
            return S.concatenate(*inputs, axis=self.axis)
        return ops.concatenate(list(inputs), axis=self.axis)

    def _mismatch(self, input_shape):
        return ValueError(
            f"Layer '{self.name}' (Concatenate) requires inputs with "
            "matching shapes except for the concatenation axis "
            f"(axis={self.axis}). Received: input_shape="
            f"{[tuple(s) for s in input_shape]}")

    def compute_output_shape(self, input_shape):
        self._check_list(input_shape)
        shapes = [tuple(s) for s in input_shape]
        if len({len(s) for s in shapes}) != 1:
            raise self._mismatch(input_shape)
        rank = len(shapes[0])
        if not -rank <= self.axis < rank:
            raise ValueError(
                f"Layer '{self.name}' (Concatenate): axis {self.axis} is out "
                f"of bounds for inputs of rank {rank}.")
        axis = self.axis % rank
        out = list(shapes[0])
        for i in range(rank):
            sizes = [s[i] for s in shapes]
            if i == axis:
                out[i] = None if None in sizes else sum(sizes)
                continue
            known = set(sizes) - {None}
            if len(known) > 1:
                raise self._mismatch(input_shape)
            out[i] = known.pop() if known else None
        return tuple(out)

    def compute_mask(self, inputs, mask=None):
        if mask is None or all(m is None for m in mask):
            return None
        if len(mask) != len(inputs):
            raise ValueError(
                "The lists `inputs` and `mask` should have the same length. "
                f"Received: {len(inputs)} inputs and {len(mask)} masks")
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                masks.append(ops.ones_like(x, dtype="bool"))
            elif m.ndim < x.ndim:
                # Broadcast through `x` itself: its shape may be unknown.
                masks.append(ops.logical_or(
                    ops.expand_dims(m, -1), ops.zeros_like(x, dtype="bool")))
            else:
                masks.append(m)
        return ops.any(ops.concatenate(masks, axis=self.axis), axis=-1)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def concatenate(inputs, axis=-1, **kwargs):
    """Functional form of `Concatenate`: `concatenate([x1, x2], axis=-1)`.

    Example:

    >>> concatenate([np.zeros((1, 2)), np.ones((1, 2))], axis=0).shape
    (2, 2)
    """
    return Concatenate(axis=axis, **kwargs)(inputs)
