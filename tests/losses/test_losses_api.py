"""The losses' public surface: configs equal to Keras's, serialization,
`get` names and aliases, reductions, masks, `LossFunctionWrapper` and the
errors for bad input.

`KERAS_CONFIGS`, `WRAPPER_CONFIG` and `SER` were printed by real Keras
3.15.1/JAX (default construction of every `keras.losses` class, a
`LossFunctionWrapper(huber, name="h", delta=2.0)` and a serialized
`BinaryCrossentropy(from_logits=True)`).
"""
import numpy as np
import pytest

import kerasish
from kerasish import losses, ops
from kerasish.losses.wrapper import LossFunctionWrapper
from kerasish.saving import serialization_lib

KERAS_CONFIGS = {'BinaryCrossentropy': {'name': 'binary_crossentropy',
                        'reduction': 'sum_over_batch_size',
                        'from_logits': False,
                        'label_smoothing': 0.0,
                        'axis': -1},
 'BinaryFocalCrossentropy': {'name': 'binary_focal_crossentropy',
                             'reduction': 'sum_over_batch_size',
                             'from_logits': False,
                             'label_smoothing': 0.0,
                             'axis': -1,
                             'apply_class_balancing': False,
                             'alpha': 0.25,
                             'gamma': 2.0},
 'CTC': {'name': 'ctc', 'reduction': 'sum_over_batch_size'},
 'CategoricalCrossentropy': {'name': 'categorical_crossentropy',
                             'reduction': 'sum_over_batch_size',
                             'from_logits': False,
                             'label_smoothing': 0.0,
                             'axis': -1},
 'CategoricalFocalCrossentropy': {'name': 'categorical_focal_crossentropy',
                                  'reduction': 'sum_over_batch_size',
                                  'from_logits': False,
                                  'label_smoothing': 0.0,
                                  'axis': -1,
                                  'alpha': 0.25,
                                  'gamma': 2.0},
 'CategoricalGeneralizedCrossEntropy': {
     'name': 'categorical_generalized_cross_entropy',
                                        'reduction': 'sum_over_batch_size',
                                        'q': 0.5},
 'CategoricalHinge': {'name': 'categorical_hinge',
                      'reduction': 'sum_over_batch_size'},
 'Circle': {'name': 'circle',
            'reduction': 'sum_over_batch_size',
            'gamma': 80.0,
            'margin': 0.4,
            'remove_diagonal': True},
 'CosineSimilarity': {'name': 'cosine_similarity',
                      'reduction': 'sum_over_batch_size'},
 'Dice': {'name': 'dice',
          'reduction': 'sum_over_batch_size',
          'axis': None},
 'Hinge': {'name': 'hinge', 'reduction': 'sum_over_batch_size'},
 'Huber': {'name': 'huber_loss', 'reduction': 'sum_over_batch_size'},
 'KLDivergence': {'name': 'kl_divergence',
                  'reduction': 'sum_over_batch_size'},
 'LogCosh': {'name': 'log_cosh', 'reduction': 'sum_over_batch_size'},
 'MeanAbsoluteError': {'name': 'mean_absolute_error',
                       'reduction': 'sum_over_batch_size'},
 'MeanAbsolutePercentageError': {'name': 'mean_absolute_percentage_error',
                                 'reduction': 'sum_over_batch_size'},
 'MeanSquaredError': {'name': 'mean_squared_error',
                      'reduction': 'sum_over_batch_size'},
 'MeanSquaredLogarithmicError': {'name': 'mean_squared_logarithmic_error',
                                 'reduction': 'sum_over_batch_size'},
 'Poisson': {'name': 'poisson', 'reduction': 'sum_over_batch_size'},
 'SparseCategoricalCrossentropy': {'name': 'sparse_categorical_crossentropy',
                                   'reduction': 'sum_over_batch_size',
                                   'from_logits': False,
                                   'ignore_class': None},
 'SquaredHinge': {'name': 'squared_hinge',
                  'reduction': 'sum_over_batch_size'},
 'Tversky': {'name': 'tversky',
             'reduction': 'sum_over_batch_size',
             'alpha': 0.5,
             'beta': 0.5,
             'axis': None}}
WRAPPER_CONFIG = {'name': 'h',
 'reduction': 'sum_over_batch_size',
 'fn': {'module': 'builtins',
        'class_name': 'function',
        'config': 'huber',
        'registered_name': 'function'},
 'delta': 2.0}
