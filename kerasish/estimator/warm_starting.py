"""Warm starting: initialize an Estimator's variables from a checkpoint.

Applied when training (or evaluating, predicting) starts without a
checkpoint in `model_dir`; a checkpoint there always wins, as in TF.
"""
import collections
import logging
import os
import re

import numpy as np

from kerasish.estimator.checkpoints import checkpoint_file
from kerasish.estimator.variable_store import read_checkpoint
from kerasish import initializers

logger = logging.getLogger("kerasish.estimator")


class VocabInfo(collections.namedtuple("VocabInfo", [
        "new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab",
        "old_vocab_size", "backup_initializer", "axis"])):
    """How to remap a variable whose rows follow a vocabulary.

    Rows for tokens found in the old vocabulary are copied from the old
    rows; rows of new tokens and OOV buckets come from `backup_initializer`
    (zeros by default), as in TF.

    Args:
        new_vocab: Path of the new vocabulary file (one token per line).
        new_vocab_size: Tokens used from `new_vocab`.
        num_oov_buckets: OOV buckets after the vocabulary rows.
        old_vocab: Path of the vocabulary the checkpoint was trained with.
        old_vocab_size: Tokens used from `old_vocab` (-1: all).
        backup_initializer: Initializer for rows without an old row.
        axis: The vocabulary axis, 0 (rows) or 1 (columns).

    Example:

    >>> info = VocabInfo("new.txt", 3, 1, "old.txt")
    >>> info.old_vocab_size, info.axis
    (-1, 0)
    """

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab,
                old_vocab_size=-1, backup_initializer=None, axis=0):
        if axis not in (0, 1):
            raise ValueError("The only supported values for the axis "
                             f"argument are 0 and 1. Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size,
                               num_oov_buckets, old_vocab, old_vocab_size,
                               backup_initializer, axis)


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start",
        "var_name_to_vocab_info", "var_name_to_prev_var_name"])):
    """Which variables to initialize from which checkpoint (TF's settings).

    Args:
        ckpt_to_initialize_from: A checkpoint prefix, or a folder (its
            latest checkpoint).
        vars_to_warm_start: A regex matched against the names of the
            *trainable* variables (default `".*"`: all of them); a list of
            regexes matched against all variable names (optimizer slots and
            moving statistics included); or None (only the variables of
            `var_name_to_vocab_info`).
        var_name_to_vocab_info: `{name: VocabInfo}` for vocabulary remaps.
        var_name_to_prev_var_name: `{name: name in the checkpoint}`.

    Example:

    >>> WarmStartSettings("/tmp/run1", vars_to_warm_start="dnn/.*")[1]
    'dnn/.*'
    """

    def __new__(cls, ckpt_to_initialize_from, vars_to_warm_start=".*",
                var_name_to_vocab_info=None, var_name_to_prev_var_name=None):
        if not ckpt_to_initialize_from:
            raise ValueError("`ckpt_to_initialize_from` MUST be set in "
                             "WarmStartSettings")
        return super().__new__(cls, os.fspath(ckpt_to_initialize_from),
                               vars_to_warm_start,
                               dict(var_name_to_vocab_info or {}),
                               dict(var_name_to_prev_var_name or {}))


def settings_from(warm_start_from):
    """`WarmStartSettings` from the Estimator's `warm_start_from`."""
    if warm_start_from is None or isinstance(warm_start_from,
                                             WarmStartSettings):
        return warm_start_from
    if isinstance(warm_start_from, (str, os.PathLike)):
        return WarmStartSettings(warm_start_from)
    raise ValueError("warm_start_from must be a string or a "
                     "WarmStartSettings, instead got "
                     f"{type(warm_start_from).__name__}")


def _selected(store, pattern):
    names = store.names()
    if pattern is None:
        return []
    if isinstance(pattern, str):
        return [n for n in names if re.match(pattern, n)
                and store.variable(n).trainable]
    patterns = list(pattern)
    return [n for n in names if any(re.match(p, n) for p in patterns)]


def warm_start(store, settings):
    """Initialize the store's variables as `settings` says; returns the
    names warm-started."""
    values = read_checkpoint(checkpoint_file(settings.ckpt_to_initialize_from))
    names = set(_selected(store, settings.vars_to_warm_start))
    names |= set(settings.var_name_to_vocab_info)
    done = []
    for name in sorted(names):
        if name not in store:
            raise ValueError(f"Warm-start variable {name!r} is not created "
                             "by the model function.")
        previous = settings.var_name_to_prev_var_name.get(name, name)
        if previous not in values:
            raise ValueError(
                f"Variable {previous!r} (warm-starting {name!r}) is not in "
                f"checkpoint {settings.ckpt_to_initialize_from}.")
        value = values[previous]
        info = settings.var_name_to_vocab_info.get(name)
        target = store.variable(name)
        if info is not None:
            value = _remap(value, target, info)
        if tuple(value.shape) != tuple(target.shape):
            raise ValueError(
                f"Cannot warm-start {name!r}: it has shape "
                f"{tuple(target.shape)} but {previous!r} in the checkpoint "
                f"has shape {tuple(value.shape)}.")
        target.assign(value)
        done.append(name)
    logger.info("Warm-started %d variables from %s.", len(done),
                settings.ckpt_to_initialize_from)
    return done


def _read_vocab(path, size):
    with open(path, encoding="utf-8") as f:
        tokens = [line.rstrip("\n") for line in f]
    return tokens if size is None or size < 0 else tokens[:size]


def _remap(old, target, info):
    """Rows (or columns) of `old` moved to the new vocabulary's order."""
    new_tokens = _read_vocab(info.new_vocab, info.new_vocab_size)
    old_index = {t: i for i, t in
                 enumerate(_read_vocab(info.old_vocab, info.old_vocab_size))}
    shape = tuple(target.shape)
    if info.backup_initializer is not None:
        init = initializers.get(info.backup_initializer)
        new = np.asarray(init(shape, dtype=target.dtype))
    else:
        new = np.zeros(shape, target.dtype)
    old = np.moveaxis(np.asarray(old), info.axis, 0)
    view = np.moveaxis(new, info.axis, 0)
    expected = len(new_tokens) + info.num_oov_buckets
    if view.shape[0] != expected:
        raise ValueError(
            f"VocabInfo gives {len(new_tokens)} tokens + "
            f"{info.num_oov_buckets} OOV buckets = {expected} rows, but the "
            f"variable has {view.shape[0]} along axis {info.axis}.")
    for row, token in enumerate(new_tokens):
        if token in old_index and old_index[token] < old.shape[0]:
            view[row] = old[old_index[token]]
    return new
