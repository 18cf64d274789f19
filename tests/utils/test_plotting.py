"""plot_model / model_to_dot / plot_history: DOT text, PNG files, errors."""
import os
import shutil
import struct
import zlib

import numpy as np
import pytest

import kerasish as keras

_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(
    not HAS_DOT, reason="Graphviz's dot is not installed (.ci/run installs "
    "it); the no-dot message is tested below")


def read_png(path):
    """(width, height, number of distinct bytes in the scanlines).

    Decodes the file with zlib alone: checks the signature, reads IHDR and
    checks that the IDAT stream inflates to the size the header promises.
    """
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    chunks, pos = {}, 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.setdefault(kind, []).append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    width, height, depth, color = struct.unpack(
        ">IIBB", chunks[b"IHDR"][0][:10])
    pixels = zlib.decompress(b"".join(chunks[b"IDAT"]))
    row = 1 + (width * _CHANNELS[color] * depth + 7) // 8
    assert len(pixels) == height * row, "IDAT size does not match IHDR"
    body = b"".join(pixels[r * row + 1:(r + 1) * row] for r in range(height))
    return width, height, len(set(body))


def _sequential():
    return keras.Sequential([
        keras.Input((8,)),
        keras.layers.Dense(4, activation="relu", name="hidden"),
        keras.layers.Dense(2, name="out")], name="seq")


def _nested_functional():
    inner = keras.Sequential([keras.Input((3,)), keras.layers.Dense(5),
                              keras.layers.Dense(3, name="inner_out")],
                             name="inner")
    a = keras.Input((4,), name="a")
    b = keras.Input((3,), name="b")
    shared = keras.layers.Dense(3, name="shared")
    h = keras.layers.Dense(3, name="proj")(a)
    merged = keras.layers.Add(name="merge")([inner(shared(h)),
                                             inner(shared(b))])
    return keras.Model([a, b], merged, name="outer"), inner


def _edges(dot):
    names = {}

    def collect(graph):
        for node_id, attrs in graph.nodes.items():
            names[node_id] = attrs["label"].split("<b>")[1].split("</b>")[0]
        edges = [(s, d) for s, d, _ in graph.edges]
        for sub in graph.subgraphs:
            edges += collect(sub)
        return edges
    edges = collect(dot)
    return sorted((names[s], names[d]) for s, d in edges)


def test_sequential_dot_chain_without_input_box():
    dot = keras.utils.model_to_dot(_sequential())
    assert _edges(dot) == [("hidden", "out")]
    text = dot.to_string()
    assert text.startswith('digraph "model" {')
    assert 'rankdir="TB";' in text and 'dpi="200";' in text
    assert "InputLayer" not in text


def test_functional_edges_shared_layer_and_nested_model():
    model, _ = _nested_functional()
    assert _edges(keras.utils.model_to_dot(model)) == [
        ("a", "proj"), ("b", "shared"), ("inner", "merge"),
        ("proj", "shared"), ("shared", "inner")]


def test_expand_nested_draws_a_cluster_and_connects_inside_it():
    model, inner = _nested_functional()
    dot = keras.utils.model_to_dot(model, expand_nested=True)
    assert [g.name for g in dot.subgraphs] == ["inner"]
    cluster = dot.subgraphs[0]
    assert cluster.attributes["style"] == "dashed"
    first = inner.layers[0].name
    assert ("shared", first) in _edges(dot)
    assert ("inner_out", "merge") in _edges(dot)
    assert 'subgraph "cluster_inner" {' in dot.to_string()


def test_labels_show_requested_details():
    model = _sequential()
    model.layers[0].trainable = False
    text = keras.utils.model_to_dot(
        model, show_shapes=True, show_dtype=True, show_trainable=True,
        show_layer_activations=True, rankdir="LR").to_string()
    assert "Input shape: <b>(None, 8)</b>" in text
    assert "Output shape: <b>(None, 4)</b>" in text
    assert "Output dtype: <b>float32</b>" in text
    assert "Activation: <b>relu</b>" in text
    assert "Non-trainable" in text and ">Trainable<" in text
    assert 'rankdir="LR";' in text
    hidden = keras.utils.model_to_dot(model, show_layer_names=False)
    assert "<b>Dense</b>" in hidden.to_string()
    assert "hidden" not in hidden.to_string()


def test_subclassed_model_is_one_box():
    class Tiny(keras.Model):
        def __init__(self):
            super().__init__(name="tiny")
            self.dense = keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x)
    model = Tiny()
    model(np.zeros((1, 3), "float32"))
    dot = keras.utils.model_to_dot(model)
    assert len(dot.nodes) == 1 and not dot.edges
    assert "<b>tiny</b> (Tiny)" in dot.to_string()


