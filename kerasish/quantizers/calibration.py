"""Calibration-driven quantization (GPTQ, AWQ): data windows, per-layer
statistics hooks and the block-by-block driver both algorithms share."""
import contextlib
import math

import numpy as np

from kerasish import ops
from kerasish import dtype_policies
from kerasish import quantizers
from kerasish.quantizers.utils import should_quantize_layer

_POLICY_CLASSES = {"gptq": "GPTQDTypePolicy", "awq": "AWQDTypePolicy"}
_CONFIG_CLASSES = {"gptq": "GPTQConfig", "awq": "AWQConfig"}


def _policy_of(layer, mode):
    policy = layer.dtype_policy
    if isinstance(policy, dtype_policies.DTypePolicyMap):
        policy = policy[layer.path]
    cls = getattr(dtype_policies, _POLICY_CLASSES[mode])
    return policy if isinstance(policy, cls) else None


def _setting(layer, config, mode, name):
    if isinstance(config, getattr(quantizers, _CONFIG_CLASSES[mode])):
        return getattr(config, name)
    policy = _policy_of(layer, mode)
    if policy is None:
        raise ValueError(
            f"For {mode.upper()} quantization, the {name} must be specified "
            f"either through a `dtype_policy` of type "
            f"`{_POLICY_CLASSES[mode]}` or the `config` argument.")
    return getattr(policy, name)


def weight_bits_for_layer(layer, config, mode="gptq"):
    """Weight bits of a GPTQ/AWQ layer, from `config` or its policy."""
    return _setting(layer, config, mode, "weight_bits")


def group_size_for_layer(layer, config, mode="gptq"):
    """Group size of a GPTQ/AWQ layer, from `config` or its policy."""
    return _setting(layer, config, mode, "group_size")


def get_dataloader(tokenizer, sequence_length, dataset, num_samples=128, *,
                   strategy="strided", seed=42, stride=None, eos_id=None):
    """Calibration windows `(num_samples, 1, sequence_length)` of token ids.

    Strings are tokenized (documents joined, with `eos_id` between them
    if given), the token stream is repeated until it is long enough, and
    windows are taken strided (Keras's default, its offset from Python's
    string hash as Keras does, so it follows `PYTHONHASHSEED`), evenly
    spaced (`"linspace"`) or at random (`"random"`, seeded).
    """
    if not hasattr(dataset, "__iter__") or isinstance(dataset, (str, bytes)):
        raise TypeError(
            "The `dataset` argument must be an iterable (e.g., a list of "
            "strings, a generator, or a NumPy array). Got type: "
            f"{type(dataset).__name__}. Please pass the loaded dataset "
            "directly.")
    tokens = _token_stream(tokenizer, list(dataset), eos_id)
    required = num_samples * sequence_length
    if tokens.size < required:
        tokens = np.tile(tokens, math.ceil(required / max(1, tokens.size)))
    max_start = tokens.size - sequence_length
    if max_start < 0:
        raise ValueError(
            f"Not enough tokens to form one sample of length "
            f"{sequence_length} (have {tokens.size}).")
    starts = _window_starts(strategy, max_start, num_samples, seed, stride)
    windows = np.lib.stride_tricks.sliding_window_view(tokens,
                                                       sequence_length)
    return windows[starts].astype(np.int32)[:, None, :]


def _token_stream(tokenizer, documents, eos_id):
    if not documents:
        raise ValueError("Provided dataset is empty.")
    pieces = []
    for i, doc in enumerate(documents):
        if isinstance(doc, str):
            tokenize = getattr(tokenizer, "tokenize", tokenizer)
            pieces.append(np.asarray(ops.convert_to_numpy(
                tokenize(doc))).reshape(-1))
            if eos_id is not None and i < len(documents) - 1:
                pieces.append(np.array([eos_id], np.int32))
        else:
            pieces.append(np.asarray(ops.convert_to_numpy(doc)).reshape(-1))
    return np.concatenate(pieces).astype(np.int32, copy=False)


