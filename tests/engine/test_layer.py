import numpy as np
import pytest

import kerasish
from kerasish import layers, ops


class Scale(layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],),
                                 initializer="ones", name="w")
        self.count = self.add_weight(shape=(), initializer="zeros",
                                     trainable=False, name="count")

    def call(self, x, training=None):
        if training:
            self.count.assign_add(1.0)
        return x * self.w * self.factor


def test_build_on_first_call_and_weights_lists():
    layer = Scale()
    assert not layer.built and layer.weights == []
    out = layer(np.ones((2, 3), "float32"))
    assert layer.built
    np.testing.assert_allclose(out.numpy(), 2 * np.ones((2, 3)))
    assert [w.name for w in layer.weights] == ["w", "count"]
    assert [w.name for w in layer.trainable_weights] == ["w"]
    assert [w.name for w in layer.non_trainable_weights] == ["count"]
    assert layer.count_params() == 4


def test_get_set_weights_and_errors():
    layer = Scale()
    layer(np.ones((1, 3), "float32"))
    layer.set_weights([np.array([1, 2, 3], "float32"), np.array(5.0)])
    np.testing.assert_array_equal(layer.get_weights()[0], [1, 2, 3])
    with pytest.raises(ValueError, match="expecting 2 weights"):
        layer.set_weights([np.ones(3)])
    with pytest.raises(ValueError, match=r"weight shape \(3,\)"):
        layer.set_weights([np.ones(4), np.array(1.0)])


def test_trainable_flag_hides_trainable_weights():
    layer = Scale()
    layer(np.ones((1, 3), "float32"))
    layer.trainable = False
    assert layer.trainable_weights == []
    assert len(layer.non_trainable_weights) == 2


def test_auto_config_round_trip_for_custom_layer():
    layer = Scale(factor=3.0, name="scaler")
    config = layer.get_config()
    assert config["factor"] == 3.0 and config["name"] == "scaler"
    clone = Scale.from_config(config)
    assert clone.factor == 3.0 and clone.name == "scaler"


class _Defaults(layers.Layer):
    def __init__(self, units=2, act="relu", **kwargs):
        super().__init__(**kwargs)
        self.units = units


class _NoName(layers.Layer):
    def __init__(self, k=1):
        super().__init__()


class _VarArgs(layers.Layer):
    def __init__(self, a, *rest, **kwargs):
        super().__init__(**kwargs)


class _ObjectDefault(layers.Layer):
    def __init__(self, init=kerasish.initializers.Zeros(), **kwargs):
        super().__init__(**kwargs)


def test_auto_config_matches_keras():
    # Key sets as Keras 3.15 gives them (checked against it).
    config = _Defaults(name="w").get_config()
    assert sorted(config) == ["act", "dtype", "name", "trainable", "units"]
    assert (config["units"], config["act"]) == (2, "relu")
    assert _Defaults.from_config(_Defaults(5).get_config()).units == 5
    # `__init__` without `name` or `**kwargs`: the config has no name.
    config = _NoName().get_config()
    assert "name" not in config and config["k"] == 1
    assert sorted(_VarArgs(1).get_config()) == ["a", "dtype", "name",
                                                 "trainable"]
    with pytest.raises(NotImplementedError, match="_VarArgs was created by "
                       "passing positional only or variadic positional"):
        _VarArgs(1, 2).get_config()
    with pytest.raises(NotImplementedError, match="_ObjectDefault was "
                       "created by passing non-serializable argument"):
        _ObjectDefault().get_config()


class _OtherKwargsName(layers.Layer):
    def __init__(self, units=3, **kw):
        super().__init__(**kw)
        self.units = units


def test_auto_config_drops_name_unless_kwargs_is_spelled_kwargs():
    # Keras 3.15 keeps `name` only for an `__init__` with a `name` argument
    # or a `**kwargs` spelled exactly so: under `**kw` the config has none.
    config = _OtherKwargsName(units=5, name="x").get_config()
    assert sorted(config) == ["dtype", "trainable", "units"]
    assert _OtherKwargsName.from_config(config).units == 5


