"""Argument validation of the lookup layers, with Keras's messages."""
import collections
import os

import numpy as np
from kerasish.saving import safe_mode
from kerasish.saving import file_refs

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def check_arguments(max_tokens, num_oov_indices, pad_to_max_tokens,
                    oov_method, output_mode, invert, sparse, idf_weights,
                    salt):
    """Validate the constructor arguments; returns the canonical mode."""
    if max_tokens is not None and max_tokens <= 1:
        raise ValueError("If set, `max_tokens` must be greater than 1. "
                         f"Received: max_tokens={max_tokens}")
    if pad_to_max_tokens and max_tokens is None:
        raise ValueError("If pad_to_max_tokens is True, must set "
                         f"`max_tokens`. Received: max_tokens={max_tokens}")
    if num_oov_indices < 0:
        raise ValueError("`num_oov_indices` must be greater than or equal "
                         f"to 0. Received: num_oov_indices={num_oov_indices}")
    if oov_method not in ("floormod", "farmhash"):
        raise ValueError(
            "Unknown value for `oov_method`. Allowed values are: "
            f"('floormod', 'farmhash'). Received: oov_method={oov_method}")
    if salt is not None and not (isinstance(salt, int) or (
            isinstance(salt, (list, tuple)) and len(salt) == 2)):
        raise ValueError(
            "The `salt` argument for `IndexLookup` can only be a tuple of 2 "
            f"integers, or a single integer. Received: salt={salt}.")
    output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(
        output_mode, output_mode)
    if output_mode not in _MODES:
        raise ValueError(
            f"Unknown value for `output_mode`. Allowed values are: {_MODES}. "
            f"Received: output_mode={output_mode}")
    if invert and output_mode != "int":
        raise ValueError("`output_mode` must be `'int'` when `invert` is "
                         f"true. Received: output_mode={output_mode}")
    if sparse and output_mode == "int":
        raise ValueError(
            "`sparse` may only be true if `output_mode` is `'one_hot'`, "
            "`'multi_hot'`, `'count'` or `'tf_idf'`. Received: "
            f"sparse={sparse} and output_mode={output_mode}")
    check_idf_argument(output_mode, idf_weights, construct=True)
    return output_mode


def check_idf_argument(output_mode, idf_weights, construct=False):
    if output_mode == "tf_idf" and idf_weights is None and not construct:
        raise ValueError("`idf_weights` must be set if output_mode is "
                         "'tf_idf'.")
    if output_mode != "tf_idf" and idf_weights is not None:
        raise ValueError(
            "`idf_weights` should only be set if output_mode is `'tf_idf'`. "
            f"Received: output_mode={output_mode} and "
            f"idf_weights={idf_weights}")


def strip_special_tokens(layer, vocabulary, leading_specials=True):
    """The plain tokens of `vocabulary` (leading mask/OOV tokens removed
    if `leading_specials`), after Keras's checks for repeats and
    misplaced special tokens."""
    oov_start = layer._oov_start_index()
    token_start = layer._token_start_index()
    special = [layer.mask_token] * oov_start + \
        [layer.oov_token] * layer.num_oov_indices
    head = vocabulary[:token_start].tolist()
    tokens = vocabulary[token_start:] \
        if leading_specials and head == special and special else vocabulary
    listed = tokens.tolist()
    repeated = [t for t, n in collections.Counter(listed).items() if n > 1]
    if repeated:
        raise ValueError(
            "The passed vocabulary has at least one repeated term. Please "
            f"uniquify your dataset. The repeated terms are: {repeated}")
    for name, token in (("mask_token", layer.mask_token),
                        ("oov_token", layer.oov_token if layer.invert
                         else None)):
        if token is not None and token in listed:
            raise ValueError(
                f"Found reserved {'mask' if name == 'mask_token' else 'OOV'} "
                "token at unexpected location in `vocabulary`. Note that "
                "passed `vocabulary` does not need to include the OOV and "
                "mask tokens. Either remove all mask and OOV tokens, or "
                "include them only at the start of the vocabulary in "
                f"precisely this order: {special}. Received: {name}={token} "
                f"at vocabulary index "
                f"{int(np.flatnonzero(vocabulary == token)[-1])}")
    size = token_start + len(listed)
    if layer.max_tokens is not None and size > layer.max_tokens:
        raise ValueError(
            "Attempted to set a vocabulary larger than the maximum vocab "
            f"size. Received vocabulary size is {size}; `max_tokens` is "
            f"{layer.max_tokens}.")
    return tokens


def read_vocabulary_file(path, output_mode, integers):
    """The tokens of a vocabulary file, one per line (Keras's format).

    Reading a file named in a model config is refused while loading in
    safe mode: a saved model must not read arbitrary files.
    """
    if safe_mode._current():
        raise ValueError(
            "Requested the loading of a vocabulary file outside of the "
            "model archive. This carries a potential risk of loading "
            "arbitrary and sensitive files and thus it is disallowed by "
            "default. If you trust the source of the artifact, you can "
            "override this error by passing `safe_mode=False` to the "
            "loading function, or calling "
            "`kerasish.config.enable_unsafe_deserialization()`. "
            f"Vocabulary file: '{path}'")
    if not os.path.exists(path):
        raise ValueError(f"Vocabulary file {path} does not exist.")
    if output_mode == "tf_idf":
        raise ValueError("output_mode `'tf_idf'` does not support loading a "
                         "vocabulary from file.")
    lines = file_refs.read_text(path, "the vocabulary file").splitlines()
    while lines and lines[-1] == "":
        lines.pop()
    return [int(v) for v in lines] if integers else lines
