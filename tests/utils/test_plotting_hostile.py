"""Names from a model file never reach the DOT text unquoted."""
import json
import shutil
import subprocess

import pytest

import kerasish as keras

HOSTILE = ['x" image="secret.png" shape="box',
           '<<b>html<b>>',
           'a\\" ] evil [ image="s.png',
           'line\n# "] b [image="s.png"]',
           'back\\slash\\']


def _nested(name):
    inner = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)],
                             name=name)
    inputs = keras.Input((3,))
    return keras.Model(inputs, keras.layers.Dense(1)(inner(inputs)))


def _objects(text):
    done = subprocess.run(["dot", "-Tjson"], input=text.encode(),
                          capture_output=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz")
@pytest.mark.parametrize("name", HOSTILE)
def test_a_crafted_nested_model_name_adds_no_node_or_attribute(name):
    model = _nested(name)
    text = keras.utils.model_to_dot(model, expand_nested=True).to_string()
    graph = _objects(text)
    nodes = [o for o in graph.get("objects", []) if "nodes" not in o]
    clusters = [o for o in graph.get("objects", []) if "nodes" in o]
    assert len(nodes) == 3          # input, the inner Dense, outer Dense
    assert all("image" not in o for o in graph["objects"])
    # The parsed label keeps DOT's label escapes, which render the name.
    assert [c["label"] for c in clusters] == [
        name.replace("\\", "\\\\").replace("\n", "\\n")]
    assert all("image" not in o for o in graph.get("edges", []))


def test_layer_names_in_labels_are_html_escaped_and_values_quoted():
    from kerasish.utils.plotting import _quote
    assert _quote('<b>x</b>') == '"<b>x</b>"'
    assert _quote('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    assert _quote(True) == '"true"'
