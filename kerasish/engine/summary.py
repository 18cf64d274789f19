"""`model.summary()`: Keras 3's table of layers, shapes and parameter counts.

The table reproduces Keras's layout (rich's heavy-head box, the same column
positions and widths for a given line length, word-wrapped cells), without
colour codes.
"""
import math
import os
import re
import shutil

import numpy as np

from kerasish import tree
from kerasish.engine.functional import Functional
from kerasish.engine.layer import Layer
from kerasish.engine.sequential import Sequential
from kerasish.backend.common.global_state import print_msg


def _count(weights):
    unique = {id(w): w for w in weights}.values()
    return int(sum(np.prod(w.shape) for w in unique))


def _memory(weights):
    unique = {id(w): w for w in weights}.values()
    return float(sum(np.prod(w.shape) * np.dtype(w.dtype).itemsize
                     for w in unique))


def readable_memory_size(size):
    for unit in ["B", "KB", "MB", "GB", "TB", "PB"]:
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _format_shape(shape):
    return "(" + ", ".join(str(d) for d in shape) + ")"


def format_layer_shape(layer):
    if layer._inbound_nodes:
        outputs = layer._inbound_nodes[-1].outputs
        shapes = [_format_shape(t.shape) for t in outputs]
        return shapes[0] if len(shapes) == 1 else \
            "[" + ", ".join(shapes) + "]"
    if layer._build_shapes_dict and _declares_output_shape(layer):
        try:
            out = layer.compute_output_shape(
                *layer._build_shapes_dict.values())
        except Exception:  # noqa: BLE001 - an unknown shape prints "?"
            return "?"
        flat = tree.flatten(out) if isinstance(out, list) else [out]
        if all(isinstance(s, tuple) for s in flat):
            texts = [_format_shape(s) for s in flat]
            return texts[0] if len(texts) == 1 else str(texts).replace(
                "'", "")
        return _format_shape(out)
    return "?"


def _declares_output_shape(layer):
    """Whether Keras could name `layer`'s output shape outside a graph:
    a custom layer (or subclassed model) must implement
    `compute_output_shape`, else Keras's summary shows "?"; built-in layers
    (whose Keras counterparts all declare one) and Functional/Sequential
    models always can."""
    if isinstance(layer, (Functional, Sequential)):
        return True
    for cls in type(layer).__mro__:
        if cls is Layer:
            return False
        if "compute_output_shape" in vars(cls) or (
                cls.__module__.startswith("kerasish.") and
                not cls.__module__.startswith("kerasish.engine.")):
            return True
    return False


def _connections(layer, model_nodes):
    parts = []
    for node in layer._inbound_nodes:
        if model_nodes is not None and node not in model_nodes:
            continue
        for t in node.input_tensors:
            op, node_index, tensor_index = t._keras_history
            parts.append(f"{op.name}[{node_index}][{tensor_index}]")
    return ", ".join(parts) or "-"


def _column_widths(line_length, positions, ncols):
    """Cell widths (padding included) of Keras's rich table."""
    widths, current = [], 0
    for pos in positions:
        width = int(pos * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width)
        current += width
    # Rich pads each cell by one space each side, then fits the columns
    # into the table width (line_length less the borders): shrinking them
    # evenly, or growing them in proportion (`ratio_reduce` and
    # `ratio_distribute` in rich).
    widths = [w + 2 for w in widths[:ncols]]
    room = line_length - (ncols + 1)
    if sum(widths) > room:
        return _ratio_reduce(sum(widths) - room, widths)
    if sum(widths) < room:
        extra = _ratio_distribute(room - sum(widths), widths)
        return [w + e for w, e in zip(widths, extra)]
    return widths


def _ratio_reduce(excess, widths):
    remaining, ratio, out = excess, len(widths), []
    for w in widths:
        cut = min(w, round(remaining / ratio)) if ratio > 0 else 0
        out.append(w - cut)
        remaining -= cut
        ratio -= 1
    return out


