"""Initializers: names, aliases and configs as Keras 3, exact values of the
deterministic ones, statistics of the random ones, seeding, bad input.

STFT reference kernels: Keras 3.15.1 (JAX),
`keras.initializers.STFT(**kwargs)((6, 1, 4))[:, 0, :]`, rounded to 6 dp.
"""
import numpy as np
import pytest

import kerasish
from kerasish import initializers

STFT_CASES = [
    ({},
     [[0.0, 0.0, 0.0, 0.0],
      [0.25231099128723145, 0.1261560022830963, -0.1261560022830963,
       -0.25231099128723145],
      [0.6605600118637085, -0.33028000593185425, -0.33028000593185425,
       0.6605600118637085],
      [0.6605600118637085, -0.6605600118637085, 0.6605600118637085,
       -0.6605600118637085],
      [0.25231099128723145, -0.1261560022830963, -0.1261560022830963,
       0.25231099128723145],
      [0.0, 0.0, -0.0, -0.0]]),
    ({'side': 'imag', 'window': 'hamming', 'periodic': True},
     [[-0.0, -0.0, -0.0, -0.0],
      [-0.0, -0.17386099696159363, -0.17386099696159363, 0.0],
      [-0.0, -0.43184900283813477, 0.43184900283813477, -0.0],
      [-0.0, 0.0, -0.0, 0.0],
      [-0.0, 0.43184900283813477, -0.43184900283813477, -0.0],
      [-0.0, 0.17386099696159363, 0.17386099696159363, 0.0]]),
    ({'window': 'blackman', 'scaling': 'spectrum'},
     [[-0.0, -0.0, -0.0, -0.0],
      [0.09560500085353851, 0.04780200123786926, -0.04780200123786926,
       -0.09560500085353851],
      [0.4043950140476227, -0.20219799876213074, -0.20219799876213074,
       0.4043950140476227],
      [0.4043950140476227, -0.4043950140476227, 0.4043950140476227,
       -0.4043950140476227],
      [0.09560500085353851, -0.04780200123786926, -0.04780200123786926,
       0.09560500085353851],
      [-0.0, -0.0, 0.0, 0.0]]),
    ({'window': None},
     [[1.0, 1.0, 1.0, 1.0],
      [1.0, 0.5, -0.5, -1.0],
      [1.0, -0.5, -0.5, 1.0],
      [1.0, -1.0, 1.0, -1.0],
      [1.0, -0.5, -0.5, 1.0],
      [1.0, 0.5, -0.4999989867210388, -1.0]]),
    ({'window': 'bartlett', 'periodic': True},
     [[0.0, 0.0, 0.0, 0.0],
      [0.22941599786281586, 0.11470799893140793, -0.11470799893140793,
       -0.22941599786281586],
      [0.4588319957256317, -0.22941599786281586, -0.22941599786281586,
       0.4588319957256317],
      [0.68824702501297, -0.68824702501297, 0.68824702501297,
       -0.68824702501297],
      [0.4588319957256317, -0.22941599786281586, -0.22941599786281586,
       0.4588319957256317],
      [0.22941599786281586, 0.11470799893140793, -0.11470799893140793,
       -0.22941599786281586]]),
]
KERAS_NAMES = {
    "Constant", "GlorotNormal", "GlorotUniform", "HeNormal", "HeUniform",
    "Identity", "IdentityInitializer", "LecunNormal", "LecunUniform", "Ones",
    "Orthogonal", "OrthogonalInitializer", "RandomNormal", "RandomUniform",
    "STFT", "STFTInitializer", "TruncatedNormal", "VarianceScaling", "Zeros",
    "constant", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform",
    "identity", "lecun_normal", "lecun_uniform", "normal", "one", "ones",
    "orthogonal", "random_normal", "random_uniform", "stft",
    "truncated_normal", "uniform", "variance_scaling", "zero", "zeros"}
# get_config() of each class with default arguments, from Keras 3.15.1.
KERAS_CONFIGS = {
    "Constant": {"value": 0.0}, "Ones": {}, "Zeros": {},
    "GlorotNormal": {"seed": None, "input_axes": None, "output_axes": None},
    "HeUniform": {"seed": None, "input_axes": None, "output_axes": None},
    "Orthogonal": {"seed": None, "gain": 1.0},
    "RandomNormal": {"seed": None, "mean": 0.0, "stddev": 0.05},
    "RandomUniform": {"seed": None, "minval": -0.05, "maxval": 0.05},
    "TruncatedNormal": {"seed": None, "mean": 0.0, "stddev": 0.05},
    "VarianceScaling": {"seed": None, "scale": 1.0, "mode": "fan_in",
                        "distribution": "truncated_normal",
                        "input_axes": None, "output_axes": None},
    "STFT": {"side": "real", "window": "hann", "periodic": False,
             "scaling": "density"},
}


@pytest.mark.parametrize("name", sorted(KERAS_NAMES))
def test_every_keras_name_resolves(name):
    init = initializers.get(name)
    assert isinstance(init, initializers.Initializer)


@pytest.mark.parametrize("name", sorted(KERAS_CONFIGS))
def test_default_configs_match_keras(name):
    init = getattr(initializers, name)()
    assert init.get_config() == KERAS_CONFIGS[name]
    config = initializers.serialize(init)
    assert config["module"] == "keras.initializers"
    assert config["class_name"] == name
    again = initializers.deserialize(config)
    assert type(again) is type(init)
    assert again.get_config() == init.get_config()


