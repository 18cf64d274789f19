"""`GPTQConfig`: settings of GPTQ post-training quantization."""
from kerasish.quantizers.quantization_config import QuantizationConfig
from kerasish.saving.object_registration import builtin


def check_sampling(num_samples, sequence_length):
    if num_samples <= 0:
        raise ValueError("num_samples must be a positive integer.")
    if sequence_length <= 0:
        raise ValueError("sequence_length must be a positive integer.")


def check_group_size(group_size, whole):
    if group_size < -1 or group_size == 0:
        raise ValueError(
            f"Invalid group_size. Supported values are -1 ({whole}) or a "
            f"positive integer, but got {group_size}.")


@builtin("keras.quantizers")
class GPTQConfig(QuantizationConfig):
    """Configuration of GPTQ (arXiv:2210.17323) weight quantization.

    GPTQ quantizes the Dense / EinsumDense layers of a model block by
    block. For each layer it collects the Hessian `2 X^T X / n` of the
    layer's inputs on calibration data, then quantizes the kernel one
    input row at a time, spreading each row's rounding error over the rows
    not yet quantized (weighted by the inverse Hessian) so the layer's
    outputs change as little as possible.

    Args:
        dataset: Calibration data: an iterable of strings (tokenized with
            `tokenizer`) or of token-id arrays.
        tokenizer: Object with a `tokenize(text)` method (or callable used
            that way) for string datasets.
        weight_bits: 2, 3, 4 or 8. Defaults to 4.
        num_samples: Calibration windows. Defaults to 128.
        per_channel: Scales per output channel (else per tensor).
            Defaults to `True`.
        sequence_length: Tokens per calibration window. Defaults to 512.
        hessian_damping: Fraction of the mean Hessian diagonal added to
            the diagonal before inverting. Defaults to 0.01.
        group_size: Input rows per scale/zero group; -1 for whole columns.
            Defaults to 128.
        symmetric: Symmetric ranges. Defaults to `False`.
        activation_order: Quantize the rows with the largest Hessian
            diagonal first. Defaults to `False`.
        quantization_layer_structure: `{"pre_block_layers": [...],
            "sequential_blocks": [...]}`; else the model's
            `get_quantization_layer_structure("gptq")` is used.

    Example:

    >>> config = GPTQConfig(dataset=None, tokenizer=None, weight_bits=8,
    ...                     group_size=-1)
    >>> config.mode, config.dtype_policy_string()
    ('gptq', 'gptq/8/-1')
    """

    def __init__(self, dataset, tokenizer, *, weight_bits=4,
                 num_samples=128, per_channel=True, sequence_length=512,
                 hessian_damping=0.01, group_size=128, symmetric=False,
                 activation_order=False, quantization_layer_structure=None):
        super().__init__()
        if weight_bits not in (2, 3, 4, 8):
            raise ValueError(f"Unsupported weight_bits {weight_bits}. "
                             "Supported values are 2, 3, 4, and 8.")
        check_sampling(num_samples, sequence_length)
        if hessian_damping < 0 or hessian_damping > 1:
            raise ValueError("hessian_damping must be between 0 and 1.")
        check_group_size(group_size, "whole-tensor")
        self.dataset = dataset
        self.tokenizer = tokenizer
        self.num_samples = num_samples
        self.per_channel = per_channel
        self.sequence_length = sequence_length
        self.hessian_damping = hessian_damping
        self.weight_bits = weight_bits
        self.group_size = group_size
        self.symmetric = symmetric
        self.activation_order = activation_order
        self.quantization_layer_structure = quantization_layer_structure

    @property
    def mode(self):
        return "gptq"

    def dtype_policy_string(self):
        """The policy mode this config gives layers (`"gptq/4/128"`)."""
        return f"gptq/{self.weight_bits}/{self.group_size}"

    def get_config(self):
        # The calibration data and tokenizer are used once, never saved.
        return {"dataset": None, "tokenizer": None,
                "weight_bits": self.weight_bits,
                "num_samples": self.num_samples,
                "per_channel": self.per_channel,
                "sequence_length": self.sequence_length,
                "hessian_damping": self.hessian_damping,
                "group_size": self.group_size, "symmetric": self.symmetric,
                "activation_order": self.activation_order,
                "quantization_layer_structure":
                    self.quantization_layer_structure}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
