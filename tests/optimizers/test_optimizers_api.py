"""The optimizers' public surface: configs and variable layouts equal to
Keras's, `get`/serialization, learning rates settable at run time, row
(IndexedSlices) updates equal to dense ones, argument validation.

`KERAS_OPTIMIZERS` was printed with real Keras 3.15.1/JAX by building each
optimizer of `CASES` on a `Dense(2)` layer with 3 inputs (variable names
are the last path component; see tests/optimizers/fixtures/ for the
trajectory generator, which follows the same pattern).
"""
import numpy as np
import pytest

import kerasish
from kerasish import optimizers
from kerasish.backend.indexed_slices import IndexedSlices

CASES = [("SGD", {}), ("SGD", {"momentum": 0.9, "nesterov": True}),
         ("Adam", {"amsgrad": True}), ("AdamW", {}), ("Adamax", {}),
         ("Nadam", {}), ("RMSprop", {"momentum": 0.5, "centered": True}),
         ("Adagrad", {}), ("Adadelta", {}),
         ("Ftrl", {"l1_regularization_strength": 0.1}), ("Lion", {}),
         ("Lamb", {}), ("Adafactor", {}),
         ("Adam", {"use_ema": True, "gradient_accumulation_steps": 3}),
         ("RMSprop", {"clipnorm": 1.0, "weight_decay": 0.01})]

KERAS_OPTIMIZERS = [{'config': {'name': 'sgd',
             'learning_rate': 0.009999999776482582,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'momentum': 0.0,
             'nesterov': False},
  'variables': ['iteration', 'learning_rate'],
  'shapes': [[], []]},
 {'config': {'name': 'sgd_1',
             'learning_rate': 0.009999999776482582,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'momentum': 0.9,
             'nesterov': True},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_momentum',
                'dense_bias_momentum'],
  'shapes': [[], [], [3, 2], [2]]},
 {'config': {'name': 'adam',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'beta_1': 0.9,
             'beta_2': 0.999,
             'epsilon': 1e-07,
             'amsgrad': True},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_momentum',
                'dense_kernel_velocity', 'dense_bias_momentum',
                'dense_bias_velocity', 'dense_kernel_velocity_hat',
                'dense_bias_velocity_hat'],
  'shapes': [[], [], [3, 2], [3, 2], [2], [2], [3, 2], [2]]},
 {'config': {'name': 'adam_w',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': 0.004,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'beta_1': 0.9,
             'beta_2': 0.999,
             'epsilon': 1e-07,
             'amsgrad': False},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_momentum',
                'dense_kernel_velocity', 'dense_bias_momentum',
                'dense_bias_velocity'],
  'shapes': [[], [], [3, 2], [3, 2], [2], [2]]},
 {'config': {'name': 'adamax',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'beta_1': 0.9,
             'beta_2': 0.999,
             'epsilon': 1e-07},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_momentum',
                'dense_kernel_norm', 'dense_bias_momentum',
                'dense_bias_norm'],
  'shapes': [[], [], [3, 2], [3, 2], [2], [2]]},
 {'config': {'name': 'nadam',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'beta_1': 0.9,
             'beta_2': 0.999,
             'epsilon': 1e-07},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_momentum',
                'dense_kernel_velocity', 'dense_bias_momentum',
                'dense_bias_velocity', 'variable'],
  'shapes': [[], [], [3, 2], [3, 2], [2], [2], []]},
 {'config': {'name': 'rm_sprop',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'rho': 0.9,
             'momentum': 0.5,
             'epsilon': 1e-07,
             'centered': True},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_velocity',
                'dense_bias_velocity', 'dense_kernel_momentum',
                'dense_bias_momentum', 'dense_kernel_average_gradient',
                'dense_bias_average_gradient'],
  'shapes': [[], [], [3, 2], [2], [3, 2], [2], [3, 2], [2]]},
 {'config': {'name': 'adagrad',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'initial_accumulator_value': 0.1,
             'epsilon': 1e-07},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_accumulator',
                'dense_bias_accumulator'],
  'shapes': [[], [], [3, 2], [2]]},
 {'config': {'name': 'adadelta',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'rho': 0.95,
             'epsilon': 1e-07},
  'variables': ['iteration', 'learning_rate',
                'dense_kernel_accumulated_grad',
                'dense_kernel_accumulated_delta_var',
                'dense_bias_accumulated_grad',
                'dense_bias_accumulated_delta_var'],
  'shapes': [[], [], [3, 2], [3, 2], [2], [2]]},
 {'config': {'name': 'ftrl',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'learning_rate_power': -0.5,
             'initial_accumulator_value': 0.1,
             'l1_regularization_strength': 0.1,
             'l2_regularization_strength': 0.0,
             'l2_shrinkage_regularization_strength': 0.0,
             'beta': 0.0},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_accumulator',
                'dense_kernel_linear', 'dense_bias_accumulator',
                'dense_bias_linear'],
  'shapes': [[], [], [3, 2], [3, 2], [2], [2]]},
 {'config': {'name': 'lion',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'beta_1': 0.9,
             'beta_2': 0.99},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_momentum',
                'dense_bias_momentum'],
  'shapes': [[], [], [3, 2], [2]]},
 {'config': {'name': 'lamb',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'beta_1': 0.9,
             'beta_2': 0.999,
             'epsilon': 1e-07},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_momentum',
                'dense_kernel_velocity', 'dense_bias_momentum',
                'dense_bias_velocity'],
  'shapes': [[], [], [3, 2], [3, 2], [2], [2]]},
 {'config': {'name': 'adafactor',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'beta_2_decay': -0.8,
             'epsilon_1': 1e-30,
             'epsilon_2': 0.001,
             'clip_threshold': 1.0,
             'relative_step': True},
  'variables': ['iteration', 'learning_rate', 'kernel', 'kernel',
                'dense_kernel_velocity', 'bias', 'bias',
                'dense_bias_velocity'],
  'shapes': [[], [], [3], [2], [3, 2], [], [], [2]]},
 {'config': {'name': 'adam_1',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': None,
             'clipnorm': None,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': True,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': 3,
             'beta_1': 0.9,
             'beta_2': 0.999,
             'epsilon': 1e-07,
             'amsgrad': False},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_average',
                'dense_bias_average', 'dense_kernel_gradient_accumulator',
                'dense_bias_gradient_accumulator', 'dense_kernel_momentum',
                'dense_kernel_velocity', 'dense_bias_momentum',
                'dense_bias_velocity'],
  'shapes': [[], [], [3, 2], [2], [3, 2], [2], [3, 2], [3, 2], [2], [2]]},
 {'config': {'name': 'rm_sprop_1',
             'learning_rate': 0.0010000000474974513,
             'weight_decay': 0.01,
             'clipnorm': 1.0,
             'global_clipnorm': None,
             'clipvalue': None,
             'use_ema': False,
             'ema_momentum': 0.99,
             'ema_overwrite_frequency': None,
             'loss_scale_factor': None,
             'gradient_accumulation_steps': None,
             'rho': 0.9,
             'momentum': 0.0,
             'epsilon': 1e-07,
             'centered': False},
  'variables': ['iteration', 'learning_rate', 'dense_kernel_velocity',
                'dense_bias_velocity'],
  'shapes': [[], [], [3, 2], [2]]}]


