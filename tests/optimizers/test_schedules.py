"""Learning-rate schedules: values, configs and serialization against real
Keras 3.15.1/JAX (`KERAS_SCHEDULES`: each schedule of `SCHEDULES`
evaluated at `STEPS`, 8 significant digits, and its serialized form)."""
import numpy as np
import pytest

import kerasish
from kerasish.optimizers import schedules

STEPS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 20, 33]
SCHEDULES = [
    ("ExponentialDecay", dict(initial_learning_rate=0.1, decay_steps=7,
                              decay_rate=0.8, staircase=True)),
    ("InverseTimeDecay", dict(initial_learning_rate=0.1, decay_steps=3,
                              decay_rate=0.5)),
    ("InverseTimeDecay", dict(initial_learning_rate=0.1, decay_steps=3,
                              decay_rate=0.5, staircase=True)),
    ("PiecewiseConstantDecay", dict(boundaries=[3, 8],
                                    values=[1.0, 0.5, 0.25])),
    ("PolynomialDecay", dict(initial_learning_rate=0.1, decay_steps=10)),
    ("PolynomialDecay", dict(initial_learning_rate=0.1, decay_steps=6,
                             end_learning_rate=0.01, power=2.0,
                             cycle=True)),
    ("CosineDecay", dict(initial_learning_rate=0.1, decay_steps=12,
                         alpha=0.1)),
    ("CosineDecay", dict(initial_learning_rate=0.01, decay_steps=12,
                         warmup_target=0.2, warmup_steps=4)),
    ("CosineDecayRestarts", dict(initial_learning_rate=0.1,
                                 first_decay_steps=4)),
    ("CosineDecayRestarts", dict(initial_learning_rate=0.1,
                                 first_decay_steps=3, t_mul=1.0, m_mul=0.5,
                                 alpha=0.1)),
    ("CosineDecayRestarts", dict(initial_learning_rate=0.1,
                                 first_decay_steps=3, t_mul=1.5,
                                 m_mul=0.8)),
]

KERAS_SCHEDULES = [
 {'values': [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.080000006, 0.080000006,
             0.080000006, 0.080000006, 0.064000003, 0.064000003,
             0.040960003],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'ExponentialDecay',
             'config': {'initial_learning_rate': 0.1,
                        'decay_steps': 7,
                        'decay_rate': 0.8,
                        'staircase': True,
                        'name': 'ExponentialDecay'},
             'registered_name': None}},
 {'values': [0.1, 0.085714288, 0.074999996, 0.06666667, 0.059999999,
             0.054545458, 0.046153851, 0.04285714, 0.039999999,
             0.033333335, 0.028571429, 0.023076925, 0.015384615],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'InverseTimeDecay',
             'config': {'initial_learning_rate': 0.1,
                        'decay_steps': 3,
                        'decay_rate': 0.5,
                        'staircase': False,
                        'name': 'InverseTimeDecay'},
             'registered_name': None}},
 {'values': [0.1, 0.1, 0.1, 0.06666667, 0.06666667, 0.06666667,
             0.050000001, 0.050000001, 0.039999999, 0.033333335,
             0.028571429, 0.025, 0.015384615],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'InverseTimeDecay',
             'config': {'initial_learning_rate': 0.1,
                        'decay_steps': 3,
                        'decay_rate': 0.5,
                        'staircase': True,
                        'name': 'InverseTimeDecay'},
             'registered_name': None}},
 {'values': [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25,
             0.25, 0.25],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'PiecewiseConstantDecay',
             'config': {'boundaries': [3, 8],
                        'values': [1.0, 0.5, 0.25],
                        'name': 'PiecewiseConstant'},
             'registered_name': None}},
 {'values': [0.1, 0.090010002, 0.080020003, 0.070030004, 0.060040005,
             0.050050002, 0.030070001, 0.020079998, 0.010090002,
             9.9999997e-05, 9.9999997e-05, 9.9999997e-05, 9.9999997e-05],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'PolynomialDecay',
             'config': {'initial_learning_rate': 0.1,
                        'decay_steps': 10,
                        'end_learning_rate': 0.0001,
                        'power': 1.0,
                        'cycle': False,
                        'name': 'PolynomialDecay'},
             'registered_name': None}},
 {'values': [0.1, 0.072499998, 0.049999997, 0.032499999, 0.02, 0.0125,
             0.025625002, 0.02, 0.015625, 0.0099999998, 0.0125, 0.0125,
             0.010624999],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'PolynomialDecay',
             'config': {'initial_learning_rate': 0.1,
                        'decay_steps': 6,
                        'end_learning_rate': 0.01,
                        'power': 2.0,
                        'cycle': True,
                        'name': 'PolynomialDecay'},
             'registered_name': None}},
 {'values': [0.1, 0.098466665, 0.093971148, 0.086819813, 0.077500001,
             0.066646867, 0.04335314, 0.032499995, 0.023180196,
             0.010000001, 0.010000001, 0.010000001, 0.010000001],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'CosineDecay',
             'config': {'initial_learning_rate': 0.1,
                        'decay_steps': 12,
                        'alpha': 0.1,
                        'name': 'CosineDecay',
                        'warmup_target': None,
                        'warmup_steps': 0},
             'registered_name': None}},
 {'values': [0.0099999998, 0.057499997, 0.105, 0.1525, 0.2, 0.19659258,
             0.17071068, 0.15000001, 0.12588191, 0.049999993, 0.0034074129,
             0.0, 0.0],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'CosineDecay',
             'config': {'initial_learning_rate': 0.01,
                        'decay_steps': 12,
                        'alpha': 0.0,
                        'name': 'CosineDecay',
                        'warmup_target': 0.2,
                        'warmup_steps': 4},
             'registered_name': None}},
 {'values': [0.1, 0.085355341, 0.049999997, 0.014644662, 0.1, 0.096193977,
             0.069134168, 0.049999997, 0.030865824, 0.1, 0.091573477,
             0.049999997, 0.094096065],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'CosineDecayRestarts',
             'config': {'initial_learning_rate': 0.1,
                        'first_decay_steps': 4,
                        't_mul': 2.0,
                        'm_mul': 1.0,
                        'alpha': 0.0,
                        'name': 'SGDRDecay'},
             'registered_name': None}},
 {'values': [0.1, 0.077500001, 0.032499995, 0.055000003, 0.043749999,
             0.021250004, 0.026875002, 0.015624997, 0.02125, 0.015625,
             0.0128125, 0.010351564, 0.010043945],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'CosineDecayRestarts',
             'config': {'initial_learning_rate': 0.1,
                        'first_decay_steps': 3,
                        't_mul': 1.0,
                        'm_mul': 0.5,
                        'alpha': 0.1,
                        'name': 'SGDRDecay'},
             'registered_name': None}},
 {'values': [0.1, 0.075000003, 0.024999997, 0.080000006, 0.070641778,
             0.04694593, 0.0024122954, 0.063137442, 0.056513425,
             0.016000001, 0.050509956, 0.020180386, 0.016144304],
  'config': {'module': 'keras.optimizers.schedules',
             'class_name': 'CosineDecayRestarts',
             'config': {'initial_learning_rate': 0.1,
                        'first_decay_steps': 3,
                        't_mul': 1.5,
                        'm_mul': 0.8,
                        'alpha': 0.0,
                        'name': 'SGDRDecay'},
             'registered_name': None}}]


