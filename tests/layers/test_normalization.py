"""Normalization layers: Keras parity, training/inference, moving statistics,
freezing, masks, gradients, configs and bad input.

The UPPER_CASE reference values were produced with Keras 3.15.1 on JAX by
tests/fixtures/gen_layer_refs_part_c.py.
"""
import numpy as np
import pytest

import kerasish
from kerasish import layers, ops
from kerasish.utils import check_grads
from tests.layers.harness import run_layer_test

X = [[[0.001230000052601099, 0.2987459897994995], [-0.2741380035877228,
    -0.8905919790267944], [-0.4546709954738617, -0.9916459918022156]],
    [[0.06014399975538254, 1.3402149677276611], [-0.49220600724220276,
    -0.6204749941825867], [0.4898419976234436, 0.35688701272010803]],
    [[0.1054140031337738, -0.9304680228233337], [-0.029252000153064728,
    0.6953030228614807], [-1.3442139625549316, -0.45761600136756897]],
    [[-1.9012229442596436, -1.289538025856018], [-1.8417350053787231,
    -0.23509100079536438], [-1.2674460411071777, 0.271263986825943]]]
BN_TRAIN = [[[1.2162, -0.1260783], [0.6864886, 0.6446797], [0.3392065,
    0.7101683]], [[1.3295299, -0.8010088], [0.2670022, 0.4696286], [2.1561182,
    -0.163757]], [[1.4166135, 0.6705216], [1.1575633, -0.3830696], [-1.3719622,
    0.3640868]], [[-2.4434519, 0.9032191], [-2.3290181, 0.2198781],
    [-1.2242876, -0.1082684]]]
BN_MOVING_MEAN = [-0.1242519, 0.0855262]
BN_MOVING_VAR = [1.2141166, 1.20186]
BN_INFER = [[[0.2701222, 0.1031563], [-0.1032082, 0.6433494], [-0.3479659,
    0.6892478]], [[0.3499949, -0.3698752], [-0.398854, 0.5206633], [0.9325583,
    0.0767488]], [[0.4113697, 0.661461], [0.2287962, -0.0769585], [-1.5539645,
    0.4466932]], [[-2.30913, 0.8245493], [-2.2284791, 0.3456232], [-1.4498863,
    0.1156385]]]
BN_MASKED = [[[0.7869654, 0.3885564], [0.4100736, -1.2200885], [0.162981,
    -1.3567696]], [[0.8676001, 1.7972002], [0.1116074, -0.8547404], [1.4557209,
    0.4671953]], [[0.9295604, -1.2740231], [0.7452452, 0.9249215], [-1.0545223,
    -0.6344647]], [[-1.8168917, -1.7596848], [-1.7354715, -0.3334875],
    [-0.9494513, 0.3513854]]]
BN_MASKED_MOVING_MEAN = [-0.2868748, 0.0057351]
BN_RENORM = [[[0.00123, 0.298746], [-0.274138, -0.890592], [-0.454671,
    -0.991646]], [[0.060144, 1.340215], [-0.492206, -0.620475], [0.489842,
    0.356887]], [[0.105414, -0.930468], [-0.029252, 0.695303], [-1.344214,
    -0.457616]], [[-1.9012229, -1.289538], [-1.841735, -0.235091], [-1.267446,
    0.271264]]]
BN_RENORM_WEIGHTS = [[-0.0028944, -0.0046102, -0.004247], [0.9982113,
    0.9926752, 0.9928276], [0.9996055, 0.9968326, 0.996909], [-0.0028944,
    -0.0046102, -0.004247], [0.9996055, 0.9968326, 0.996909]]
LN = [[[0.4123083, 1.0216722], [0.2132698, -1.1864375], [-0.1927909,
    -1.9413515]], [[-0.0971822, 1.2148207], [-0.9243735, -1.3425047],
    [0.5894774, 0.3795038]], [[0.316539, -0.6189351], [0.3922477, 1.6468066],
    [-1.9372761, -0.2873999]], [[-0.5299091, -0.2125216], [-0.8876468,
    1.0999926], [-0.3591772, 2.4389873]]]
