"""`kerasish.losses`: `keras.losses` classes, functions and aliases."""
from kerasish.losses.loss import Loss, reduce_weighted_values  # noqa: F401
from kerasish.losses.losses import *  # noqa: F401,F403
from kerasish.losses.losses import LossFunctionWrapper  # noqa: F401
from kerasish.saving.get_utils import make_get as _make_get

get, serialize, deserialize = _make_get("keras.losses", "loss", Loss)
