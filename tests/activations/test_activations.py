"""`kerasish.activations`: values against real Keras, gradients, lookup.

Reference values were produced with Keras 3.15.1 on JAX, float32, for the
input `X` below (`keras.activations.<name>(X)`).
"""
import numpy as np
import pytest

import kerasish
from kerasish import activations
from kerasish.utils import check_grads

X = np.array([-3.0, -1.5, -0.5, -0.1, 0.0, 0.3, 0.9, 2.0, 4.5], "float32")
KERAS_VALUES = {
    "relu": [0.0, 0.0, 0.0, 0.0, 0.0, 0.30000001192092896, 0.8999999761581421,
             2.0, 4.5],
    "leaky_relu": [-0.6000000238418579, -0.30000001192092896,
                   -0.10000000149011612, -0.020000001415610313, 0.0,
                   0.30000001192092896, 0.8999999761581421, 2.0, 4.5],
    "relu6": [0.0, 0.0, 0.0, 0.0, 0.0, 0.30000001192092896, 0.8999999761581421,
              2.0, 4.5],
    "elu": [-0.9502129554748535, -0.7768698334693909, -0.39346933364868164,
            -0.09516256302595139, 0.0, 0.30000001192092896, 0.8999999761581421,
            2.0, 4.5],
    "selu": [-1.670568823814392, -1.3658143281936646, -0.6917582154273987,
             -0.16730524599552155, 0.0, 0.3152103126049042, 0.9456309080123901,
             2.1014020442962646, 4.72815465927124],
    "softplus": [0.04858735203742981, 0.20141328871250153, 0.4740769863128662,
                 0.6443966627120972, 0.6931471824645996, 0.8543552756309509,
                 1.2411538362503052, 2.1269280910491943, 4.511047840118408],
    "softsign": [-0.75, -0.6000000238418579, -0.3333333432674408,
                 -0.09090909361839294, 0.0, 0.23076924681663513,
                 0.4736841917037964, 0.6666666865348816, 0.8181818127632141],
    "soft_shrink": [-2.5, -1.0, 0.0, 0.0, 0.0, 0.0, 0.3999999761581421, 1.5,
                    4.0],
    "sparse_plus": [0.0, 0.0, 0.0625, 0.20249998569488525, 0.25,
                    0.42249995470046997, 0.9024999737739563, 2.0, 4.5],
    "silu": [-0.14227762818336487, -0.2736383080482483, -0.1887703388929367,
             -0.04750208184123039, 0.0, 0.172332763671875, 0.6398544907569885,
             1.7615940570831299, 4.450558662414551],
    "squareplus": [0.30277562141418457, 0.5, 0.7807763814926147,
                   0.9512491822242737, 1.0, 1.1611874103546143,
                   1.5465855598449707, 2.4142136573791504, 4.712214469909668],
    "gelu": [-0.0040496960282325745, -0.10021083056926727, -0.1542687714099884,
             -0.04601721838116646, 0.0, 0.1853734254837036, 0.7343458533287048,
             1.9544997215270996, 4.4999847412109375],
    "celu": [-0.9502129554748535, -0.7768698334693909, -0.39346933364868164,
             -0.09516256302595139, 0.0, 0.30000001192092896, 0.8999999761581421,
             2.0, 4.5],
    "tanh": [-0.9950547218322754, -0.9051482081413269, -0.46211716532707214,
             -0.099667988717556, 0.0, 0.2913126051425934, 0.7162978649139404,
             0.9640275835990906, 0.9997531771659851],
    "tanh_shrink": [-2.0049452781677246, -0.5948517918586731,
                    -0.037882834672927856, -0.00033201277256011963, 0.0,
                    0.008687406778335571, 0.18370211124420166,
                    1.0359723567962646, 3.50024676322937],
    "hard_tanh": [-1.0, -1.0, -0.5, -0.10000000149011612, 0.0,
                  0.30000001192092896, 0.8999999761581421, 1.0, 1.0],
    "hard_shrink": [-3.0, -1.5, 0.0, 0.0, 0.0, 0.0, 0.8999999761581421, 2.0,
                    4.5],
    "sigmoid": [0.04742587357759476, 0.18242552876472473, 0.3775406777858734,
                0.47502079606056213, 0.5, 0.5744425058364868,
                0.7109494805335999, 0.8807970285415649, 0.9890130758285522],
    "exponential": [0.049787066876888275, 0.22313016653060913,
                    0.6065306663513184, 0.904837429523468, 1.0,
                    1.3498587608337402, 2.4596030712127686, 7.389056205749512,
                    90.01712799072266],
    "hard_sigmoid": [0.0, 0.25, 0.4166666865348816, 0.4833333492279053, 0.5,
                     0.550000011920929, 0.6500000357627869, 0.8333333730697632,
                     1.0],
    "log_sigmoid": [-3.0485873222351074, -1.7014132738113403,
                    -0.9740769863128662, -0.7443966865539551,
                    -0.6931471824645996, -0.554355263710022,
                    -0.3411538600921631, -0.12692800164222717,
                    -0.011047745123505592],
    "sparse_sigmoid": [0.0, 0.0, 0.25, 0.44999998807907104, 0.5,
                       0.6499999761581421, 0.949999988079071, 1.0, 1.0],
    "hard_silu": [-0.0, -0.375, -0.2083333432674408, -0.04833333566784859, 0.0,
                  0.16500000655651093, 0.5850000381469727, 1.6666667461395264,
                  4.5],
    "linear": [-3.0, -1.5, -0.5, -0.10000000149011612, 0.0, 0.30000001192092896,
               0.8999999761581421, 2.0, 4.5],
    "mish": [-0.14564745128154755, -0.29809969663619995, -0.22074377536773682,
             -0.056788574904203415, 0.0, 0.20800136029720306,
             0.7612059116363525, 1.9439589977264404, 4.498913764953613],
}
KERAS_3_NAMES = {
    "celu", "elu", "exponential", "gelu", "glu", "hard_shrink",
    "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "leaky_relu",
    "linear", "log_sigmoid", "log_softmax", "mish", "relu", "relu6", "selu",
    "sigmoid", "silu", "soft_shrink", "softmax", "softplus", "softsign",
    "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "swish",
    "tanh", "tanh_shrink", "threshold"}


