"""Preprocessing layers: Normalization, Rescaling, CategoryEncoding,
Discretization, IntegerLookup, StringLookup, HashedCrossing and the hashes
behind them.

Keras reference values (Keras 3.15.1, JAX) are noted where used; the
FarmHash vectors come from Google's C++ FarmHash through the `pyfarmhash`
bindings (tests/fixtures/gen_farmhash_vectors.py); the HashedCrossing and
strong-hash values are the examples of Keras's and TensorFlow's docs.
"""
import numpy as np
import pytest

import kerasish
from kerasish import layers
from kerasish.backend import farmhash
from tests.layers.harness import run_layer_test

FINGERPRINT64 = [
    ('', 11160318154034397263),
    ('a', 12917804110809363939),
    ('abc', 2640714258260161385),
    ('Hello', 15404698994557526151),
    ('TensorFlow', 4265654129848386254),
    ('2.x', 943390013796179357),
    ('héllo wörld', 9001971122424596627),
    ('xxxxxxxxxxxxxxxx', 3320895591121647644),
    ('yyyyyyyyyyyyyyyyy', 426471879119003573),
    ('zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', 5086449818304071900),
    ('qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq', 11164373249901463617),
    ('wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww', 10288982810780904042),
    ('eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
     11157829891535900755),
    ('rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr',
     2541438898951119077),
    ('ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt',
     14038938803707132464),
    ('01234567890123456789012345678901234567890123456789'
     '01234567890123456789012345678901234567890123456789'
     '012345678901234567890123456789',
     10720775057524481284),
    ('long string long string long string long string long string '
     'long string long string long string long string long string '
     'long string long string long string long string long string '
     'long string long string long string long string long string ',
     14552952381666392067),
]


@pytest.mark.parametrize("text,expected", FINGERPRINT64)
def test_fingerprint64_matches_cpp_farmhash(text, expected):
    assert farmhash.fingerprint64(text) == expected


def test_tensorflow_hash_examples():
    # tf.strings.to_hash_bucket_fast / _strong documentation examples.
    assert [farmhash.fingerprint64(s) % 3
            for s in ["Hello", "TensorFlow", "2.x"]] == [0, 2, 2]
    assert [farmhash.siphash24([1, 2], s) % 3
            for s in ["Hello", "TF"]] == [2, 0]
    # SipHash-2-4 reference vector (key 00..0f, message 00..0e).
    key = [int.from_bytes(bytes(range(8)), "little"),
           int.from_bytes(bytes(range(8, 16)), "little")]
    assert farmhash.siphash24(key, bytes(range(15))) == 0xA129CA6149BE45E5


# -- Normalization ------------------------------------------------------------
def test_normalization_adapt_matches_keras():
    layer = layers.Normalization()
    layer.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
    assert [w.name for w in layer.weights] == ["mean", "variance", "count"]
    np.testing.assert_allclose(layer.adapt_mean.numpy(), [2, 20])
    np.testing.assert_allclose(layer.adapt_variance.numpy(), [1, 100])
    assert layer.count.numpy() == 0 and layer.count.dtype == np.int32
    # Keras: Normalization(axis=(1, 2)).adapt(arange(24).reshape(2, 3, 4))
    layer = layers.Normalization(axis=(1, 2))
    layer.adapt(np.arange(24.0).reshape(2, 3, 4))
    np.testing.assert_allclose(
        layer(np.ones((1, 3, 4))).numpy()[0, 0],
        [-0.8333333, -1.0, -1.1666666, -1.3333334], rtol=1e-6)


def test_normalization_adapt_on_batches_equals_whole_array():
    rng = np.random.default_rng(0)
    data = rng.standard_normal((100, 3)) * [1, 5, 10] + [0, 2, -4]
    whole, batched = layers.Normalization(), layers.Normalization()
    whole.adapt(data)
    batched.adapt([data[:13], data[13:50], data[50:]])
    np.testing.assert_allclose(batched.adapt_mean.numpy(),
                               whole.adapt_mean.numpy(), rtol=1e-6)
    np.testing.assert_allclose(batched.adapt_variance.numpy(),
                               whole.adapt_variance.numpy(), rtol=1e-5)
    np.testing.assert_allclose(whole.adapt_mean.numpy(), data.mean(0),
                               rtol=1e-5)
    gen = ((b, b) for b in (data[:50], data[50:]))
    pairs = layers.Normalization()
    pairs.adapt(gen)
    np.testing.assert_allclose(pairs.adapt_mean.numpy(), data.mean(0),
                               rtol=1e-5)