@pytest.mark.parametrize("index", range(len(SCHEDULES)))
def test_values_match_keras(index):
    name, kwargs = SCHEDULES[index]
    schedule = getattr(schedules, name)(**kwargs)
    outputs = [schedule(step) for step in STEPS]
    # float32, as Keras's convert_to_tensor of a Python rate (not float64).
    assert {str(np.asarray(out).dtype) for out in outputs} == {"float32"}
    values = [float(out) for out in outputs]
    np.testing.assert_allclose(values, KERAS_SCHEDULES[index]["values"],
                               rtol=2e-6, atol=1e-9)


@pytest.mark.parametrize("index", range(len(SCHEDULES)))
def test_serialization_matches_keras(index):
    name, kwargs = SCHEDULES[index]
    schedule = getattr(schedules, name)(**kwargs)
    serialized = schedules.serialize(schedule)
    assert serialized == KERAS_SCHEDULES[index]["config"]
    restored = schedules.deserialize(serialized)
    assert type(restored) is type(schedule)
    assert restored.get_config() == schedule.get_config()


def test_schedule_drives_the_optimizer_and_is_saved_in_its_config():
    schedule = schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    opt = kerasish.optimizers.SGD(learning_rate=schedule)
    w = kerasish.Variable([0.0])
    rates = []
    for _ in range(3):
        rates.append(float(opt.learning_rate))
        opt.apply([np.array([1.0], "float32")], [w])
    assert rates == pytest.approx([0.1, 0.05, 0.025])
    assert float(w.numpy()[0]) == pytest.approx(-0.175)
    config = opt.get_config()["learning_rate"]
    assert config["class_name"] == "ExponentialDecay"
    clone = kerasish.optimizers.SGD.from_config(opt.get_config())
    assert isinstance(clone._learning_rate, schedules.ExponentialDecay)


def test_schedule_learning_rate_is_not_settable():
    opt = kerasish.optimizers.Adam(
        learning_rate=schedules.CosineDecay(0.1, 10))
    with pytest.raises(TypeError, match="not settable"):
        opt.learning_rate = 0.5


@pytest.mark.parametrize("make, message", [
    (lambda: schedules.ExponentialDecay(0.1, 0, 0.5), "decay_steps"),
    (lambda: schedules.PolynomialDecay(0.1, -1), "decay_steps"),
    (lambda: schedules.CosineDecay(0.1, 0), "decay_steps"),
    (lambda: schedules.CosineDecayRestarts(0.1, 0), "first_decay_steps"),
    (lambda: schedules.PiecewiseConstantDecay([1, 2], [1.0, 0.5]),
     "boundaries should be 1 less"),
])
def test_bad_arguments_raise(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_custom_schedule_subclass_round_trips_with_custom_objects():
    class Halving(schedules.LearningRateSchedule):
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, step):
            return self.rate * 0.5 ** int(step)

        def get_config(self):
            return {"rate": self.rate}

    opt = kerasish.optimizers.SGD(learning_rate=Halving(0.2))
    config = kerasish.optimizers.serialize(opt)
    restored = kerasish.optimizers.deserialize(
        config, custom_objects={"Halving": Halving})
    assert float(restored.learning_rate) == pytest.approx(0.2)