@pytest.mark.parametrize("name", sorted(KERAS_VALUES))
def test_values_match_keras(name):
    out = activations.get(name)(X)
    np.testing.assert_allclose(np.asarray(out), KERAS_VALUES[name],
                               rtol=2e-6, atol=2e-7)
    assert np.asarray(out).dtype == np.float32


def test_argument_variants_match_keras():
    np.testing.assert_allclose(
        activations.gelu(X, approximate=True),
        [-0.003637343645095825, -0.10042843222618103, -0.1542859971523285,
         -0.046017251908779144, 0.0, 0.18537092208862305, 0.7342284917831421,
         1.9545977115631104, 4.49999475479126], rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(
        activations.threshold(X, 0.2, -1.0),
        [-1, -1, -1, -1, -1, 0.3, 0.9, 2.0, 4.5], rtol=1e-6)
    np.testing.assert_allclose(
        activations.relu(X, negative_slope=0.1, max_value=3.0,
                         threshold=0.5),
        [-0.35, -0.2, -0.1, -0.06, -0.05, -0.02, 0.9, 2.0, 3.0], rtol=1e-6)


M = X.reshape(3, 3)


def test_softmax_family_over_axes_matches_keras():
    np.testing.assert_allclose(activations.softmax(M), [
        [0.05661172792315483, 0.2537161707878113, 0.68967205286026],
        [0.2780097723007202, 0.3072483241558075, 0.4147418737411499],
        [0.02462908625602722, 0.0739898607134819, 0.9013810157775879]],
        rtol=1e-6)
    np.testing.assert_allclose(activations.log_softmax(M, axis=0), [
        [-4.227951526641846, -3.6531782150268555, -5.021500587463379],
        [-1.3279513120651245, -2.1531782150268555, -4.221500396728516],
        [-0.3279512822628021, -0.15317822992801666, -0.021500717848539352]],
        rtol=1e-6)
    np.testing.assert_allclose(
        activations.glu(X[:8].reshape(2, 4)),
        [[-1.1326220035552979, -0.7125312089920044],
         [0.0, 0.2642391324043274]], rtol=1e-6, atol=1e-7)
    joint = activations.softmax(M, axis=(0, 1)).numpy()
    np.testing.assert_allclose(joint, np.exp(M) / np.exp(M).sum(),
                               rtol=1e-6)


def test_sparsemax_projects_onto_the_simplex():
    # Keras 3.15 sums the partial sums of the whole support when computing
    # the threshold, so its rows do not sum to 1 once two or more entries
    # are kept; kerasish computes the true projection (Martins & Astudillo,
    # 2016): here [-0.1, 0, 0.3] -> tau = -4/15.
    out = activations.sparsemax(M).numpy()
    np.testing.assert_allclose(out[1], [1 / 6, 4 / 15, 17 / 30], rtol=1e-6)
    np.testing.assert_allclose(out[[0, 2]], [[0, 0, 1], [0, 0, 1]])
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, rtol=1e-6)
    col = activations.sparsemax(M, axis=0).numpy()
    np.testing.assert_allclose(col.sum(axis=0), 1.0, rtol=1e-6)