def test_normalization_given_statistics_invert_and_config():
    layer = layers.Normalization(axis=None, mean=2.0, variance=4.0)
    np.testing.assert_allclose(layer(np.array([4.0])).numpy(), [1.0])
    assert layer.get_config()["axis"] == ()
    assert layer.get_config()["mean"] == 2.0
    inverse = layers.Normalization(mean=[1.0, 2.0], variance=[4.0, 9.0],
                                   invert=True)
    np.testing.assert_allclose(inverse(np.array([[1.0, 1.0]])).numpy(),
                               [[3.0, 5.0]])
    run_layer_test(layers.Normalization,
                   {"mean": [0.5, 1.0, 2.0], "variance": [1.0, 4.0, 0.25]},
                   input_shape=(2, 3), expected_output_shape=(2, 3),
                   expected_num_trainable_weights=0)


def test_normalization_mean_and_variance_attributes():
    # Keras's attributes (the TF tutorials print `normalizer.mean`): the
    # statistics in the inputs' broadcast shape, None before a build.
    layer = layers.Normalization()
    assert layer.mean is None
    layer.adapt(np.array([[1.0, 10.0], [3.0, 30.0]]))
    assert layer.mean.shape == (1, 2) and layer.mean.dtype == "float32"
    np.testing.assert_allclose(layer.mean.numpy(), [[2.0, 20.0]])
    np.testing.assert_allclose(layer.variance.numpy(), [[1.0, 100.0]])
    layer.set_weights([np.array([5.0, 6.0]), np.array([4.0, 9.0]),
                       np.array(0)])
    np.testing.assert_allclose(layer.mean.numpy(), [[5.0, 6.0]])
    given = layers.Normalization(axis=(1, 2), mean=[1.0, 2.0],
                                 variance=[4.0, 9.0])
    assert given.mean is None
    given.build((None, 3, 2))
    assert given.mean.shape == given.variance.shape == (1, 3, 2)
    np.testing.assert_allclose(given.variance.numpy()[0, 2], [4.0, 9.0])