GN_X4 = [[[0.00123, 0.298746], [-0.274138, -0.890592], [-0.454671, -0.991646],
    [0.00369, 0.896238]], [[0.060144, 1.340215], [-0.492206, -0.620475],
    [0.489842, 0.356887], [0.180432, 4.0206451]], [[0.105414, -0.930468],
    [-0.029252, 0.695303], [-1.344214, -0.457616], [0.316242, -2.791404]],
    [[-1.9012229, -1.289538], [-1.841735, -0.235091], [-1.267446, 0.271264],
    [-5.7036686, -3.8686142]]]
GN = [[[0.4829714, 1.1438706], [-0.1287285, -1.4981136], [-0.4545408,
    -1.2219009], [0.2004764, 1.4759653]], [[-0.0150573, 1.6217737],
    [-0.7213491, -0.8853671], [-0.4826775, -0.5657932], [-0.6761025,
    1.7245736]], [[0.2458245, -1.508356], [0.0177788, 1.2447528], [-0.2372005,
    0.5276267], [1.1951983, -1.4856246]], [[-0.8643781, 0.0404711],
    [-0.7763792, 1.6002867], [0.5957866, 1.2626685], [-1.3268867, -0.5315682]]]
UNIT = [[[0.0008393, 0.2038548], [-0.1870631, -0.6077118], [-0.3102531,
    -0.6766678]], [[0.0359791, 0.8017391], [-0.2944459, -0.3711785],
    [0.2930317, 0.2134958]], [[0.0573588, -0.5062945], [-0.0159169, 0.3783345],
    [-0.7314256, -0.2490021]], [[-0.5894078, -0.3997763], [-0.5709656,
    -0.0728818], [-0.3929274, 0.0840959]]]

X = np.asarray(X, "float32")


def _close(actual, expected, tol=2e-5):
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=tol,
                               atol=tol)


def test_batch_norm_training_inference_and_moving_stats_match_keras():
    bn = layers.BatchNormalization(momentum=0.8, epsilon=0.01)
    bn.build(X.shape)
    bn.gamma.assign(np.array([1.5, -0.5], "float32"))
    bn.beta.assign(np.array([0.1, 0.2], "float32"))
    _close(bn(X, training=True), BN_TRAIN)
    bn(X * 2.0 + 1.0, training=True)
    _close(bn.moving_mean, BN_MOVING_MEAN)
    _close(bn.moving_variance, BN_MOVING_VAR)
    _close(bn(X, training=False), BN_INFER)
    _close(bn(X), BN_INFER)


def test_batch_norm_masked_and_renorm_match_keras():
    mask = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 1, 1]], bool)
    bn = layers.BatchNormalization(momentum=0.5)
    _close(bn(X, training=True, mask=mask), BN_MASKED)
    _close(bn.moving_mean, BN_MASKED_MOVING_MEAN)
    bn = layers.BatchNormalization(axis=1, renorm=True,
                                   renorm_clipping={"rmax": 1.2, "dmax": 0.5})
    _close(bn(X, training=True), BN_RENORM)
    for w, ref in zip(bn.weights[2:], BN_RENORM_WEIGHTS):
        _close(w, ref)
    assert [w.name for w in bn.weights] == [
        "gamma", "beta", "moving_mean", "moving_variance", "moving_stddev",
        "renorm_mean", "renorm_stddev"]


def test_layer_group_and_unit_normalization_match_keras():
    ln = layers.LayerNormalization(axis=[1, 2], epsilon=0.01)
    ln.build(X.shape)
    ln.gamma.assign(np.linspace(0.5, 1.5, 6).reshape(3, 2).astype("float32"))
    _close(ln(X), LN)
    _close(layers.GroupNormalization(groups=2, axis=1, epsilon=0.01)(
        np.asarray(GN_X4, "float32")), GN)
    _close(layers.UnitNormalization(axis=[1, 2])(X), UNIT)


@pytest.mark.parametrize("kwargs,n_train,n_non_train", [
    ({}, 2, 2), ({"axis": 1, "center": False}, 1, 2),
    ({"scale": False, "center": False}, 0, 2),
    ({"renorm": True}, 2, 5)])