SMOOTH = ["elu", "selu", "softplus", "softsign", "silu", "squareplus", "gelu",
          "celu", "tanh", "tanh_shrink", "sigmoid", "exponential",
          "log_sigmoid", "mish", "linear", "relu", "leaky_relu", "relu6",
          "soft_shrink", "sparse_plus", "hard_tanh", "hard_shrink",
          "hard_sigmoid", "sparse_sigmoid", "hard_silu"]


@pytest.mark.parametrize("name", SMOOTH)
def test_gradients(name):
    # Points away from every kink (0, ±0.5, ±1, ±3, 6).
    x = np.array([-4.2, -2.2, -0.8, -0.3, 0.2, 0.7, 1.6, 4.1, 7.3])
    check_grads(activations.get(name), [x], rtol=1e-6)


@pytest.mark.parametrize("name", ["softmax", "log_softmax", "sparsemax",
                                  "glu"])
def test_axis_activation_gradients(name):
    x = np.random.default_rng(3).standard_normal((4, 4))
    check_grads(lambda v: activations.get(name)(v, axis=0), [x], rtol=1e-6)
    check_grads(activations.get(name), [x], rtol=1e-6)


def test_relu_gradient_at_zero_is_zero():
    v = kerasish.Variable(np.zeros(3))
    with kerasish.backend.GradientTape() as tape:
        y = kerasish.ops.sum(activations.relu(v))
    np.testing.assert_array_equal(tape.gradient(y, v), [0, 0, 0])


def test_every_keras_activation_is_resolvable_and_serializes_by_name():
    assert set(activations.ALL_OBJECTS_DICT) == KERAS_3_NAMES
    for name in KERAS_3_NAMES:
        fn = activations.get(name)
        assert activations.get(activations.serialize(fn)) is fn
    assert activations.serialize(activations.swish) == "silu"
    assert activations.get(None) is activations.linear


def test_unknown_and_bad_inputs_raise_clear_errors():
    with pytest.raises(ValueError, match="Could not interpret activation"):
        activations.get("not_an_activation")
    with pytest.raises(ValueError, match="divisible by 2"):
        activations.glu(np.ones((2, 3), "float32"))


def test_integer_inputs_are_cast_to_float():
    out = activations.gelu(np.array([1, 2]))
    assert np.asarray(out).dtype == np.float32