def _ratio_distribute(total, ratios):
    remaining, total_ratio, out = total, sum(ratios), []
    for ratio in ratios:
        share = math.ceil(ratio * remaining / total_ratio) \
            if total_ratio > 0 else remaining
        out.append(share)
        total_ratio -= ratio
        remaining -= share
    return out


_WORD = re.compile(r"\s*\S+\s*")


def _break_points(text, width):
    """Where rich wraps `text`: word by word; a word longer than a line
    gets a line of its own (and is cut with an ellipsis later)."""
    breaks, offset = [], 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width or offset:
            if start:
                breaks.append(start)
            offset = len(word)
    return breaks


def _wrap(text, width, align):
    """The lines of one cell, justified to `width` as rich does."""
    lines = []
    for paragraph in str(text).split("\n"):
        cuts = [0] + _break_points(paragraph, width) + [len(paragraph)]
        lines += [paragraph[a:b] for a, b in zip(cuts, cuts[1:])] or [""]
    return [_justify(line, width, align) for line in lines]


def _justify(line, width, align):
    if len(line) > width:   # trailing spaces beyond the width go first
        trailing = len(line) - len(line.rstrip())
        line = line[:len(line) - min(trailing, len(line) - width)]
    if align != "left":
        line = line.rstrip()
    if len(line) > width:
        line = line[:width - 1] + "…"
    if align == "right":
        return line.rjust(width)
    if align == "center":
        return (" " * ((width - len(line)) // 2) + line).ljust(width)
    return line.ljust(width)


def _render_row(cells, widths, aligns, edge, header=False):
    wrapped = [_wrap(c, w - 2, a) for c, w, a in zip(cells, widths, aligns)]
    height = max(len(w) for w in wrapped)
    # Rich aligns header cells to the bottom, body cells to the top.
    wrapped = [[" " * (w - 2)] * (height - len(lines)) + lines if header
               else lines + [" " * (w - 2)] * (height - len(lines))
               for lines, w in zip(wrapped, widths)]
    return [edge + edge.join(" " + cell[i] + " " for cell in wrapped) + edge
            for i in range(height)]


def _rule(widths, left, mid, right, fill):
    return left + mid.join(fill * w for w in widths) + right


def _console_width():
    """The width rich gives a console: a terminal's, COLUMNS, else 80."""
    width = None
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd).columns
            break
        except (AttributeError, ValueError, OSError):
            continue
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    return width or 80


def summary_lines(model, line_length=None, positions=None,
                  expand_nested=False, show_trainable=False,
                  layer_range=None):
    """The summary as a list of text lines."""
    sequential_like = _is_sequential_like(model)
    layers = model.layers
    if isinstance(model, Functional):
        layers = model._operations
    if sequential_like:
        default, positions = 88, positions or [0.45, 0.80, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        aligns = ["left", "left", "right"]
    else:
        default, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        aligns = ["left", "left", "right", "left"]
    if show_trainable:
        default += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header.append("Trainable")
        aligns.append("center")
    columns = shutil.get_terminal_size().columns
    line_length = line_length or min(default, columns - 4)
    widths = _column_widths(line_length, positions, len(header))
    model_nodes = model._nodes if isinstance(model, Functional) else None

    rows = []
    for layer in _layer_slice(layers, layer_range):
        rows.extend(_layer_rows(layer, 0, sequential_like, show_trainable,
                                expand_nested, model_nodes))
    table = [_rule(widths, "┏", "┳", "┓", "━")]
    table += _render_row(header, widths, aligns, "┃", header=True)
    table.append(_rule(widths, "┡", "╇", "┩", "━"))
    for i, row in enumerate(rows):
        if i:
            table.append(_rule(widths, "├", "┼", "┤", "─"))
        table += _render_row(row, widths, aligns, "│")
    table.append(_rule(widths, "└", "┴", "┘", "─"))
    # Like rich, a table wider than the console is cropped at its edge.
    width = _console_width()
    lines = [f'Model: "{model.name}"'] + [line[:width] for line in table]
    lines += _totals(model)
    return lines


def _layer_rows(layer, level, sequential_like, show_trainable, expand,
                model_nodes):
    prefix = "   " * level + "└ " if level else ""
    cls_name = getattr(layer, "class_name", type(layer).__name__)
    name = f"{prefix}{layer.name} ({cls_name})"
    if not hasattr(layer, "built"):
        params = "0"
    elif not layer.built:
        params = "0 (unbuilt)"
    else:
        params = f"{layer.count_params():,}" if hasattr(
            layer, "count_params") else "0"
    row = [name, format_layer_shape(layer), params]
    if not sequential_like:
        row.append(_connections(layer, model_nodes))
    if show_trainable:
        has_weights = bool(getattr(layer, "weights", None))
        row.append(("Y" if layer.trainable else "N") if has_weights else "-")
    rows = [row]
    if expand and getattr(layer, "layers", None):
        for sub in layer.layers:
            # Inner nodes are not the model's own: "Connected to" is "-".
            rows += _layer_rows(sub, level + 1, sequential_like,
                                show_trainable, expand, model_nodes)
    return rows


def _is_sequential_like(model):
    if isinstance(model, Sequential) or not isinstance(model, Functional):
        return True
    nodes_by_depth = model._nodes_by_depth
    seen = []
    for nodes in nodes_by_depth.values():
        if len(nodes) > 1 or (len(nodes) == 1 and
                              len(nodes[0].input_tensors) > 1):
            return False
        seen += nodes
    for layer in model.layers:
        hits = sum(1 for node in layer._inbound_nodes if node in seen)
        if hits > 1:
            return False
    return True


def _layer_slice(layers, layer_range):
    """The layers from the first matching `layer_range[0]` to the last
    matching `layer_range[1]` (regexes), as Keras."""
    if layer_range is None:
        return layers
    if len(layer_range) != 2:
        raise ValueError(
            "layer_range must be a list or tuple of length 2. Received: "
            f"layer_range = {layer_range} of length {len(layer_range)}")
    if not all(isinstance(name, str) for name in layer_range):
        raise ValueError(
            f"layer_range should contain string type only. Received: "
            f"{layer_range}")
    lower = [i for i, l in enumerate(layers) if re.match(layer_range[0],
                                                          l.name)]
    upper = [i for i, l in enumerate(layers) if re.match(layer_range[1],
                                                          l.name)]
    if not lower or not upper:
        raise ValueError(
            "Passed layer_names do not match the layer names in the model. "
            f"Received: {layer_range}")
    if min(lower) > max(upper):
        return layers[min(upper):max(lower) + 1]
    return layers[min(lower):max(upper) + 1]


def _totals(model):
    trainable = model.trainable_weights
    non_trainable = model.non_trainable_weights
    opt_vars = []
    optimizer = getattr(model, "optimizer", None)
    if getattr(model, "compiled", False) and optimizer is not None and \
            getattr(optimizer, "built", False):
        opt_vars = optimizer.variables
    total = _count(trainable) + _count(non_trainable) + _count(opt_vars)
    memory = _memory(trainable) + _memory(non_trainable) + _memory(opt_vars)
    lines = [
        f" Total params: {total:,} ({readable_memory_size(memory)})",
        f" Trainable params: {_count(trainable):,} "
        f"({readable_memory_size(_memory(trainable))})",
        f" Non-trainable params: {_count(non_trainable):,} "
        f"({readable_memory_size(_memory(non_trainable))})"]
    if opt_vars:
        lines.append(f" Optimizer params: {_count(opt_vars):,} "
                     f"({readable_memory_size(_memory(opt_vars))})")
    return lines


def print_summary(model, line_length=None, positions=None, print_fn=None,
                  expand_nested=False, show_trainable=False,
                  layer_range=None):
    lines = summary_lines(model, line_length, positions, expand_nested,
                          show_trainable, layer_range)
    text = "\n".join(lines)
    if print_fn is None:
        print_msg(text)     # stdout, or logging when not interactive
    else:
        print_fn(text + "\n")  # Keras hands over rich's capture, "\n" ended