def test_batch_norm_harness(kwargs, n_train, n_non_train, tmp_path):
    # Renorm's training output depends on statistics every call updates,
    # so its training gradient is checked separately, with state reset.
    modes = (False,) if kwargs.get("renorm") else (True, False)
    for training in modes:
        run_layer_test(layers.BatchNormalization, kwargs,
                       input_shape=(4, 3, 5), expected_output_shape=(4, 3, 5),
                       expected_num_trainable_weights=n_train,
                       expected_num_non_trainable_weights=n_non_train,
                       call_kwargs={"training": training}, tmp_path=tmp_path)


def test_batch_norm_masked_gradients():
    mask = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 1, 1]], bool)
    run_layer_test(layers.BatchNormalization, {"momentum": 0.5},
                   input_shape=(4, 3, 2), input_data=X,
                   call_kwargs={"training": True, "mask": mask},
                   run_training=False)


def test_batch_norm_renorm_gradients_hold_r_and_d_constant():
    # Renorm's corrections r and d carry no gradient (stop_gradient in the
    # paper and in Keras), so the layer's gradient must equal that of plain
    # batch norm with scale r * gamma and offset d * gamma + beta, r and d
    # frozen at this batch's values.
    bn = layers.BatchNormalization(renorm=True, dtype="float64",
                                   renorm_clipping={"rmax": 1.5, "dmax": 1})
    x = X.astype("float64")
    bn(x)
    bn.renorm_mean.assign([0.3, -0.2])
    bn.renorm_stddev.assign([0.8, 1.3])
    bn.gamma.assign([1.2, -0.7])
    bn.beta.assign([0.1, 0.4])
    mean, var = x.mean(axis=(0, 1)), x.var(axis=(0, 1))
    std = np.sqrt(var + bn.epsilon)
    r = np.clip(std / np.array([0.8, 1.3]), None, 1.5)
    d = np.clip((mean - np.array([0.3, -0.2])) / np.array([0.8, 1.3]), -1, 1)

    def reference(v, gamma, beta):
        m, s2 = ops.moments(v, axes=(0, 1))
        return ops.batch_normalization(v, m, s2, axis=-1, epsilon=bn.epsilon,
                                       scale=gamma * r,
                                       offset=gamma * d + beta)
    check_grads(reference, [x, bn.gamma.numpy(), bn.beta.numpy()])
    u = np.random.default_rng(0).standard_normal(x.shape)
    xv, g, b = (kerasish.Variable(v, dtype="float64")
                for v in (x, bn.gamma.numpy(), bn.beta.numpy()))
    with kerasish.backend.GradientTape() as tape:
        loss = ops.sum(bn(xv, training=True) * u)
    ours = tape.gradient(loss, [xv, bn.gamma, bn.beta])
    with kerasish.backend.GradientTape() as tape:
        ref_loss = ops.sum(reference(xv, g, b) * u)
    theirs = tape.gradient(ref_loss, [xv, g, b])
    for a, e in zip(ours, theirs):
        np.testing.assert_allclose(np.asarray(a), np.asarray(e), rtol=1e-10)


def test_moving_statistics_follow_momentum_in_fit_not_in_predict():
    model = kerasish.Sequential([kerasish.Input((2,)),
                                 layers.BatchNormalization(momentum=0.5)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.array([[1.0, 10.0], [3.0, 30.0]], "float32")
    model.fit(x, x, epochs=1, batch_size=2, verbose=0)
    bn = model.layers[0]
    np.testing.assert_allclose(bn.moving_mean.numpy(), [1.0, 10.0])
    np.testing.assert_allclose(bn.moving_variance.numpy(), [1.0, 50.5])
    model.predict(x, verbose=0)
    model.evaluate(x, x, verbose=0)
    np.testing.assert_allclose(bn.moving_mean.numpy(), [1.0, 10.0])


def test_tracing_never_updates_moving_statistics():
    bn = layers.BatchNormalization()
    inp = kerasish.Input((3,))
    # A custom layer wrapping BN is shape-inferred by tracing in training.
    wrapped = layers.Lambda(lambda x: bn(x, training=True))(inp)
    assert wrapped.shape == (None, 3)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), 0.0)
    np.testing.assert_array_equal(bn.moving_variance.numpy(), 1.0)


