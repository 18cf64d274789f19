"""scikit-learn estimators around kerasish models (`keras.wrappers`).

`SKLearnClassifier`, `SKLearnRegressor` and `SKLearnTransformer` follow
Keras 3.15: `model` is a compiled model (cloned, with fresh weights, at
each `fit`) or a callable `model(X=..., y=..., **model_kwargs)` building
one; data go through scikit-learn's validation; classifier targets are
one-hot encoded and `predict` returns the class labels. scikit-learn is
an optional dependency (`pip install kerasish[sklearn]`), imported when
this module is first used.
"""
import copy

import numpy as np
from kerasish.engine.model import Model
from kerasish.models import clone_model

try:
    import sklearn
    from sklearn.base import (BaseEstimator, ClassifierMixin,
                              RegressorMixin, TransformerMixin)
except ImportError:  # the estimators raise a clear error when created
    sklearn = None

    class BaseEstimator:
        pass

    class ClassifierMixin:
        pass

    class RegressorMixin:
        pass

    class TransformerMixin:
        pass


def _require_sklearn(name):
    if sklearn is None:
        raise ImportError(
            f"{name} requires `scikit-learn` to be installed. Run `pip "
            "install scikit-learn` (or `pip install kerasish[sklearn]`) to "
            "install it.")


def _validate(estimator, *args, **kwargs):
    # lazy: optional dependency
    from sklearn.utils.validation import validate_data
    return validate_data(estimator, *args, **kwargs)


def _target_type(y):
    # lazy: optional dependency
    from sklearn.utils.multiclass import type_of_target
    kind = type_of_target(y)
    if kind == "unknown":
        raise ValueError(f"Unknown label type for data: {y!r}")
    return kind


def _check_fitted(estimator):
    # lazy: optional dependency
    from sklearn.utils.validation import check_is_fitted
    check_is_fitted(estimator)


class TargetReshaper(TransformerMixin, BaseEstimator):
    """Make 1D targets 2D for the model, and model outputs 1D again."""

    def fit(self, y):
        self.ndim_ = y.ndim
        return self

    def transform(self, y):
        return y.reshape(-1, 1) if y.ndim == 1 else y

    def inverse_transform(self, y):
        _check_fitted(self)
        if self.ndim_ == 1 and y.ndim == 2:
            return np.squeeze(y, axis=1)
        return y


def _check_model(model):
    if not model.compiled or not model.loss or not model.optimizer:
        raise RuntimeError("Given model needs to be compiled, and have a "
                           "loss and an optimizer.")


