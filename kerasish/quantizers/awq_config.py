"""`AWQConfig`: settings of AWQ post-training quantization."""
from kerasish.quantizers.gptq_config import (check_group_size,
                                              check_sampling)
from kerasish.quantizers.quantization_config import QuantizationConfig
from kerasish.saving.object_registration import builtin


@builtin("keras.quantizers")
class AWQConfig(QuantizationConfig):
    """Configuration of AWQ (arXiv:2306.00978) 4-bit weight quantization.

    AWQ records, on calibration data, the largest absolute input of every
    input channel of each Dense / EinsumDense layer. Channels with large
    activations matter most, so before quantizing, each kernel row is
    multiplied by `x_max ** ratio` (normalized), with the ratio chosen by
    grid search to minimize the activation-weighted rounding error; the
    layer divides the dequantized kernel by the same scales.

    Args:
        dataset: Calibration data: iterable of strings or token arrays.
        tokenizer: Object with `tokenize(text)` for string datasets.
        weight_bits: Must be 4. Defaults to 4.
        num_samples: Calibration windows. Defaults to 128.
        sequence_length: Tokens per window. Defaults to 512.
        group_size: Input rows per scale/zero group; -1 for whole columns.
            Defaults to 128.
        num_grid_points: Ratios tried in `[0, 1]` (plus 0). Defaults to 20.
        quantization_layer_structure: `{"pre_block_layers": [...],
            "sequential_blocks": [...]}`; else the model's
            `get_quantization_layer_structure("awq")` is used.

    Example:

    >>> AWQConfig(dataset=None, tokenizer=None).dtype_policy_string()
    'awq/4/128'
    """

    def __init__(self, dataset, tokenizer, *, weight_bits=4,
                 num_samples=128, sequence_length=512, group_size=128,
                 num_grid_points=20, quantization_layer_structure=None):
        super().__init__()
        if weight_bits != 4:
            raise ValueError("AWQ only supports 4-bit quantization. "
                             f"Received weight_bits={weight_bits}.")
        check_sampling(num_samples, sequence_length)
        check_group_size(group_size, "per-channel")
        if num_grid_points <= 0:
            raise ValueError("num_grid_points must be a positive integer.")
        self.dataset = dataset
        self.tokenizer = tokenizer
        self.weight_bits = weight_bits
        self.num_samples = num_samples
        self.sequence_length = sequence_length
        self.group_size = group_size
        self.num_grid_points = num_grid_points
        self.quantization_layer_structure = quantization_layer_structure

    @property
    def mode(self):
        return "awq"

    def dtype_policy_string(self):
        """The policy mode this config gives layers (`"awq/4/128"`)."""
        return f"awq/{self.weight_bits}/{self.group_size}"

    def get_config(self):
        # The calibration data and tokenizer are used once, never saved.
        return {"dataset": None, "tokenizer": None,
                "weight_bits": self.weight_bits,
                "num_samples": self.num_samples,
                "sequence_length": self.sequence_length,
                "group_size": self.group_size,
                "num_grid_points": self.num_grid_points,
                "quantization_layer_structure":
                    self.quantization_layer_structure}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
