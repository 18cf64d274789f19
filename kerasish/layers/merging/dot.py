"""`Dot` (batched dot product) and its functional form `dot`."""
from kerasish import ops
from kerasish.layers.merging.base_merge import Merge
from kerasish.saving.object_registration import builtin


def _check_axes(axes):
    if isinstance(axes, int):
        return
    if not isinstance(axes, (list, tuple)):
        raise TypeError(
            "Invalid type for argument `axes`: it should be a list or an "
            f"int. Received: axes={axes}")
    if len(axes) != 2:
        raise ValueError(
            "Invalid format for argument `axes`: it should contain two "
            f"elements. Received: axes={axes}")
    if not all(isinstance(a, int) for a in axes):
        raise ValueError(
            "Invalid format for argument `axes`: list elements should be "
            f"integers. Received: axes={axes}")


def batch_dot(x, y, axes):
    """Contract `x`'s axis `axes[0]` with `y`'s `axes[1]`, per sample.

    The output has `x`'s other axes then `y`'s other non-batch axes;
    a result of rank 1 becomes `(batch, 1)`.
    """
    if x.shape[0] is not None and y.shape[0] is not None and \
            x.shape[0] != y.shape[0]:
        raise ValueError(
            "Cannot do batch_dot on inputs with different batch sizes. "
            f"Received inputs with shapes {tuple(x.shape)} and "
            f"{tuple(y.shape)}.")
    x = ops.moveaxis(x, axes[0], -1)
    y = ops.moveaxis(y, axes[1], 1)
    batch, k = x.shape[0], x.shape[-1]
    x_rest, y_rest = x.shape[1:-1], y.shape[2:]
    out = ops.matmul(ops.reshape(x, (batch, -1, k)),
                     ops.reshape(y, (batch, k, -1)))
    shape = (batch,) + tuple(x_rest) + tuple(y_rest)
    return ops.reshape(out, shape if len(shape) > 1 else (batch, 1))


def _l2_normalize(x, axis):
    square_sum = ops.sum(ops.square(x), axis=axis, keepdims=True)
    return ops.multiply(x, ops.rsqrt(ops.maximum(square_sum, 1e-12)))


@builtin("keras.layers")
class Dot(Merge):
    """Dot product of two batches of tensors along the given axes.

    Args:
        axes: Int, or pair of ints, the axes contracted (never the batch
            axis 0).
        normalize: L2-normalize both inputs along the contracted axes
            first, making the output a cosine similarity. Defaults to False.
        **kwargs: Base layer arguments.

    Example:

    >>> x = np.arange(10, dtype="float32").reshape(1, 5, 2)
    >>> y = np.arange(10, 20, dtype="float32").reshape(1, 2, 5)
    >>> Dot(axes=(1, 2))([x, y]).numpy()
    array([[[260., 360.],
            [320., 445.]]], dtype=float32)
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        _check_axes(axes)
        self.axes = axes
        self.normalize = normalize

    def _resolved_axes(self, ranks):
        axes = [self.axes] * 2 if isinstance(self.axes, int) else \
            list(self.axes)
        axes = [a % r if a < 0 else a for a, r in zip(axes, ranks)]
        if 0 in axes or any(a >= r for a, r in zip(axes, ranks)):
            raise ValueError(
                f"Layer '{self.name}' (Dot): invalid `axes` {self.axes} for "
                f"inputs of ranks {tuple(ranks)} (axis 0, the batch axis, "
                "cannot be contracted).")
        return axes

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or \
                len(input_shape) != 2 or \
                not isinstance(input_shape[0], (tuple, list)):
            raise ValueError(
                "A `Dot` layer should be called on a list of 2 inputs. "
                f"Received: input_shape={input_shape}")
        self.compute_output_shape(input_shape)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError(
                "A `Dot` layer should be called on exactly 2 inputs. "
                f"Received: inputs={inputs!r:.200}")
        x1, x2 = inputs
        axes = self._resolved_axes((x1.ndim, x2.ndim))
        if self.normalize:
            x1 = _l2_normalize(x1, axes[0])
            x2 = _l2_normalize(x2, axes[1])
        return batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or \
                len(input_shape) != 2:
            raise ValueError(
                "A `Dot` layer should be called on a list of 2 inputs. "
                f"Received: input_shape={input_shape}")
        shape1, shape2 = list(input_shape[0]), list(input_shape[1])
        axes = self._resolved_axes((len(shape1), len(shape2)))
        if None not in (shape1[axes[0]], shape2[axes[1]]) and \
                shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError(
                f"Layer '{self.name}' (Dot): incompatible input shapes: axis "
                f"values {shape1[axes[0]]} (at axis {axes[0]}) != "
                f"{shape2[axes[1]]} (at axis {axes[1]}). Full input shapes: "
                f"{tuple(shape1)}, {tuple(shape2)}")
        shape1.pop(axes[0])
        shape2.pop(axes[1])
        out = shape1 + shape2[1:]
        return tuple(out + [1] if len(out) == 1 else out)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


def dot(inputs, axes=-1, **kwargs):
    """Functional form of `Dot`: `dot([x1, x2], axes=-1)`.

    Example:

    >>> a = np.array([[1.0, 2.0]], "float32")
    >>> b = np.array([[3.0, 1.0]], "float32")
    >>> np.asarray(kerasish.layers.dot([a, b], axes=1))
    array([[5.]], dtype=float32)
    """
    return Dot(axes=axes, **kwargs)(inputs)