SER = {'module': 'keras.losses',
 'class_name': 'BinaryCrossentropy',
 'config': {'name': 'binary_crossentropy',
            'reduction': 'sum_over_batch_size',
            'from_logits': True,
            'label_smoothing': 0.0,
            'axis': -1},
 'registered_name': None}


@pytest.mark.parametrize("name", sorted(KERAS_CONFIGS))
def test_default_config_matches_keras(name):
    assert getattr(losses, name)().get_config() == KERAS_CONFIGS[name]


@pytest.mark.parametrize("name", sorted(KERAS_CONFIGS))
def test_config_round_trip(name):
    loss = getattr(losses, name)()
    clone = type(loss).from_config(loss.get_config())
    assert clone.get_config() == loss.get_config()
    restored = losses.deserialize(losses.serialize(loss))
    assert type(restored) is type(loss)


def test_serialized_form_matches_keras():
    loss = losses.BinaryCrossentropy(from_logits=True)
    assert serialization_lib.serialize_keras_object(loss) == SER


def test_wrapper_config_matches_keras_and_round_trips():
    wrapper = LossFunctionWrapper(losses.huber, name="h", delta=2.0)
    assert wrapper.get_config() == WRAPPER_CONFIG
    clone = LossFunctionWrapper.from_config(wrapper.get_config())
    assert clone.fn is losses.huber and clone._fn_kwargs == {"delta": 2.0}


def test_arguments_keras_leaves_out_survive_when_not_default():
    # Keras's Huber.get_config drops `delta` (a reload silently gets 1.0);
    # kerasish writes the arguments Keras omits only when they differ from
    # the default, so default configs stay identical to Keras's.
    for loss, key, value in [(losses.Huber(delta=2.5), "delta", 2.5),
                             (losses.CosineSimilarity(axis=0), "axis", 0),
                             (losses.SparseCategoricalCrossentropy(axis=1),
                              "axis", 1)]:
        config = loss.get_config()
        assert config[key] == value
        assert getattr(type(loss).from_config(config), key) == value


@pytest.mark.parametrize("alias, target", [
    ("mse", "mean_squared_error"), ("MSE", "mean_squared_error"),
    ("mae", "mean_absolute_error"), ("MAE", "mean_absolute_error"),
    ("mape", "mean_absolute_percentage_error"),
    ("MAPE", "mean_absolute_percentage_error"),
    ("msle", "mean_squared_logarithmic_error"),
    ("MSLE", "mean_squared_logarithmic_error"),
    ("bce", "binary_crossentropy"), ("BCE", "binary_crossentropy"),
    ("kld", "kl_divergence"), ("KLD", "kl_divergence"),
    ("huber", "huber"), ("log_cosh", "log_cosh"), ("ctc", "ctc")])
def test_get_aliases_give_the_functions(alias, target):
    assert losses.get(alias) is getattr(losses, target)


def test_get_instantiates_classes_and_passes_objects():
    assert isinstance(losses.get("Huber"), losses.Huber)
    assert isinstance(losses.get(losses.Poisson), losses.Poisson)
    loss = losses.Dice()
    assert losses.get(loss) is loss and losses.get(None) is None
    with pytest.raises(ValueError, match="Could not interpret loss "
                                         "identifier: huber_loss"):
        losses.get("huber_loss")


Y_TRUE = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], "float32")
Y_PRED = np.array([[1.5, 2.0], [2.0, 4.0], [5.0, 7.0]], "float32")
PER_SAMPLE = np.array([0.125, 0.5, 0.5])
WEIGHTS = np.array([2.0, 0.0, 1.0], "float32")


@pytest.mark.parametrize("reduction, expected", [
    ("sum_over_batch_size", np.sum(PER_SAMPLE * WEIGHTS) / 3),
    ("mean", np.sum(PER_SAMPLE * WEIGHTS) / 3),
    ("sum", np.sum(PER_SAMPLE * WEIGHTS)),
    ("mean_with_sample_weight", np.sum(PER_SAMPLE * WEIGHTS) / 3.0),
    (None, PER_SAMPLE * WEIGHTS), ("none", PER_SAMPLE * WEIGHTS)])
def test_reductions_with_sample_weight(reduction, expected):
    loss = losses.MeanSquaredError(reduction=reduction)
    value = loss(Y_TRUE, Y_PRED, sample_weight=WEIGHTS)
    np.testing.assert_allclose(np.asarray(value), expected, rtol=1e-6)


