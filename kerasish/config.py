"""`kerasish.config`: global settings (`keras.config`)."""
from kerasish.backend.config import (backend, floatx, set_floatx,  # noqa
                                     epsilon, set_epsilon,
                                     image_data_format,
                                     set_image_data_format)
from kerasish.engine.dtype_policy import (dtype_policy,  # noqa: F401
                                          set_dtype_policy)
from kerasish.saving.serialization_lib import (  # noqa: F401
    enable_unsafe_deserialization)