def test_names_are_escaped_in_labels():
    x = keras.Input((2,), name="in")
    y = keras.layers.Dense(1, name="a<b&c")(x)
    text = keras.utils.model_to_dot(keras.Model(x, y)).to_string()
    assert "a&lt;b&amp;c" in text


def test_bad_arguments():
    with pytest.raises(ValueError, match="not yet been built"):
        keras.utils.model_to_dot(keras.Sequential([keras.layers.Dense(2)]))
    with pytest.raises(ValueError, match="layer_range"):
        keras.utils.model_to_dot(_sequential(), layer_range=["a", "b"])
    with pytest.raises(ValueError, match="Unrecognized keyword"):
        keras.utils.model_to_dot(_sequential(), colour=True)
    with pytest.raises(ValueError, match="Received: rankdir='UP'"):
        keras.utils.model_to_dot(_sequential(), rankdir="UP")


@needs_dot
def test_plot_model_writes_a_png(tmp_path):
    model, _ = _nested_functional()
    path = str(tmp_path / "model.png")
    keras.utils.plot_model(model, to_file=path, show_shapes=True,
                           expand_nested=True, dpi=72)
    width, height, distinct = read_png(path)
    assert width > 100 and height > 200
    assert distinct > 2          # black boxes, white cells, grey edges
    assert os.path.getsize(path) > 2000


@needs_dot
def test_plot_model_other_formats(tmp_path):
    model = _sequential()
    keras.utils.plot_model(model, to_file=str(tmp_path / "m.svg"))
    assert "<svg" in (tmp_path / "m.svg").read_text()
    keras.utils.plot_model(model, to_file=str(tmp_path / "noext"), dpi=50)
    assert read_png(str(tmp_path / "noext"))[0] > 0
    with pytest.raises(ValueError, match="could not render"):
        keras.utils.plot_model(model, to_file=str(tmp_path / "m.nope"))


def test_plot_model_without_graphviz_says_how_to_install(tmp_path,
                                                          monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))      # no `dot` anywhere
    with pytest.raises(ImportError, match="apt-get install graphviz"):
        keras.utils.plot_model(_sequential(), to_file=str(tmp_path / "m.png"))
    assert not (tmp_path / "m.png").exists()
    # The DOT text needs no Graphviz at all.
    keras.utils.plot_model(_sequential(), to_file=str(tmp_path / "m.dot"))
    assert (tmp_path / "m.dot").read_text().startswith('digraph "model"')


def _history():
    keras.utils.set_random_seed(0)
    x = np.random.rand(64, 3).astype("float32")
    y = (x.sum(axis=1) > 1.5).astype("float32")
    model = keras.Sequential([keras.Input((3,)),
                              keras.layers.Dense(1, activation="sigmoid")])
    model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
    return model.fit(x, y, epochs=3, validation_split=0.25, verbose=0)


def test_plot_history_png_with_validation_curves(tmp_path):
    history = _history()
    path = str(tmp_path / "history.png")
    figure = keras.utils.plot_history(history, to_file=path, dpi=50)
    assert [a.get_title() for a in figure.axes] == ["accuracy", "loss"]
    loss_axes = figure.axes[1]
    assert [line.get_label() for line in loss_axes.lines] == [
        "loss", "val_loss"]
    np.testing.assert_allclose(loss_axes.lines[1].get_ydata(),
                               history.history["val_loss"])
    assert list(loss_axes.lines[0].get_xdata()) == [1, 2, 3]
    width, height, distinct = read_png(path)
    assert (width, height) == (450, 175)       # 2 panels x 4.5in x 50dpi
    assert distinct > 2


def test_plot_history_accepts_a_dict_and_metric_subset(tmp_path):
    logs = {"loss": [3.0, 2.0], "mae": [1.0, 0.5], "val_mae": [1.2, 0.9]}
    figure = keras.utils.plot_history(logs, metrics="mae", title="run 1")
    assert [a.get_title() for a in figure.axes] == ["mae"]
    assert [l.get_label() for l in figure.axes[0].lines] == ["mae",
                                                             "val_mae"]
    assert figure._suptitle.get_text() == "run 1"


def test_plot_history_bad_input():
    with pytest.raises(ValueError, match="expects the `History`"):
        keras.utils.plot_history({})
    with pytest.raises(ValueError, match="Available: \\['loss'\\]"):
        keras.utils.plot_history({"loss": [1.0]}, metrics=["acc"])


def test_plot_model_in_a_notebook_prints_instead_of_raising(
        tmp_path, monkeypatch, capsys):
    import types
    fake = types.SimpleNamespace(get_ipython=lambda: object())
    monkeypatch.setitem(__import__("sys").modules, "IPython", fake)
    monkeypatch.setenv("PATH", str(tmp_path))
    result = keras.utils.plot_model(_sequential(),
                                    to_file=str(tmp_path / "m.png"))
    assert result is None
    assert "apt-get install graphviz" in capsys.readouterr().out