def _dense_variables():
    layer = kerasish.layers.Dense(2)
    layer.build((None, 3))
    return [layer.kernel, layer.bias]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_config_and_variables_match_keras(index):
    name, kwargs = CASES[index]
    opt = getattr(optimizers, name)(**kwargs)
    opt.build(_dense_variables())
    expected = KERAS_OPTIMIZERS[index]
    config, keras_config = dict(opt.get_config()), dict(expected["config"])
    # Keras recorded all cases in one session ("sgd_1" ...); each test here
    # starts with fresh names.
    assert keras_config.pop("name").startswith(config.pop("name"))
    assert config == keras_config
    assert [v.path.split("/")[-1] for v in opt.variables] == \
        expected["variables"]
    assert [list(v.shape) for v in opt.variables] == expected["shapes"]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_serialization_round_trip(index):
    name, kwargs = CASES[index]
    opt = getattr(optimizers, name)(**kwargs)
    restored = optimizers.deserialize(optimizers.serialize(opt))
    assert type(restored) is type(opt)
    assert restored.get_config() == opt.get_config()


@pytest.mark.parametrize("name, cls", [
    ("sgd", "SGD"), ("adam", "Adam"), ("AdamW", "AdamW"),
    ("adamw", "AdamW"), ("adamax", "Adamax"), ("nadam", "Nadam"),
    ("rmsprop", "RMSprop"), ("RMSprop", "RMSprop"), ("adagrad", "Adagrad"),
    ("adadelta", "Adadelta"), ("ftrl", "Ftrl"), ("lion", "Lion"),
    ("lamb", "Lamb"), ("adafactor", "Adafactor"), ("muon", "Muon"),
    ("ScheduleFreeAdamW", "ScheduleFreeAdamW")])
