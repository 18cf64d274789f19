"""`Hashing`: hash categorical values into a fixed number of bins."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.backend import farmhash
from kerasish.layers.preprocessing.encoding import encode_categorical
from kerasish.saving.object_registration import builtin

_MODES = ("int", "one_hot", "multi_hot", "count")


def _as_strings(values):
    """The strings TensorFlow hashes: floats are truncated to integers,
    numbers are written in decimal, booleans as `true`/`false`, bytes are
    decoded."""
    if values.dtype.kind == "b":
        return np.where(values, "true", "false")   # tf.strings.as_string
    if values.dtype.kind == "f":
        values = values.astype(np.int64)
    if values.dtype.kind in "iub":
        return values.astype(str)
    if values.dtype.kind == "S":
        return np.char.decode(values, "utf-8")
    if values.dtype.kind == "O":
        return np.array([v.decode() if isinstance(v, bytes) else str(v)
                         for v in values.ravel()]).reshape(values.shape)
    return values


@builtin("keras.layers")
class Hashing(Layer):
    """Map strings or integers to `num_bins` bins with TensorFlow's hashes
    (FarmHash Fingerprint64, or SipHash-2-4 when `salt` is given), so the
    bins equal Keras's.

    Args:
        num_bins: Number of bins, including the mask bin 0 when
            `mask_value` is set.
        mask_value: Value sent to bin 0, or None (no mask bin).
        salt: Int or pair of ints: use the keyed SipHash with this key.
        output_mode: `"int"` (default), `"one_hot"`, `"multi_hot"` or
            `"count"`.
        sparse: Accepted for compatibility (outputs are dense).
        **kwargs: Base layer arguments (`dtype` defaults to int64 for
            `"int"` output, floatx otherwise).

    Example:

    >>> layer = Hashing(num_bins=3)
    >>> layer(np.array([["A"], ["B"], ["C"], ["D"], ["E"]])).numpy().ravel()
    array([1, 0, 1, 1, 2])
    """

    def __init__(self, num_bins, mask_value=None, salt=None,
                 output_mode="int", sparse=False, **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError(
                "The `num_bins` for `Hashing` cannot be `None` or "
                f"non-positive values. Received: num_bins={num_bins}.")
        if output_mode == "int" and self.dtype_policy.name not in (
                "int32", "int64"):
            raise ValueError(
                'When `output_mode="int"`, `dtype` should be an integer '
                f"type, 'int32' or 'int64'. Received: dtype={kwargs['dtype']}")
        if output_mode not in _MODES:
            raise ValueError(
                "Invalid value for argument `output_mode`. Expected one of "
                f"{_MODES}. Received: output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError(
                "`sparse` may only be true if `output_mode` is "
                '`"one_hot"`, `"multi_hot"`, or `"count"`. Received: '
                f"sparse={sparse} and output_mode={output_mode}")
        if salt is not None and not isinstance(salt, int) and not (
                isinstance(salt, (list, tuple)) and len(salt) == 2):
            raise ValueError(
                "The `salt` argument for `Hashing` can only be a tuple of "
                "size 2 integers, or a single integer. "
                f"Received: salt={salt}.")
        self.num_bins, self.mask_value = num_bins, mask_value
        self.salt = None if salt is None else (
            [salt, salt] if isinstance(salt, int) else list(salt))
        self.strong_hash = salt is not None
        self.output_mode, self.sparse = output_mode, sparse
        self._convert_input_args = False
        self.built = True

    def _bins(self, values):
        bins = self.num_bins
        mask = None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = values == self.mask_value
        strings = _as_strings(values)
        uniques, inverse = np.unique(strings.ravel(), return_inverse=True)
        if self.strong_hash:
            hashes = [farmhash.siphash24(self.salt, str(u)) for u in uniques]
        else:
            hashes = [farmhash.fingerprint64(str(u)) for u in uniques]
        out = np.array([h % bins for h in hashes], np.int64)[inverse]
        out = out.reshape(values.shape)
        if mask is not None:
            out = np.where(mask, 0, out + 1)
        return out

    def call(self, inputs):
        values = inputs._value if isinstance(inputs, Tensor) else \
            np.asarray(inputs)
        if self.output_mode == "one_hot" and values.ndim and \
                values.shape[-1] == 1:
            values = values[..., 0]
        bins = self._bins(values)
        return Tensor(encode_categorical(bins, self.output_mode,
                                         self.num_bins, dtype=self.dtype))

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        if not input_shape:
            return (self.num_bins,)
        return tuple(input_shape[:-1]) + (self.num_bins,)

    def compute_output_spec(self, inputs, *args, **kwargs):
        return KerasTensor(self.compute_output_shape(inputs.shape),
                           dtype=self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"num_bins": self.num_bins, "salt": self.salt,
                       "mask_value": self.mask_value,
                       "output_mode": self.output_mode,
                       "sparse": self.sparse})
        return config
