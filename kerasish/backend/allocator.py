"""Keep freed memory in the process between training steps (glibc only).

numpy allocates fresh arrays for every step's activations and gradients.
By default glibc hands freed heap memory back to the kernel and maps large
arrays afresh, so each step pays thousands of page faults, which are slow
in virtual machines (the PyTorch CNN baseline doubles its speed with the
same setting). kerasish raises the trim threshold and top pad once, at
import. Set `KERASISH_MALLOC_TUNING=0` to leave the allocator alone; any
`MALLOC_*` setting of your own is respected.
"""
import ctypes
import os
import sys

_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3


def tune_allocator():
    """Apply the settings; returns True if they were applied."""
    if os.environ.get("KERASISH_MALLOC_TUNING", "1") == "0" or \
            not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    settings = [("MALLOC_TRIM_THRESHOLD_", _M_TRIM_THRESHOLD, 128 << 20),
                ("MALLOC_TOP_PAD_", _M_TOP_PAD, 64 << 20),
                ("MALLOC_MMAP_THRESHOLD_", _M_MMAP_THRESHOLD, 32 << 20)]
    applied = False
    for env, option, value in settings:
        if env not in os.environ:
            applied = bool(mallopt(option, value)) or applied
    return applied


TUNED = tune_allocator()
