"""Pictures of models and of training: `plot_model` and `plot_history`.

`model_to_dot` writes Graphviz's DOT language itself (no pydot needed);
`plot_model` hands that text to Graphviz's `dot` program to render a PNG,
SVG or PDF. `plot_history` (in `history_plot.py`) draws a `History`'s loss
and metric curves with matplotlib (the optional extra `kerasish[plot]`).
"""
import os
import shutil
import sys

from kerasish import tree
from kerasish.utils.history_plot import plot_history  # noqa: F401
from kerasish.engine.functional import Functional
from kerasish.engine.sequential import Sequential

_GRAPHVIZ_HELP = (
    "You must install Graphviz for `plot_model` to work: its `dot` program "
    "was not found on PATH. Install it with `apt-get install graphviz` "
    "(Debian/Ubuntu), `brew install graphviz` (macOS) or `conda install "
    "graphviz` (see https://graphviz.org/download/).")


class DotGraph:
    """A Graphviz graph (or cluster) built by `model_to_dot`.

    Holds nodes, edges, attributes and nested clusters, and renders them
    as DOT text with `to_string()`; `create()`/`write()` run Graphviz.

    Args:
        name: Graph name (a cluster's name is also its label).
        cluster: Whether this is a `subgraph cluster_...` of another graph.
        attributes: Graph attributes (`rankdir`, `dpi`, ...).

    Example:

    >>> graph = DotGraph("g", attributes={"rankdir": "LR"})
    >>> graph.add_node("a", label="A")
    >>> graph.add_node("b", label="B")
    >>> graph.add_edge("a", "b")
    >>> print(graph.to_string())
    digraph "g" {
      rankdir="LR";
      "a" [label="A"];
      "b" [label="B"];
      "a" -> "b";
    }
    """

    def __init__(self, name="G", cluster=False, attributes=None):
        self.name = name
        self.cluster = cluster
        self.attributes = dict(attributes or {})
        self.node_defaults = {}
        self.nodes = {}
        self.edges = []
        self.subgraphs = []

    def add_node(self, node_id, **attributes):
        self.nodes[str(node_id)] = attributes

    def add_edge(self, source, destination, **attributes):
        edge = (str(source), str(destination))
        if edge not in [e[:2] for e in self.edges]:
            self.edges.append(edge + (attributes,))

    def add_subgraph(self, graph):
        self.subgraphs.append(graph)

    def to_string(self, indent=""):
        """The graph in the DOT language."""
        head = (f'subgraph "cluster_{_escape_id(self.name)}"' if self.cluster
                else f'digraph "{_escape_id(self.name)}"')
        inner = indent + "  "
        lines = [f"{indent}{head} {{"]
        lines += [f"{inner}{k}={_quote(v)};"
                  for k, v in self.attributes.items()]
        if self.node_defaults:
            lines.append(f"{inner}node {_attr_list(self.node_defaults)};")
        lines += [f'{inner}"{_escape_id(n)}" {_attr_list(a)};'
                  for n, a in self.nodes.items()]
        lines += [g.to_string(inner) for g in self.subgraphs]
        lines += [f'{inner}"{_escape_id(s)}" -> "{_escape_id(d)}"'
                  f'{" " + _attr_list(a) if a else ""};'
                  for s, d, a in self.edges]
        return "\n".join(lines + [f"{indent}}}"])

    __str__ = to_string

    def create(self, format="png", prog="dot"):
        """Render with Graphviz; returns the image file's bytes."""
        return _run_graphviz(self.to_string(), format, prog)

    def write(self, path, format="raw", prog="dot"):
        """Write DOT text (`format="raw"`) or a rendered image to `path`."""
        data = (self.to_string().encode() if format == "raw"
                else self.create(format, prog))
        with open(path, "wb") as f:
            f.write(data)


class _HtmlLabel(str):
    """An HTML-like Graphviz label, written to DOT without quotes.

    Only labels built here are of this type; every other value (a layer or
    model name from a file included) is quoted and escaped, so it can never
    add nodes or attributes (an `image=`) to the graph.
    """


def _escape_id(text):
    # `\"` is the only escape of DOT's quoted strings; backslashes are
    # doubled so a name's `\l` or `\N` stays literal in a label, and line
    # breaks become `\n` so a name from a file stays on its line.
    return (str(text).replace("\\", "\\\\").replace('"', '\\"')
            .replace("\r", "\\n").replace("\n", "\\n"))


