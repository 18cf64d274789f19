"""`EinsumDense`: a dense layer whose contraction is an einsum equation."""
import re

from kerasish import activations, constraints, initializers, ops
from kerasish import regularizers
from kerasish.engine.input_spec import InputSpec
from kerasish.engine.layer import Layer
from kerasish.layers.core.lora import LoraMixin
from kerasish.layers.core.quantized_einsum_dense import \
    EinsumDenseQuantization
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object

_FORMS = (
    ("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", False),
    ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", True),
    ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", False),
)


@builtin("keras.layers")
class EinsumDense(LoraMixin, EinsumDenseQuantization, Layer):
    """A dense layer of any dimensionality: `einsum(equation, x, kernel)`.

    The kernel's shape follows from the equation, the input shape and
    `output_shape`; the bias covers the output axes named in `bias_axes`.

    Args:
        equation: `"ab,bc->ac"`, `"...ab,bc->...ac"` or `"ab...,bc->ac..."`
            style equation: the input's, the kernel's and the output's
            subscripts.
        output_shape: Output shape without the batch axis and the axes
            the ellipsis stands for; `None` entries are inferred from the
            input. An int means a 1-D shape.
        activation: Activation name or callable. Defaults to linear.
        bias_axes: Letters of the output subscript that get a bias, or
            `None` (no bias).
        kernel_initializer: Defaults to `"glorot_uniform"` (fans computed
            over the kernel's input and output axes).
        bias_initializer: Defaults to `"zeros"`.
        kernel_regularizer, bias_regularizer, activity_regularizer,
        kernel_constraint, bias_constraint: Optional.
        lora_rank: Optional int: build with LoRA of this rank
            (`enable_lora`): the kernel is frozen and a low-rank update
            of it is trained.
        lora_alpha: Optional scale of the LoRA update (`lora_alpha /
            lora_rank`). Defaults to `lora_rank`.
        gptq_unpacked_column_size: Set in the configs of GPTQ-quantized
            layers (the unpacked kernel width).
        quantization_config: Optional `QuantizationConfig` of a quantized
            layer (set by `quantize`; read back from configs).

    Example:

    >>> import kerasish
    >>> layer = kerasish.layers.EinsumDense("abc,cde->abde",
    ...                                     output_shape=(None, 4, 8),
    ...                                     bias_axes="de")
    >>> layer(np.ones((2, 5, 16), "float32")).shape
    (2, 5, 4, 8)
    >>> [w.shape for w in layer.weights]
    [(16, 4, 8), (4, 8)]
    """

    def __init__(self, equation, output_shape, activation=None,
                 bias_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, lora_alpha=None,
                 gptq_unpacked_column_size=None, quantization_config=None,
                 **kwargs):
        super().__init__(**kwargs)
        if not isinstance(equation, str):
            raise ValueError("`equation` must be a string such as "
                             f"'ab,bc->ac'. Received: equation={equation!r}")
        _split(equation)
        self._init_lora(lora_rank, lora_alpha)
        self.equation = equation
        self.partial_output_shape = (output_shape,) if isinstance(
            output_shape, int) else tuple(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.gptq_unpacked_column_size = gptq_unpacked_column_size
        self.quantization_config = quantization_config

    def build(self, input_shape):
        kernel_shape, bias_shape, _, in_axes, out_axes = analyze_equation(
            self.equation, self.bias_axes, input_shape,
            self.partial_output_shape, self.name)
        self.input_spec = InputSpec(ndim=len(input_shape))
        mode = self.quantization_mode
        if mode is not None:
            self.quantized_build(kernel_shape, mode,
                                 self.quantization_config)
        if mode not in ("int8", "int4", "gptq", "awq"):
            self._kernel = self.add_weight(
                name="kernel", shape=kernel_shape,
                initializer=self._fan_aware(in_axes, out_axes),
                regularizer=self.kernel_regularizer,
                constraint=self.kernel_constraint)
        self.bias = None
        if bias_shape is not None:
            self.bias = self.add_weight(
                name="bias", shape=bias_shape,
                initializer=self.bias_initializer,
                regularizer=self.bias_regularizer,
                constraint=self.bias_constraint)
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    def _fan_aware(self, input_axes, output_axes):
        """A copy of a variance-scaling initializer told the kernel's axes."""
        init = self.kernel_initializer
        if not isinstance(init, initializers.VarianceScaling) or (
                init.input_axes is not None and
                init.output_axes is not None):
            return init
        config = dict(init.get_config(), seed=init.seed,
                      input_axes=input_axes, output_axes=output_axes)
        return type(init).from_config(config)

    def compute_output_shape(self, input_shape):
        return tuple(analyze_equation(
            self.equation, self.bias_axes, input_shape,
            self.partial_output_shape, self.name)[2])

    @property
    def kernel(self):
        """The kernel variable (its quantized values once quantized)."""
        if not self.built:
            raise AttributeError(
                "You must build the layer before accessing `kernel`.")
        if self.quantization_mode is not None:
            return self._quantized_kernel_value()
        if self.lora_enabled:
            return self._merged_lora(self._kernel)
        return self._kernel

    def call(self, inputs, training=None):
        x = ops.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            x = ops.add(x, self.bias)
        return self.activation(x)

    def get_config(self):
        config = super().get_config()
        config.update({
            "output_shape": self.partial_output_shape,
            "equation": self.equation,
            "activation": activations.serialize(self.activation),
            "bias_axes": self.bias_axes,
            "kernel_initializer":
                initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer":
                regularizers.serialize(self.kernel_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "activity_regularizer":
                regularizers.serialize(self.activity_regularizer),
            "kernel_constraint":
                constraints.serialize(self.kernel_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "quantization_config": serialize_keras_object(
                self.quantization_config),
        })
        if self.gptq_unpacked_column_size:
            config["gptq_unpacked_column_size"] = \
                self.gptq_unpacked_column_size
        return self._lora_config(config)

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.get("quantization_config") is not None:
            # lazy: kept out of `import kerasish`
            from kerasish import quantizers
            config["quantization_config"] = quantizers.deserialize(
                config["quantization_config"])
        return super().from_config(config)


def _split(equation):
    """`(input, kernel, output, left_elided)` subscripts of an equation."""
    text = equation.replace("...", "0")
    for pattern, left in _FORMS:
        match = re.match(pattern, text)
        if match:
            return match.group(1), match.group(2), match.group(3), left
    raise ValueError(
        f"Invalid einsum equation '{equation}'. Equations must be in the "
        "form [X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def analyze_equation(equation, bias_axes, input_shape, output_shape,
                     name="einsum_dense"):
    """Kernel shape, bias shape, full output shape, kernel in/out axes."""
    x_sub, w_sub, y_sub, left = _split(equation)
    input_shape = tuple(input_shape)
    elided = len(input_shape) - len(x_sub)
    full = _full_output_shape(input_shape, output_shape, elided, left)
    in_pos = {c: (i + elided - len(input_shape) if left else i)
              for i, c in enumerate(x_sub)}
    out_pos = {c: (i + elided if left else i) for i, c in enumerate(y_sub)}
    for c in x_sub:
        if c in out_pos and full[out_pos[c]] is not None and \
                full[out_pos[c]] != input_shape[in_pos[c]]:
            raise ValueError(
                "Input shape and output shape do not match at shared "
                f"dimension '{c}'. Input shape is {input_shape[in_pos[c]]}, "
                f"and output shape is {full[out_pos[c]]}.")
        if c in out_pos:
            full[out_pos[c]] = input_shape[in_pos[c]]
    for c in y_sub:
        if c not in x_sub and c not in w_sub:
            raise ValueError(
                f"Dimension '{c}' was specified in the output '{y_sub}' but "
                f"has no corresponding dim in the input spec '{x_sub}' or "
                f"weight spec '{w_sub}'")
    kernel, in_axes, out_axes = _kernel_shape(w_sub, x_sub, y_sub, in_pos,
                                              out_pos, input_shape, full,
                                              name)
    bias = _bias_shape(bias_axes, y_sub, full, elided, left)
    return kernel, bias, full, in_axes, out_axes


def _full_output_shape(input_shape, output_shape, elided, left):
    inner = list(output_shape)
    if elided > 0 and left:
        return [input_shape[0]] + list(input_shape[1:elided]) + inner
    full = [input_shape[0]] + inner
    if elided > 0:
        full += list(input_shape[len(input_shape) - elided:])
    return full


def _kernel_shape(w_sub, x_sub, y_sub, in_pos, out_pos, input_shape, full,
                  name):
    shape, in_axes, out_axes = [], [], []
    for i, c in enumerate(w_sub):
        if c in out_pos:
            shape.append(full[out_pos[c]])
            out_axes.append(i)
        elif c in in_pos:
            shape.append(input_shape[in_pos[c]])
            in_axes.append(i)
        else:
            raise ValueError(
                f"Weight dimension '{c}' did not have a match in either the "
                f"input spec '{x_sub}' or the output spec '{y_sub}'. For "
                "this layer, the weight must be fully specified.")
    if any(d is None for d in shape):
        raise ValueError(
            f"Layer '{name}' (EinsumDense) cannot infer its kernel shape: "
            f"kernel subscript '{w_sub}' resolves to {shape}. Give the "
            "missing sizes in `output_shape` or the input shape.")
    return tuple(shape), in_axes, out_axes


def _bias_shape(bias_axes, y_sub, full, elided, left):
    if bias_axes is None:
        return None
    for c in bias_axes:
        if c not in y_sub:
            raise ValueError(
                f"Bias dimension '{c}' was requested, but is not part of the "
                f"output spec '{y_sub}'")
    offset = elided if left else 0
    sizes = {c: full[i + offset] for i, c in enumerate(y_sub)}
    first = min(y_sub.find(c) for c in bias_axes)
    shape = [sizes[c] if c in bias_axes else 1 for c in y_sub[first:]]
    if not left:
        shape += [1] * max(elided, 0)
    return tuple(shape)
