"""`kerasish.utils`: seeds, gradient checks and array helpers."""
from kerasish.backend.random import set_random_seed  # noqa: F401
from kerasish.utils.numerical_checks import check_grads  # noqa: F401
from kerasish.utils.numerical_utils import (to_categorical,  # noqa: F401
                                            normalize)
from kerasish.engine.data_adapters.utils import (  # noqa: F401
    unpack_x_y_sample_weight, pack_x_y_sample_weight)
from kerasish.saving.object_registration import (  # noqa: F401
    register_keras_serializable, get_registered_name,
    get_registered_object, custom_object_scope, get_custom_objects)
from kerasish.utils.py_dataset import PyDataset, Sequence  # noqa: F401
from kerasish.utils.plotting import (model_to_dot, plot_model,  # noqa: F401
                                     plot_history)
from kerasish.utils.sequence_utils import pad_sequences  # noqa: F401,E402
from kerasish.utils import bounding_boxes  # noqa: F401,E402
from kerasish.utils.progbar import Progbar  # noqa: F401,E402
from kerasish.backend.common.global_state import (  # noqa: F401,E402
    enable_interactive_logging, disable_interactive_logging,
    is_interactive_logging_enabled)
from kerasish.utils.config_dict import Config  # noqa: F401,E402
from kerasish.utils.file_utils import get_file  # noqa: F401,E402
from kerasish.utils.image_utils import (load_img, save_img,  # noqa: F401,E402
                                        img_to_array, array_to_img)
from kerasish.utils.feature_space import FeatureSpace  # noqa: F401,E402
from kerasish.utils.dataset_utils import split_dataset  # noqa: F401,E402
from kerasish.utils.image_dataset import (  # noqa: F401,E402
    image_dataset_from_directory)
from kerasish.utils.text_dataset import (  # noqa: F401,E402
    text_dataset_from_directory)
from kerasish.utils.audio_dataset import (  # noqa: F401,E402
    audio_dataset_from_directory)
from kerasish.utils.timeseries_dataset import (  # noqa: F401,E402
    timeseries_dataset_from_array)
from kerasish.saving.object_registration import (  # noqa: F401,E402
    CustomObjectScope)
from kerasish.saving.serialization_lib import (  # noqa: F401,E402
    serialize_keras_object, deserialize_keras_object)
from kerasish.backend import (clear_session, is_keras_tensor,  # noqa: F401,E402
                              standardize_dtype)
from kerasish.engine.function import get_source_inputs  # noqa: F401,E402
from kerasish.utils import legacy  # noqa: F401,E402
