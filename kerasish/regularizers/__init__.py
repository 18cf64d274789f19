"""`kerasish.regularizers`: `keras.regularizers` names and behaviour."""
from kerasish.regularizers.regularizers import (  # noqa: F401
    Regularizer, L1, L2, L1L2, OrthogonalRegularizer)
from kerasish.saving.get_utils import make_get as _make_get

get, serialize, deserialize = _make_get("keras.regularizers", "regularizer",
                                       Regularizer)
l1, l2, l1_l2, orthogonal_regularizer = L1, L2, L1L2, OrthogonalRegularizer
