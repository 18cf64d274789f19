"""Seeds as Keras draws them: unseeded generators and initializers take
their seeds from Python's `random`, and `set_random_seed` resets the global
generator."""
import random

import numpy as np
import pytest

import kerasish as keras
from kerasish.backend import random as krandom

L = keras.layers

# `random.random()` right after building each model under
# `set_random_seed(5)`, measured with Keras 3.15.1/JAX: Keras draws one
# Python seed per unseeded initializer and per SeedGenerator.
KERAS_NEXT_PYTHON_RANDOM = {
    "dense": (lambda: [L.Dense(3)], 0.2554450164868458),
    "dropout": (lambda: [L.Dense(3), L.Dropout(0.5)], 0.7417869892607294),
    "lstm": (lambda: [L.Reshape((4, 1)), L.LSTM(3, dropout=0.2)],
             0.35853551175589526),
    "gru": (lambda: [L.Reshape((4, 1)), L.GRU(3)], 0.35853551175589526),
    "bidirectional": (lambda: [L.Reshape((4, 1)),
                               L.Bidirectional(L.LSTM(3))],
                      0.922324996665417),
    "normalization": (lambda: [L.BatchNormalization(),
                               L.LayerNormalization()],
                      0.6229016948897019),
    "noise": (lambda: [L.GaussianNoise(0.1), L.GaussianDropout(0.1)],
              0.7417869892607294),
    "separable": (lambda: [L.Reshape((2, 2, 1)), L.SeparableConv2D(2, 1),
                           L.DepthwiseConv2D(1), L.Flatten()],
                  0.35853551175589526),
}


@pytest.mark.parametrize("name", sorted(KERAS_NEXT_PYTHON_RANDOM))
def test_building_draws_python_seeds_as_keras(name):
    make_layers, expected = KERAS_NEXT_PYTHON_RANDOM[name]
    keras.utils.set_random_seed(5)
    keras.Sequential([keras.Input((4,))] + make_layers())
    assert random.random() == expected


def test_unseeded_generator_takes_its_seed_from_python_random():
    random.seed(7)
    first = np.asarray(keras.random.normal((4,), seed=krandom.SeedGenerator()))
    random.seed(7)
    again = np.asarray(keras.random.normal((4,), seed=krandom.SeedGenerator()))
    np.testing.assert_array_equal(first, again)
    reference = random.Random(7)
    reference.randint(1, int(1e9))
    random.seed(7)
    krandom.SeedGenerator()
    assert random.random() == reference.random()
    assert krandom.SeedGenerator().get_config() == {"seed": None}


def test_set_random_seed_resets_the_global_generator():
    keras.utils.set_random_seed(3)
    assert krandom.global_generator_state() is None
    first = np.asarray(keras.random.uniform((3,)))
    assert krandom.global_generator_state() is not None
    keras.utils.set_random_seed(3)
    np.testing.assert_array_equal(np.asarray(keras.random.uniform((3,))),
                                  first)