def test_get_resolves_names(name, cls):
    assert type(optimizers.get(name)).__name__ == cls


def test_get_unknown_name_raises():
    with pytest.raises(ValueError, match="Could not interpret optimizer "
                                         "identifier: adamm"):
        optimizers.get("adamm")


def test_learning_rate_is_settable_at_run_time_and_saved():
    opt = optimizers.SGD(learning_rate=0.1)
    w = kerasish.Variable([1.0])
    opt.apply([np.array([1.0], "float32")], [w])
    opt.learning_rate = 0.01
    opt.apply([np.array([1.0], "float32")], [w])
    assert float(w.numpy()[0]) == pytest.approx(0.89)
    assert opt.get_config()["learning_rate"] == pytest.approx(0.01)
    assert int(opt.iterations) == 2


def test_callable_learning_rate():
    opt = optimizers.SGD(learning_rate=lambda: 0.5)
    w = kerasish.Variable([1.0])
    opt.apply([np.array([1.0], "float32")], [w])
    assert float(w.numpy()[0]) == pytest.approx(0.5)


def test_iterations_count_applied_updates_with_accumulation():
    opt = optimizers.SGD(learning_rate=1.0, gradient_accumulation_steps=2)
    w = kerasish.Variable([0.0])
    seen = []
    for g in (1.0, 3.0, 5.0, 7.0):
        opt.apply([np.array([g], "float32")], [w])
        seen.append((int(opt.iterations), float(w.numpy()[0])))
    # Updates with the mean gradient every second call.
    assert seen == [(0, 0.0), (1, -2.0), (1, -2.0), (2, -8.0)]


def _row_gradient(rows, values, shape):
    return IndexedSlices(np.asarray(rows), np.asarray(values, "float32"),
                         shape)


@pytest.mark.parametrize("name, kwargs", [
    ("SGD", {}), ("SGD", {"momentum": 0.9}), ("Adam", {}),
    ("AdamW", {"weight_decay": 0.1}), ("Adagrad", {}), ("RMSprop", {}),
    ("RMSprop", {"centered": True}), ("RMSprop", {"momentum": 0.5}),
    ("Adamax", {}), ("Nadam", {}), ("Adadelta", {"learning_rate": 1.0}),
    ("Ftrl", {}), ("Lion", {}), ("Lamb", {}), ("Adafactor", {}),
    ("Adam", {"gradient_accumulation_steps": 2}),
    ("Adam", {"clipnorm": 0.5}), ("Adagrad", {"global_clipnorm": 0.3}),
])
def test_row_gradients_equal_dense_gradients(name, kwargs):
    rng = np.random.default_rng(0)
    table = rng.normal(size=(6, 3)).astype("float32")
    sparse_var, dense_var = kerasish.Variable(table.copy()), \
        kerasish.Variable(table.copy())
    sparse_opt = getattr(optimizers, name)(**kwargs)
    dense_opt = getattr(optimizers, name)(**kwargs)
    for step in range(3):
        rows = [1, 4, 1] if step != 1 else [0, 5]
        values = rng.normal(size=(len(rows), 3))
        grad = _row_gradient(rows, values, table.shape)
        sparse_opt.apply([grad], [sparse_var])
        dense_opt.apply([grad.to_dense()], [dense_var])
        np.testing.assert_allclose(sparse_var.numpy(), dense_var.numpy(),
                                   rtol=1e-6, atol=1e-7)


def test_exact_row_updates_leave_other_rows_untouched():
    table = np.ones((5, 2), "float32")
    w = kerasish.Variable(table.copy())
    opt = optimizers.Adagrad(learning_rate=0.1)
    opt.apply([_row_gradient([3], [[1.0, -1.0]], table.shape)], [w])
    changed = np.any(w.numpy() != table, axis=1)
    assert changed.tolist() == [False, False, False, True, False]


