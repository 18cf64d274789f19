"""Every example runs end to end (each in a fresh interpreter)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")

# (script, text its output must contain)
CASES = [
    ("quickstart.py", "Test accuracy: "),
    ("functional_multi_io.py", "test digit_accuracy: "),
    ("custom_callback.py", "recorded "),
    ("early_stopping_checkpoint.py",
     "History identical to an uninterrupted run: True"),
    ("estimator_wide_deep.py", "Restarted: resuming from global step 300"),
]


def run_example(script, *args, cwd=None, timeout=120):
    env = dict(os.environ, PYTHONPATH=ROOT, MPLBACKEND="Agg")
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, script),
                           *args], capture_output=True, text=True, env=env,
                          cwd=cwd or ROOT, timeout=timeout)


@pytest.mark.slow
@pytest.mark.parametrize("script,expected", CASES, ids=[c[0] for c in CASES])
def test_example_runs(script, expected):
    proc = run_example(script)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert expected in proc.stdout


def test_quickstart_reaches_target_accuracy():
    proc = run_example("quickstart.py")
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = [l for l in proc.stdout.splitlines()
            if l.startswith("Test accuracy:")][0]
    assert float(line.split()[2]) >= 0.95


@pytest.mark.slow
def test_monitored_session_example_resumes_when_rerun(tmp_path):
    folder = str(tmp_path / "ckpt")
    first = run_example("monitored_session.py", "--checkpoint-dir", folder,
                        "--last-step", "200")
    assert first.returncode == 0, first.stderr[-3000:]
    assert "Starting from scratch" in first.stdout
    assert "Stopped at global step 200" in first.stdout
    second = run_example("monitored_session.py", "--checkpoint-dir", folder,
                         "--last-step", "300")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "at global step 200." in second.stdout
    assert "Stopped at global step 300" in second.stdout


def _value_after(stdout, prefix):
    """The number that follows `prefix` on the first line starting so."""
    line = [l for l in stdout.splitlines() if l.strip().startswith(prefix)]
    assert line, f"no line starting with {prefix!r} in:\n{stdout[-2000:]}"
    return float(line[0].strip()[len(prefix):].split()[0])


# (script, {printed prefix: minimum value that must follow it})
SCORED = [
    ("custom_train_step.py",
     {"Test accuracy after mixup training:": 0.93}),
    ("shared_layers_nested_models.py",
     {"Same-digit accuracy on test pairs:": 0.9}),
    ("custom_layer_check_grads.py", {"RBF network test accuracy:": 0.9}),
    ("text_classification.py", {"Test accuracy:": 0.7}),
    ("small_cnn.py", {"CNN test accuracy:": 0.96}),
    ("transfer_learning.py", {"accuracy with the base frozen:": 0.8,
                              "accuracy after fine-tuning:": 0.85}),
]


@pytest.mark.slow
@pytest.mark.parametrize("script,scores", SCORED, ids=[c[0] for c in SCORED])
def test_use_case_examples_reach_their_scores(script, scores):
    proc = run_example(script)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for prefix, minimum in scores.items():
        assert _value_after(proc.stdout, prefix) >= minimum, proc.stdout


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_parameter_server_example_matches_the_local_run():
    pytest.importorskip("ray")
    proc = run_example("parameter_server.py", timeout=200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Weights equal to the local run's: True" in proc.stdout
    local = _value_after(proc.stdout, "Local test accuracy:")
    remote = _value_after(proc.stdout, "Parameter-server test accuracy:")
    assert remote == local >= 0.93, proc.stdout


def test_custom_layer_example_checks_and_catches_gradients():
    proc = run_example("custom_layer_check_grads.py", "--epochs", "1")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "GaussianRBF gradients match finite differences" in proc.stdout
    assert "check_grads caught the wrong gradient: Gradient check " \
           "failed" in proc.stdout
    assert "reloaded the custom layer: GaussianRBF True" in proc.stdout


def test_text_example_rates_given_reviews_and_saves(tmp_path):
    path = str(tmp_path / "sentiment.keras")
    proc = run_example("text_classification.py", "--epochs", "1",
                       "--review", "A wonderful, warm and funny film.",
                       "--save", path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert ": A wonderful, warm and funny film." in proc.stdout
    assert os.path.exists(path)


def test_cnn_example_writes_its_pictures(tmp_path):
    proc = run_example("small_cnn.py", "--epochs", "1", "--plot",
                       str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "history.png").stat().st_size > 1000
    if "skipped model.png" not in proc.stdout:
        assert (tmp_path / "model.png").stat().st_size > 1000


BAD_ARGUMENTS = [
    ("custom_train_step.py", ["--epochs", "x"], "invalid int value: 'x'"),
    ("custom_train_step.py", ["--alpha", "0"], "--alpha must be positive"),
    ("shared_layers_nested_models.py", ["--pairs", "5"],
     "--pairs must be at least 100"),
    ("custom_layer_check_grads.py", ["--epochs", "0"],
     "--epochs must be at least 1"),
    ("text_classification.py", ["--save", "/no/such/folder/m.keras"],
     "--save: no such folder"),
    ("text_classification.py", ["--save", "model.h5"],
     "must end in .keras"),
    ("small_cnn.py", ["--plot", "/no/such/folder"],
     "--plot: no such folder"),
    ("small_cnn.py", ["--colour"], "unrecognized arguments: --colour"),
    ("transfer_learning.py", ["--base", "/no/such/base.keras"],
     "--base: no such file"),
    ("transfer_learning.py", ["--labels-per-class", "500"],
     "--labels-per-class must be in 1..100"),
]


def _load_example(script):
    """Import an example as a module (its `main(argv)` runs in-process)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        f"example_{script[:-3]}", os.path.join(EXAMPLES, script))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bad_run(capsys, script, *argv):
    """main(argv) must exit non-zero with one line on stderr."""
    with pytest.raises(SystemExit) as exit_info:
        _load_example(script).main(list(argv))
    code = exit_info.value.code
    # SystemExit("message") prints the message itself, as Python does.
    message = code if isinstance(code, str) else capsys.readouterr().err
    assert code not in (0, None)
    lines = message.strip().splitlines()
    assert len(lines) == 1, message
    return lines[0]


