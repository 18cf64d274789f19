"""`kerasish.wrappers` (`keras.wrappers`): scikit-learn estimators.

Needs scikit-learn (`pip install kerasish[sklearn]`); this namespace is
loaded on first use, so `import kerasish` never imports scikit-learn.
"""
from kerasish.wrappers.sklearn_wrapper import (  # noqa: F401
    SKLearnClassifier, SKLearnRegressor, SKLearnTransformer)
