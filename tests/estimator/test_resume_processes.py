"""Resuming from model_dir across processes (each run a new interpreter)."""
import json
import os
import subprocess
import sys

import numpy as np

from tests.estimator.util import data, make

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCRIPT = """
import json, sys
from tests.estimator.util import data, make
est = make(sys.argv[1], tf_random_seed=7, save_checkpoints_steps=5)
start = est.latest_checkpoint()
est.train(data, steps=int(sys.argv[2]))
print(json.dumps({"start": start,
                  "step": int(est.get_variable_value("global_step"))}))
"""


def run(model_dir, steps):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(model_dir),
                           str(steps)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_second_process_continues_from_the_saved_step(tmp_path):
    first = run(tmp_path / "split", 20)
    assert first == {"start": None, "step": 20}
    second = run(tmp_path / "split", 20)
    assert second["start"].endswith("model.ckpt-20")
    assert second["step"] == 40
    whole = make(tmp_path / "whole", tf_random_seed=7)
    whole.train(data, steps=40)
    split = make(tmp_path / "split")
    assert split.get_variable_names() == whole.get_variable_names()
    for name in whole.get_variable_names():
        np.testing.assert_array_equal(split.get_variable_value(name),
                                      whole.get_variable_value(name))
