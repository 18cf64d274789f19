"""Every writer, killed at each file event of a short run, leaves the
previous state loadable and the run resumable (`crash_points.py` does the
killing; one subprocess runs all writers, forking a child per kill).

Writers: MonitoredTrainingSession and Estimator checkpoints with the
`checkpoint` index and rotation, CSVLogger (appending and replacing),
legacy `.h5`, `.keras`, folder saves, TensorBoard event files.
"""
import json
import os
import subprocess
import sys

import pytest

from tests.saving.crash_points import WRITERS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not os.path.isdir("/proc/self/fd"),
    reason="kills forked children and follows their writes in /proc")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("crash_points")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    run = subprocess.run(
        [sys.executable, "-m", "tests.saving.crash_points", str(folder)],
        capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = [json.loads(line) for line in run.stdout.splitlines()
             if line.startswith("{")]
    return {report["writer"]: report for report in lines}


@pytest.mark.slow
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_killed_at_every_file_event_the_state_stays_loadable(reports,
                                                             writer):
    report = reports[writer]
    assert report["failures"] == []
    assert report["events"] >= 1 and report["kills"] == report["events"]