def _window_starts(strategy, max_start, num_samples, seed, stride):
    if strategy == "random":
        rng = np.random.default_rng(seed)
        return rng.integers(0, max_start + 1, size=num_samples,
                            dtype=np.int64)
    if strategy == "linspace":
        return np.linspace(0, max_start, num_samples, dtype=np.int64)
    if strategy != "strided":
        raise ValueError(f"Unknown strategy: {strategy}")
    if stride is None:
        stride = max(1, (max_start + 1) // num_samples)
    offset = (abs(hash(("gptq-calib", seed))) % (max_start + 1)
              if max_start > 0 else 0)
    return (offset + np.arange(num_samples, dtype=np.int64) * stride) % (
        max_start + 1)


def find_layers_in_block(block):
    """The leaf Dense / EinsumDense layers of a block, by path."""
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.layers import Dense, EinsumDense
    return {layer.path: layer for layer in block._flatten_layers()
            if len(layer._flatten_layers()) == 1 and
            isinstance(layer, (Dense, EinsumDense))}


@contextlib.contextmanager
def stream_inputs(layers, record):
    """Call `record(name, 2-D inputs)` whenever a layer of `layers` runs."""
    originals, hooked = {}, []

    def hook(name, call):
        def wrapped(*args, **kwargs):
            inputs = args[0] if args else kwargs["inputs"]
            record(name, inputs)
            return call(*args, **kwargs)
        return wrapped
    try:
        for name, layer in layers.items():
            layer._spec()   # read `call`'s signature before hooking it
            originals[name] = vars(layer).get("call")
            object.__setattr__(layer, "call", hook(name, layer.call))
            hooked.append((name, layer))
        yield
    finally:
        for name, layer in hooked:
            if originals[name] is None:
                object.__delattr__(layer, "call")
            else:
                object.__setattr__(layer, "call", originals[name])


def quantize_layerwise(dataloader, config, structure, make, filters=None):
    """Run the blocks of `structure` on the calibration data, quantizing
    the Dense/EinsumDense layers of each block with `make(layer)` objects
    (`record(inputs)`, `quantize()`), then feeding the block's outputs to
    the next block."""
    blocks = structure.get("sequential_blocks", [])
    if not blocks:
        raise ValueError("No sequential blocks found in the provided "
                         "structure to quantize.")
    inputs = []
    for batch in dataloader:
        batch = ops.convert_to_tensor(batch, dtype="int32")
        for layer in structure.get("pre_block_layers", []):
            batch = layer(batch)
        inputs.append(batch)
    count = min(config.num_samples, len(inputs))
    for index, block in enumerate(blocks):
        targets = {name: layer for name, layer in
                   find_layers_in_block(block).items()
                   if should_quantize_layer(layer, filters)}
        if targets:
            _calibrate_block(block, targets, inputs[:count], make)
        if index < len(blocks) - 1:
            inputs = [block(_batched(x))[0] for x in inputs[:count]]


def _calibrate_block(block, targets, inputs, make):
    workers = {name: make(layer) for name, layer in targets.items()}
    with stream_inputs(targets,
                       lambda name, x: workers[name].record(x)):
        for x in inputs:
            block(_batched(x))
    for worker in workers.values():
        worker.quantize()


def _batched(x):
    return ops.expand_dims(x, 0) if len(x.shape) == 2 else x


def two_d(layer):
    """`(rows, columns, kernel as [rows, columns])` of a Dense/EinsumDense.

    A 3-D EinsumDense kernel is read as attention projections are: the
    largest axis first means `[d_model, heads, head_dim]` (rows = d_model),
    otherwise `[heads, head_dim, d_model]`.
    """
    # lazy: calls up the layers (tests/layering_allowlist.txt)
    from kerasish.layers import Dense, EinsumDense
    kernel = np.asarray(layer.kernel._value if hasattr(layer.kernel,
                                                       "_value")
                        else layer.kernel)
    if isinstance(layer, Dense) or (isinstance(layer, EinsumDense) and
                                    kernel.ndim == 2):
        return kernel.shape[0], kernel.shape[1], kernel
    if isinstance(layer, EinsumDense) and kernel.ndim == 3:
        rows, columns = split_3d(kernel.shape)
        return rows, columns, kernel.reshape(rows, columns)
    raise TypeError(f"Unsupported layer type for calibrated quantization: "
                    f"{type(layer)}")


def split_3d(shape):
    shape = list(shape)
    if shape.index(max(shape)) == 0:
        return shape[0], shape[1] * shape[2]
    return shape[0] * shape[1], shape[2]
