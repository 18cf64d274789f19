"""`Lambda`: wrap an arbitrary function of tensors as a layer."""
import inspect
import numbers
import types

from kerasish import tree
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.engine.layer import Layer
from kerasish.ops.operation import infer_output_spec
from kerasish.saving import lambda_code
from kerasish.saving import serialization_lib
from kerasish.saving.object_registration import builtin
from kerasish.engine.layer import _specs_from_shapes, _shape_of


def _is_lambda(fn):
    return isinstance(fn, types.LambdaType) and fn.__name__ == "<lambda>"


def _function_config(fn):
    """Keras's Lambda-layer form of a function: `__lambda__` bytecode for a
    lambda, the registered or built-in name for a named function."""
    if _is_lambda(fn):
        code, defaults, closure = \
            lambda_code.serialize_lambda(fn)["config"]["value"]
        return {"class_name": "__lambda__",
                "config": {"code": code, "defaults": defaults,
                           "closure": closure}}
    if callable(fn):
        return serialization_lib.serialize_keras_object(fn)
    raise ValueError("Invalid input type for serialization. "
                     f"Received: {fn} of type {type(fn)}.")


def _function_from_config(config, custom_objects, safe_mode):
    if isinstance(config, dict) and config.get("class_name") == "__lambda__":
        return lambda_code.deserialize_lambda(config["config"], safe_mode)
    return serialization_lib.deserialize_keras_object(
        config, custom_objects=custom_objects)


@builtin("keras.layers")
class Lambda(Layer):
    """Apply `function(inputs, **arguments)` as a layer.

    Handy for stateless glue in Sequential/functional models. Weights
    created inside the function are not tracked: write a `Layer` subclass
    for anything with state. Saved Lambdas holding Python lambdas store
    bytecode, which is only loaded with `safe_mode=False`; named functions
    are saved by their registered name.

    Args:
        function: Callable taking the input (and optionally `mask` and
            `training` keyword arguments).
        output_shape: Output shape without the batch axis, or a callable
            `input_shape -> output_shape`; inferred when None.
        mask: A mask to attach to the output, or a callable
            `(inputs, mask) -> mask`. Defaults to None (no mask).
        arguments: Dict of extra keyword arguments for `function`.
        **kwargs: Base layer arguments.

    Example:

    >>> layer = Lambda(lambda x, k: x * k, arguments={"k": 3.0})
    >>> layer(np.array([1.0, 2.0], "float32")).numpy()
    array([3., 6.], dtype=float32)
    """

    def __init__(self, function, output_shape=None, mask=None,
                 arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise ValueError(
                "Argument `function` of a Lambda layer must be callable. "
                f"Received: function={function!r}")
        self.arguments = arguments or {}
        self.function = function
        self.supports_masking = mask is not None
        self.mask = mask
        self._output_shape = _output_shape_arg(output_shape)
        names = inspect.getfullargspec(function).args
        self._fn_expects_training_arg = "training" in names
        self._fn_expects_mask_arg = "mask" in names

    @property
    def _computes_masks(self):
        return self.mask is not None

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask_arg:
            kwargs["mask"] = mask
        if self._fn_expects_training_arg:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            try:
                return self._traced_shape(input_shape)
            except Exception as error:
                raise NotImplementedError(
                    "We could not automatically infer the shape of the "
                    "Lambda's output. Please specify the `output_shape` "
                    "argument for this Lambda layer.") from error
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch = tree.flatten(input_shape)[0]
        if _is_shape(self._output_shape):
            return (batch,) + tuple(self._output_shape)
        if isinstance(self._output_shape, dict):
            return {k: (batch,) + tuple(s)
                    for k, s in self._output_shape.items()}
        return [(batch,) + tuple(s) for s in self._output_shape]

    def _traced_shape(self, input_shape):
        """Run the function once on placeholders of `input_shape`."""
        def placeholders(shape):
            if _is_shape(shape):
                return KerasTensor(shape, dtype=self.compute_dtype)
            if isinstance(shape, dict):
                return {k: placeholders(v) for k, v in shape.items()}
            return [placeholders(s) for s in shape]
        spec = infer_output_spec(self.__call__, (placeholders(input_shape),),
                                 {})
        return tree.map_structure(lambda t: t.shape, spec)

    def compute_output_spec(self, *args, **kwargs):
        if self._output_shape is None:
            return Layer.compute_output_spec(self, *args, **kwargs)
        shapes = tree.map_structure(_shape_of, args[0])
        return _specs_from_shapes(self.compute_output_shape(shapes),
                                  self.compute_dtype)

    def get_config(self):
        config = {"function": _function_config(self.function)}
        if self._output_shape is not None:
            config["output_shape"] = (
                _function_config(self._output_shape)
                if callable(self._output_shape) else self._output_shape)
        if self.mask is not None:
            config["mask"] = (
                _function_config(self.mask) if callable(self.mask)
                else serialization_lib.serialize_keras_object(self.mask))
        config["arguments"] = serialization_lib.serialize_keras_object(
            self.arguments)
        return {**Layer.get_config(self), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None, safe_mode=None):
        config = dict(config)
        config["function"] = _function_from_config(
            config["function"], custom_objects, safe_mode)
        if "output_shape" in config:
            shape = config["output_shape"]
            if isinstance(shape, dict):
                shape = _function_from_config(shape, custom_objects,
                                              safe_mode)
            elif isinstance(shape, list) and all(
                    isinstance(d, (int, type(None))) for d in shape):
                shape = tuple(shape)
            config["output_shape"] = shape
        if "mask" in config and isinstance(config["mask"], dict):
            config["mask"] = _function_from_config(
                config["mask"], custom_objects, safe_mode)
        if "arguments" in config:
            config["arguments"] = serialization_lib.deserialize_keras_object(
                config["arguments"], custom_objects=custom_objects)
        return super().from_config(config)


def _output_shape_arg(value):
    """`output_shape` is None, a callable, a shape, or a list or dict of
    shapes (shapes without the batch axis)."""
    if value is None or callable(value) or _is_shape(value):
        return value
    shapes = value.values() if isinstance(value, dict) else value
    if isinstance(shapes, (list, tuple)) or isinstance(value, dict):
        if all(_is_shape(s) for s in shapes):
            return value
    raise ValueError(
        "Lambda: invalid value for argument `output_shape`. Expected None, "
        "a callable, a shape tuple, or a list or dict of shape tuples. "
        f"Received: output_shape={value!r}")


def _is_shape(value):
    return isinstance(value, (tuple, list)) and all(
        d is None or isinstance(d, numbers.Integral) for d in value)
