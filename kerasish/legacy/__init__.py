"""`kerasish.legacy` (`keras.legacy`): Keras 2 compatibility helpers."""
from kerasish.legacy import saving  # noqa: F401