def _quote(value):
    if isinstance(value, _HtmlLabel):
        return str(value)
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return f'"{_escape_id(text)}"'


def _attr_list(attributes):
    return "[" + ", ".join(f"{k}={_quote(v)}"
                           for k, v in attributes.items()) + "]"


def _escape(text):
    # lazy: kept out of `import kerasish`
    import html                 # on first use: it costs `import kerasish`
    return html.escape(text)


def _run_graphviz(text, format, prog):
    import subprocess  # lazy: kept out of `import kerasish`
    if shutil.which(prog) is None:
        raise ImportError(_GRAPHVIZ_HELP)
    done = subprocess.run([prog, f"-T{format}"], input=text.encode(),
                          capture_output=True)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        raise ValueError(f"Graphviz could not render the model as "
                         f"'{format}': {message.splitlines()[0]}")
    return done.stdout


# -- labels -----------------------------------------------------------------
def _cell(text, colspan=1, bgcolor="white", color=None, size=14):
    font = f'<font point-size="{size}"' + (
        f' color="{color}">' if color else ">")
    span = f' colspan="{colspan}"' if colspan > 1 else ""
    return f'<td bgcolor="{bgcolor}"{span}>{font}{text}</font></td>'


def _shape_text(structure):
    if structure is None:
        return "?"
    if isinstance(structure, dict):
        return ", ".join(f"{k}: {v}" for k, v in structure.items())
    return str(structure)


def _tensor_attr(layer, which, attr):
    """`attr` of the layer's input/output tensors, None when unknown."""
    try:
        value = getattr(layer, which)
    except (AttributeError, ValueError):
        return None
    if isinstance(value, list) and not value:
        return None
    return tree.map_structure(lambda t: getattr(t, attr), value)


def _activation_name(layer):
    activation = layer.activation
    return getattr(activation, "name", None) or getattr(
        activation, "__name__", str(activation))


def _detail_cells(layer, options):
    cells = []
    if options["show_shapes"]:
        if type(layer).__name__ != "InputLayer":
            shape = _shape_text(_tensor_attr(layer, "input", "shape"))
            cells.append(_cell(f"Input shape: <b>{_escape(shape)}</b>"))
        shape = _shape_text(_tensor_attr(layer, "output", "shape"))
        cells.append(_cell(f"Output shape: <b>{_escape(shape)}</b>"))
    if options["show_dtype"]:
        dtype = _tensor_attr(layer, "output", "dtype") or "?"
        cells.append(_cell(f"Output dtype: <b>{_escape(str(dtype))}</b>"))
    if options["show_trainable"] and layer.weights:
        text, color = (("Trainable", "forestgreen") if layer.trainable
                       else ("Non-trainable", "firebrick"))
        cells.append(_cell(f"<b>{text}</b>", bgcolor=color, color="white"))
    return cells


def layer_label(layer, show_shapes=False, show_dtype=False,
                show_layer_names=True, show_layer_activations=False,
                show_trainable=False):
    """The HTML-like Graphviz label of one layer's box.

    A black title row (`name (ClassName)`, or the class name alone), an
    optional activation row, then one row of the requested details.

    Example:

    >>> import kerasish
    >>> layer = kerasish.layers.Dense(3, name="out")
    >>> "<b>out</b> (Dense)" in layer_label(layer)
    True
    """
    options = dict(show_shapes=show_shapes, show_dtype=show_dtype,
                   show_trainable=show_trainable)
    cells = _detail_cells(layer, options)
    span = max(1, len(cells))
    kind = type(layer).__name__
    title = (f"<b>{_escape(layer.name)}</b> ({kind})"
             if show_layer_names else f"<b>{kind}</b>")
    rows = [_cell(title, span, bgcolor="black", color="white", size=16)]
    if show_layer_activations and getattr(layer, "activation", None):
        rows.append(_cell("Activation: <b>"
                          f"{_escape(_activation_name(layer))}</b>",
                          span))
    body = "".join(f"<tr>{row}</tr>" for row in rows)
    if cells:
        body += f"<tr>{''.join(cells)}</tr>"
    return _HtmlLabel('<<table border="0" cellborder="1" bgcolor="black" '
                     f'cellpadding="10">{body}</table>>')


