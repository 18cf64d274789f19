"""`kerasish.data`: a small tf.data-style input pipeline (`Dataset`)."""
from kerasish.data.dataset import (  # noqa: F401
    AUTOTUNE, INFINITE, UNKNOWN, Dataset)
from kerasish.data.adapter import register as _register

_register()