def test_deterministic_initializers():
    np.testing.assert_array_equal(initializers.Zeros()((2, 3)), 0)
    np.testing.assert_array_equal(initializers.Ones()((2,), "float64"), 1)
    np.testing.assert_array_equal(initializers.Constant(3.5)((2, 2)), 3.5)
    np.testing.assert_array_equal(initializers.Identity(gain=2.0)((2, 3)),
                                  [[2, 0, 0], [0, 2, 0]])
    assert initializers.Zeros()((2,), "int32").dtype == np.int32
    with pytest.raises(ValueError, match="2D"):
        initializers.Identity()((2, 2, 2))


@pytest.mark.parametrize("kwargs,expected", STFT_CASES)
def test_stft_matches_keras(kwargs, expected):
    kernel = initializers.STFT(**kwargs)((6, 1, 4), "float32")
    assert kernel.shape == (6, 1, 4) and kernel.dtype == np.float32
    np.testing.assert_allclose(kernel[:, 0, :], expected, atol=3e-6)


def test_stft_bad_arguments():
    with pytest.raises(ValueError, match="side"):
        initializers.STFT(side="both")
    with pytest.raises(ValueError, match="Scaling"):
        initializers.STFT(scaling="power")
    with pytest.raises(ValueError, match="Unknown window"):
        initializers.STFT(window="kaiser_bessel")
    with pytest.raises(ValueError, match="frame_length"):
        initializers.STFT(window=np.ones(3))((4, 1, 3))


@pytest.mark.parametrize("name,std", [
    ("glorot_uniform", np.sqrt(2 / (200 + 300))),
    ("glorot_normal", np.sqrt(2 / (200 + 300))),
    ("he_uniform", np.sqrt(2 / 200)), ("he_normal", np.sqrt(2 / 200)),
    ("lecun_uniform", np.sqrt(1 / 200)), ("lecun_normal", np.sqrt(1 / 200))])
def test_variance_scaling_family_statistics(name, std):
    w = initializers.get(name)((200, 300))
    assert abs(w.mean()) < 0.05 * std
    assert abs(w.std() / std - 1) < 0.03
    if "uniform" in name:
        assert np.abs(w).max() <= std * np.sqrt(3) + 1e-7
    else:   # truncated at two (pre-correction) standard deviations
        assert np.abs(w).max() <= 2 * std / 0.87962566103423978 + 1e-7


def test_random_initializers_statistics():
    w = initializers.RandomNormal(mean=1.0, stddev=2.0, seed=1)((400, 400))
    assert abs(w.mean() - 1) < 0.02 and abs(w.std() - 2) < 0.02
    u = initializers.RandomUniform(-3.0, 1.0, seed=1)((400, 400))
    assert u.min() >= -3 and u.max() < 1 and abs(u.mean() + 1) < 0.02
    t = initializers.TruncatedNormal(stddev=1.0, seed=1)((400, 400))
    assert np.abs(t).max() <= 2.0
    # The std of a standard normal truncated at ±2.
    assert abs(t.std() - 0.87962566103423978) < 0.01


def test_variance_scaling_modes_fans_and_axes():
    conv = initializers.VarianceScaling(scale=2.0, mode="fan_out",
                                        distribution="untruncated_normal",
                                        seed=3)((3, 3, 16, 64))
    assert abs(conv.std() / np.sqrt(2.0 / (9 * 64)) - 1) < 0.03
    assert initializers.compute_fans((3, 3, 16, 64)) == (144, 576)
    assert initializers.compute_fans((5,)) == (5, 5)
    assert initializers.compute_fans((6, 4, 5), input_axes=[0],
                                     output_axes=[1, 2]) == (6, 20)
    with pytest.raises(ValueError, match="scale"):
        initializers.VarianceScaling(scale=0.0)
    with pytest.raises(ValueError, match="mode"):
        initializers.VarianceScaling(mode="fan")
    with pytest.raises(ValueError, match="distribution"):
        initializers.VarianceScaling(distribution="cauchy")


@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (3, 2, 5)])
def test_orthogonal(shape):
    w = initializers.Orthogonal(gain=1.5, seed=0)(shape, "float64")
    flat = w.reshape(-1, shape[-1])
    small = min(flat.shape)
    gram = flat.T @ flat if flat.shape[0] >= flat.shape[1] else \
        flat @ flat.T
    np.testing.assert_allclose(gram, 2.25 * np.eye(small), atol=1e-10)
    with pytest.raises(ValueError, match="two-dimensional"):
        initializers.Orthogonal()((4,))


def test_seeding():
    a = initializers.GlorotUniform(seed=7)((3, 4))
    b = initializers.GlorotUniform(seed=7)((3, 4))
    np.testing.assert_array_equal(a, b)
    unseeded = initializers.RandomNormal()
    # One instance repeats its values (Keras 3: the seed is drawn once).
    np.testing.assert_array_equal(unseeded((5,)), unseeded((5,)))
    kerasish.utils.set_random_seed(3)
    first = initializers.RandomNormal()((5,))
    kerasish.utils.set_random_seed(3)
    np.testing.assert_array_equal(first, initializers.RandomNormal()((5,)))
    with pytest.raises(ValueError, match="seed"):
        initializers.RandomNormal(seed="abc")


def test_get_errors_and_callables():
    with pytest.raises(ValueError, match="Could not interpret initializer"):
        initializers.get("not_an_initializer")

    def custom(shape, dtype=None):
        return np.full(shape, 7.0, dtype)
    assert initializers.get(custom) is custom
    assert isinstance(initializers.get(initializers.Ones), initializers.Ones)
    layer = kerasish.layers.Dense(2, kernel_initializer=custom)
    layer.build((None, 3))
    np.testing.assert_array_equal(layer.kernel.numpy(), 7.0)
