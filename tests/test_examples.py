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
