"""`JaxLayer` and `FlaxLayer`: JAX functions and Flax modules as layers."""
import inspect

import numpy as np

from kerasish.backend import random
from kerasish.backend.common import call_context
from kerasish.engine.layer import Layer
from kerasish.layers.wrappers.foreign import foreign_call
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin
from kerasish import tree


def import_jax():
    try:
        import jax  # lazy: optional dependency
    except ImportError:
        raise ImportError(
            "JaxLayer and FlaxLayer need JAX. Install it with "
            "`pip install kerasish[jax]`.") from None
    return jax


def _signature(fn, fn_name, allowed, required):
    names = list(inspect.signature(fn).parameters)
    for name in required:
        if name not in names:
            raise ValueError(
                f"Missing required argument in `{fn_name}`: `{name}`")
    for name in names:
        if name not in allowed:
            raise ValueError(
                f"Unsupported argument in `{fn_name}`: `{name}`, supported "
                f"arguments are `{'`, `'.join(sorted(allowed))}`")
    return names


def _key(generator):
    """A raw `uint32[2]` JAX PRNG key drawn from a numpy generator."""
    jax = import_jax()
    return jax.numpy.asarray(generator.integers(0, 2 ** 32, size=2,
                                                dtype=np.uint32))


@builtin("keras.layers")
class JaxLayer(Layer):
    """Wrap a JAX model given as functions, with its parameters as weights.

    `call_fn` takes arguments with these exact names (all but `inputs`
    optional): `params` (trainable parameters, a pytree), `state`
    (non-trainable state), `rng` (a PRNG key, passed in training), `inputs`
    and `training`. With `state`, it returns `(outputs, new_state)`.
    Parameters come from `params`/`state`, or from `init_fn(rng, inputs,
    training)` (returning `params`, or `(params, state)`) called at build
    time on ones of the input shape. Each array leaf becomes a variable of
    the layer; the backward pass is `jax.vjp` inside one primitive, so
    kerasish optimizers train the parameters.

    Args:
        call_fn: The model function.
        init_fn: Optional initializer function. Default `None`.
        params: Optional initial parameters (a pytree). Default `None`.
        state: Optional initial state (a pytree). Default `None`.
        seed: Seed of the call-time PRNG keys. Default `None`.
        native_serialization_platforms: Accepted for compatibility (used by
            Keras only to export to TensorFlow). Default `None`.

    Example (needs the `jax` extra, so it is not a doctest; the tests
    run it):

    ```python
    import jax

    def call_fn(params, inputs):
        return jax.numpy.tanh(inputs @ params["w"] + params["b"])

    def init_fn(rng, inputs):
        return {"w": jax.random.normal(rng, (inputs.shape[-1], 2)),
                "b": jax.numpy.zeros((2,))}

    layer = kerasish.layers.JaxLayer(call_fn, init_fn)
    assert layer(np.ones((3, 4), "float32")).shape == (3, 2)
    # Leaves in jax.tree_util order (sorted dict keys): b, then w.
    assert [w.shape for w in layer.trainable_weights] == [(2,), (4, 2)]
    ```
    """

    def __init__(self, call_fn, init_fn=None, params=None, state=None,
                 seed=None, native_serialization_platforms=None, **kwargs):
        import_jax()
        super().__init__(**kwargs)
        self.call_fn, self.init_fn = call_fn, init_fn
        self.native_serialization_platforms = native_serialization_platforms
        self.call_fn_arguments = _signature(
            call_fn, "call_fn", {"params", "state", "rng", "inputs",
                                 "training"}, {"inputs"})
        self.call_fn_has_params = "params" in self.call_fn_arguments
        self.call_fn_has_state = "state" in self.call_fn_arguments
        self.seed_generator = random.SeedGenerator(seed) \
            if "rng" in self.call_fn_arguments else None
        if init_fn is None and params is None and state is None and (
                self.call_fn_has_params or self.call_fn_has_state):
            raise ValueError(
                "`init_fn`, `params` and `state` cannot all be `None` when "
                "`call_fn` takes a `params` or a `state` argument.")
        if init_fn is not None:
            self.init_fn_arguments = _signature(
                init_fn, "init_fn", {"rng", "inputs", "training"},
                {"inputs"})
        self._set_tree("params", None)
        self._set_tree("state", None)
        if params is not None or state is not None:
            self._create_variables(params, trainable=True)
            self._create_variables(state, trainable=False)
            self.built = True

    def _set_tree(self, name, value):
        # Plain attributes: the variables are tracked by `add_weight`, and
        # tracking wrappers would hide the pytree from `jax.tree_util`.
        object.__setattr__(self, name, value)

    def _create_variables(self, values, trainable):
        """Replace every array leaf of `values` by a variable."""
        jax = import_jax()

        def create(value):
            if isinstance(value, (bool, int, float)):
                value = np.asarray(value)
            if not hasattr(value, "shape") or not hasattr(value, "dtype"):
                return value            # configuration, left as is
            value = np.asarray(value)
            dtype = None if value.dtype.kind == "f" else str(value.dtype)
            return self.add_weight(
                shape=value.shape, dtype=dtype, trainable=trainable,
                initializer=lambda shape, dtype=None, v=value: v)
        tree = jax.tree_util.tree_map(create, values)
        self._set_tree("params" if trainable else "state", tree)

    # -- building -------------------------------------------------------------
    def build(self, input_shape):
        if self.params is None and self.state is None and (
                self.call_fn_has_params or self.call_fn_has_state):
            self._initialize_weights(input_shape)

    def _initialize_weights(self, input_shape):
        jax = import_jax()
        inputs = tree.map_shape_structure(
            lambda shape: jax.numpy.ones([1 if d is None else d
                                          for d in shape]), input_shape)
        values = {"rng": self._get_init_rng(), "inputs": inputs,
                  "training": True}
        result = self.init_fn(*[values[n] for n in self.init_fn_arguments])
        params, state = result if self.call_fn_has_state else (result, None)
        self._create_variables(params, trainable=True)
        self._create_variables(state, trainable=False)

    def _get_init_rng(self):
        """The `rng` passed to `init_fn` (override for several keys)."""
        return _key(random.SeedGenerator(None).next())

    def _get_call_rng(self, training):
        """The `rng` passed to `call_fn`: a key in training, else None."""
        return _key(self.seed_generator.next()) if training else None

    # -- calling --------------------------------------------------------------
    def call(self, inputs, training=False):
        jax = import_jax()
        leaves, in_tree = jax.tree_util.tree_flatten(inputs)
        param_vars, param_tree = jax.tree_util.tree_flatten(self.params)
        state = jax.tree_util.tree_map(
            lambda v: jax.numpy.asarray(v._value) if hasattr(v, "_value")
            else v, self.state)
        rng = self._get_call_rng(training) if self.seed_generator else None
        holder = {}

        def model(inputs, params):
            values = {"params": params, "state": state, "rng": rng,
                      "inputs": inputs, "training": training}
            result = self.call_fn(*[values[n]
                                    for n in self.call_fn_arguments])
            out, new_state = result if self.call_fn_has_state else \
                (result, None)
            flat, holder["tree"] = jax.tree_util.tree_flatten(out)
            return flat, new_state

        def run(arrays, need_grad):
            xs = jax.tree_util.tree_unflatten(
                in_tree, [jax.numpy.asarray(a) for a in arrays[:len(leaves)]])
            ps = jax.tree_util.tree_unflatten(
                param_tree, [jax.numpy.asarray(a)
                             for a in arrays[len(leaves):]])
            if not need_grad:
                flat, holder["state"] = model(xs, ps)
                return [np.asarray(o) for o in flat], None
            flat, vjp, holder["state"] = jax.vjp(model, xs, ps, has_aux=True)
            return [np.asarray(o) for o in flat], _jax_backward(jax, vjp)
        outputs = foreign_call(run, list(leaves) + list(param_vars))
        if self.call_fn_has_state and not call_context.in_trace():
            self._assign_state(jax, holder["state"])
        return jax.tree_util.tree_unflatten(holder["tree"], outputs)

    def _assign_state(self, jax, new_state):
        def assign(value, variable):
            if not hasattr(variable, "assign"):
                raise ValueError(
                    "Structure mismatch: the structure of the state returned "
                    "by `call` does not match the structure of the state at "
                    "initialization time.")
            variable.assign(np.asarray(value))
        jax.tree_util.tree_map(assign, new_state, self.state)

    def get_config(self):
        config = super().get_config()
        config.update({
            "call_fn": serialization_lib.serialize_keras_object(self.call_fn),
            "init_fn": serialization_lib.serialize_keras_object(self.init_fn),
            "native_serialization_platforms":
                self.native_serialization_platforms})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        for key in ("call_fn", "init_fn"):
            config[key] = serialization_lib.deserialize_keras_object(
                config[key])
        return cls(**config)