def test_frozen_batch_norm_runs_in_inference_mode():
    bn = layers.BatchNormalization()
    bn.build((None, 2))
    bn.trainable = False
    x = np.array([[1.0, 2.0], [3.0, 6.0]], "float32")
    out = bn(x, training=True).numpy()
    np.testing.assert_allclose(out, x / np.sqrt(1.001), rtol=1e-6)
    np.testing.assert_array_equal(bn.moving_mean.numpy(), 0.0)
    assert bn.trainable_weights == []


def test_synchronized_is_accepted():
    bn = layers.BatchNormalization(synchronized=True)
    assert bn.get_config()["synchronized"] is True
    assert bn(np.ones((2, 3), "float32"), training=True).shape == (2, 3)


@pytest.mark.parametrize("build_shape,kwargs,match", [
    ((None, 3), {"axis": 2}, "out of bounds"),
    ((None, None), {}, "known size"),
])
def test_batch_norm_bad_build(build_shape, kwargs, match):
    with pytest.raises(ValueError, match=match):
        layers.BatchNormalization(**kwargs).build(build_shape)


def test_batch_norm_bad_mask_and_renorm_clipping():
    with pytest.raises(ValueError, match="one dimension less"):
        layers.BatchNormalization()(X, training=True,
                                    mask=np.ones((4,), bool))
    with pytest.raises(ValueError, match="invalid keys"):
        layers.BatchNormalization(renorm=True, renorm_clipping={"r": 1})
    with pytest.raises(ValueError, match="rmax should be greater"):
        layers.BatchNormalization(renorm=True,
                                  renorm_clipping={"rmax": 1, "rmin": 2})
    with pytest.raises(ValueError, match="expected axis -1 .* value 4"):
        bn = layers.BatchNormalization()
        bn(np.ones((2, 3, 4), "float32"))
        bn(np.ones((2, 3, 5), "float32"))


@pytest.mark.parametrize("kwargs,n_weights", [
    ({}, 2), ({"axis": [1, 2]}, 2), ({"center": False}, 1),
    ({"scale": False, "center": False}, 0)])
def test_layer_norm_harness(kwargs, n_weights, tmp_path):
    run_layer_test(layers.LayerNormalization, kwargs, input_shape=(2, 3, 4),
                   expected_output_shape=(2, 3, 4),
                   expected_num_trainable_weights=n_weights,
                   tmp_path=tmp_path)


def test_layer_norm_rms_scaling_keeps_only_gamma():
    with pytest.warns(UserWarning, match="deprecated"):
        layer = layers.LayerNormalization(rms_scaling=True)
    x = np.array([[1.0, 3.0]], "float32")
    out = layer(x).numpy()
    np.testing.assert_allclose(out, x / np.sqrt(1.0 + 1e-3), rtol=1e-6)
    assert [w.name for w in layer.weights] == ["gamma"]
    assert layer.get_config()["rms_scaling"] is True


def test_layer_norm_bad_axis():
    with pytest.raises(TypeError, match="axis"):
        layers.LayerNormalization(axis="last")
    with pytest.raises(ValueError, match="out of bounds"):
        layers.LayerNormalization(axis=3)(np.ones((2, 3), "float32"))


@pytest.mark.parametrize("kwargs", [{"groups": 2}, {"groups": -1},
                                    {"groups": 1, "axis": 1}])
def test_group_norm_harness(kwargs, tmp_path):
    run_layer_test(layers.GroupNormalization, kwargs, input_shape=(2, 4, 6),
                   expected_output_shape=(2, 4, 6),
                   expected_num_trainable_weights=2, tmp_path=tmp_path)


def test_group_norm_instance_mode_and_errors():
    layer = layers.GroupNormalization(groups=-1)
    x = np.random.default_rng(0).standard_normal((2, 5, 3)).astype("float32")
    out = layer(x).numpy()
    np.testing.assert_allclose(out.mean(axis=1), 0, atol=1e-5)
    assert layer.groups == 3
    with pytest.raises(ValueError, match="groups"):
        layers.GroupNormalization(groups=0)
    with pytest.raises(ValueError, match="cannot be more than"):
        layers.GroupNormalization(groups=8)(x)
    with pytest.raises(ValueError, match="divisor"):
        layers.GroupNormalization(groups=2)(x)


