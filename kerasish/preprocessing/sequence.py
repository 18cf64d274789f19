"""`kerasish.preprocessing.sequence`: Keras 3's
`keras.preprocessing.sequence`."""
from kerasish.utils.sequence_utils import pad_sequences  # noqa: F401