# -- graphs -----------------------------------------------------------------
def _is_graph_model(layer):
    return isinstance(layer, (Functional, Sequential))


def _graph_of(model):
    """(operations to draw, the Functional holding their nodes) or None."""
    if isinstance(model, Sequential):
        return model.layers, model._functional
    if isinstance(model, Functional):
        return model._operations, model
    return None


def _resolve_source(source, output_index):
    """Step into nested models to the layer producing that output."""
    while _is_graph_model(source):
        source, _, output_index = \
            source.outputs[output_index]._keras_history
    return source


def _resolve_destination(destination, input_index):
    """Step into nested models to the box that receives that input."""
    while _is_graph_model(destination):
        if isinstance(destination, Functional):
            destination = \
                destination.inputs[input_index]._keras_history[0]
        else:
            destination = destination.layers[0]
    return destination


def _drawn_ids(dot):
    ids = set(dot.nodes)
    for graph in dot.subgraphs:
        ids |= _drawn_ids(graph)
    return ids


def _add_edges(dot, operations, functional, expand_nested):
    """Edges along the model's own nodes between boxes that are drawn.

    A Sequential model draws no InputLayer box, so the edge into its first
    layer is left out (the edge into the nested model stands for it).
    """
    nodes = set(functional._nodes)
    drawn = _drawn_ids(dot)
    for layer in operations:
        for node in layer._inbound_nodes:
            if node not in nodes:
                continue
            for input_index, tensor in enumerate(node.input_tensors):
                source, _, output_index = tensor._keras_history
                destination = layer
                if expand_nested:
                    source = _resolve_source(source, output_index)
                    destination = _resolve_destination(layer, input_index)
                if {str(id(source)), str(id(destination))} <= drawn:
                    dot.add_edge(id(source), id(destination),
                                 penwidth="2")


def _root_graph(rankdir, dpi, splines):
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError("`rankdir` must be one of 'TB', 'LR', 'BT' or "
                         f"'RL'. Received: rankdir={rankdir!r}")
    dot = DotGraph("model", attributes={
        "rankdir": rankdir, "concentrate": True, "dpi": dpi,
        "splines": splines})
    dot.node_defaults = {"shape": "record"}
    return dot


def model_to_dot(model, show_shapes=False, show_dtype=False,
                 show_layer_names=True, rankdir="TB", expand_nested=False,
                 dpi=200, subgraph=False, show_layer_activations=False,
                 show_trainable=False, splines="ortho", **kwargs):
    """Convert a model to a Graphviz graph (DOT), one box per layer.

    Args:
        model: A built model. Sequential and functional models show their
            layers and connections; a subclassed model is a single box.
        show_shapes: Whether to show input and output shapes. Defaults to
            `False`.
        show_dtype: Whether to show output dtypes. Defaults to `False`.
        show_layer_names: Whether to show layer names. Defaults to `True`.
        rankdir: `"TB"` (vertical, the default) or `"LR"` (horizontal);
            `"BT"` and `"RL"` reverse them.
        expand_nested: Whether to draw nested models as dashed clusters of
            their layers. Defaults to `False`.
        dpi: Image resolution in dots per inch. Defaults to 200.
        subgraph: Whether to return a cluster (used for nested models).
        show_layer_activations: Whether to show the activation of layers
            that have one. Defaults to `False`.
        show_trainable: Whether to mark layers with weights as trainable
            or not. Defaults to `False`.
        splines: How Graphviz draws edges: `"ortho"` (the default,
            right angles), `"curved"`, `"polyline"`, `"spline"`, `"line"`.

    Returns:
        A `DotGraph`; `str(graph)` is the DOT text.

    Example:

    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((4,)),
    ...                              kerasish.layers.Dense(2, name="out")])
    >>> dot = kerasish.utils.model_to_dot(model, show_shapes=True)
    >>> "Output shape: <b>(None, 2)</b>" in dot.to_string()
    True
    """
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("Argument `layer_range` is no longer supported.")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
    if not model.built:
        raise ValueError(
            "This model has not yet been built. Build the model first by "
            "calling `build()` or by calling the model on a batch of data.")
    options = dict(show_shapes=show_shapes, show_dtype=show_dtype,
                   show_layer_names=show_layer_names,
                   show_layer_activations=show_layer_activations,
                   show_trainable=show_trainable)
    if subgraph:
        dot = DotGraph(model.name, cluster=True, attributes={
            "style": "dashed", "label": model.name, "labeljust": "l"})
    else:
        dot = _root_graph(rankdir, dpi, splines)
    graph = _graph_of(model)
    if graph is None:           # subclassed: the model is one box
        _add_layer(dot, model, options)
        return dot
    operations, functional = graph
    for layer in operations:
        if expand_nested and _is_graph_model(layer):
            dot.add_subgraph(model_to_dot(
                layer, rankdir=rankdir, expand_nested=True, subgraph=True,
                **options))
        else:
            _add_layer(dot, layer, options)
    _add_edges(dot, operations, functional, expand_nested)
    return dot


