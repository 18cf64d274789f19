"""Keras's per-layer saving hooks, mixed into `Layer`.

`.keras` and `.weights.h5` saving call `save_own_variables(store)` on every
layer and `load_own_variables(store)` on loading, so a layer that keeps
state outside its variables (or stores its variables differently)
overrides them, usually calling `super()`. The store maps keys to arrays:
the base methods use `"0"`, `"1"`, ... for the layer's own variables, in
their order (trainable first, then non-trainable), as Keras does.

As in Keras, `save_assets(dir_path)` / `load_assets(dir_path)` are not
defined here: a layer that keeps files defines them, and `.keras` saving
gives it its own folder.
"""
from kerasish.backend.common.variable import Variable


class LayerState:
    """`save_own_variables` / `load_own_variables` of every layer."""

    def _saved_variables(self):
        """Own variables as weights files hold them, in Keras's order."""
        if self.quantization_mode is not None and \
                hasattr(self, "_serialized_variables"):
            # Quantized layers save in Keras's per-mode order.
            return self._serialized_variables()
        if getattr(self, "lora_enabled", False):
            # The merged kernel in the kernel's slot, no adapters (Keras's).
            return self._lora_saved_variables()
        return list(self._trainable_variables) + \
            list(self._non_trainable_variables)

    def save_own_variables(self, store):
        """Save the layer's own variables into `store`.

        Called for every layer by `model.save()` and `model.save_weights()`;
        override it to control what a layer writes (and call `super()` to
        keep the variables). Sublayers are saved by their own call.

        Args:
            store: Dict-like object the state is written to, one array per
                key; the base method writes variable `i` under `str(i)`.

        Example:

        >>> layer = kerasish.layers.Dense(2)
        >>> layer.build((None, 3))
        >>> store = {}
        >>> layer.save_own_variables(store)
        >>> {key: tuple(value.shape) for key, value in store.items()}
        {'0': (3, 2), '1': (2,)}
        """
        for i, variable in enumerate(self._saved_variables()):
            # A LoRA layer's merged kernel is computed, not a variable.
            store[str(i)] = variable if isinstance(variable, Variable) \
                else variable.numpy()

    def _check_load_own_variables(self, store):
        variables = self._saved_variables()
        count = len(store.keys())
        if count == len(variables):
            return
        if not variables and not self.built:
            raise ValueError(
                f"Layer '{self.name}' was never built and thus it doesn't "
                "have any variables. However the weights file lists "
                f"{count} variables for this layer.\nIn most cases, this "
                "error indicates that either:\n\n1. The layer is owned by a "
                "parent layer that implements a `build()` method, but "
                "calling the parent's `build()` method did NOT create the "
                f"state of the child layer '{self.name}'. A `build()` method "
                "must create ALL state for the layer, including the state of "
                "any children layers.\n\n2. You need to implement the "
                "`def build_from_config(self, config)` method on layer "
                f"'{self.name}', to specify how to rebuild it during "
                "loading. In this case, you might also want to implement the "
                "method that generates the build config at saving time, "
                "`def get_build_config(self)`. The method "
                "`build_from_config()` is meant to create the state of the "
                "layer (i.e. its variables) upon deserialization.")
        raise ValueError(
            f"Layer '{self.name}' expected {len(variables)} variables, but "
            f"received {count} variables during loading. Expected: "
            f"{[v.name for v in variables]}")

    def load_own_variables(self, store):
        """Load the layer's own variables from `store`.

        Called for every layer by `load_model()` and `load_weights()`;
        override it to read what an overridden `save_own_variables` wrote.

        Args:
            store: Dict-like object holding the saved arrays; the base
                method reads variable `i` from `str(i)` and raises a
                `ValueError` if the number of keys differs from the
                number of variables.

        Example:

        >>> layer = kerasish.layers.Dense(2, kernel_initializer="ones")
        >>> layer.build((None, 3))
        >>> layer.load_own_variables({"0": np.zeros((3, 2)),
        ...                           "1": np.full(2, 5.0)})
        >>> layer.bias.numpy().tolist()
        [5.0, 5.0]
        """
        self._check_load_own_variables(store)
        for i, variable in enumerate(self._saved_variables()):
            variable.assign(store[str(i)])
