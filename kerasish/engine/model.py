"""`Model`: a layer with training (`compile`/`fit`/...) and saving.

`Model(inputs, outputs)` builds a `Functional` graph; subclassing `Model`
and writing `call` gives an eagerly run model; a subclass that calls
`super().__init__(inputs=..., outputs=...)` becomes functional, as in Keras.
"""
import json

from kerasish.engine.argument_checks import describe
from kerasish.engine.layer import Layer, default_config
from kerasish.engine.legacy_training import LegacyTrainingShims
from kerasish.engine.trainer import Trainer
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.operation import infer_output_spec
from kerasish import tree
from kerasish.engine.layer import _shape_of, _symbolic_shapes
from kerasish.saving.serialization_lib import serialize_keras_object


def _functional_args(args, kwargs):
    return (len(args) == 2 or (len(args) == 1 and "outputs" in kwargs)
            or ("inputs" in kwargs and "outputs" in kwargs))


class Model(LegacyTrainingShims, Trainer, Layer):
    """A trainable, saveable group of layers.

    Example (functional):

    >>> import kerasish
    >>> inputs = kerasish.Input(shape=(3,))
    >>> outputs = kerasish.layers.Dense(2)(inputs)
    >>> model = kerasish.Model(inputs=inputs, outputs=outputs)
    >>> model.count_params()
    8

    Example (subclassed):

    >>> class TwoLayers(kerasish.Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.hidden = kerasish.layers.Dense(4, activation="relu")
    ...         self.out = kerasish.layers.Dense(1)
    ...     def call(self, x):
    ...         return self.out(self.hidden(x))
    >>> TwoLayers()(np.ones((2, 3), "float32")).shape
    (2, 1)
    """

    _passes_text = True

    def __new__(cls, *args, **kwargs):
        if cls is Model and _functional_args(args, kwargs):
            # lazy: a top-level import would close an import circle
            from kerasish.engine.functional import Functional
            return Functional.__new__(Functional, *args, **kwargs)
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        # lazy: a top-level import would close an import circle
        from kerasish.engine.functional import Functional
        Trainer.__init__(self)
        if _functional_args(args, kwargs) and not isinstance(self,
                                                             Functional):
            _make_functional(type(self))
            Functional.__init__(self, *args, **kwargs)
        else:
            Layer.__init__(self, *args, **kwargs)

    # -- structure ------------------------------------------------------------
    @property
    def layers(self):
        """Direct sublayers, in the order they were added."""
        return [layer for layer in self._layers if isinstance(layer, Layer)]

    def get_layer(self, name=None, index=None):
        """Find a layer by `name` or by `index` in `layers`."""
        if index is not None and name is not None:
            raise ValueError(
                "Provide only a layer name or a layer index. Received: "
                f"index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(
                    f"Was asked to retrieve layer at index {index} but model "
                    f"only has {len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(
                f"No such layer: {name}. Existing layers are: "
                f"{list(layer.name for layer in self.layers)}.")
        raise ValueError(
            "Provide either a layer name or layer index at `get_layer`.")

    def summary(self, line_length=None, positions=None, print_fn=None,
                expand_nested=False, show_trainable=False, layer_range=None):
        """Print Keras's table of layers, output shapes and parameters."""
        # lazy: kept out of `import kerasish`
        from kerasish.engine.summary import print_summary
        print_summary(self, line_length=line_length, positions=positions,
                      print_fn=print_fn, expand_nested=expand_nested,
                      show_trainable=show_trainable, layer_range=layer_range)

    def build(self, input_shape):
        """Build a subclassed model by running it once on placeholders."""
        if self.built:
            return
        shapes = _shape_structure(input_shape)
        if isinstance(shapes, tuple):
            placeholders = KerasTensor(shapes)
        elif isinstance(shapes, dict):
            placeholders = {k: KerasTensor(v) for k, v in shapes.items()}
        else:
            placeholders = [KerasTensor(s) for s in shapes]
        infer_output_spec(self.__call__, (placeholders,), {})
        self.built = True

    def _maybe_build(self, args, kwargs):
        # A subclassed model without its own `build` is built by running
        # its first call; `Model.build` (tracing) is for explicit use.
        if type(self).build is Model.build:
            # Record the input shape as Keras does: saved files then carry
            # a build_config that rebuilds the model when loaded.
            first = args[0] if args else next(iter(kwargs.values()), None)
            self._build_shapes_dict = {"input_shape": _symbolic_shapes(
                tree.map_structure(_shape_of, first))}
            return
        super()._maybe_build(args, kwargs)

    # -- quantization ---------------------------------------------------------
    def quantize(self, mode=None, config=None, filters=None, **kwargs):
        """Quantize the weights of the model's layers, in place.

        Every leaf layer that supports `mode` (Dense, EinsumDense,
        Embedding) is quantized; others are skipped with a warning, as in
        Keras. `"gptq"` and `"awq"` then calibrate on `config.dataset`.

        Args:
            mode: `"int8"`, `"int4"`, `"float8"`, `"gptq"` or `"awq"`;
                optional when `config` is given.
            config: A `kerasish.quantizers.QuantizationConfig` (required
                for GPTQ/AWQ).
            filters: Only quantize layers whose name matches this regex
                (or any of a list of regexes), or for which this callable
                returns True.

        Example:

        >>> import warnings
        >>> model = kerasish.Sequential([kerasish.Input((4,)),
        ...                              kerasish.layers.Dense(2)])
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")  # "InputLayer ... skipped"
        ...     model.quantize("int8")
        >>> model.layers[0].dtype_policy
        <QuantizedDTypePolicy "int8_from_float32">
        """
        # lazy: kept out of `import kerasish`
        from kerasish.quantizers.model_quantization import quantize_model
        quantize_model(self, mode, config, filters, **kwargs)
        traces = self.__dict__.get("_step_traces")
        if traces is not None:      # the layers now compute differently
            traces.reset()

    # Each layer resolves `mode`/`config` itself (as in Keras: a mode name
    # gives every layer its own config object).
    quantize._passes_config = True

    def get_quantization_layer_structure(self, mode=None):
        """`{"pre_block_layers": [...], "sequential_blocks": [...]}` for
        GPTQ/AWQ, or None; models override it to describe their blocks."""
        del mode
        return None

    # -- saving ---------------------------------------------------------------
    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Save to `.keras` (zip) or legacy `.h5`."""
        # lazy: kept out of `import kerasish`
        from kerasish.saving import saving_api
        saving_api.save_model(self, filepath, overwrite=overwrite,
                              zipped=zipped, **kwargs)

    def __reduce__(self):
        # Pickling (and deep-copying) a model: it travels as its .keras
        # file (saving/pickling.py), as in Keras.
        # lazy: kept out of `import kerasish`
        from kerasish.saving import pickling
        return pickling.model_from_bytes, (pickling.model_to_bytes(self),)

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Save the weights to a `.weights.h5` file."""
        # lazy: kept out of `import kerasish`
        from kerasish.saving import saving_api
        saving_api.save_weights(self, filepath, overwrite=overwrite,
                                max_shard_size=max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Load weights from `.weights.h5`, `.keras` or legacy `.h5`."""
        # lazy: kept out of `import kerasish`
        from kerasish.saving import saving_api
        saving_api.load_weights(self, filepath, skip_mismatch=skip_mismatch,
                                **kwargs)

    def to_json(self, **kwargs):
        """The model's config as a JSON string (`model_from_json` reads it)."""
        return json.dumps(serialize_keras_object(self), **kwargs)

    @default_config
    def get_config(self):
        """Config of a subclassed model from its `__init__` arguments (the
        values it was made with; Keras records the defaults)."""
        return Layer.get_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        # lazy: a top-level import would close an import circle
        from kerasish.engine.functional import Functional
        if not isinstance(config, dict):
            raise ValueError(
                f"`{cls.__name__}.from_config` expects a config dict (what "
                "`get_config()` returns). "
                f"Received: config={describe(config)}")
        if "layers" in config and "input_layers" in config:
            return Functional.from_config.__func__(
                cls if issubclass(cls, Functional) else Functional, config,
                custom_objects=custom_objects)
        return Layer.from_config.__func__(cls, config)


def _shape_structure(shape):
    if isinstance(shape, (list, tuple)) and shape and all(
            isinstance(s, (list, tuple)) for s in shape):
        return [tuple(s) for s in shape]
    if isinstance(shape, dict):
        return {k: tuple(v) for k, v in shape.items()}
    return tuple(shape)


def _make_functional(cls):
    """Let a Model subclass initialised with inputs/outputs be Functional."""
    # lazy: a top-level import would close an import circle
    from kerasish.engine.functional import Functional
    if issubclass(cls, Functional):
        return
    for klass in cls.__mro__:
        if Model in klass.__bases__:
            klass.__bases__ = tuple(Functional if b is Model else b
                                    for b in klass.__bases__)
            return
