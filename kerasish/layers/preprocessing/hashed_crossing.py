"""`HashedCrossing`: hash the cross of categorical features into bins."""
import numpy as np

from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import positive_int
from kerasish.backend import farmhash
from kerasish.layers.preprocessing.encoding import encode_categorical
from kerasish.saving.object_registration import builtin

# TensorFlow's default `hash_key` of `tf.sparse.cross_hashed`.
_HASH_KEY = 0xDECAFCAFFE


def _feature_hashes(values):
    """Distinct 64-bit feature hashes and each element's index into them:
    Fingerprint64 for strings, the value itself (two's complement) for
    integers, as TensorFlow's cross does."""
    uniques, inverse = np.unique(values.ravel(), return_inverse=True)
    if uniques.dtype.kind in "US":
        hashes = [farmhash.fingerprint64(u if isinstance(u, str) else
                                         bytes(u)) for u in uniques]
    else:
        hashes = [int(u) & ((1 << 64) - 1) for u in uniques]
    return hashes, inverse


def _cross(arrays, num_bins):
    """Bin of every element's feature combination; each distinct
    combination is hashed once."""
    per_feature = [_feature_hashes(a) for a in arrays]
    codes = np.stack([inv for _, inv in per_feature])
    combos, where = np.unique(codes, axis=1, return_inverse=True)
    bins = []
    for combo in combos.T:
        crossed = _HASH_KEY
        for (hashes, _), index in zip(per_feature, combo):
            crossed = farmhash.fingerprint_cat64(crossed, hashes[index])
        bins.append(crossed % num_bins)
    return np.asarray(bins, np.int64)[np.ravel(where)]


@builtin("keras.layers")
class HashedCrossing(Layer):
    """Cross two or more categorical features and hash each combination
    into `num_bins` buckets, with TensorFlow's `sparse.cross_hashed`
    (`FingerprintCat64` of the features' FarmHash fingerprints), so the
    bins equal Keras's.

    Args:
        num_bins: Number of hash bins.
        output_mode: `"int"` (bin indices, int64) or `"one_hot"`.
            Defaults to `"int"`.
        sparse: Accepted for compatibility (outputs are dense).
        name, dtype: Base layer arguments.

    Call arguments:
        inputs: A list or tuple of integer or string arrays, all of shape
            `()`, `(batch,)` or `(batch, 1)`.

    Example:

    >>> layer = HashedCrossing(num_bins=5)
    >>> feat1 = np.array(["A", "B", "A", "B", "A"])
    >>> feat2 = np.array([101, 101, 101, 102, 102])
    >>> layer((feat1, feat2)).numpy()
    array([1, 4, 1, 1, 3])
    """

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None,
                 dtype=None, **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype, **kwargs)
        if output_mode not in ("int", "one_hot"):
            raise ValueError(
                "Unknown value for `output_mode`. Allowed values are: "
                f"('int', 'one_hot'). Received: output_mode={output_mode}")
        self.num_bins = positive_int(type(self), "num_bins", num_bins)
        self.output_mode = output_mode
        self.sparse = sparse
        self._convert_input_args = False
        self.built = True

    def _checked(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(
                "`HashedCrossing` should be called on a list or tuple of "
                f"inputs. Received: inputs={inputs!r:.200}")
        if len(inputs) < 2:
            raise ValueError("`HashedCrossing` should be called on at least "
                             f"two inputs. Received: inputs={inputs!r:.200}")
        arrays = [x._value if isinstance(x, Tensor) else np.asarray(x)
                  for x in inputs]
        shape = arrays[0].shape
        if len(shape) > 2 or (len(shape) == 2 and shape[-1] != 1):
            raise ValueError(
                "All `HashedCrossing` inputs should have shape `()`, "
                f"`(batch_size)` or `(batch_size, 1)`. Received shape {shape}")
        if any(a.shape != shape for a in arrays[1:]):
            raise ValueError(
                "All `HashedCrossing` inputs should have equal shape. "
                f"Received shapes {[a.shape for a in arrays]}")
        if any(a.dtype.kind not in "iuUS" for a in arrays):
            raise ValueError(
                "All `HashedCrossing` inputs should have an integer or "
                "string dtype. Received dtypes "
                f"{[str(a.dtype) for a in arrays]}")
        return arrays

    def call(self, inputs):
        arrays = self._checked(inputs)
        bins = _cross(arrays, self.num_bins).reshape(arrays[0].shape)
        if self.output_mode == "int":
            return Tensor(bins.astype(self.compute_dtype))
        return Tensor(encode_categorical(bins, "one_hot", self.num_bins,
                                         dtype=self.compute_dtype))

    def compute_output_shape(self, input_shape):
        if len(input_shape) != 2 or not all(
                isinstance(s, tuple) for s in input_shape):
            raise ValueError("Expected as input a list/tuple of 2 tensors. "
                             f"Received input_shape={input_shape}")
        if input_shape[0][-1:] != input_shape[1][-1:]:
            raise ValueError("Expected the two input tensors to have "
                             "identical shapes. Received input_shape="
                             f"{input_shape}")
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        if first and first[-1] == 1:
            return first[:-1] + (self.num_bins,)
        return first + (self.num_bins,)

    def compute_output_spec(self, inputs, *args, **kwargs):
        shape = self.compute_output_shape([tuple(x.shape) for x in inputs])
        return KerasTensor(shape, dtype=self.compute_dtype)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name,
                "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if isinstance(config.get("dtype"), dict):
            config["dtype"] = config["dtype"]["config"]["name"]
        return cls(**config)