def test_weight_decay_exclusion_by_name_and_variable():
    kernel, bias = _dense_variables()
    opt = optimizers.AdamW(learning_rate=0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_names=["bias"])
    before = bias.numpy().copy()
    zero = [np.zeros(kernel.shape, "float32"), np.zeros(bias.shape,
                                                         "float32")]
    kernel_before = kernel.numpy().copy()
    opt.apply(zero, [kernel, bias])
    np.testing.assert_array_equal(bias.numpy(), before)
    np.testing.assert_allclose(kernel.numpy(), kernel_before * 0.95,
                               rtol=1e-6)
    # As Keras: later calls still take effect; names are regexes searched
    # in `variable.name`.
    opt.exclude_from_weight_decay(var_names=["^ker", "nothing"])
    bias.assign(np.array([1.0, 2.0], "float32"))
    kernel_before, bias_before = kernel.numpy().copy(), bias.numpy().copy()
    opt.apply(zero, [kernel, bias])
    np.testing.assert_array_equal(kernel.numpy(), kernel_before)
    np.testing.assert_allclose(bias.numpy(), bias_before * 0.95, rtol=1e-6)


def test_constraints_apply_after_the_update():
    w = kerasish.Variable([2.0, -3.0])
    w.constraint = lambda v: kerasish.ops.clip(v, -1.0, 1.0)
    optimizers.SGD(learning_rate=0.1).apply(
        [np.array([1.0, 1.0], "float32")], [w])
    assert w.numpy().tolist() == [1.0, -1.0]


def test_adam_subclass_update_step_is_used():
    # Adam computes its constants once per step for all variables; a
    # subclass's own `update_step` still runs once per variable.
    calls = []

    class Counting(optimizers.Adam):
        def update_step(self, gradient, variable, learning_rate):
            calls.append(variable.path)
            super().update_step(gradient, variable, learning_rate)

    ws = [kerasish.Variable([1.0, 2.0], name="a"),
          kerasish.Variable([3.0], name="b")]
    reference = [kerasish.Variable([1.0, 2.0]), kerasish.Variable([3.0])]
    grads = [np.array([0.5, -1.0], "float32"), np.array([2.0], "float32")]
    counting, plain = Counting(), optimizers.Adam()
    for _ in range(2):
        counting.apply(grads, ws)
        plain.apply(grads, reference)
    assert calls == ["a", "b", "a", "b"]
    for w, r in zip(ws, reference):
        np.testing.assert_array_equal(w.numpy(), r.numpy())


def test_adam_constants_follow_each_variables_dtype():
    # One step over float16 and float32 variables equals one step per
    # variable with its own optimizer: the constants are per dtype.
    grads = [np.array([0.5, -1.0], "float16"), np.array([2.0], "float32")]
    together = [kerasish.Variable([1.0, 2.0], dtype="float16"),
                kerasish.Variable([3.0], dtype="float32")]
    optimizers.Adam(learning_rate=0.1).apply(grads, together)
    for g, w in zip(grads, together):
        alone = kerasish.Variable(np.array([1.0, 2.0] if g.size == 2
                                           else [3.0]), dtype=g.dtype)
        optimizers.Adam(learning_rate=0.1).apply([g], [alone])
        assert w.numpy().dtype == alone.numpy().dtype
        np.testing.assert_array_equal(w.numpy(), alone.numpy())


def test_ema_is_swapped_in_by_finalize_variable_values():
    w = kerasish.Variable([0.0])
    opt = optimizers.SGD(learning_rate=1.0, use_ema=True, ema_momentum=0.5)
    for _ in range(3):
        opt.apply([np.array([-1.0], "float32")], [w])
    assert float(w.numpy()[0]) == 3.0
    opt.finalize_variable_values([w])
    # average: 1 (first step copies), then 0.5*1 + 0.5*2, 0.5*1.5 + 0.5*3
    assert float(w.numpy()[0]) == pytest.approx(2.25)


def test_missing_gradient_warns_and_all_missing_raises():
    a, b = kerasish.Variable([1.0]), kerasish.Variable([1.0])
    opt = optimizers.SGD()
    with pytest.warns(UserWarning, match="Gradients do not exist"):
        opt.apply([np.array([1.0], "float32"), None], [a, b])
    with pytest.raises(ValueError, match="No gradients provided"):
        opt.apply([None, None], [a, b])


def test_unknown_variable_and_wrong_shape_raise():
    a = kerasish.Variable([1.0])
    opt = optimizers.Adam()
    opt.apply([np.array([1.0], "float32")], [a])
    with pytest.raises(ValueError, match="Unknown variable"):
        opt.apply([np.array([1.0], "float32")], [kerasish.Variable([2.0])])
    with pytest.raises(ValueError, match="has shape"):
        opt.apply([np.ones(3, "float32")], [a])