@pytest.mark.parametrize("script,argv,expected", BAD_ARGUMENTS,
                         ids=[f"{c[0]}:{c[1][0]}" for c in BAD_ARGUMENTS])
def test_examples_report_bad_arguments_in_one_line(capsys, script, argv,
                                                   expected):
    assert expected in _bad_run(capsys, script, *argv)


def test_bad_arguments_print_no_traceback_from_the_shell():
    proc = run_example("small_cnn.py", "--epochs", "0")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == ("small_cnn.py: error: --epochs must be at "
                           "least 1, got 0\n")


@pytest.mark.parametrize("content", [b"not a zip", None])
def test_transfer_example_rejects_a_wrong_base_file(capsys, tmp_path,
                                                    content):
    if content is None:      # a real model file, but not a base
        import kerasish as keras
        path = str(tmp_path / "other.keras")
        keras.Sequential([keras.Input((3,)),
                          keras.layers.Dense(2)]).save(path)
    else:
        path = str(tmp_path / "broken.keras")
        with open(path, "wb") as f:
            f.write(content)
    line = _bad_run(capsys, "transfer_learning.py", "--base", path)
    assert line.startswith("transfer_learning.py: error: --base: ")


@pytest.mark.slow
def test_estimator_wide_deep_example_resumes_when_rerun(tmp_path):
    folder = str(tmp_path / "anes")
    first = run_example("estimator_wide_deep.py", "--model-dir", folder,
                        "--steps", "100")
    assert first.returncode == 0, first.stderr[-3000:]
    assert "Starting from scratch" in first.stdout
    assert "Stopped at global step 100" in first.stdout
    accuracy = float(first.stdout.split("Test: accuracy = ")[1][:5])
    assert accuracy > 0.85
    second = run_example("estimator_wide_deep.py", "--model-dir", folder,
                         "--steps", "100")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "Resuming from global step 150" in second.stdout
    assert "Stopped at global step 250" in second.stdout
