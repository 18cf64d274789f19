"""`Sequential`: a plain stack of layers, each feeding the next.

Once the input shape is known (an `Input` first, `input_shape=` on the first
layer, `build(shape)`, or the first batch of data) the stack is compiled
into a functional graph, so summaries, shapes and saving work as for any
functional model. Until then calls run the layers one after the other.
"""
import inspect

from kerasish import tree
from kerasish.backend.common import naming
from kerasish.engine.argument_checks import describe
from kerasish.engine.input_layer import InputLayer
from kerasish.engine.layer import Layer
from kerasish.engine.model import Model
from kerasish.saving.object_registration import builtin
from kerasish.engine.functional import Functional
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import deserialize_keras_object


@builtin("keras")
class Sequential(Model):
    """Linear stack of layers.

    Args:
        layers: Optional list of layers to add.
        trainable: Whether the model's weights are trainable.
        name: Model name (defaults to `"sequential"`, `"sequential_1"`, ...).

    Example:

    >>> import kerasish
    >>> model = kerasish.Sequential([
    ...     kerasish.Input(shape=(16,)),
    ...     kerasish.layers.Dense(8, activation="relu"),
    ...     kerasish.layers.Dense(1)])
    >>> model.output_shape
    (None, 1)
    """

    def __new__(cls, *args, **kwargs):
        return super().__new__(cls)

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        object.__setattr__(self, "_functional", None)
        object.__setattr__(self, "_layers", [])
        if layers:
            for layer in layers:
                self.add(layer, rebuild=False)
            self._maybe_rebuild()

    def add(self, layer, rebuild=True):
        """Add a layer (or an `Input` tensor) on top of the stack."""
        if not self._layers and \
                getattr(layer, "_input_shape_arg", None) is not None:
            self.add(InputLayer(shape=layer._input_shape_arg), rebuild=False)
        history = getattr(layer, "_keras_history", None)
        if history is not None and isinstance(history[0], InputLayer):
            layer = history[0]
        if not isinstance(layer, Layer):
            raise ValueError(
                "Only instances of `kerasish.layers.Layer` can be added to a "
                f"Sequential model. Received: {layer} (of type "
                f"{type(layer)})")
        if any(l.name == layer.name and l is not layer for l in self._layers):
            raise ValueError(
                "All layers added to a Sequential model should have unique "
                f"names. Name '{layer.name}' is already the name of a layer "
                "in this model. Update the `name` argument to pass a unique "
                "name.")
        if isinstance(layer, InputLayer) and self._layers and \
                isinstance(self._layers[0], InputLayer):
            raise ValueError(
                f"Sequential model '{self.name}' has already been configured "
                f"to use input shape {self._layers[0].batch_shape}. You "
                "cannot add a different Input layer to it.")
        self._layers.append(layer)
        if rebuild:
            self._maybe_rebuild()
        else:
            self.built = False
            object.__setattr__(self, "_functional", None)

    def pop(self, rebuild=True):
        """Remove and return the top layer."""
        if not self.layers:
            # IndexError as Keras 3 (popping from its empty layer list).
            raise IndexError("There are no layers in the model.")
        layer = self._layers.pop()
        self.built = False
        object.__setattr__(self, "_functional", None)
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self):
        self.built = False
        object.__setattr__(self, "_functional", None)
        if self._layers and isinstance(self._layers[0], InputLayer) and \
                len(self._layers) > 1:
            self.build(self._layers[0].batch_shape)

    @property
    def layers(self):
        """The layers of the stack, without the InputLayer."""
        layers = self._layers
        if layers and isinstance(layers[0], InputLayer):
            return layers[1:]
        return list(layers)

    @layers.setter
    def layers(self, _):
        raise AttributeError(
            "`Sequential.layers` attribute is reserved and should not be "
            "used. Use `add()` and `pop()` to change the layers in this "
            "model.")

    def build(self, input_shape=None):
        """Create the functional graph for inputs of `input_shape`."""
        if input_shape is None:
            return
        input_shape = tuple(input_shape)
        if not self._layers:
            raise ValueError(
                f"Sequential model {self.name} cannot be built because it "
                "has no layers. Call `model.add(layer)`.")
        if isinstance(self._layers[0], InputLayer):
            if self._layers[0].batch_shape != input_shape:
                raise ValueError(
                    f"Sequential model '{self.name}' has already been "
                    "configured to use input shape "
                    f"{self._layers[0].batch_shape}. You cannot build it "
                    f"with input_shape {input_shape}")
        else:
            self._layers.insert(0, InputLayer(
                batch_shape=input_shape,
                dtype=self._layers[0].compute_dtype))
        with naming.name_scope(self.name):
            x = self._layers[0].output
            for layer in self._layers[1:]:
                _check_single_input(layer)
                x = layer(x)
        object.__setattr__(self, "_functional",
                           Functional(self._layers[0].output, x))
        self._build_shapes_dict = {"input_shape": input_shape}
        self.built = True

    def _maybe_build(self, args, kwargs):
        if self.built:
            return
        first = args[0] if args else next(iter(kwargs.values()))
        shape = tuple(first.shape) if hasattr(first, "shape") else None
        if shape is not None:
            self.build(shape)

    def call(self, inputs, training=None, mask=None):
        if self._functional is not None:
            return self._functional.call(inputs, training=training,
                                         mask=mask)
        outputs = inputs
        for layer in self.layers:
            outputs = layer(outputs)
        return outputs

    # -- graph facade ---------------------------------------------------------
    def _graph(self, what):
        if self._functional is None:
            raise AttributeError(
                f"Sequential model '{self.name}' has no defined {what}s "
                "yet: give it an Input first, or build it.")
        return self._functional

    @property
    def inputs(self):
        return self._graph("input").inputs

    @property
    def outputs(self):
        return self._graph("output").outputs

    @property
    def input(self):
        return self._graph("input").input

    @property
    def output(self):
        return self._graph("output").output

    @property
    def input_shape(self):
        return self._graph("input").inputs[0].shape

    @property
    def output_shape(self):
        return self._graph("output").outputs[0].shape

    @property
    def input_spec(self):
        # As in Keras, a Sequential checks no input shape of its own (its
        # graph's inputs have the shape it was built for; another length
        # of a non-batch axis still runs): its layers check theirs.
        return None

    @input_spec.setter
    def input_spec(self, value):
        pass

    @property
    def input_dtype(self):
        if self._layers and isinstance(self._layers[0], InputLayer):
            return self._layers[0].dtype
        return super().input_dtype

    def compute_output_spec(self, inputs, training=None, mask=None):
        if self._functional is not None:
            return self._functional.compute_output_spec(inputs)
        return super().compute_output_spec(inputs)

    def compute_output_shape(self, input_shape):
        if self._functional is not None:
            return self._functional.compute_output_shape(input_shape)
        return super().compute_output_shape(input_shape)

    # -- serialization --------------------------------------------------------
    def get_config(self):
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": _policy_config(self),
                  "layers": [serialize_keras_object(layer)
                             for layer in self._layers]}
        if self._functional is not None:
            config["build_input_shape"] = self._layers[0].batch_shape
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        _check_sequential_config(config)
        model = cls(name=config.get("name"),
                    trainable=config.get("trainable", True))
        has_input = bool(config["layers"]) and \
            config["layers"][0].get("class_name") == "InputLayer"
        for layer_config in config["layers"]:
            if has_input and isinstance(layer_config, dict):
                # Built by the model's own build, inside its name scope, so
                # variable paths are the same as the original's: a replica
                # rebuilt from config places its variables by path (the
                # runtime seam). Keras builds them outside, so its paths
                # lose the model's name on reload.
                layer_config = {k: v for k, v in layer_config.items()
                                if k != "build_config"}
            model.add(deserialize_keras_object(
                layer_config, custom_objects=custom_objects), rebuild=False)
        if model._layers:
            model._maybe_rebuild()
        shape = config.get("build_input_shape")
        if model._functional is None and isinstance(shape, (list, tuple)):
            model.build(tuple(shape))
        return model

    def get_build_config(self):
        return None if self._build_shapes_dict is None else {
            "input_shape": tuple(self._build_shapes_dict["input_shape"])}

    def build_from_config(self, config):
        if config and not self.built:
            self.build(tuple(config["input_shape"]))


