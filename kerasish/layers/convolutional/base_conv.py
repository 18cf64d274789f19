"""`BaseConv`: the shared body of Conv1D, Conv2D and Conv3D.

A layer of this family holds `kernel` `(*kernel_size, in / groups,
filters)` and `bias` `(filters,)`, Keras's shapes and order. With a bias,
its forward pass is one fused primitive (`conv + bias`, and the ReLU when
that is the activation); otherwise `ops.conv`, the bias and the activation
run as separate ops, with the same arithmetic. `lora_rank`/`lora_alpha`
(or `enable_lora`) train a low-rank update of a frozen kernel
(`kerasish.layers.core.lora`).
"""
from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.backend import config as backend_config
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.arguments import positive_int  # noqa: F401 (re-export)
from kerasish.layers.core.lora import LoraMixin
from kerasish.ops.conv import (
    conv_geometry, fused_conv, spatial_tuple, standardize_padding)


def spatial_args(layer_cls, rank, **values):
    """Standardize `kernel_size`/`strides`/... to tuples of `rank` ints."""
    try:
        return [spatial_tuple(v, rank, k) for k, v in values.items()]
    except ValueError as e:
        raise ValueError(f"{layer_cls.__name__}: {e}") from None


def check_rank(layer, input_shape):
    """`input_shape` as a tuple, refused unless of the layer's rank."""
    input_shape = tuple(input_shape)
    if len(input_shape) != layer.rank + 2:
        raise ValueError(
            f"Layer '{layer.name}' ({type(layer).__name__}) expects inputs "
            f"of rank {layer.rank + 2} (batch, {layer.rank} spatial "
            f"axes, channels). Received input shape {input_shape}")
    return input_shape


def check_input(layer, input_shape):
    """The input's channel count; checks rank and that channels are known."""
    input_shape = check_rank(layer, input_shape)
    channels = input_shape[-1 if layer.data_format == "channels_last"
                           else 1]
    if channels is None:
        raise ValueError(
            f"Layer '{layer.name}' ({type(layer).__name__}) needs a known "
            f"channel dimension. Received input shape {input_shape} with "
            f"data_format={layer.data_format!r}")
    return channels


def layer_error(layer, error):
    """Re-raise an op's geometry error with the layer named in front."""
    return ValueError(f"Layer '{layer.name}' ({type(layer).__name__}): "
                      f"{error}")


def bias_and_activation(outputs, bias, activation, data_format):
    """Unfused tail of a conv layer: `activation(outputs + bias)`."""
    if bias is not None:
        rank = len(outputs.shape) - 2
        shape = ((1,) * (rank + 1) + (-1,) if data_format == "channels_last"
                 else (1, -1) + (1,) * rank)
        outputs = ops.add(outputs, ops.reshape(ops.cast(bias, outputs.dtype),
                                               shape))
    return activation(outputs)


def layer_geometry(layer, input_shape, kernel_shape, strides, padding,
                   dilation):
    """`conv_geometry` with errors naming `layer`."""
    try:
        return conv_geometry(tuple(input_shape), tuple(kernel_shape),
                             strides, padding, dilation, layer.data_format)
    except ValueError as e:
        raise layer_error(layer, e) from None


def run_conv(layer, inputs, kernel, bias, activation, geometry):
    """One convolution (kernel in `ops.conv`'s layout) in `layer`'s data
    format, then `bias` and `activation`: a single fused primitive when
    the dtypes agree (with the ReLU folded in), separate ops otherwise."""
    if bias is not None and bias.dtype == kernel.dtype == inputs.dtype:
        relu = activation is activations.relu
        out = fused_conv(inputs, kernel, bias, relu, *geometry,
                         layer.data_format)
        return out if relu else activation(out)
    out = fused_conv(inputs, ops.cast(kernel, inputs.dtype), None, False,
                     *geometry, layer.data_format)
    return bias_and_activation(out, bias, activation, layer.data_format)