def test_set_weights_checks_count_and_shapes():
    a = kerasish.Variable([1.0, 2.0])
    opt = optimizers.Adam()
    with pytest.raises(ValueError, match="not yet been built"):
        opt.set_weights([])
    opt.build([a])
    with pytest.raises(ValueError, match="variables, but 1 weights"):
        opt.set_weights([np.zeros(())])
    weights = opt.get_weights()
    weights[2] = np.zeros(5)
    with pytest.raises(ValueError, match="has shape"):
        opt.set_weights(weights)


@pytest.mark.parametrize("make, message", [
    (lambda: optimizers.Adam(gradient_accumulation_steps=1),
     "gradient_accumulation_steps"),
    (lambda: optimizers.Adam(clipnorm=1.0, clipvalue=1.0), "Only one of"),
    (lambda: optimizers.Adam(use_ema=True, ema_momentum=1.5),
     "ema_momentum"),
    (lambda: optimizers.Adam(learning_rate="fast"), "learning_rate"),
    (lambda: optimizers.SGD(momentum=2.0), "momentum"),
    (lambda: optimizers.AdamW(weight_decay=None), "weight_decay"),
    (lambda: optimizers.Lion(beta_1=0.0), "beta_1"),
    (lambda: optimizers.Ftrl(learning_rate_power=0.5),
     "learning_rate_power"),
    (lambda: optimizers.Ftrl(initial_accumulator_value=-1.0),
     "initial_accumulator_value"),
    (lambda: optimizers.Ftrl(l1_regularization_strength=-1.0),
     "l1_regularization_strength"),
    (lambda: optimizers.Adam(foo=1), "not recognized"),
])
def test_bad_arguments_raise(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_decay_argument_warns_and_is_ignored():
    with pytest.warns(UserWarning, match="decay"):
        opt = optimizers.SGD(decay=0.1)
    assert "decay" not in opt.get_config()


# Printed by real Keras 3.15.1/JAX for `Muon()` built on the same Dense.
KERAS_MUON = {
    "config": {"learning_rate": 0.0010000000474974513, "weight_decay": 0.004,
               "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
               "use_ema": False, "ema_momentum": 0.99,
               "ema_overwrite_frequency": None, "loss_scale_factor": None,
               "gradient_accumulation_steps": None, "adam_beta_1": 0.9,
               "adam_beta_2": 0.999, "epsilon": 1e-07, "exclude_layers": [],
               "muon_a": 3.4445, "muon_b": -4.775, "muon_c": 2.0315,
               "adam_lr_ratio": 1, "momentum": 0.95, "ns_steps": 5,
               "nesterov": True, "exclude_embeddings": True,
               "adam_weight_decay": 0.004, "rms_rate": 0.2},
    "variables": ["iteration", "learning_rate", "dense_kernel_momentum",
                  "dense_bias_momentum", "dense_bias_velocity"]}


def test_muon_config_and_variables_match_keras():
    opt = optimizers.get("muon")
    opt.build(_dense_variables())
    config = opt.get_config()
    assert config.pop("name") == "muon"
    assert config == KERAS_MUON["config"]
    assert [v.path.split("/")[-1] for v in opt.variables] == \
        KERAS_MUON["variables"]


def test_muon_orthogonalizes_matrix_updates():
    opt = optimizers.Muon(ns_steps=10)
    matrix = np.random.default_rng(0).normal(size=(6, 4)).astype("float32")
    ortho = opt.zeropower_via_newtonschulz5(matrix, opt.ns_steps)
    # Singular values pushed towards 1 (the quintic iteration overshoots
    # slightly by design).
    singular = np.linalg.svd(ortho, compute_uv=False)
    assert np.all((singular > 0.6) & (singular < 1.3))
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        opt.zeropower_via_newtonschulz5(np.ones(3, "float32"), 2)


def test_loss_scale_optimizer_skips_overflow_and_grows_the_scale():
    w = kerasish.Variable([1.0])
    opt = optimizers.LossScaleOptimizer(optimizers.SGD(0.5),
                                        initial_scale=8.0,
                                        dynamic_growth_steps=2)
    opt.apply([np.array([np.nan], "float32")], [w])
    assert (float(opt.dynamic_scale.numpy()), w.numpy().tolist()) == \
        (4.0, [1.0])
    opt.apply([np.array([4.0], "float32")], [w])    # unscaled: 1.0
    assert w.numpy().tolist() == [0.5] and int(opt.step_counter.numpy()) == 1
    opt.apply([np.array([4.0], "float32")], [w])    # second good step
    assert float(opt.dynamic_scale.numpy()) == 8.0
    assert int(opt.iterations) == 2
    assert float(opt.scale_loss(kerasish.ops.convert_to_tensor(1.5))) == 12.0
    opt.learning_rate = 0.25
    assert float(opt.inner_optimizer.learning_rate) == 0.25


def test_loss_scale_optimizer_config_and_arguments():
    opt = optimizers.LossScaleOptimizer(optimizers.Adam(0.01),
                                        initial_scale=64.0)
    clone = optimizers.deserialize(optimizers.serialize(opt))
    assert isinstance(clone.inner_optimizer, optimizers.Adam)
    assert clone.initial_scale == 64.0
    with pytest.raises(ValueError, match="does not support `clipnorm`"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="dynamic=False"):
        optimizers.LossScaleOptimizer(optimizers.SGD(), dynamic=False)


def test_mixed_float16_compile_wraps_the_optimizer():
    kerasish.config.set_dtype_policy("mixed_float16")
    try:
        model = kerasish.Sequential([kerasish.Input((2,)),
                                     kerasish.layers.Dense(1)])
    finally:
        kerasish.config.set_dtype_policy("float32")
    model.compile("sgd", "mse")
    assert isinstance(model.optimizer, optimizers.LossScaleOptimizer)
    history = model.fit(np.ones((8, 2)), np.ones((8, 1)), epochs=2,
                        verbose=0)
    assert np.all(np.isfinite(history.history["loss"]))
    model.compile("sgd", "mse", auto_scale_loss=False)
    assert isinstance(model.optimizer, optimizers.SGD)


@pytest.mark.parametrize("make", [
    lambda: optimizers.Adam(0.1, weight_decay=0.01),
    lambda: optimizers.SGD(0.1, momentum=0.9, use_ema=True),
    lambda: optimizers.LossScaleOptimizer(optimizers.RMSprop(0.1)),
])
def test_stateless_apply_returns_what_apply_would_write(make):
    kernel, bias = _dense_variables()
    opt = make()
    opt.build([kernel, bias])
    grads = [np.full(kernel.shape, 0.5, "float32"),
             np.array([1.0, -2.0], "float32")]
    start_w = [kernel.numpy().copy(), bias.numpy().copy()]
    start_opt = [v.numpy().copy() for v in opt.variables]
    new_w, new_opt = opt.stateless_apply(start_opt, grads, start_w)
    # Nothing changed ...
    for v, before in zip([kernel, bias] + opt.variables, start_w + start_opt):
        np.testing.assert_array_equal(v.numpy(), before)
    # ... and the values are those of a real step.
    opt.apply(grads)
    for v, value in zip([kernel, bias] + opt.variables, new_w + new_opt):
        np.testing.assert_array_equal(v.numpy(), np.asarray(value))


def test_stateless_apply_errors():
    kernel, bias = _dense_variables()
    opt = optimizers.Adam()
    with pytest.raises(ValueError, match="must be built"):
        opt.stateless_apply([], [], [])
    opt.build([kernel, bias])
    with pytest.raises(ValueError, match="1:1 to Adam\\(\\).variables"):
        opt.stateless_apply([], [kernel.numpy()], [kernel.numpy()])
    with pytest.raises(ValueError, match="built with 2 variables"):
        opt.stateless_apply([v.numpy() for v in opt.variables],
                            [kernel.numpy()], [kernel.numpy()])


@pytest.mark.parametrize("make,slot", [
    (lambda: optimizers.RMSprop(0.1, rho=0.9), 0),
    (lambda: optimizers.Adadelta(0.1, rho=0.9), 0),
])
def test_one_minus_rho_is_taken_in_python_first(make, slot):
    # Keras computes `(1 - rho) * g^2` with `1 - rho` a Python float:
    # float32(1 - 0.9) = 0.1, where float32(1) - float32(0.9) is 1 ulp
    # larger (and in bfloat16 far more).
    w = kerasish.Variable(np.zeros(3, "float32"))
    opt = make()
    g = np.array([0.3, -1.7, 2.9], "float32")
    opt.apply([g], [w])
    accumulator = [v for v in opt.variables if v.shape == (3,)][slot]
    np.testing.assert_array_equal(accumulator.numpy(),
                                  np.float32(1 - 0.9) * np.square(g))
