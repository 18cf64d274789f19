"""Argument validation of `TextVectorization`, with Keras's messages."""
from kerasish.layers.preprocessing.text_standardize import (
    SPLIT_MODES, STANDARDIZE_MODES)

_OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def _check_choice(value, allowed, arg_name, allow_none=True,
                  allow_callables=True):
    if (allow_none and value is None) or (allow_callables and
                                          callable(value)):
        return
    if isinstance(value, str) and value in allowed:
        return
    raise ValueError(
        f"Unknown value for `{arg_name}` argument of TextVectorization. "
        f"Allowed values are: {allowed}. Received: {arg_name}={value}")


def _check_backend_only(sparse, ragged):
    if sparse:
        raise ValueError(
            "`sparse=True` is not supported by kerasish's TextVectorization "
            "(kerasish has no sparse tensors; Keras supports it on the "
            "TensorFlow backend only). Received: sparse=True")
    if ragged not in (True, False):
        raise ValueError(f"`ragged` must be a bool. Received: ragged={ragged}")


def _check_ngrams(ngrams):
    ok = ngrams is None or (isinstance(ngrams, int) and ngrams > 0) or (
        isinstance(ngrams, tuple) and all(
            isinstance(n, int) and n > 0 for n in ngrams))
    if not ok:
        raise ValueError("`ngrams` must be None, an integer, or a tuple of "
                         f"integers. Received: ngrams={ngrams}")


def _check_sequence_length(output_mode, length, ragged):
    if output_mode == "int" and not (length is None or (
            isinstance(length, int) and length > 0)):
        raise ValueError(
            "`output_sequence_length` must be either None or an integer "
            "when `output_mode` is 'int'. Received: "
            f"output_sequence_length={length}")
    if output_mode != "int" and length is not None:
        raise ValueError(
            "`output_sequence_length` must not be set if `output_mode` is "
            f"not 'int'. Received output_sequence_length={length}.")
    if ragged and output_mode != "int":
        raise ValueError(
            "`ragged` must not be true if `output_mode` is not `'int'`. "
            f"Received: ragged={ragged} and output_mode={output_mode}")


def check_arguments(standardize, split, ngrams, output_mode,
                    output_sequence_length, sparse, ragged):
    """Validate the constructor arguments; returns the canonical mode."""
    _check_backend_only(sparse, ragged)
    _check_choice(standardize, STANDARDIZE_MODES, "standardize")
    _check_choice(split, SPLIT_MODES, "split")
    output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(
        output_mode, output_mode)
    _check_choice(output_mode, _OUTPUT_MODES, "output_mode",
                  allow_none=False, allow_callables=False)
    _check_ngrams(ngrams)
    _check_sequence_length(output_mode, output_sequence_length, ragged)
    return output_mode
