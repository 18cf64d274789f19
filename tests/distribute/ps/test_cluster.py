"""The cluster path: a `ray start --head` on 127.0.0.1 started here, a
training script joining it by address, and the head stopped afterwards."""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

pytestmark = pytest.mark.timeout(180)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.3)
    return False


def stop(head):
    """SIGTERM the head's process group; SIGKILL what is left after 10 s."""
    try:
        os.killpg(head.pid, signal.SIGTERM)
        head.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=10)
    except ProcessLookupError:
        pass


def leftover(tag):
    out = subprocess.run(["pgrep", "-af", tag], capture_output=True,
                         text=True).stdout
    return [line for line in out.splitlines() if "pgrep" not in line]


def test_a_script_joins_a_running_cluster_by_address():
    port = free_port()
    temp = tempfile.mkdtemp(prefix="kerasish-ray-head-")
    env = dict(os.environ, RAY_AUTH_MODE="disabled")
    head = subprocess.Popen(
        ["ray", "start", "--head", "--block", f"--port={port}",
         "--node-ip-address=127.0.0.1", "--num-cpus=1",
         "--include-dashboard=false", "--disable-usage-stats",
         f"--temp-dir={temp}"], env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        assert wait_for_port(port, 60), "the Ray head did not come up"
        script = textwrap.dedent(f"""
            import numpy as np, ray, kerasish
            strategy = kerasish.distribute.ParameterServerStrategy(
                num_workers=2, num_ps=2, address="127.0.0.1:{port}")
            with strategy.scope():
                model = kerasish.Sequential([
                    kerasish.Input((3,)), kerasish.layers.Dense(2),
                    kerasish.layers.Dense(1)])
                model.compile("sgd", "mse")
            x = np.arange(24, dtype="float32").reshape(8, 3) / 24
            history = model.fit(x, x[:, :1], batch_size=4, epochs=2,
                                verbose=0)
            print("NODES", len(ray.nodes()))
            print("ITERATIONS", int(model.optimizer.iterations.numpy()))
            print("FINITE", all(np.isfinite(history.history["loss"])))
            strategy.shutdown()
            print("RAY-AFTER", ray.is_initialized())
        """)
        result = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True,
            timeout=120, env=dict(env, PYTHONPATH=os.getcwd()))
        assert "ITERATIONS 4" in result.stdout, result.stderr[-3000:]
        assert "NODES 1" in result.stdout
        assert "FINITE True" in result.stdout
        assert "RAY-AFTER False" in result.stdout
    finally:
        stop(head)
    assert not leftover(temp)
