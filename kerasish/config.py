"""`kerasish.config`: global settings (`keras.config`)."""
from kerasish.backend.config import (backend, floatx, set_floatx,  # noqa
                                     epsilon, set_epsilon,
                                     image_data_format,
                                     set_image_data_format)
from kerasish.engine.dtype_policy import (dtype_policy,  # noqa: F401
                                          set_dtype_policy)
from kerasish.saving.serialization_lib import (  # noqa: F401
    enable_unsafe_deserialization)
from kerasish.backend.common.global_state import (  # noqa: F401,E402
    enable_interactive_logging, disable_interactive_logging,
    is_interactive_logging_enabled, enable_traceback_filtering,
    disable_traceback_filtering, is_traceback_filtering_enabled,
    enable_flash_attention, disable_flash_attention,
    is_flash_attention_enabled, max_epochs, set_max_epochs,
    max_steps_per_epoch, set_max_steps_per_epoch, set_backend,
    is_nnx_enabled)
