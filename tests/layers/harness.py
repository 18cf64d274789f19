"""`run_layer_test`: the checks every layer gets (Keras's run_layer_test).

It builds the layer on first call, compares `compute_output_shape` (or the
symbolic output shape) with a real forward pass, round-trips
`from_config(get_config())`, round-trips the weights through a
`.weights.h5` file, and checks gradients in float64 with respect to the
input and every trainable weight.
"""
import numpy as np

import kerasish
from kerasish.utils import check_grads


def _make_input(shape, dtype, rng, input_data):
    if input_data is not None:
        return np.asarray(input_data)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 5, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def run_layer_test(layer_cls, init_kwargs, input_shape,
                   expected_output_shape=None,
                   expected_num_trainable_weights=None,
                   expected_num_non_trainable_weights=None,
                   input_dtype="float32", input_data=None,
                   grad_check=True, grad_wrt_input=True, run_training=True,
                   call_kwargs=None, tmp_path=None, rtol=1e-5, atol=1e-6,
                   seed=0):
    """Run the standard layer checks; returns the layer's output (numpy).

    Args:
        layer_cls: The layer class.
        init_kwargs: Constructor arguments.
        input_shape: Shape of a concrete input batch.
        expected_output_shape: Shape the output must have.
        expected_num_trainable_weights / ..._non_trainable_weights: counts.
        input_dtype / input_data: Input values (random when omitted).
        grad_check: Check VJPs in float64 (input and trainable weights).
        grad_wrt_input: Include the input in the gradient check.
        run_training: Also fit a one-layer functional model for one step.
        call_kwargs: Extra call arguments (e.g. `training=True`).
        tmp_path: Folder for the weights round trip (skipped if None).
    """
    rng = np.random.default_rng(seed)
    call_kwargs = dict(call_kwargs or {})
    x = _make_input(input_shape, input_dtype, rng, input_data)

    layer = layer_cls(**init_kwargs)
    assert not layer.built or not layer.weights, \
        "weights must be created in build(), not __init__()"
    out = np.asarray(layer(x, **call_kwargs))
    assert layer.built
    if expected_output_shape is not None:
        assert out.shape == tuple(expected_output_shape), \
            f"output shape {out.shape} != {expected_output_shape}"
    if expected_num_trainable_weights is not None:
        assert len(layer.trainable_weights) == \
            expected_num_trainable_weights
    if expected_num_non_trainable_weights is not None:
        assert len(layer.non_trainable_weights) == \
            expected_num_non_trainable_weights

    _check_symbolic_shape(layer_cls, init_kwargs, x, out, input_dtype)
    clone = _check_config_round_trip(layer, x, call_kwargs)
    if tmp_path is not None and layer.weights:
        _check_weights_round_trip(layer, clone, x, out, tmp_path,
                                  call_kwargs)
    if grad_check:
        _check_gradients(layer_cls, init_kwargs, layer, x, call_kwargs,
                         grad_wrt_input, rtol, atol, seed)
    if run_training and layer.trainable_weights and \
            np.dtype(out.dtype).kind == "f":
        _check_trains(layer_cls, init_kwargs, layer, x)
    return out


def _check_symbolic_shape(layer_cls, init_kwargs, x, out, input_dtype):
    layer = layer_cls(**init_kwargs)
    symbolic = kerasish.Input(batch_shape=(None,) + x.shape[1:],
                              dtype=str(x.dtype))
    y = layer(symbolic)
    shapes = [t.shape for t in kerasish.tree.flatten(y)]
    actual = [o.shape for o in kerasish.tree.flatten(out)] if isinstance(
        out, (list, tuple)) else [out.shape]
    for sym, real in zip(shapes, actual):
        assert len(sym) == len(real), f"rank {sym} vs {real}"
        for d_sym, d_real in zip(sym[1:], real[1:]):
            assert d_sym is None or d_sym == d_real, \
                f"symbolic shape {sym} disagrees with actual {real}"
    if hasattr(layer, "compute_output_shape"):
        try:
            computed = layer.compute_output_shape(x.shape)
        except NotImplementedError:
            return
        flat = computed if isinstance(computed, list) else [computed]
        if flat and isinstance(flat[0], tuple):
            for c, real in zip(flat, actual):
                assert tuple(d for d in c) == tuple(real) or all(
                    a is None or a == b for a, b in zip(c, real)), \
                    f"compute_output_shape {c} != actual {real}"


def _check_config_round_trip(layer, x, call_kwargs):
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config, "from_config(get_config()) differs"
    from kerasish.saving import (deserialize_keras_object,
                                 serialize_keras_object)
    import json
    json.dumps(serialize_keras_object(layer))
    again = deserialize_keras_object(serialize_keras_object(layer))
    assert type(again) is type(layer)
    clone(x, **call_kwargs)
    assert [w.shape for w in clone.weights] == \
        [w.shape for w in layer.weights]
    return clone


def _check_weights_round_trip(layer, clone, x, out, tmp_path, call_kwargs):
    model = kerasish.Sequential([kerasish.Input(batch_shape=(None,) +
                                                x.shape[1:],
                                                dtype=str(x.dtype)), layer])
    path = str(tmp_path / f"{layer.name}.weights.h5")
    model.save_weights(path)
    other = kerasish.Sequential([kerasish.Input(batch_shape=(None,) +
                                                x.shape[1:],
                                                dtype=str(x.dtype)), clone])
    other.load_weights(path)
    for a, b in zip(layer.get_weights(), clone.get_weights()):
        np.testing.assert_array_equal(a, b)
    if "training" not in call_kwargs:
        np.testing.assert_allclose(np.asarray(clone(x, **call_kwargs)),
                                   np.asarray(layer(x, **call_kwargs)),
                                   rtol=1e-6, atol=1e-6)


def _check_gradients(layer_cls, init_kwargs, layer, x, call_kwargs,
                     wrt_input, rtol, atol, seed):
    if np.dtype(x.dtype).kind != "f":
        wrt_input = False
    kwargs = dict(init_kwargs)
    kwargs["dtype"] = "float64"
    layer64 = layer_cls(**kwargs)
    x64 = x.astype("float64") if np.dtype(x.dtype).kind == "f" else x
    layer64(x64, **call_kwargs)
    layer64.set_weights([w.astype("float64") if w.dtype.kind == "f" else w
                         for w in layer.get_weights()])
    weights = [w for w in layer64.trainable_weights
               if np.dtype(w.dtype).kind == "f"]
    if not weights and not wrt_input:
        return
    check_grads(lambda v: layer64(v, **call_kwargs), [x64],
                wrt=[0] if wrt_input else [], variables=weights,
                rtol=rtol, atol=atol, seed=seed)


def _check_trains(layer_cls, init_kwargs, layer, x):
    inp = kerasish.Input(batch_shape=(None,) + x.shape[1:],
                         dtype=str(x.dtype))
    fresh = layer_cls(**init_kwargs)
    out = fresh(inp)
    if isinstance(out, (list, tuple)):
        out = out[0]
    model = kerasish.Model(inp, out)
    model.compile(optimizer="sgd", loss="mse")
    target = np.asarray(model.predict(x, verbose=0))
    before = [w.copy() for w in model.get_weights()]
    model.fit(x, target + 1.0, epochs=1, batch_size=len(x), verbose=0)
    after = model.get_weights()
    assert any(not np.array_equal(a, b) for a, b in zip(before, after)), \
        "a training step did not change any weight"
