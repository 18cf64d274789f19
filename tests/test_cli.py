"""The `kerasish` command line: summary, convert, diff, plot and errors."""
import configparser
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import kerasish as keras
from kerasish import cli
from tests.utils.test_plotting import read_png

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def files(tmp_path):
    """A trained model saved as .keras, .h5 and .weights.h5."""
    model = keras.Sequential([
        keras.Input((4,)), keras.layers.Dense(3, activation="relu"),
        keras.layers.BatchNormalization(), keras.layers.Dense(2)],
        name="tiny")
    model.compile(optimizer="adam", loss="mse")
    x = np.random.default_rng(0).random((16, 4)).astype("float32")
    model.fit(x, x[:, :2], epochs=2, verbose=0)
    paths = {kind: str(tmp_path / f"model.{kind}")
             for kind in ("keras", "h5", "weights.h5")}
    model.save(paths["keras"])
    model.save(paths["h5"])
    model.save_weights(paths["weights.h5"])
    paths["model"], paths["dir"] = model, tmp_path
    return paths


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_summary_prints_the_layer_table(files, capsys):
    for path in (files["keras"], files["h5"]):
        status, out, err = run(capsys, "summary", path)
        assert status == 0, err
        assert 'Model: "tiny"' in out
        assert "dense (Dense)" in out and "(None, 2)" in out
        assert "Optimizer params: 60" in out


def test_convert_keeps_weights_and_optimizer_state(files, capsys):
    back = str(files["dir"] / "back.keras")
    legacy = str(files["dir"] / "converted.h5")
    assert run(capsys, "convert", files["keras"], legacy)[0] == 0
    status, out, _ = run(capsys, "convert", legacy, back)
    assert status == 0
    assert out.strip() == (f"Wrote {back}: 8 weights, with the Adam "
                           "optimizer state.")
    original, restored = files["model"], keras.saving.load_model(back)
    for a, b in zip(original.weights + original.optimizer.variables,
                    restored.weights + restored.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert int(restored.optimizer.iterations.numpy()) == 2


def test_convert_to_weights_only_and_refusals(files, capsys):
    out = str(files["dir"] / "only.weights.h5")
    assert run(capsys, "convert", files["keras"], out)[0] == 0
    assert run(capsys, "diff", out, files["weights.h5"])[0] == 0
    status, _, err = run(capsys, "convert", files["keras"], files["h5"])
    assert status == 2
    assert err.strip().endswith("exists; pass --overwrite to replace it")
    assert run(capsys, "convert", "--overwrite", files["keras"],
               files["h5"])[0] == 0
    status, _, err = run(capsys, "convert", files["keras"],
                         str(files["dir"] / "model.txt"))
    assert status == 2 and "must end in .keras, .h5" in err
    status, _, err = run(capsys, "convert", files["keras"], files["keras"])
    assert status == 2 and "both the input and the output" in err


def test_diff_identical_across_formats(files, capsys):
    status, out, _ = run(capsys, "diff", files["keras"], files["h5"])
    assert status == 0
    assert out.strip().endswith("have identical weights (22 arrays).")
    assert run(capsys, "diff", files["keras"], files["weights.h5"])[0] == 0


def test_diff_lists_changed_weights_with_max_abs_difference(files, capsys):
    model = files["model"]
    kernel = model.layers[0].kernel
    changed = kernel.numpy().copy()
    changed[1, 2] += 0.25
    kernel.assign(changed)
    other = str(files["dir"] / "changed.keras")
    model.save(other)
    status, out, _ = run(capsys, "diff", files["keras"], other)
    assert status == 1
    lines = out.strip().splitlines()
    assert lines[0] == (f"1 of 22 weight arrays differ between "
                        f"{files['keras']} and {other}:")
    assert lines[1] == ("  layers/dense/vars/0 (tiny/dense/kernel): shape "
                        "(4, 3), max abs difference 0.25")
    assert run(capsys, "diff", "--atol", "0.3", files["keras"],
               other)[0] == 0


def test_diff_reports_missing_and_reshaped_weights(files, capsys):
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5)])
    other = str(files["dir"] / "other.keras")
    model.save(other)
    status, out, _ = run(capsys, "diff", "--no-optimizer", files["keras"],
                         other)
    assert status == 1
    assert "  layers/dense/vars/0 (tiny/dense/kernel): shape (4, 3) vs " \
           "(4, 5)" in out
    assert f"  layers/dense_1/vars/1 (tiny/dense_1/bias): only in " \
           f"{files['keras']}" in out


