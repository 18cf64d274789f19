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
