"""`clone_model`: a model with the same architecture and new layers.

A functional model is cloned by replaying its graph on new `Input`s, each
operation replaced by `clone_function(operation)` and called through
`call_function`; a `Sequential` model by cloning its layer list. Other
models round-trip through their config.
"""
from kerasish import tree
from kerasish.engine.functional import Functional
from kerasish.engine.input_layer import Input, InputLayer
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops.operation import OpCall
from kerasish.engine.sequential import Sequential
import inspect
from kerasish.saving.serialization_lib import (deserialize_keras_object,
                                               serialize_keras_object)


def clone_model(model, input_tensors=None, clone_function=None,
                call_function=None, recursive=False, **kwargs):
    """Clone a Functional or Sequential model: same architecture, new layers.

    Cloning is like calling the model on new inputs, except that the layers
    (and so the weights) are new instead of shared. A compiled model's clone
    is compiled with the same configuration (and a new optimizer).

    Args:
        model: A `Model` (Functional or Sequential; other models are cloned
            from their config).
        input_tensors: Optional input tensors (same structure as
            `model.input`) to build the clone on. Defaults to new `Input`s.
        clone_function: Callable `fn(layer)` returning the layer to use in
            the clone (for a functional model it also receives the ops
            recorded in the graph). Defaults to
            `layer.__class__.from_config(layer.get_config())`. A layer
            shared by several nodes is cloned once.
        call_function: Callable `fn(layer, *args, **kwargs)` that calls each
            cloned layer (functional models only). Defaults to
            `layer(*args, **kwargs)`; a custom one can insert layers.
        recursive: Whether nested Functional/Sequential models are cloned
            with `clone_model` (same arguments; `call_function` is not
            passed to Sequential models) instead of `clone_function`.
            Defaults to `False`.

    Returns:
        The cloned model.

    Example:

    >>> model = kerasish.Sequential([kerasish.Input((3,)),
    ...                              kerasish.layers.Dense(2)])
    >>> clone = kerasish.models.clone_model(model)
    >>> clone.output_shape, clone.layers[0] is model.layers[0]
    ((None, 2), False)

    Reusing the layers and inserting an activation after each `Dense`:

    >>> def call_function(layer, *args, **kwargs):
    ...     out = layer(*args, **kwargs)
    ...     if isinstance(layer, kerasish.layers.Dense):
    ...         out = kerasish.layers.Activation("relu")(out)
    ...     return out
    >>> inputs = kerasish.Input((3,))
    >>> functional = kerasish.Model(inputs, kerasish.layers.Dense(2)(inputs))
    >>> clone = kerasish.models.clone_model(
    ...     functional, clone_function=lambda layer: layer,
    ...     call_function=call_function)
    >>> [type(layer).__name__ for layer in clone.layers]
    ['InputLayer', 'Dense', 'Activation']
    """
    cache = kwargs.pop("cache", None)
    if kwargs:
        raise ValueError(
            f"Unexpected keyword argument(s): {tuple(kwargs.keys())}")
    if isinstance(model, (Sequential, Functional)):
        if isinstance(model, Sequential) and call_function is not None:
            raise ValueError(
                "`call_function` argument is not supported with Sequential "
                "models. In a Sequential model, layers aren't called at "
                "model-construction time (they're merely listed). Use "
                "`call_function` with Functional models only. Received "
                f"model of type '{type(model).__name__}', with "
                f"call_function={call_function}")
        wrapped = _wrap_clone_function(clone_function, call_function,
                                       recursive, cache)
        if isinstance(model, Sequential):
            return _clone_sequential(model, wrapped, input_tensors)
        return _clone_functional(model, wrapped, input_tensors,
                                 call_function)
    return _clone_from_config(model, input_tensors, clone_function,
                              call_function)


def _default_clone(layer):
    if isinstance(layer, OpCall):
        # An op recorded on KerasTensors: its arguments live in the graph
        # node, so a new op of the same kind is a faithful clone.
        return OpCall(layer.fn, layer.op_name, name=layer.name,
                      spec=layer.spec)
    return layer.__class__.from_config(layer.get_config())


def _wrap_clone_function(clone_function, call_function, recursive, cache):
    """One clone per layer (shared layers stay shared), recursing into
    nested models when asked."""
    clone_function = clone_function or _default_clone
    cache = {} if cache is None else cache

    def wrapped(layer):
        if id(layer) in cache:
            return cache[id(layer)]
        if recursive and isinstance(layer, (Sequential, Functional)):
            clone = clone_model(
                layer, clone_function=clone_function,
                call_function=None if isinstance(layer, Sequential)
                else call_function,
                recursive=True, cache=cache)
        else:
            clone = clone_function(layer)
        cache[id(layer)] = clone
        return clone

    return wrapped