class SKLBase(BaseEstimator):
    """Shared machinery of the three wrappers.

    Args:
        model: A compiled `Model` (cloned at each fit) or a callable
            `model(X, y, **model_kwargs)` returning a compiled model.
        warm_start: Accepted for scikit-learn compatibility (each `fit`
            starts from a new model, as in Keras). Defaults to `False`.
        model_kwargs: Keyword arguments of the `model` callable.
        fit_kwargs: Keyword arguments of `model.fit` (epochs, ...).
    """

    def __init__(self, model, warm_start=False, model_kwargs=None,
                 fit_kwargs=None):
        _require_sklearn(type(self).__name__)
        self.model = model
        self.warm_start = warm_start
        self.model_kwargs = model_kwargs
        self.fit_kwargs = fit_kwargs

    def _more_tags(self):
        return {"non_deterministic": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.non_deterministic = True
        return tags

    def __sklearn_clone__(self):
        """A copy for `sklearn.base.clone` (the model itself is copied;
        `fit_kwargs` are not carried over, as in Keras)."""
        model = self.model if callable(self.model) else \
            copy.deepcopy(self.model)
        return type(self)(model=model, warm_start=self.warm_start,
                          model_kwargs=self.model_kwargs)

    @property
    def epoch_(self):
        """The epochs of the last fit (`history_.epoch`), 0 before any.

        (Keras's version reads a dict key from the `History` object and
        fails; this returns what it means to.)"""
        history = getattr(self, "history_", None)
        return getattr(history, "epoch", 0) if history is not None else 0

    def _get_model(self, X, y):
        if isinstance(self.model, Model):
            return clone_model(self.model)
        return self.model(X=X, y=y, **(self.model_kwargs or {}))

    def fit(self, X, y, **kwargs):
        """Build a new model and train it on `X`, `y`; returns `self`.

        Args:
            X: Array-like of shape `(n_samples, n_features)`.
            y: Targets.
            **kwargs: More `model.fit` arguments (over `fit_kwargs`).
        """
        X, y = _validate(self, X, y)
        y = self._process_target(y, reset=True)
        model = self._get_model(X, y)
        _check_model(model)
        fit_kwargs = dict(self.fit_kwargs or {})
        fit_kwargs.update(kwargs)
        self.history_ = model.fit(X, y, **fit_kwargs)
        self.model_ = model
        return self

    def predict(self, X):
        """The model's predictions for `X`, in the targets' format."""
        _check_fitted(self)
        X = _validate(self, X, reset=False)
        return self._reverse_process_target(self.model_.predict(X))

    def _process_target(self, y, reset=False):
        _target_type(y)
        if reset:
            self._target_encoder = TargetReshaper().fit(y)
        return self._target_encoder.transform(y)

    def _reverse_process_target(self, y):
        return self._target_encoder.inverse_transform(y)


class SKLearnClassifier(ClassifierMixin, SKLBase):
    """A scikit-learn classifier around a kerasish model.

    Labels are one-hot encoded for the model (so it ends with one unit per
    class, e.g. a softmax trained with categorical cross-entropy), and
    `predict` maps the model's outputs back to labels (`classes_`).

    Args:
        model, warm_start, model_kwargs, fit_kwargs: See `SKLBase`.

    Example:

    >>> def build(X, y):
    ...     model = kerasish.Sequential([
    ...         kerasish.Input((X.shape[1],)),
    ...         kerasish.layers.Dense(y.shape[1], activation="softmax")])
    ...     model.compile(loss="categorical_crossentropy", optimizer="adam")
    ...     return model
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0]] * 8)
    >>> y = np.array(["a", "b"] * 8)
    >>> clf = SKLearnClassifier(build, fit_kwargs={"epochs": 2,
    ...                                            "verbose": 0})
    >>> clf.fit(X, y).classes_.tolist()
    ['a', 'b']
    >>> kerasish.config.disable_interactive_logging()  # predict's progress
    >>> clf.predict(X[:2]).shape
    (2,)
    >>> kerasish.config.enable_interactive_logging()
    """

    def decision_function(self, X):
        """The model's raw outputs (class scores) for `X`."""
        _check_fitted(self)
        X = _validate(self, X, reset=False)
        return self.model_.predict(X)

    def _process_target(self, y, reset=False):
        kind = _target_type(y)
        if kind not in ("binary", "multiclass"):
            raise ValueError("Only binary and multiclass target types are "
                             f"supported. Target type: {kind}")
        if reset:
            # lazy: optional dependency
            from sklearn.pipeline import make_pipeline
            # lazy: optional dependency
            from sklearn.preprocessing import OneHotEncoder
            self._target_encoder = make_pipeline(
                TargetReshaper(), OneHotEncoder(sparse_output=False)).fit(y)
            self.classes_ = np.unique(y)
            if len(self.classes_) == 1:
                raise ValueError(
                    "Classifier can't train when only one class is present.")
        return self._target_encoder.transform(y)

    def _more_tags(self):
        return {"poor_score": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True
        return tags


class SKLearnRegressor(RegressorMixin, SKLBase):
    """A scikit-learn regressor around a kerasish model.

    Args:
        model, warm_start, model_kwargs, fit_kwargs: See `SKLBase`.

    Example:

    >>> def build(X, y):
    ...     model = kerasish.Sequential([kerasish.Input((X.shape[1],)),
    ...                                  kerasish.layers.Dense(1)])
    ...     model.compile(loss="mse", optimizer="sgd")
    ...     return model
    >>> X = np.linspace(0, 1, 20).reshape(10, 2)
    >>> reg = SKLearnRegressor(build, fit_kwargs={"verbose": 0})
    >>> kerasish.config.disable_interactive_logging()  # predict's progress
    >>> reg.fit(X, X.sum(axis=1)).predict(X[:3]).shape
    (3,)
    >>> kerasish.config.enable_interactive_logging()
    """

    def _more_tags(self):
        return {"poor_score": True}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True
        return tags


class SKLearnTransformer(TransformerMixin, SKLBase):
    """A scikit-learn transformer: `transform` is the model's prediction.

    Args:
        model, warm_start, model_kwargs, fit_kwargs: See `SKLBase`.

    Example:

    >>> def build(X, y):
    ...     model = kerasish.Sequential([kerasish.Input((X.shape[1],)),
    ...                                  kerasish.layers.Dense(1)])
    ...     model.compile(loss="mse", optimizer="sgd")
    ...     return model
    >>> X = np.linspace(0, 1, 20).reshape(10, 2)
    >>> t = SKLearnTransformer(build, fit_kwargs={"verbose": 0})
    >>> kerasish.config.disable_interactive_logging()  # predict's progress
    >>> t.fit(X, X[:, 0]).transform(X).shape
    (10, 1)
    >>> kerasish.config.enable_interactive_logging()
    """

    def transform(self, X):
        """The model's outputs for `X`."""
        _check_fitted(self)
        X = _validate(self, X, reset=False)
        return self.model_.predict(X)

    def _more_tags(self):
        return {"preserves_dtype": []}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []
        return tags
