"""`kerasish.initializers`: `keras.initializers` names and behaviour."""
from kerasish.initializers.initializers import (  # noqa: F401
    Initializer, Constant, Zeros, Ones, Identity, RandomNormal,
    RandomUniform, TruncatedNormal, VarianceScaling, GlorotUniform,
    GlorotNormal, HeNormal, HeUniform, LecunNormal, LecunUniform,
    Orthogonal, compute_fans)
from kerasish.initializers.stft import STFT  # noqa: F401,E402
from kerasish.saving.get_utils import make_get as _make_get  # noqa: E402

IdentityInitializer = Identity
OrthogonalInitializer = Orthogonal
STFTInitializer = stft = STFT
get, serialize, deserialize = _make_get("keras.initializers", "initializer",
                                       Initializer)
# Keras exposes lowercase aliases of the classes too.
constant, zeros, ones, identity = Constant, Zeros, Ones, Identity
random_normal, random_uniform = RandomNormal, RandomUniform
truncated_normal, variance_scaling = TruncatedNormal, VarianceScaling
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal
he_normal, he_uniform = HeNormal, HeUniform
lecun_normal, lecun_uniform, orthogonal = LecunNormal, LecunUniform, Orthogonal