def test_plot_writes_a_png_next_to_the_file(files, capsys):
    if shutil.which("dot") is None:
        status, _, err = run(capsys, "plot", files["keras"])
        assert status == 2 and "apt-get install graphviz" in err
        return
    status, out, _ = run(capsys, "plot", files["keras"], "--dpi", "60")
    png = os.path.splitext(files["keras"])[0] + ".png"
    assert status == 0 and out.strip() == f"Wrote {png}"
    width, height, distinct = read_png(png)
    assert width > 50 and height > 100 and distinct > 2
    target = str(files["dir"] / "net.dot")
    assert run(capsys, "plot", files["h5"], "-o", target,
               "--rankdir", "LR")[0] == 0
    with open(target) as f:
        assert 'rankdir="LR";' in f.read()


def test_plot_without_graphviz_is_one_line(files, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(files["dir"]))
    status, _, err = run(capsys, "plot", files["keras"])
    assert status == 2
    assert len(err.strip().splitlines()) == 1
    assert "apt-get install graphviz" in err


@pytest.mark.parametrize("command", ["summary", "plot", "convert", "diff"])
def test_wrong_path_or_kind_is_one_line_exit_2(files, capsys, command):
    text = files["dir"] / "notes.txt"
    text.write_text("not a model")
    fake = files["dir"] / "fake.keras"
    fake.write_text("not a zip")
    fake_h5 = files["dir"] / "fake.h5"
    fake_h5.write_bytes(b"\x00" * 64)
    extra = [str(files["dir"] / "out.keras")] if command in (
        "convert", "diff") else []
    cases = {
        "missing.keras": "no such file: ",
        str(text): "is not a model file",
        str(fake): "is not a valid .keras file",
        str(fake_h5): "is not a readable HDF5 file",
        str(files["dir"]): "is a folder, not a model file",
    }
    if command != "diff":
        cases[files["weights.h5"]] = "holds weights only"
    for path, expected in cases.items():
        argv = [command, path] + (extra if command == "convert" else
                                  [files["keras"]] if command == "diff"
                                  else [])
        status, out, err = run(capsys, *argv)
        assert status == 2, (argv, out, err)
        assert err.startswith(f"kerasish {command}: error: "), err
        assert expected in err, (argv, err)
        assert len(err.strip().splitlines()) == 1


def test_corrupt_weights_file_in_diff(files, capsys):
    bad = files["dir"] / "bad.weights.h5"
    bad.write_text("garbage")
    status, _, err = run(capsys, "diff", str(bad), files["keras"])
    assert status == 2 and "is not a readable HDF5 file" in err


def test_unexpected_errors_are_one_line_unless_traceback(files, capsys,
                                                         monkeypatch):
    def broken(args):
        raise RuntimeError("boom")
    monkeypatch.setattr(cli, "cmd_summary", broken)
    monkeypatch.setattr(cli, "_add_summary", _summary_with(broken))
    status, _, err = run(capsys, "summary", files["keras"])
    assert status == 2
    assert err.strip() == ("kerasish summary: error: RuntimeError: boom "
                           "(run with --traceback for details)")
    with pytest.raises(RuntimeError, match="boom"):
        cli.main(["summary", "--traceback", files["keras"]])


def _summary_with(func):
    def add(commands, common):
        p = commands.add_parser("summary", parents=[common])
        p.add_argument("file")
        p.set_defaults(run=func)
    return add


def test_python_dash_m_has_no_traceback_for_user_errors(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "kerasish", "summary",
                           str(tmp_path / "none.keras")],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == (f"kerasish summary: error: no such file: "
                           f"{tmp_path / 'none.keras'}\n")
    usage = subprocess.run([sys.executable, "-m", "kerasish", "frobnicate"],
                           capture_output=True, text=True, env=env)
    assert usage.returncode == 2 and "Traceback" not in usage.stderr
    assert "invalid choice: 'frobnicate'" in usage.stderr


def test_console_script_is_declared():
    config = configparser.ConfigParser()
    config.read(os.path.join(ROOT, "setup.cfg"))
    scripts = config["options.entry_points"]["console_scripts"]
    assert scripts.strip() == "kerasish = kerasish.cli:run"
    assert callable(cli.run)