def test_unique_automatic_names():
    a, b, c = layers.Dense(1), layers.Dense(1), layers.Dense(1, name="x")
    d = layers.Dense(1)
    assert [a.name, b.name, c.name, d.name] == ["dense", "dense_1", "x",
                                                  "dense_2"]
    assert layers.BatchNormalization().name == "batch_normalization" \
        if hasattr(layers, "BatchNormalization") else True


def test_training_flag_propagates_to_inner_layers():
    seen = []

    class Probe(layers.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Probe()

        def call(self, x):
            return self.inner(x)

    outer = Outer()
    outer(np.ones(2, "float32"), training=True)
    outer(np.ones(2, "float32"))
    assert seen == [True, None]


def test_sublayers_in_lists_are_tracked():
    class Block(layers.Layer):
        def __init__(self):
            super().__init__()
            self.parts = [layers.Dense(2), layers.Dense(2)]
            self.parts.append(layers.Dense(1))

        def call(self, x):
            for part in self.parts:
                x = part(x)
            return x

    block = Block()
    block(np.ones((1, 3), "float32"))
    assert len(block.weights) == 6


def test_add_loss_and_regularization_losses():
    class WithLoss(layers.Layer):
        def call(self, x):
            self.add_loss(ops.sum(x))
            return x

    layer = WithLoss()
    layer(np.ones(3, "float32"))
    assert float(layer.losses[0]) == 3.0
    layer(np.ones(2, "float32"))
    assert len(layer.losses) == 1 and float(layer.losses[0]) == 2.0
    dense = layers.Dense(2, kernel_regularizer=kerasish.regularizers.L2(0.5))
    dense(np.ones((1, 2), "float32"))
    expected = 0.5 * np.sum(dense.kernel.numpy() ** 2)
    np.testing.assert_allclose(float(dense.losses[0]), expected, rtol=1e-6)


def test_add_loss_flattens_structures_and_rejects_non_tensors():
    # Keras 3.15: add_loss([a, b]) adds two losses; a Python float or a
    # numpy value raises ValueError ("can only be called ... on a tensor").
    class Adds(layers.Layer):
        def __init__(self, make, **kwargs):
            super().__init__(**kwargs)
            self.make = make

        def call(self, x):
            self.add_loss(self.make(x))
            return x

    layer = Adds(lambda x: [ops.sum(x), {"m": ops.mean(x)}])
    layer(np.ones((2, 2), "float32"))
    assert [float(v) for v in layer.losses] == [4.0, 1.0]
    for bad in (0.5, np.float32(0.5)):
        with pytest.raises(ValueError, match="on a tensor input"):
            Adds(lambda x, bad=bad: bad)(np.ones((2, 2), "float32"))


def test_frozen_weights_add_no_regularization_loss():
    # Keras regularizes `trainable_weights` only: freezing a regularized
    # layer (transfer learning) drops its penalty from the training loss.
    dense = layers.Dense(2, kernel_regularizer="l2", bias_regularizer="l1")
    model = kerasish.Sequential([kerasish.Input((2,)), dense,
                                 layers.Dense(1, kernel_regularizer="l2")])
    assert len(model.losses) == 3
    dense.trainable = False
    assert len(model.losses) == 1
    np.testing.assert_allclose(
        float(model.losses[0]),
        0.01 * np.sum(model.layers[1].kernel.numpy() ** 2), rtol=1e-6)
    shared = layers.Dense(2, kernel_regularizer="l2")
    twice = kerasish.Sequential([kerasish.Input((2,)), shared, shared])
    assert len(twice.losses) == 1    # a shared variable counts once


def test_variable_paths_follow_name_scopes():
    class Outer(kerasish.Model):
        def __init__(self):
            super().__init__(name="outer")
            self.d = layers.Dense(2, name="d")

        def call(self, x):
            return self.d(x)

    model = Outer()
    model(np.ones((1, 3), "float32"))
    assert [w.path for w in model.weights] == ["outer/d/kernel",
                                               "outer/d/bias"]


def test_variable_paths_when_first_called_on_an_input():
    # As in Keras: a layer whose sublayers are built inside `call` gives
    # them its own path on a symbolic first call too.
    class Block(layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.d = layers.Dense(2, name="d")

        def call(self, x):
            return self.d(x)

    inputs = kerasish.Input((3,))
    block = Block(name="block")
    model = kerasish.Model(inputs, block(inputs))
    assert [w.path for w in model.weights] == ["block/d/kernel",
                                               "block/d/bias"]
    model.compile("adam", "mse")
    model.optimizer.build(model.trainable_variables)
    assert "adam/block_d_kernel_momentum" in [
        v.path for v in model.optimizer.variables]


def test_masks_propagate_through_supporting_layers():
    class MakeMask(layers.Layer):
        def call(self, x):
            return x

        def compute_mask(self, x, mask=None):
            return ops.not_equal(x[..., 0], 0)

    class UseMask(layers.Layer):
        def __init__(self):
            super().__init__()
            self.supports_masking = True

        def call(self, x, mask=None):
            self.got = None if mask is None else np.asarray(mask)
            return x

    x = np.array([[[1.0], [0.0]]], "float32")
    user = UseMask()
    out = layers.Dense(1)(MakeMask()(x))
    user(out)
    np.testing.assert_array_equal(user.got, [[True, False]])


def test_unknown_constructor_argument_is_rejected():
    with pytest.raises(ValueError, match="Unrecognized keyword arguments "
                                         "passed to Dense: {'bogus': 1}"):
        layers.Dense(2, bogus=1)


def test_input_shape_argument_warns_like_keras():
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`"):
        model = kerasish.Sequential([layers.Dense(2, input_shape=(3,))])
    assert model.built and model.input_shape == (None, 3)


def test_custom_layer_without_compute_output_shape_is_traced():
    class Twice(layers.Layer):
        def call(self, x):
            return ops.concatenate([x, x], axis=-1)

    x = kerasish.Input((None, 3))
    y = Twice()(x)
    assert y.shape == (None, None, 6)


def test_default_compute_output_shape_takes_shapes():
    class Head(layers.Layer):
        def call(self, x):
            return x[:, :2]

    class Sum(layers.Layer):
        def call(self, xs):
            return xs[0] + xs[1]

    assert Head().compute_output_shape((None, 5)) == (None, 2)
    assert Head().compute_output_shape([None, 5]) == (None, 2)
    assert Sum().compute_output_shape([(None, 4), (None, 4)]) == (None, 4)
    assert layers.Lambda(lambda x: x * 2).compute_output_shape((7, 3)) == (7, 3)


class _Counter(layers.Layer):
    """Counts its calls and keeps a running mean of what it sees."""

    def build(self, input_shape):
        self.n = self.add_weight(shape=(), initializer="zeros",
                                 trainable=False, name="n")
        self.m = self.add_weight(shape=(input_shape[-1],),
                                 initializer="ones", trainable=False,
                                 name="m")

    def call(self, x):
        self.n.assign_add(1.0)
        self.m.assign(0.5 * self.m + 0.5 * ops.mean(x, axis=0))
        return x * 2


@pytest.mark.parametrize("nested", [False, True])
def test_a_call_on_inputs_changes_no_variable(nested):
    # Keras infers shapes in a StatelessScope: numbers as in Keras 3.
    counter = _Counter()
    inputs = kerasish.Input((2,))
    if nested:      # built inside another layer's symbolic call
        outer = kerasish.Sequential([counter])
        outputs = outer(inputs)
    else:
        outputs = counter(inputs)
    assert counter.n.numpy() == 0.0
    np.testing.assert_array_equal(counter.m.numpy(), [1.0, 1.0])
    model = kerasish.Model(inputs, outputs)
    model.predict(np.full((4, 2), 4.0, "float32"), verbose=0)
    assert counter.n.numpy() == 1.0
    np.testing.assert_array_equal(counter.m.numpy(), [2.5, 2.5])


def test_trace_gives_unknown_axes_room_for_constants():
    # Unknown non-batch axes are traced at Keras's sizes (83, 89): indices
    # and kernels up to 82 fit, as in Keras. The batch axis stays small.
    seen = []

    class Probe(kerasish.layers.Layer):
        def call(self, x):
            seen.append(tuple(x.shape))
            return kerasish.ops.take(x, [4, 0], axis=1)

    class Patches(kerasish.layers.Layer):
        def call(self, x):
            return kerasish.ops.image.extract_patches(x, 4)

    class First4(kerasish.layers.Layer):
        def call(self, x):
            return x[:, :4]

    seq = kerasish.Input((None, 8))
    assert Probe()(seq).shape == (None, 2, 8)
    assert seen == [(3, 83, 8), (5, 89, 8)]
    assert Patches()(kerasish.Input((None, None, 3))).shape == \
        (None, None, None, 48)
    assert First4()(seq).shape == (None, 4, 8)


def test_layers_built_while_tracing_record_symbolic_shapes(capsys):
    # As Keras: a sublayer built during shape inference records
    # `(None, 4)`, not the placeholder batch.
    class Block(kerasish.layers.Layer):
        def __init__(self):
            super().__init__()
            self.dense = kerasish.layers.Dense(3)

        def call(self, x):
            return self.dense(x)

    block = Block()
    block(kerasish.Input((4,)))
    assert block.dense.get_build_config() == {"input_shape": (None, 4)}

    class Net(kerasish.Model):
        def __init__(self):
            super().__init__()
            self.dense = kerasish.layers.Dense(3)

        def call(self, x):
            return self.dense(x)

    net = Net()
    net.build((None, 4))
    assert net.get_build_config() == {"input_shape": (None, 4)}
    net.summary()
    assert "(None, 3)" in capsys.readouterr().out


# get_build_config() after one call, as Keras 3.15 gives it: layers Keras
# builds at construction record nothing, the others their input shape (a
# tuple).
_X2 = np.ones((2, 4), "float32")
_X3 = np.ones((2, 4, 3), "float32")
BUILD_CONFIGS = [
    (lambda: layers.Activation("relu"), _X2, None),
    (lambda: layers.Dropout(0.1), _X2, None),
    (lambda: layers.ActivityRegularization(), _X2, None),
    (lambda: layers.Masking(), _X3, None),
    (lambda: layers.Permute((2, 1)), _X3, {"input_shape": (2, 4, 3)}),
    (lambda: layers.RepeatVector(2), _X2, {"input_shape": (2, 4)}),
    (lambda: layers.ZeroPadding1D(), _X3, {"input_shape": (2, 4, 3)}),
    (lambda: layers.UpSampling1D(), _X3, {"input_shape": (2, 4, 3)}),
    (lambda: layers.Lambda(lambda t: t), _X2, {"input_shape": (2, 4)}),
    (lambda: layers.Rescaling(2.0), _X2, {"input_shape": (2, 4)}),
    (lambda: layers.Discretization([0.5]), _X2, {"input_shape": (2, 4)}),
    (lambda: layers.Normalization(mean=0.0, variance=1.0), _X2,
     {"input_shape": (2, 4)}),
    (lambda: layers.Add(), [_X2, _X2], {"input_shape": [(2, 4), (2, 4)]}),
]


@pytest.mark.parametrize("index", range(len(BUILD_CONFIGS)))
def test_build_config_as_keras(index):
    make, x, expected = BUILD_CONFIGS[index]
    layer = make()
    layer(x)
    assert layer.get_build_config() == expected
