"""README.md: set-up commands, a generated support table that is up to
date, a tour whose code runs, and an examples table that matches
examples/."""
import importlib.util
import os
import re

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
