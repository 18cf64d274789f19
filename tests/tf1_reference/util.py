"""Shared helpers of the TF1 oracle suite: fixtures and log capture.

The JSON files next to this module were written by real TensorFlow 2.15.1
(`tools/gen_tf1_reference.py`, run by hand); each holds a scenario's
inputs and what TensorFlow did. The tests replay the scenarios on kerasish
without importing TensorFlow.
"""
import json
import logging
import os
import re

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    """The fixture `name`.json, with `NaN` read back as float NaN."""
    with open(os.path.join(HERE, name + ".json")) as f:
        return json.load(f)


def assert_close(actual, expected, rtol=1e-5, atol=1e-6, what=""):
    """float32 agreement of (nested) numbers, NaN equal to NaN."""
    np.testing.assert_allclose(np.asarray(actual, np.float64),
                               np.asarray(expected, np.float64),
                               rtol=rtol, atol=atol, equal_nan=True,
                               err_msg=what)


class LogCapture(logging.Handler):
    """`[level, message]` of the records of the loggers `names` (default
    `kerasish.train`), with `folder` written `<dir>`, as the generator."""

    def __init__(self, folder, *names):
        super().__init__(logging.INFO)
        self.folder, self.lines = str(folder), []
        self.loggers = [logging.getLogger(n)
                        for n in names or ("kerasish.train",)]

    def emit(self, record):
        text = record.getMessage().replace(self.folder, "<dir>")
        self.lines.append([record.levelname, text])

    def __enter__(self):
        self._levels = [logger.level for logger in self.loggers]
        for logger in self.loggers:
            logger.setLevel(logging.INFO)
            logger.addHandler(self)
        return self

    def __exit__(self, *exc):
        for logger, level in zip(self.loggers, self._levels):
            logger.removeHandler(self)
            logger.setLevel(level)


_OBJECT = re.compile(r"<[^<>]* object at 0x[0-9a-fA-F]+>")
_SECS = re.compile(r" \(\d+\.\d+ sec\)$")


def normalized(line):
    """A log line without what differs from run to run (object addresses,
    elapsed times, rates)."""
    level, text = line
    text = _OBJECT.sub("<object>", text)
    text = _SECS.sub(" (<t> sec)", text)
    if text.startswith("global_step/sec: "):
        text = "global_step/sec: <rate>"
    return [level, text]
