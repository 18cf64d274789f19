"""pad_sequences: values, dtypes and errors as keras.utils.pad_sequences.

Expected arrays were printed by Keras 3.15.1 (JAX backend) for the same
calls."""
import numpy as np
import pytest

from kerasish.utils import pad_sequences

SEQ = [[1], [2, 3], [4, 5, 6]]


@pytest.mark.parametrize("kwargs,expected", [
    ({}, [[0, 0, 1], [0, 2, 3], [4, 5, 6]]),
    ({"value": -1}, [[-1, -1, 1], [-1, 2, 3], [4, 5, 6]]),
    ({"padding": "post"}, [[1, 0, 0], [2, 3, 0], [4, 5, 6]]),
    ({"maxlen": 2}, [[0, 1], [2, 3], [5, 6]]),
    ({"maxlen": 2, "truncating": "post"}, [[0, 1], [2, 3], [4, 5]]),
    ({"maxlen": 4, "padding": "post", "truncating": "post"},
     [[1, 0, 0, 0], [2, 3, 0, 0], [4, 5, 6, 0]]),
])
def test_padding_and_truncation(kwargs, expected):
    out = pad_sequences(SEQ, **kwargs)
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, expected)


def test_dtypes_steps_and_empty_sequences():
    out = pad_sequences([[1.5, 2.7]], dtype="float32", maxlen=3,
                        padding="post")
    np.testing.assert_array_equal(out, np.array([[1.5, 2.7, 0.0]],
                                                "float32"))
    words = pad_sequences([["a", "bb"]], dtype=object, value="<p>",
                          maxlen=3)
    assert words.tolist() == [["<p>", "a", "bb"]]
    steps = pad_sequences([[[1, 2], [3, 4]], [[5, 6]]])
    np.testing.assert_array_equal(steps, [[[1, 2], [3, 4]],
                                          [[0, 0], [5, 6]]])
    np.testing.assert_array_equal(pad_sequences([[], [7]]), [[0], [7]])
    assert pad_sequences([]).shape == (0, 0)
    assert pad_sequences([[1, 2]], maxlen=0).shape == (1, 0)
    objects = np.empty(2, dtype=object)
    objects[:] = [[1, 2, 3], [4]]
    np.testing.assert_array_equal(pad_sequences(objects), [[1, 2, 3],
                                                           [0, 0, 4]])


def test_errors():
    with pytest.raises(ValueError, match="different from expected shape"):
        pad_sequences([[1, 2], [[3, 4]]])
    with pytest.raises(ValueError, match="Found non-iterable: 3"):
        pad_sequences([[1, 2], 3])
    with pytest.raises(ValueError, match="Received: padding='mid'"):
        pad_sequences([[1]], padding="mid")
    with pytest.raises(ValueError, match="Received: truncating='x'"):
        pad_sequences([[1]], truncating="x")
    with pytest.raises(ValueError, match="not compatible with `value`"):
        pad_sequences([[1]], value="pad")
    with pytest.raises(ValueError, match="Received: maxlen=-1"):
        pad_sequences([[1]], maxlen=-1)
    with pytest.raises(ValueError, match="must be iterable"):
        pad_sequences(5)
