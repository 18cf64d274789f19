"""Every bad call of fixtures/bad_call_cases.py gives a clear error naming
the argument (or config entry, or file member) and the value received;
`fit` checks its arguments before it reads data or runs a step. Where
Keras 3 words the error well, kerasish keeps its exact message
(fixtures/keras_bad_calls.py, recorded from Keras by
gen_bad_calls_keras.py)."""
import re

import numpy as np
import pytest

import kerasish
from tests.engine.fixtures.bad_call_cases import CASES, X, Y, make_model
from tests.engine.fixtures.keras_bad_calls import KERAS_OUTCOMES

_BY_ID = {case[0]: case for case in CASES}

# Cases where Keras's own message is clear: kerasish gives it verbatim.
SAME_AS_KERAS = [
    "compile_loss_unknown", "compile_metrics_string",
    "compile_loss_weights_string", "compile_optimizer_unknown",
    "dense_activation_unknown", "dense_initializer_unknown",
    "dense_units_float", "dense_units_zero", "dense_unknown_keyword",
    "deserialize_inner_config_list", "embedding_input_dim_zero",
    "embedding_output_dim_string", "fit_cardinality", "gru_units_negative",
    "layers_deserialize_not_a_layer", "lstm_units_zero",
    "multi_head_attention_heads",
    "reshape_two_unknown", "sequential_config_not_a_dict",
]

# `fit` calls whose error comes from checking the arguments alone.
ARGUMENT_CASES = [
    "fit_epochs_float", "fit_epochs_negative", "fit_epochs_string",
    "fit_epochs_none", "fit_validation_split_negative",
    "fit_validation_split_above_one", "fit_validation_split_string",
    "fit_batch_size_string", "fit_batch_size_zero", "fit_batch_size_float",
    "fit_batch_size_bool", "fit_validation_data_4_tuple",
    "fit_steps_per_epoch_negative", "fit_steps_per_epoch_zero",
    "fit_steps_per_epoch_float", "fit_validation_steps_negative",
    "fit_validation_batch_size_zero", "fit_validation_freq_zero",
    "fit_initial_epoch_negative", "fit_initial_epoch_float",
    "fit_callbacks_string", "fit_callbacks_int", "fit_shuffle_string",
]


def _raised(case_id, tmp_path):
    _, call, error, pattern = _BY_ID[case_id]
    with pytest.raises(error, match="(?s)" + pattern) as info:
        call(kerasish, make_model(kerasish), str(tmp_path))
    return info.value


@pytest.mark.parametrize("case_id", list(_BY_ID))
def test_bad_call_gives_a_clear_error(case_id, tmp_path):
    message = str(_raised(case_id, tmp_path))
    # arrays are described by shape, never printed in full
    assert "array([" not in message and len(message) < 1200


@pytest.mark.parametrize("case_id", SAME_AS_KERAS)
def test_message_is_keras_own(case_id, tmp_path):
    keras_type, keras_message = KERAS_OUTCOMES[case_id]
    error = _raised(case_id, tmp_path)
    assert type(error).__name__ == keras_type or \
        keras_type in [c.__name__ for c in type(error).__mro__]
    assert " ".join(str(error).split())[:300] == keras_message


@pytest.mark.parametrize("case_id", ARGUMENT_CASES)
def test_fit_checks_arguments_before_the_first_step(case_id, tmp_path):
    _, call, error, pattern = _BY_ID[case_id]
    model = make_model(kerasish)
    before = [w.copy() for w in model.get_weights()]
    steps = []
    step = model.train_step
    model.train_step = lambda data: steps.append(1) or step(data)
    with pytest.raises(error, match="(?s)" + pattern):
        call(kerasish, model, str(tmp_path))
    assert steps == [] and int(model.optimizer.iterations.numpy()) == 0
    for w, b in zip(model.get_weights(), before):
        np.testing.assert_array_equal(w, b)


def test_fit_does_not_read_a_generator_before_refusing_an_argument():
    read = []

    def batches():
        while True:
            read.append(1)
            yield X, Y

    model = make_model(kerasish)
    with pytest.raises(ValueError, match=r"Received: epochs=-1"):
        model.fit(batches(), epochs=-1, steps_per_epoch=2, verbose=0)
    assert read == []


def test_every_case_has_a_keras_record():
    assert set(KERAS_OUTCOMES) == set(_BY_ID)


def test_good_calls_near_the_bad_ones_still_work():
    model = make_model(kerasish)
    history = model.fit(X, Y, epochs=np.int64(2), batch_size=np.int32(5),
                        validation_split=0.2, shuffle="batch",
                        steps_per_epoch=None, initial_epoch=0, verbose=0,
                        callbacks=[[kerasish.callbacks.History()]])
    assert history.epoch == [0, 1]
    # a nested list of numbers is one input, not a structure of inputs
    assert model.predict([[1.0, 2.0, 3.0, 4.0]], verbose=0).shape == (1, 2)
    assert model.train_on_batch([list(r) for r in X], Y) > 0


def test_validation_split_of_one_keeps_keras_message():
    model = make_model(kerasish)
    with pytest.raises(ValueError, match=re.escape(
            "not sufficient to split it into a validation and training set "
            "as specified by `validation_split=1.0`")):
        model.fit(X, Y, validation_split=1.0, verbose=0)