def _add_layer(dot, layer, options):
    dot.add_node(id(layer), label=layer_label(layer, **options),
                 fontname="Helvetica", border="0", margin="0")


def plot_model(model, to_file="model.png", show_shapes=False,
               show_dtype=False, show_layer_names=False, rankdir="TB",
               expand_nested=False, dpi=200, show_layer_activations=False,
               show_trainable=False, splines="ortho", **kwargs):
    """Draw a model's graph to an image file with Graphviz.

    Needs Graphviz's `dot` program (`apt-get install graphviz`,
    `brew install graphviz`); pydot is not needed. Without `dot` this
    raises an `ImportError` saying how to install it (in a notebook it
    prints that message instead, as Keras does).

    Args:
        model: A built model.
        to_file: Image file name; its extension picks the format (`.png`,
            `.svg`, `.pdf`, `.dot` for the DOT text; none means PNG).
            Defaults to `"model.png"`.
        show_shapes: Whether to show input and output shapes. Defaults to
            `False`.
        show_dtype: Whether to show output dtypes. Defaults to `False`.
        show_layer_names: Whether to show layer names. Defaults to `False`
            (as in Keras 3).
        rankdir: `"TB"` (vertical, the default) or `"LR"` (horizontal).
        expand_nested: Whether to draw nested models as clusters of their
            layers. Defaults to `False`.
        dpi: Image resolution in dots per inch. Defaults to 200.
        show_layer_activations: Whether to show layers' activations.
            Defaults to `False`.
        show_trainable: Whether to mark layers as trainable or not.
            Defaults to `False`.
        splines: How edges are drawn (see `model_to_dot`). Defaults to
            `"ortho"`.

    Returns:
        An `IPython.display.Image` of the file when IPython is installed
        (so the plot shows inline in notebooks), else `None`.

    Example:

    >>> import os, tempfile
    >>> import kerasish
    >>> model = kerasish.Sequential([kerasish.Input((4,)),
    ...                              kerasish.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.dot")
    >>> _ = kerasish.utils.plot_model(model, to_file=path)
    >>> with open(path) as f:
    ...     print(f.readline().strip())
    digraph "model" {
    """
    if not model.built:
        raise ValueError(
            "This model has not yet been built. Build the model first by "
            "calling `build()` or by calling the model on a batch of data.")
    to_file = str(to_file)
    extension = os.path.splitext(to_file)[1][1:].lower() or "png"
    if extension not in ("dot", "gv") and shutil.which("dot") is None:
        if _in_ipython():
            print(_GRAPHVIZ_HELP)   # a notebook keeps running, as in Keras
            return None
        raise ImportError(_GRAPHVIZ_HELP)
    dot = model_to_dot(
        model, show_shapes=show_shapes, show_dtype=show_dtype,
        show_layer_names=show_layer_names, rankdir=rankdir,
        expand_nested=expand_nested, dpi=dpi,
        show_layer_activations=show_layer_activations,
        show_trainable=show_trainable, splines=splines, **kwargs)
    dot.write(to_file, format="raw" if extension in ("dot", "gv")
              else extension)
    return _notebook_image(to_file, extension)


def _in_ipython():
    ipython = sys.modules.get("IPython")
    return ipython is not None and ipython.get_ipython() is not None


def _notebook_image(path, extension):
    if extension not in ("png", "jpg", "jpeg", "gif"):
        return None
    try:
        from IPython import display  # lazy: optional dependency
    except ImportError:
        return None
    return display.Image(filename=path, format=extension)
