"""`kerasish.data`: a small tf.data-style input pipeline (`Dataset`)."""
from kerasish.data.dataset import Dataset, INFINITE, UNKNOWN  # noqa: F401
from kerasish.data.adapter import register as _register

_register()