def test_mean_with_sample_weight_divides_by_the_weight_sum():
    loss = losses.MeanSquaredError(reduction="mean_with_sample_weight")
    weights = np.array([1.0, 1.0, 2.0], "float32")
    value = float(loss(Y_TRUE, Y_PRED, sample_weight=weights))
    assert value == pytest.approx(float(np.sum(PER_SAMPLE * weights) / 4))


def test_per_timestep_sample_weight():
    weights = np.array([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0]], "float32")
    value = losses.MeanAbsoluteError(reduction="sum")(
        Y_TRUE[..., None], Y_PRED[..., None], sample_weight=weights)
    assert float(value) == pytest.approx(0.5 + 0.0 + 1.0)


def test_keras_mask_of_predictions_averages_over_valid_entries():
    y_pred = kerasish.ops.convert_to_tensor(Y_PRED)
    y_pred._keras_mask = np.array([True, False, True])
    value = losses.MeanSquaredError()(Y_TRUE, y_pred)
    assert float(value) == pytest.approx((0.125 + 0.5) / 2)


def test_ignore_class_masks_the_mean():
    probs = np.array([[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]], "float32")
    labels = np.array([0, 1, 1])
    loss = losses.SparseCategoricalCrossentropy(ignore_class=0)
    expected = -(np.log(0.8) + np.log(0.5)) / 2
    assert float(loss(labels, probs)) == pytest.approx(expected, rel=1e-6)


def test_nested_structures_in_the_wrapper():
    def total(y_true, y_pred):
        return kerasish.ops.sum(y_pred["a"] - y_true["a"], axis=-1)

    loss = LossFunctionWrapper(total, reduction="sum")
    value = loss({"a": np.zeros((2, 2))}, {"a": np.ones((2, 2))})
    assert float(value) == 4.0


def test_label_smoothing():
    y = np.array([[0.0, 1.0]], "float32")
    p = np.array([[0.2, 0.8]], "float32")
    smoothed = losses.BinaryCrossentropy(label_smoothing=0.2)(y, p)
    target = np.array([0.1, 0.9])
    expected = -np.mean(target * np.log([0.2, 0.8]) +
                        (1 - target) * np.log([0.8, 0.2]))
    assert float(smoothed) == pytest.approx(expected, rel=1e-5)
    categorical = losses.CategoricalCrossentropy(label_smoothing=0.2)(y, p)
    expected = -(0.1 * np.log(0.2) + 0.9 * np.log(0.8))
    assert float(categorical) == pytest.approx(expected, rel=1e-5)


@pytest.mark.parametrize("call, message", [
    (lambda: losses.SparseCategoricalCrossentropy()([3], [[0.5, 0.5]]),
     r"must be in \[0, 2\)"),
    (lambda: losses.SparseCategoricalCrossentropy(from_logits=True)(
        [-1], [[0.5, 0.5]]), r"must be in \[0, 2\)"),
    (lambda: losses.sparse_categorical_crossentropy(
        np.array([0.5]), np.array([[0.5, 0.5]])), "integer class indices"),
    (lambda: losses.MeanSquaredError(reduction="avg"),
     "Invalid value for argument `reduction`"),
    (lambda: losses.CategoricalGeneralizedCrossEntropy(q=1.5), "q"),
    (lambda: losses.categorical_crossentropy([[0, 1]], [[0.4, 0.6]],
                                             axis=True), "axis"),
    (lambda: losses.mean_squared_error(np.ones((2, 3)), np.ones((2, 4))),
     "incompatible shapes"),
    (lambda: losses.ctc(np.ones((2,)), np.ones((2, 3, 4))), "y_true.shape"),
    (lambda: losses.ctc(np.ones((2, 2)), np.ones((2, 3))), "y_pred.shape"),
    (lambda: losses.ctc(np.full((1, 2), 7), np.zeros((1, 3, 4))),
     r"CTC labels must be in \[0, 4\)"),
])
def test_bad_input_raises_clear_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_single_class_categorical_crossentropy_warns():
    with pytest.warns(SyntaxWarning, match="binary_crossentropy"):
        losses.categorical_crossentropy([[1.0]], [[0.7]])