class BaseConv(LoraMixin, Layer):
    """Abstract N-D convolution layer; see `Conv1D`, `Conv2D`, `Conv3D`."""

    def __init__(self, rank, filters, kernel_size, strides=1,
                 padding="valid", data_format=None, dilation_rate=1,
                 groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None,
                 lora_rank=None, lora_alpha=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        cls = type(self)
        self.rank = rank
        self.filters = positive_int(cls, "filters", filters)
        self.groups = positive_int(cls, "groups", groups)
        self.kernel_size, self.strides, self.dilation_rate = spatial_args(
            cls, rank, kernel_size=kernel_size, strides=strides,
            dilation_rate=dilation_rate)
        try:
            self.padding = standardize_padding(
                padding, allow_causal=rank == 1)
        except ValueError as e:
            raise ValueError(f"{cls.__name__}: {e}") from None
        self.data_format = backend_config.standardize_data_format(
            data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self._init_lora(lora_rank, lora_alpha)
        self._check_arguments()
        self.input_spec = InputSpec(min_ndim=rank + 2)

    def _check_arguments(self):
        name = type(self).__name__
        if self.filters % self.groups:
            raise ValueError(
                f"{name}: the number of filters must be evenly divisible by "
                f"the number of groups. Received: groups={self.groups}, "
                f"filters={self.filters}.")
        check_strides_and_dilation(self)

    # -- building -------------------------------------------------------------
    def build(self, input_shape):
        channels = check_input(self, input_shape)
        if channels % self.groups:
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}): the number "
                "of input channels must be evenly divisible by the number "
                f"of groups. Received groups={self.groups}, but the input "
                f"has {channels} channels (full input shape is "
                f"{tuple(input_shape)}).")
        self.compute_output_shape(input_shape)
        axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(min_ndim=self.rank + 2,
                                    axes={axis: channels})
        self._kernel = self.add_weight(
            name="kernel",
            shape=self.kernel_size + (channels // self.groups, self.filters),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                name="bias", shape=(self.filters,),
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint)
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    @property
    def kernel(self):
        """The kernel variable (with LoRA: the merged kernel tensor)."""
        if not self.built:
            raise AttributeError(
                "You must build the layer before accessing `kernel`.")
        if self.lora_enabled:
            return self._merged_lora(self._kernel)
        return self._kernel

    def _geometry(self, input_shape):
        """`(strides, pads, dilation, groups)` for an input shape."""
        shape, padding = tuple(input_shape), self.padding
        if padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            shape = _grow_causal(shape, left, self.data_format)
            padding = "valid"
        strides, pads, dilation, groups = layer_geometry(
            self, shape, self._kernel.shape, self.strides, padding,
            self.dilation_rate)
        if self.padding == "causal":
            pads = ((left, 0),)
        return strides, pads, dilation, groups

    def call(self, inputs):
        return run_conv(self, inputs, self.kernel, self.bias,
                        self.activation, self._geometry(inputs.shape))

    def compute_output_shape(self, input_shape):
        return conv_output_shape(self, input_shape, self.filters)

    def get_config(self):
        config = super().get_config()
        config.update({
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "groups": self.groups,
        })
        config.update(common_config(self, "kernel"))
        return self._lora_config(config)


def common_config(layer, kernel_name):
    """Config entries shared by every convolution layer, in Keras's order."""
    return {
        "activation": activations.serialize(layer.activation),
        "use_bias": layer.use_bias,
        f"{kernel_name}_initializer": initializers.serialize(
            getattr(layer, f"{kernel_name}_initializer")),
        "bias_initializer": initializers.serialize(layer.bias_initializer),
        f"{kernel_name}_regularizer": regularizers.serialize(
            getattr(layer, f"{kernel_name}_regularizer")),
        "bias_regularizer": regularizers.serialize(layer.bias_regularizer),
        "activity_regularizer": regularizers.serialize(
            layer.activity_regularizer),
        f"{kernel_name}_constraint": constraints.serialize(
            getattr(layer, f"{kernel_name}_constraint")),
        "bias_constraint": constraints.serialize(layer.bias_constraint),
    }


def _grow_causal(shape, left, data_format):
    """Input shape once causal left padding is added (for the geometry)."""
    axis = 1 if data_format == "channels_last" else 2
    shape = list(shape)
    shape[axis] += left
    return tuple(shape)


def check_strides_and_dilation(layer):
    if max(layer.strides) > 1 and max(layer.dilation_rate) > 1:
        raise ValueError(
            f"{type(layer).__name__}: `strides > 1` not supported in "
            "conjunction with `dilation_rate > 1`. Received: "
            f"strides={layer.strides} and "
            f"dilation_rate={layer.dilation_rate}")


def conv_output_shape(layer, input_shape, channels_out):
    """Output shape of a (non-transposed) conv layer with `channels_out`."""
    input_shape = check_rank(layer, input_shape)
    last = layer.data_format == "channels_last"
    sizes = input_shape[1:-1] if last else input_shape[2:]
    out = []
    for i, n in enumerate(sizes):
        if n is None:
            out.append(None)
            continue
        k = (layer.kernel_size[i] - 1) * layer.dilation_rate[i] + 1
        s = layer.strides[i]
        size = (n - 1) // s + 1 if layer.padding != "valid" else \
            (n - k) // s + 1
        if size <= 0:
            raise layer_error(layer, (
                "computed output size would be zero or negative: the input "
                "is smaller than the (dilated) kernel with padding='valid'. "
                f"Received: input shape={input_shape}, kernel_size="
                f"{layer.kernel_size}, strides={layer.strides}, "
                f"dilation_rate={layer.dilation_rate}"))
        out.append(size)
    if last:
        return (input_shape[0],) + tuple(out) + (channels_out,)
    return (input_shape[0], channels_out) + tuple(out)