def _compile_like(clone, model):
    if model.compiled:
        # As Keras: the clone gets the compile config (a new optimizer).
        clone.compile_from_config(model.get_compile_config())
    return clone


def _clone_sequential(model, clone_function, input_tensors):
    new_layers = [clone_function(layer) for layer in model.layers]
    first = model._layers[0] if model._layers else None
    ref = first if isinstance(first, InputLayer) else None
    name = ref.name if ref is not None else None
    optional = ref.optional if ref is not None else False
    if input_tensors is not None:
        if isinstance(input_tensors, (list, tuple)):
            if len(input_tensors) != 1:
                raise ValueError(
                    "Argument `input_tensors` must contain a single tensor.")
            input_tensors = input_tensors[0]
        if not isinstance(input_tensors, KerasTensor):
            raise ValueError(
                "Argument `input_tensors` must be a KerasTensor. Received "
                f"invalid value: input_tensors={input_tensors}")
        new_layers.insert(0, Input(tensor=input_tensors, name=name,
                                   optional=optional))
    elif ref is not None:
        new_layers.insert(0, Input(batch_shape=ref.batch_shape,
                                   dtype=ref.dtype, name=name,
                                   optional=optional))
    clone = Sequential(new_layers, name=model.name,
                       trainable=model.trainable)
    return _compile_like(clone, model)


def _new_inputs(model, input_tensors):
    if input_tensors is None:
        return tree.map_structure(
            lambda t: Input(batch_shape=t.shape, dtype=t.dtype,
                            name=t._keras_history[0].name,
                            optional=getattr(t._keras_history[0],
                                             "optional", False)),
            model.input)
    if not all(isinstance(x, KerasTensor)
               for x in tree.flatten(input_tensors)):
        raise ValueError(
            "All entries in `input_tensors` must be KerasTensors. Received "
            f"invalid values: inputs_tensors={input_tensors}")
    try:
        tree.assert_same_structure(input_tensors, model.input)
    except ValueError as e:
        raise ValueError(
            "`input_tensors` must have the same structure as model.input"
            f"\nReference structure: {model.input}"
            f"\nReceived structure: {input_tensors}") from e
    return input_tensors


def _replay_graph(model, inputs, clone_function, call_function):
    """Run the model's nodes on `inputs` with cloned operations."""
    values = {id(t): x for t, x in zip(model.inputs, tree.flatten(inputs))}
    for node in model._nodes:
        if any(id(t) not in values for t in node.input_tensors):
            continue    # not computable from these inputs
        args, kwargs = tree.map_structure(
            lambda x: values[id(x)] if isinstance(x, KerasTensor) else x,
            (node.call_args, node.call_kwargs))
        operation = clone_function(node.operation)
        outputs = call_function(operation, *args, **kwargs) \
            if call_function is not None else operation(*args, **kwargs)
        for t, y in zip(node.outputs, tree.flatten(outputs)):
            values[id(t)] = y
    return tree.pack_sequence_as(model._outputs_struct,
                                 [values[id(t)] for t in model.outputs])


def _clone_functional(model, clone_function, input_tensors, call_function):
    inputs = _new_inputs(model, input_tensors)
    outputs = _replay_graph(model, inputs, clone_function, call_function)
    cls = type(model) if _functional_like(type(model)) else Functional
    return _compile_like(cls(inputs, outputs, name=model.name), model)


def _functional_like(cls):
    """Whether `cls(inputs, outputs, name=...)` builds the model, as for
    `Functional` and subclasses that keep its constructor."""
    args = inspect.getfullargspec(cls.__init__).args[1:]
    return cls is Functional or args == \
        inspect.getfullargspec(Functional.__init__).args[1:]


def _clone_from_config(model, input_tensors, clone_function, call_function):
    if clone_function or input_tensors:
        raise ValueError(
            "Arguments `clone_function` and `input_tensors` are only "
            "supported for Sequential models or Functional models. Received "
            f"model of type '{type(model).__name__}', with clone_function="
            f"{clone_function} and input_tensors={input_tensors}")
    if call_function is not None:
        raise ValueError(
            "Argument `call_function` is only supported for Functional "
            f"models. Received model of type '{type(model).__name__}', with "
            f"call_function={call_function}")
    config = serialize_keras_object(model)
    config.pop("compile_config", None)
    clone = deserialize_keras_object(
        config, custom_objects={type(model).__name__: type(model)})
    return _compile_like(clone, model)
