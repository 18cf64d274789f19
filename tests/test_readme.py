"""README.md: set-up commands, a generated support table that is up to
date, a tour whose code runs, and an examples table that matches
examples/."""
import importlib.util
import os
import re

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETUP = ("python -m pip install . && python examples/quickstart.py\n"
         "python -m pip install \".[test]\" && python -m pytest\n")


def _readme():
    with open(os.path.join(ROOT, "README.md")) as f:
        return f.read()


def _generator():
    spec = importlib.util.spec_from_file_location(
        "gen_support_table", os.path.join(ROOT, "tools",
                                          "gen_support_table.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_two_setup_commands_come_first_and_ci_runs_both():
    text = _readme()
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    assert first_block == SETUP
    assert text.index("```sh") < text.index("```python")
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        ci = f.read().splitlines()
    # Verbatim, each on its own line, after .ci/run activates its venv.
    activate = ci.index('. "$venv/bin/activate"')
    assert all(ci.index(line) > activate
               for line in SETUP.splitlines()), ci


def test_support_table_is_up_to_date():
    generator = _generator()
    text = _readme()
    assert generator.render_readme(text) == text, (
        "README.md's support table is out of date: run "
        "`python tools/gen_support_table.py`")


def test_support_table_counts_what_kerasish_provides():
    generator = _generator()
    references = generator._references()
    lines, _ = generator.api_rows(references)
    layers = [l for l in lines if l.startswith("| Layers |")][0]
    import kerasish
    have = sum(hasattr(kerasish.layers, n)
               for n in references["keras"]["layers"])
    assert f"| {have} / {len(references['keras']['layers'])} |" in layers
    assert all(f"`{n}`" not in layers for n in ("Dense", "LSTM", "Conv2D"))


def test_render_refuses_a_readme_without_markers():
    with pytest.raises(SystemExit, match="lacks the markers"):
        _generator().render_readme("# no table here\n")


def test_the_tour_runs(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"```python\n(.*?)```", _readme(), flags=re.S)
    assert len(blocks) >= 4
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    assert (tmp_path / "digits.keras").exists()
    loss, accuracy = namespace["restored"].evaluate(
        namespace["x_test"], namespace["y_test"], verbose=0)
    assert accuracy > 0.85
    assert "reached " in capsys.readouterr().out


def test_examples_table_lists_every_example():
    listed = set(re.findall(r"^\| `(\w+\.py)` \|", _readme(), flags=re.M))
    shipped = {f for f in os.listdir(os.path.join(ROOT, "examples"))
               if f.endswith(".py")}
    assert listed == shipped


def _migration_section():
    text = _readme()
    start = text.index("**From keras.io programs that call TensorFlow.**")
    return text[start:text.index("**From `tf.keras` or Keras 2.**")]


def test_migration_table_names_only_what_kerasish_has():
    import kerasish
    section = _migration_section()
    table = section.split("<!-- migration-table -->")[1].split(
        "<!-- /migration-table -->")[0]
    rows = [r for r in table.strip().splitlines()[2:] if r.startswith("|")]
    assert len(rows) >= 14
    names = set()
    for row in rows:
        tf_side, ours = row.strip("|").split("|", 1)
        assert re.search(r"\btfd?s?\.|apply_gradients", tf_side), row
        names |= set(re.findall(r"`(kerasish(?:\.\w+)+)", ours))
    assert len(names) >= 30
    for name in sorted(names):
        obj = kerasish
        for part in name.split(".")[1:]:
            assert hasattr(obj, part), f"README names {name}: no {part}"
            obj = getattr(obj, part)


def test_migration_example_runs_on_its_own(tmp_path, monkeypatch, capsys):
    code = re.findall(r"```python\n(.*?)```", _migration_section(),
                      flags=re.S)
    assert len(code) == 1
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(compile(code[0], "README.md", "exec"), namespace)
    assert capsys.readouterr().out.splitlines() == [
        "(3,) float32", "['loss']"]
    assert np.isfinite(namespace["history"].history["loss"]).all()