def _check_sequential_config(config):
    """Name the malformed entry before any layer is built."""
    if not isinstance(config, dict) or "layers" not in config:
        raise ValueError(
            "A Sequential model configuration must be a dictionary "
            f"containing the 'name' and 'layers' keys. Received: "
            f"config={describe(config)}")
    layers = config["layers"]
    if not isinstance(layers, (list, tuple)):
        raise ValueError(
            "The 'layers' of a Sequential model configuration must be a "
            f"list of layer configs. Received: layers={describe(layers)}")
    for index, entry in enumerate(layers):
        if not (isinstance(entry, dict) and
                isinstance(entry.get("class_name"), str) and
                "config" in entry):
            raise ValueError(
                f"Entry {index} of the Sequential model configuration's "
                "'layers' is not a layer config (a dict with 'class_name' "
                "and 'config'). "
                f"Received: layers[{index}]={describe(entry)}")


def _policy_config(layer):
    return {"module": "keras", "class_name": "DTypePolicy",
            "config": {"name": layer.dtype_policy.name},
            "registered_name": None}


def _check_single_input(layer):
    params = [p for p in inspect.signature(layer.call).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in params if p.default is inspect.Parameter.empty]
    if not params and not any(p.kind == p.VAR_POSITIONAL for p in
                              inspect.signature(layer.call).parameters
                              .values()):
        raise ValueError(
            "Layers added to a Sequential model should have a single "
            f"positional argument, the input tensor. Layer "
            f"{type(layer).__name__} has no positional arguments.")
    if len(required) > 1:
        raise ValueError(
            "Layers added to a Sequential model can only have a single "
            "required positional argument, the input tensor. Layer "
            f"{type(layer).__name__} has multiple required positional "
            f"arguments: {[p.name for p in required]}")
