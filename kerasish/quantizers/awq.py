"""AWQ (Lin et al., arXiv:2306.00978) on numpy, as Keras 3.15 runs it.

Per layer: the largest absolute input of each input channel is recorded
on calibration data (`x_max`). Rows of `W = kernel^T` are scaled by
`s = x_max ** r` (normalized by `sqrt(max(s) * min(s))`) before 4-bit
asymmetric quantization, with `r` in `{0, 1/n, ..., 1}` chosen to minimize
the `x_max**2`-weighted error of `dequant(quant(W * s)) / s`; the layer
divides its dequantized kernel by `s` again.
"""
import numpy as np

from kerasish.quantizers import calibration
from kerasish.quantizers.gptq import _check, store_calibrated
from kerasish.quantizers.zero_point import (compute_quantization_parameters,
                                            dequantize_array,
                                            dequantize_with_zero_point,
                                            quantize_with_sz_map,
                                            quantize_with_zero_point)
from kerasish.quantizers.int4_packing import pack_int4


def _round_trip(weights, group_size):
    """Quantize `weights` to 4 bits and back; also the integer levels and
    the quantization parameters."""
    scale, zero, maxq = [np.asarray(t._value) for t in
                         compute_quantization_parameters(
                             weights, bits=4, symmetric=False,
                             per_channel=True, group_size=group_size,
                             compute_dtype="float32")]
    if group_size == -1:
        q = quantize_with_zero_point(weights, scale, zero, maxq)._value
        restored = dequantize_with_zero_point(q, scale, zero)._value
        g_idx = np.zeros(weights.shape[1], "float32")
    else:
        g_idx = (np.arange(weights.shape[1]) // group_size).astype("int32")
        q = quantize_with_sz_map(weights, scale, zero, g_idx, maxq)._value
        restored = dequantize_array(q, scale, zero, g_idx)
        g_idx = g_idx.astype("float32")
    return q, restored, scale, zero, g_idx


def awq_search_optimal_scales(weights, activation_magnitudes, *,
                              num_grid_points=20, group_size=-1):
    """The per-input-channel scales minimizing the weighted error.

    Args:
        weights: `W`, `[out_features, in_features]`.
        activation_magnitudes: Largest |input| per channel, `[in]`.
        num_grid_points: Ratios `i / num_grid_points` tried.
        group_size: Quantization group size (-1: whole rows).
    """
    weights = np.asarray(weights, "float32")
    x_max = np.asarray(activation_magnitudes, "float32")
    x_max = np.where(x_max < 1e-8, np.float32(1.0), x_max)
    best_loss, best = None, np.ones(weights.shape[1], "float32")
    for i in range(num_grid_points + 1):
        ratio = i / num_grid_points
        scales = np.ones_like(x_max) if ratio == 0 else np.power(
            x_max, np.float32(ratio))
        scales = np.maximum(scales, np.float32(1e-4))
        middle = np.maximum(np.sqrt(scales.max() * scales.min()),
                            np.float32(1e-8))
        scales = scales / middle
        restored = _round_trip(weights * scales, group_size)[1] / scales
        loss = np.mean(np.square(weights - restored) * np.square(x_max))
        if best_loss is None or loss < best_loss:
            best_loss, best = loss, scales
    return best


def awq_quantize_matrix(weights_transpose, activation_magnitudes, *,
                        num_grid_points=20, group_size=-1):
    """AWQ-quantize `W`: `(levels, scale, zero, awq_scales, g_idx)`."""
    weights = np.asarray(weights_transpose, "float32")
    awq_scales = awq_search_optimal_scales(
        weights, activation_magnitudes, num_grid_points=num_grid_points,
        group_size=group_size)
    q, _, scale, zero, g_idx = _round_trip(weights * awq_scales, group_size)
    return q, scale, zero, awq_scales, g_idx


class AWQ:
    """AWQ state of one layer: its input magnitudes, then its quantization.

    Args:
        layer: A built Dense or EinsumDense in "awq" mode.
        config: The `AWQConfig`.
    """

    def __init__(self, layer, config):
        self.original_layer = layer
        self.config = config
        self.rows, self.columns, kernel = calibration.two_d(layer)
        self.kernel = np.asarray(kernel, "float32")
        self.activation_magnitudes = np.zeros(self.rows, "float32")
        self.num_samples = 0

    def record(self, inputs):
        """Track the largest |input| of every input channel."""
        x = np.asarray(inputs._value if hasattr(inputs, "_value")
                       else inputs).reshape(-1, self.rows)
        self.update_activation_magnitudes(x)

    def update_activation_magnitudes(self, input_batch):
        """Running per-channel maximum of `|input_batch|`."""
        x = np.asarray(input_batch)
        if x.size == 0:
            raise ValueError("Input tensor cannot be empty.")
        x = x.reshape(-1, x.shape[-1]).astype("float32")
        self.activation_magnitudes = np.maximum(self.activation_magnitudes,
                                                np.abs(x).max(axis=0))
        self.num_samples += x.shape[0]

    def quantize(self):
        """Quantize the layer's kernel and store AWQ's variables."""
        q, scale, zero, awq_scales, g_idx = awq_quantize_matrix(
            self.kernel.T, self.activation_magnitudes,
            num_grid_points=self.config.num_grid_points,
            group_size=self.config.group_size)
        packed = pack_int4(q.astype("uint8"), axis=0, dtype="uint8")[0]
        store_calibrated(self.original_layer, packed, scale, zero, g_idx,
                         awq_scales)

    quantize_layer = quantize


def awq_quantize(config, structure, filters=None):
    """Calibrate and quantize the blocks of `structure` with AWQ."""
    _check(config, structure, "AWQ", "awq")
    data = calibration.get_dataloader(config.tokenizer,
                                      config.sequence_length, config.dataset,
                                      num_samples=config.num_samples)
    calibration.quantize_layerwise(data[:config.num_samples], config,
                                   structure,
                                   lambda layer: AWQ(layer, config),
                                   filters=filters)