def test_unit_norm_harness_and_zero_vectors():
    run_layer_test(layers.UnitNormalization, {"axis": -1},
                   input_shape=(3, 4), expected_output_shape=(3, 4))
    out = layers.UnitNormalization()(np.zeros((1, 3), "float32")).numpy()
    np.testing.assert_array_equal(out, 0.0)
    with pytest.raises(TypeError, match="axis"):
        layers.UnitNormalization(axis=1.5)


@pytest.mark.parametrize("cls", [layers.BatchNormalization,
                                 layers.LayerNormalization,
                                 layers.GroupNormalization,
                                 layers.UnitNormalization])
def test_config_keys_match_keras(cls):
    keys = {
        "BatchNormalization": {
            "axis", "momentum", "epsilon", "center", "scale",
            "beta_initializer", "gamma_initializer",
            "moving_mean_initializer", "moving_variance_initializer",
            "beta_regularizer", "gamma_regularizer", "beta_constraint",
            "gamma_constraint", "synchronized", "renorm", "renorm_clipping",
            "renorm_momentum"},
        "LayerNormalization": {
            "axis", "epsilon", "center", "scale", "rms_scaling",
            "beta_initializer", "gamma_initializer", "beta_regularizer",
            "gamma_regularizer", "beta_constraint", "gamma_constraint"},
        "GroupNormalization": {
            "groups", "axis", "epsilon", "center", "scale",
            "beta_initializer", "gamma_initializer", "beta_regularizer",
            "gamma_regularizer", "beta_constraint", "gamma_constraint"},
        "UnitNormalization": {"axis"},
    }[cls.__name__]
    config = cls().get_config()
    assert set(config) == keys | {"name", "trainable", "dtype"}
    assert cls.from_config(config).get_config() == config


def test_rms_normalization_matches_keras(tmp_path):
    # Keras 3.15.1: RMSNormalization()(x) with the default scale of ones.
    x = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], "float32")
    _close(layers.RMSNormalization()(x), [
        [0.462909996509552, 0.925819993019104, 1.3887300491333008],
        [0.3779643774032593, -0.7559287548065186, 1.511857509613037]])
    run_layer_test(layers.RMSNormalization, {"axis": [1, 2]},
                   input_shape=(2, 3, 4), expected_output_shape=(2, 3, 4),
                   expected_num_trainable_weights=1, tmp_path=tmp_path)
    config = layers.RMSNormalization().get_config()
    assert set(config) == {"name", "trainable", "dtype", "axis", "epsilon"}
    layer = layers.RMSNormalization()
    layer(x)
    assert layer.get_config()["axis"] == [-1]
    with pytest.raises(ValueError, match="out of bounds"):
        layers.RMSNormalization(axis=2)(x)


# Three SGD steps of Dense -> BatchNormalization(momentum=0.5) -> Dense in
# Keras (gen_layer_refs_part_c.py::bn_training_reference).
BN_FIT_X = [[2.0409999, -2.556, 0.418], [-0.568, -0.453, -0.216], [-2.02,
    -0.232, -0.865], [3.323, 0.226, -0.353], [-0.281, -0.668, -1.0549999],
    [-0.391, 0.482, -0.239], [0.958, -0.2, 0.024], [1.546, 0.545, -0.505]]
BN_FIT_Y = [[-0.183], [0.541], [1.9349999], [-0.27], [-0.244], [1.002],
    [-0.886], [-0.292]]
BN_FIT_W0 = [[-1.0084019, -0.8205776, -0.6399763, -0.4065325], [-0.2865155,
    -0.0915258, 0.093653, 0.3929181], [0.4277686, 0.6325637, 0.814546,
    0.9873157]]
BN_FIT_W1 = [-1.0, -0.333, 0.333, 1.0]
BN_FIT_W2 = [-0.6791149, -0.2226207, 0.2189407, 0.6598394]
BN_FIT_W3 = [-0.8753104, -0.2910597, 0.2906648, 0.8738988]
BN_FIT_W4 = [-1.2380478, -0.7652037, -0.2043459, 0.4414658]
BN_FIT_W5 = [1.9159355, 1.2176421, 0.7498532, 0.4369302]
BN_FIT_W6 = [[-0.590251], [-0.1926677], [0.1884787], [0.5664358]]
BN_FIT_W7 = [-1.0526457]


