"""`kerasish.constraints`: `keras.constraints` names and behaviour."""
from kerasish.constraints.constraints import (  # noqa: F401
    Constraint, MaxNorm, NonNeg, UnitNorm, MinMaxNorm)
from kerasish.saving.get_utils import make_get as _make_get

get, serialize, deserialize = _make_get("keras.constraints", "constraint",
                                       Constraint)
max_norm, non_neg, unit_norm, min_max_norm = MaxNorm, NonNeg, UnitNorm, \
    MinMaxNorm
