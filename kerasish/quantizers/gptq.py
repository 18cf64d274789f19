"""GPTQ (Frantar et al., arXiv:2210.17323) on numpy, as Keras 3.15 runs it.

Per layer: the Hessian `H = 2 X^T X / n` of its inputs is accumulated on
calibration data; the kernel (as `W = kernel^T`, `[out, in]`) is then
quantized one input column at a time, each column's rounding error
`(w - q) / Hinv[j, j]` being subtracted from the remaining columns through
the inverse Hessian (within a block of 128 columns at once per column, and
from the columns after the block once per block).
"""
import numpy as np

from kerasish.quantizers import calibration
from kerasish.quantizers.zero_point import (compute_quantization_parameters,
                                            dequantize_with_zero_point,
                                            quantize_with_zero_point)
from kerasish.quantizers.int4_packing import pack_int4


def _stable_permutation(metric):
    """Descending order of `metric`, ties broken by index (Keras's jitter)."""
    n = metric.shape[0]
    jitter = (np.arange(n, dtype="float32") / np.float32(n)) * 1e-12
    return np.argsort(-(metric + jitter.astype(metric.dtype)),
                      kind="stable")


def _column_params(find_params, weights, group_size, column, cache):
    """Scale/zero/maxq of `column`'s group, computed once per group."""
    in_features = weights.shape[1]
    group = in_features if group_size == -1 else group_size
    start = (column // group) * group
    if cache.get("start") != start:
        end = min(start + group, in_features)
        source = weights if group == in_features else weights[:, start:end]
        cache.update(start=start, params=[np.asarray(t._value) for t in
                                          find_params(source)])
        cache["chunks"].append(cache["params"][:2])
    return cache["params"]


def gptq_quantize_matrix(weights_transpose, inv_hessian, *, blocksize=128,
                         group_size=-1, activation_order=False,
                         order_metric=None, compute_scale_zero=None):
    """GPTQ-quantize `W` (`[out, in]`) with the inverse Hessian `[in, in]`.

    Returns:
        `(quantized [out, in] int32, scale [out, groups],
        zero [out, groups], g_idx [in] float32)`.
    """
    weights = np.array(weights_transpose, dtype="float32")
    inv_hessian = np.asarray(inv_hessian, dtype="float32")
    in_features = weights.shape[1]
    perm = None
    if activation_order:
        metric = (np.reciprocal(np.diagonal(inv_hessian) + 1e-12)
                  if order_metric is None else np.asarray(order_metric,
                                                          "float32"))
        metric = np.where(np.isfinite(metric), metric, 0.0)
        perm = _stable_permutation(metric.astype("float32"))
        weights = weights[:, perm]
        inv_hessian = inv_hessian[perm][:, perm]
    quantized = np.zeros(weights.shape, np.int32)
    cache = {"chunks": []}
    for start in range(0, in_features, blocksize):
        end = min(start + blocksize, in_features)
        errors = _quantize_block(weights, inv_hessian, start, end, quantized,
                                 group_size, compute_scale_zero, cache)
        if end < in_features:
            weights[:, end:] -= errors @ inv_hessian[start:end, end:]
    group = in_features if group_size == -1 else group_size
    g_idx = (np.arange(in_features, dtype=np.int32) / group).astype(
        "float32")
    if perm is not None:
        inverse = np.argsort(perm)
        g_idx, quantized = g_idx[inverse], quantized[:, inverse]
    scale = np.concatenate([c[0] for c in cache["chunks"]], axis=1)
    zero = np.concatenate([c[1] for c in cache["chunks"]], axis=1)
    return quantized, scale, zero, g_idx


def _quantize_block(weights, inv_hessian, start, end, quantized, group_size,
                    find_params, cache):
    """Quantize columns `start:end`, spreading errors inside the block."""
    block = weights[:, start:end].copy()
    block_inv = inv_hessian[start:end, start:end]
    errors = np.zeros_like(block)
    for i in range(end - start):
        scale, zero, maxq = _column_params(find_params, weights, group_size,
                                           start + i, cache)
        column = block[:, i]
        q = quantize_with_zero_point(column[:, None], scale, zero,
                                     maxq)._value
        quantized[:, start + i] = q[:, 0].astype(np.int32)
        restored = dequantize_with_zero_point(q, scale, zero)._value[:, 0]
        error = (column - restored) / block_inv[i, i]
        errors[:, i] = error
        block[:, i + 1:] -= np.outer(error, block_inv[i, i + 1:])
    return errors


class GPTQ:
    """GPTQ state of one layer: its Hessian, then its quantization.

    Args:
        layer: A built Dense or EinsumDense in "gptq" mode.
        config: The `GPTQConfig`.
    """

    def __init__(self, layer, config):
        self.original_layer = layer
        self.config = config
        self.rows, self.columns, kernel = calibration.two_d(layer)
        self.kernel = np.asarray(kernel, "float32")
        self.hessian = np.zeros((self.rows, self.rows), "float32")
        self.num_samples = 0

    def record(self, inputs):
        """Accumulate the Hessian of one batch of layer inputs."""
        x = np.asarray(inputs._value if hasattr(inputs, "_value")
                       else inputs).reshape(-1, self.rows)
        self.update_hessian_with_batch(x)

    def update_hessian_with_batch(self, input_batch):
        """Running mean of `2 x^T x` over all samples seen."""
        x = np.asarray(input_batch)
        if x.ndim < 2:
            raise ValueError("Input tensor must have rank >= 2 "
                             f"(got rank {x.ndim}).")
        if x.size == 0:
            raise ValueError("Input tensor cannot be empty.")
        x = x.reshape(-1, x.shape[-1]).astype("float32")
        if self.hessian.shape[0] != x.shape[-1]:
            raise ValueError(
                f"Hessian dimensions ({self.hessian.shape[0]}) do not match "
                f"input features ({x.shape[-1]}).")
        total = self.num_samples + x.shape[0]
        gram = x.T @ x
        gram = (gram + gram.T) / np.float32(2.0)
        if self.num_samples > 0:
            self.hessian = self.hessian * np.float32(self.num_samples /
                                                     total)
        self.hessian = self.hessian + np.float32(2.0 / total) * gram
        self.num_samples = total

    def _damped_hessian(self):
        diagonal = np.diagonal(self.hessian).copy()
        dead = diagonal == 0.0
        diagonal[dead] = 1.0
        damping = np.float32(self.config.hessian_damping) * diagonal.mean(
            dtype="float32")
        hessian = self.hessian.copy()
        np.fill_diagonal(hessian, diagonal + damping)
        return hessian

    def quantize(self, blocksize=128):
        """Quantize the layer's kernel and store GPTQ's variables."""
        config, layer = self.config, self.original_layer
        hessian = self._damped_hessian()

        def find_params(x):
            return compute_quantization_parameters(
                x, bits=config.weight_bits,
                symmetric=config.symmetric, per_channel=config.per_channel,
                group_size=config.group_size,
                compute_dtype=layer.variable_dtype)
        quantized, scale, zero, g_idx = gptq_quantize_matrix(
            self.kernel.T, np.linalg.inv(hessian), blocksize=blocksize,
            group_size=config.group_size,
            activation_order=config.activation_order,
            order_metric=np.diagonal(hessian), compute_scale_zero=find_params)
        quantized = quantized.astype("uint8")
        if config.weight_bits == 4:
            quantized = pack_int4(quantized, axis=0, dtype="uint8")[0]
        store_calibrated(layer, quantized, scale, zero, g_idx)

    quantize_and_correct_layer = quantize


def store_calibrated(layer, quantized, scale, zero, g_idx, awq_scales=None):
    """Write a calibrated kernel into a GPTQ/AWQ layer (float one dropped)."""
    del layer._kernel
    layer.quantized_kernel.assign(quantized)
    layer.kernel_scale.assign(scale)
    layer.kernel_zero.assign(zero)
    layer.g_idx.assign(g_idx)
    if awq_scales is not None:
        layer.awq_scales.assign(awq_scales)
    layer._calibrated = True


def gptq_quantize(config, structure, filters=None):
    """Calibrate and quantize the blocks of `structure` with GPTQ."""
    _check(config, structure, "GPTQ", "gptq")
    data = calibration.get_dataloader(config.tokenizer,
                                      config.sequence_length, config.dataset,
                                      num_samples=config.num_samples)
    calibration.quantize_layerwise(data[:config.num_samples], config,
                                   structure,
                                   lambda layer: GPTQ(layer, config),
                                   filters=filters)


def _check(config, structure, name, mode):
    if config.dataset is None or config.tokenizer is None:
        raise ValueError(
            f"{name} quantization requires a dataset and a tokenizer. "
            f"Please provide them in the `{name}Config`."
            if name == "GPTQ" else
            "AWQ quantization requires a dataset and tokenizer. Please "
            "provide them in the AWQConfig.")
    if structure is None:
        raise ValueError(
            f"For '{mode}' mode, a valid quantization structure must be "
            "provided either via `config.quantization_layer_structure` or "
            "by overriding `model.get_quantization_layer_structure(mode)`. "
            "The structure should be a dictionary with keys "
            "'pre_block_layers' and 'sequential_blocks'.")