def test_hinge_converts_zero_one_labels_only():
    scores = np.array([[0.3, -0.4]], "float32")
    zero_one = float(losses.hinge([[1.0, 0.0]], scores)[0])
    signed = float(losses.hinge([[1.0, -1.0]], scores)[0])
    assert zero_one == pytest.approx(signed)


def test_ctc_matches_a_brute_force_sum_over_alignments():
    # All 3^3 paths over {blank, 1, 2}; those collapsing to "1 2" count.
    import itertools
    logits = np.array([[[0.1, 0.4, -0.2], [0.3, -0.1, 0.5],
                        [-0.3, 0.2, 0.6]]], "float32")
    probs = np.exp(logits[0]) / np.exp(logits[0]).sum(-1, keepdims=True)
    total = 0.0
    for path in itertools.product(range(3), repeat=3):
        collapsed = [c for i, c in enumerate(path)
                     if c != 0 and (i == 0 or c != path[i - 1])]
        if collapsed == [1, 2]:
            total += np.prod([probs[t, c] for t, c in enumerate(path)])
    value = float(losses.ctc(np.array([[1, 2]]), logits)[0])
    assert value == pytest.approx(-np.log(total), rel=1e-5)


# Keras 3.15.1 (JAX) values: a target no alignment can produce costs about
# 1e5 (Keras's log-weight of a forbidden step), not inf.
_CTC_LOGITS = np.random.default_rng(0).normal(size=(3, 4, 5)).astype(
    "float32")


def test_ctc_infeasible_targets_cost_a_finite_penalty_as_keras():
    # [1, 1, 1] needs 5 frames (blanks between repeats) but has 4.
    labels = np.array([[1, 1, 1], [1, 2, 3], [0, 0, 0]])
    values = losses.CTC(reduction="none")(labels, _CTC_LOGITS)
    np.testing.assert_allclose(
        values, [100003.1015625, 4.158155, 9.766695], rtol=1e-5)
    too_long = np.array([[1, 2, 3, 4, 1], [1, 0, 0, 0, 0], [2, 2, 0, 0, 0]])
    np.testing.assert_allclose(
        losses.ctc(too_long, _CTC_LOGITS),
        [100002.8046875, 5.254499, 4.323163], rtol=1e-5)


def test_ctc_loss_ignores_padding_past_the_label_length():
    lengths, frames = np.array([2, 1, 2]), np.array([4, 3, 4])
    padded = ops.ctc_loss(np.array([[1, 2, -1], [3, -1, -1], [2, 2, -1]]),
                          _CTC_LOGITS, lengths, frames)
    zeros = ops.ctc_loss(np.array([[1, 2], [3, 0], [2, 2]]), _CTC_LOGITS,
                         lengths, frames)
    np.testing.assert_allclose(padded, zeros)
    half = ops.ctc_loss(np.array([[1, 2], [3, 0], [2, 2]]),
                        _CTC_LOGITS.astype("float16"), lengths, frames)
    assert half.dtype == np.float32   # as Keras


def test_ctc_padding_equal_to_the_last_label_changes_nothing():
    # Keras 3.15.1: [[2, 2]] with length 1 scores as [[2]] (true CTC).
    lengths, frames = np.array([1, 1, 1]), np.array([4, 4, 2])
    values = ops.ctc_loss(np.array([[2, 2], [3, 3], [1, 4]]), _CTC_LOGITS,
                          lengths, frames)
    np.testing.assert_allclose(values, [5.195012, 4.566907, 2.404058],
                               rtol=1e-5)


@pytest.mark.parametrize("fn", [losses.mean_squared_error,
                                losses.categorical_crossentropy,
                                losses.binary_focal_crossentropy,
                                losses.cosine_similarity])
def test_loss_functions_on_keras_tensors_build_graph_nodes(fn):
    # As Keras: symbolic inputs give a (None, 5) KerasTensor, usable as a
    # functional model's output.
    y_true, y_pred = kerasish.Input((5, 3)), kerasish.Input((5, 3))
    out = fn(y_true, y_pred)
    assert tuple(out.shape) == (None, 5) and out.dtype == "float32"
    model = kerasish.Model([y_true, y_pred], out)
    rng = np.random.default_rng(0)
    a = rng.uniform(0.1, 0.9, (2, 5, 3)).astype("float32")
    b = rng.uniform(0.1, 0.9, (2, 5, 3)).astype("float32")
    np.testing.assert_allclose(model.predict([a, b], verbose=0), fn(a, b),
                               rtol=1e-6)