def test_normalization_weights_survive_a_save(tmp_path):
    norm = layers.Normalization()
    norm.adapt(np.array([[0.0, 4.0], [2.0, 8.0]]))
    inp = kerasish.Input((2,))
    model = kerasish.Model(inp, norm(inp))
    path = str(tmp_path / "norm.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    x = np.array([[1.0, 6.0]], "float32")
    np.testing.assert_allclose(loaded.predict(x, verbose=0), [[0.0, 0.0]])


def test_normalization_errors():
    with pytest.raises(ValueError, match="both `mean` and `variance`"):
        layers.Normalization(mean=1.0)
    with pytest.raises(ValueError, match="same shape"):
        layers.Normalization(mean=[1.0, 2.0], variance=[1.0])
    layer = layers.Normalization()
    layer.adapt(np.ones((4, 3)))
    with pytest.raises(ValueError, match="incompatible shape"):
        layer.adapt(np.ones((4, 5)))
    with pytest.raises(ValueError, match="range"):
        layers.Normalization(axis=3).build((None, 2))
    with pytest.raises(ValueError, match="empty"):
        layers.Normalization().adapt([])


# -- Rescaling ----------------------------------------------------------------
def test_rescaling():
    out = run_layer_test(layers.Rescaling, {"scale": 0.5, "offset": -1.0},
                         input_shape=(2, 3), expected_output_shape=(2, 3))
    assert out.dtype == np.float32
    np.testing.assert_allclose(layers.Rescaling(1 / 127.5, offset=-1)(
        np.array([0, 255])).numpy(), [-1, 1], rtol=1e-6)
    per_channel = layers.Rescaling(np.array([1.0, 2.0]))
    np.testing.assert_allclose(per_channel(np.ones((1, 2))).numpy(),
                               [[1, 2]])
    clone = layers.Rescaling.from_config(per_channel.get_config())
    np.testing.assert_array_equal(clone.scale, [1.0, 2.0])


# -- CategoryEncoding ---------------------------------------------------------
def test_category_encoding_modes():
    x = np.array([[0, 1, 1], [3, 3, 3]])
    np.testing.assert_array_equal(
        layers.CategoryEncoding(4)(x).numpy(), [[1, 1, 0, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(
        layers.CategoryEncoding(4, output_mode="count")(x).numpy(),
        [[1, 2, 0, 0], [0, 0, 0, 3]])
    np.testing.assert_array_equal(
        layers.CategoryEncoding(4, output_mode="one_hot")(
            np.array([[2], [0]])).numpy(), [[0, 0, 1, 0], [1, 0, 0, 0]])
    weighted = layers.CategoryEncoding(3, output_mode="count")(
        np.array([[0, 0, 2]]), count_weights=np.array([[0.5, 0.25, 2.0]]))
    np.testing.assert_allclose(weighted.numpy(), [[0.75, 0, 2.0]])
    assert layers.CategoryEncoding(3)(np.array(1)).shape == (3,)
    inp = kerasish.Input((5,), dtype="int32")
    assert layers.CategoryEncoding(7)(inp).shape == (None, 7)
    assert layers.CategoryEncoding(7, output_mode="one_hot")(
        kerasish.Input((1,), dtype="int32")).shape == (None, 7)


def test_category_encoding_errors_and_config():
    with pytest.raises(ValueError, match="num_tokens must be set"):
        layers.CategoryEncoding()
    with pytest.raises(ValueError, match="Unknown arg for output_mode"):
        layers.CategoryEncoding(3, output_mode="tf_idf")
    with pytest.raises(ValueError, match=r"outside \[0, 3\)"):
        layers.CategoryEncoding(3)(np.array([[0, 3]]))
    with pytest.raises(ValueError, match="count_weights"):
        layers.CategoryEncoding(3)(np.array([[0]]),
                                   count_weights=np.array([[1.0]]))
    config = layers.CategoryEncoding(3, output_mode="binary").get_config()
    assert config["output_mode"] == "multi_hot"
    assert set(config) == {"name", "trainable", "dtype", "num_tokens",
                           "output_mode"}


# -- Discretization -----------------------------------------------------------
def test_discretization_boundaries_and_modes():
    layer = layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])
    np.testing.assert_array_equal(
        layer(np.array([[-1.5, 1.0, 3.4, 0.5]])).numpy(), [[0, 2, 3, 1]])
    x = np.array([[-1.0, 0.5, 2.0, 0.7]])
    # Keras: Discretization(bin_boundaries=[0., 1.], output_mode=m)(x)
    expected = {"one_hot": [[[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0]]],
                "multi_hot": [[1, 1, 1]], "count": [[1, 2, 1]]}
    for mode, values in expected.items():
        layer = layers.Discretization(bin_boundaries=[0.0, 1.0],
                                      output_mode=mode)
        np.testing.assert_array_equal(layer(x).numpy(), values)
        assert layer(x).dtype == np.float32
    layer = layers.Discretization(bin_boundaries=[0.0, 1.0],
                                  output_mode="multi_hot")
    assert layer(kerasish.Input((4,))).shape == (None, 3)


def test_discretization_adapt_matches_keras():
    # Keras: update_state per batch then finalize_state (adapt's loop).
    layer = layers.Discretization(num_bins=4, epsilon=0.01)
    layer.adapt(np.arange(100.0))
    np.testing.assert_allclose(layer.bin_boundaries,
                               [23.999982833862305, 48.99998092651367,
                                73.99998474121094], rtol=1e-6)
    data = np.random.default_rng(0).standard_normal(1000) * 3
    layer = layers.Discretization(num_bins=5, epsilon=0.05)
    layer.adapt(data)
    np.testing.assert_allclose(layer.bin_boundaries, [
        -2.5488173961639404, -0.9143986701965332, 0.5280628800392151,
        2.3131487369537354], rtol=1e-5)
    layer.adapt([data[:300], data[300:]])
    np.testing.assert_allclose(layer.bin_boundaries, [
        -2.4898476600646973, -0.8975730538368225, 0.6057299971580505,
        2.531198263168335], rtol=1e-5)
    clone = layers.Discretization.from_config(layer.get_config())
    assert clone.bin_boundaries == layer.bin_boundaries


def test_discretization_errors():
    with pytest.raises(ValueError, match="either `num_bins` or"):
        layers.Discretization()
    with pytest.raises(ValueError, match="should not be set"):
        layers.Discretization(bin_boundaries=[0.0], num_bins=2)
    with pytest.raises(ValueError, match="Cannot adapt"):
        layers.Discretization(bin_boundaries=[0.0]).adapt(np.ones(3))
    with pytest.raises(ValueError, match="call `adapt"):
        layers.Discretization(num_bins=3)(np.ones(3))
    with pytest.raises(ValueError, match="output_mode"):
        layers.Discretization(num_bins=3, output_mode="bad")


def test_count_weights_must_match_the_ids():
    layer = layers.CategoryEncoding(3, output_mode="count")
    ids = np.array([[0, 1], [2, 2]])
    with pytest.raises(ValueError, match=r"one count weight per id: "
                       r"`count_weights` has shape \(2, 5\) and the inputs "
                       r"have shape \(2, 2\)"):
        layer(ids, count_weights=np.ones((2, 5)))
    out = layer(ids, count_weights=np.array([[1.0, 2.0], [3.0, 4.0]]))
    np.testing.assert_array_equal(np.asarray(out), [[1, 2, 0], [0, 0, 7]])


def test_discretization_rejects_strings():
    layer = layers.Discretization(bin_boundaries=[1.0])
    with pytest.raises(ValueError, match=r"buckets numbers; it received "
                       r"inputs of dtype <U1 and shape \(1, 1\)"):
        layer(np.array([["a"]]))


def test_normalization_adapt_rejects_strings():
    with pytest.raises(ValueError, match=r"adapts to numbers; it received "
                       r"data of dtype <U1 and shape \(2,\)"):
        layers.Normalization().adapt(np.array(["a", "b"]))