def _jax_backward(jax, vjp):
    """`backward(cotangents, needs)` from a `jax.vjp` function."""
    def backward(cotangents, needs):
        d_inputs, d_params = vjp([jax.numpy.asarray(c) for c in cotangents])
        grads = jax.tree_util.tree_leaves(d_inputs) + \
            jax.tree_util.tree_leaves(d_params)
        return [None if g.dtype == jax.dtypes.float0 else np.asarray(g)
                for g in grads]
    return backward


@builtin("keras.layers")
class FlaxLayer(JaxLayer):
    """Wrap a `flax.linen.Module` as a layer.

    The module's `"params"` collection becomes the trainable weights and
    every other collection (batch statistics, ...) the non-trainable ones,
    updated by each call (`mutable` is everything but `"params"`). Dropout
    keys are passed in training.

    Args:
        module: A `flax.linen.Module` instance.
        method: The method run by the forward pass (default `__call__`): it
            takes `inputs` and optionally `training`.
        variables: Optional initial variables (as returned by
            `module.init`); by default `module.init` runs at build time.

    Example (needs jax and flax, so it is not a doctest; the tests run
    it):

    ```python
    import flax.linen as nn
    layer = kerasish.layers.FlaxLayer(nn.Dense(3))
    assert layer(np.ones((2, 5), "float32")).shape == (2, 3)
    ```
    """

    def __init__(self, module, method=None, variables=None, **kwargs):
        try:
            from flax.linen import DenyList  # lazy: optional dependency
        except ImportError:
            raise ImportError(
                "FlaxLayer needs Flax. Install it with `pip install "
                "kerasish[flax]`.") from None
        self.module, self.method = module, method
        mutable = DenyList(["params"])
        takes_training = "training" in inspect.signature(
            method or module.__call__).parameters

        def call_fn(params, state, rng, inputs, training):
            extra = {"training": training} if takes_training else {}
            return self.module.apply(
                self._params_and_state_to_variables(params, state), inputs,
                rngs=rng, method=self.method, mutable=mutable, **extra)

        def init_fn(rng, inputs, training):
            extra = {"training": training} if takes_training else {}
            return self._variables_to_params_and_state(self.module.init(
                rng, inputs, method=self.method, **extra))
        params, state = self._variables_to_params_and_state(variables)
        super().__init__(call_fn=call_fn, init_fn=init_fn, params=params,
                         state=state, **kwargs)

    def _params_and_state_to_variables(self, params, state):
        return {**(params or {}), **(state or {})}

    def _variables_to_params_and_state(self, variables):
        if variables is None:
            return None, None
        params = {k: v for k, v in variables.items() if k == "params"}
        state = {k: v for k, v in variables.items() if k != "params"}
        return params, state

    def _get_init_rng(self):
        generator = random.SeedGenerator(None).next()
        return {"params": _key(generator), "dropout": _key(generator)}

    def _get_call_rng(self, training):
        return {"dropout": _key(self.seed_generator.next())} if training \
            else {}

    def get_config(self):
        method = self.method
        if getattr(method, "__self__", None) is self.module:
            method = method.__name__    # a bound method, by name
        config = super().get_config()
        del config["call_fn"], config["init_fn"]
        config.update({
            "module": serialization_lib.serialize_keras_object(self.module),
            "method": serialization_lib.serialize_keras_object(method)})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        module = serialization_lib.deserialize_keras_object(config["module"])
        method = config["method"]
        if isinstance(method, str):
            method = getattr(module, method)
        elif method is not None:
            method = serialization_lib.deserialize_keras_object(method)
        config.update(module=module, method=method)
        return cls(**config)
