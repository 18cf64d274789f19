"""`kerasish.utils.FeatureSpace` and the specs it is built from."""
from kerasish.utils.feature_space.feature_space import (  # noqa: F401
    FeatureSpace)
from kerasish.utils.feature_space.specs import (  # noqa: F401
    Cross, Feature, TFDConcat, TFDIdentity)