def test_batch_norm_training_matches_keras_fit():
    model = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(4),
                                 layers.BatchNormalization(momentum=0.5),
                                 layers.Dense(1)])
    weights = [np.round(np.linspace(-1, 1, int(np.prod(w.shape))), 3)
               .reshape(w.shape).astype("float32") for w in model.weights]
    weights[4] = np.abs(weights[4]) + 0.5
    model.set_weights(weights)
    model.compile(optimizer=kerasish.optimizers.SGD(0.1), loss="mse")
    model.fit(np.asarray(BN_FIT_X, "float32"), np.asarray(BN_FIT_Y,
                                                          "float32"),
              batch_size=8, epochs=3, shuffle=False, verbose=0)
    expected = [BN_FIT_W0, BN_FIT_W1, BN_FIT_W2, BN_FIT_W3, BN_FIT_W4,
                BN_FIT_W5, BN_FIT_W6, BN_FIT_W7]
    for got, want in zip(model.get_weights(), expected):
        _close(got, want, tol=1e-5)


def test_spectral_normalization_matches_keras(tmp_path):
    # Keras 3.15.1: SpectralNormalization(Dense(3, kernel_initializer=
    # "ones"), power_iterations=2), then the vector_u / kernel set below
    # and one training call.
    layer = layers.SpectralNormalization(
        layers.Dense(3, kernel_initializer="ones"), power_iterations=2)
    x = np.arange(8, dtype="float32").reshape(2, 4) / 4
    _close(layer(x), [[1.5] * 3, [5.5] * 3])
    assert [w.path for w in layer.weights] == [
        "spectral_normalization/dense/kernel",
        "spectral_normalization/vector_u", "spectral_normalization/dense/bias"]
    layer.vector_u.assign(np.array([[0.3, -0.5, 0.8]], "float32"))
    layer.layer.kernel.assign(
        np.arange(12, dtype="float32").reshape(4, 3) / 10 - 0.4)
    _close(layer(x, training=True), [
        [0.3520542085170746, 0.4694056510925293, 0.5867570638656616],
        [0.5085227489471436, 0.9388113021850586, 1.3690998554229736]])
    _close(layer.vector_u, [[0.5071547627449036, 0.574709415435791,
                             0.6422640681266785]])
    _close(np.linalg.svd(layer.layer.kernel.numpy(), compute_uv=False)[0],
           1.0, tol=1e-3)
    # Keras stores the kernel under the wrapper and under the layer.
    model = kerasish.Sequential([kerasish.Input((4,)), layer])
    path = str(tmp_path / "sn.weights.h5")
    model.save_weights(path)
    import h5py
    with h5py.File(path) as f:
        group = f["layers/spectral_normalization"]
        assert sorted(group["vars"]) == ["0", "1"]
        assert sorted(group["layer/vars"]) == ["0", "1"]


def test_spectral_normalization_config_gradients_and_errors():
    layer = layers.SpectralNormalization(layers.Dense(2), power_iterations=3)
    layer(np.ones((1, 3), "float32"))
    config = layer.get_config()
    assert config["power_iterations"] == 3
    assert config["layer"]["class_name"] == "Dense"
    clone = layers.SpectralNormalization.from_config(config)
    assert clone.power_iterations == 3 and clone.layer.units == 2
    emb = layers.SpectralNormalization(layers.Embedding(5, 3))
    emb(np.array([[1, 2]]), training=True)
    assert emb.kernel is emb.layer.embeddings
    inner = layers.Dense(2, dtype="float64")
    wrapped = layers.SpectralNormalization(inner, dtype="float64")
    wrapped(np.ones((1, 3)))
    check_grads(wrapped, [np.random.default_rng(0).standard_normal((4, 3))],
                variables=inner.trainable_weights)
    with pytest.raises(ValueError, match="power_iterations"):
        layers.SpectralNormalization(layers.Dense(2), power_iterations=0)
    with pytest.raises(ValueError, match="nor 'embeddings'"):
        layers.SpectralNormalization(layers.ReLU())(np.ones((1, 2)))
