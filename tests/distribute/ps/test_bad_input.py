"""Bad input to the parameter-server runtime: a clear error naming the
argument, raised before training starts, and nothing left running."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kerasish
from kerasish import layers
from tests.distribute.ps.test_sync import data, mlp

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("kwargs,message", [
    (dict(num_workers=2, backup_workers=2), "backup_workers=2, num_workers"),
    (dict(mode="sync", staleness=1), "Received: mode='sync', staleness=1"),
    (dict(mode="ssp"), "needs `staleness`"),
    (dict(mode="bsp"), "Received: mode='bsp'"),
    (dict(num_workers=0), "Received: num_workers=0"),
    (dict(num_ps=1.5), "Received: num_ps=1.5"),
    (dict(placement="random"), "Received: placement='random'"),
    (dict(mode="async", backup_workers=1), "mode='async', backup_workers"),
    (dict(mode="async", staleness=-1), "Received: staleness=-1"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        kerasish.distribute.ParameterServerStrategy(**kwargs)


def test_more_shards_than_variables(strategies):
    x, y = data()
    strategy = strategies(num_workers=1, num_ps=5)
    with strategy.scope():
        model = mlp()
    with pytest.raises(ValueError, match="num_ps=5"):
        model.fit(x, y, verbose=0)
    assert strategy.runtime.cluster is None


def test_partitioner_that_cannot_split(strategies):
    strategy = strategies(
        num_workers=1, num_ps=2, variable_partitioner=kerasish.distribute.
        partitioners.fixed_size_partitioner(4))
    with strategy.scope():
        with pytest.raises(ValueError, match=r"shape \(3,\) into 4 parts"):
            kerasish.Sequential([kerasish.Input((8,)), layers.Dense(3)])


class NoConfig(layers.Layer):
    """A custom layer whose constructor takes an argument it does not
    return from `get_config`: it cannot be rebuilt from its config."""

    def __init__(self, units):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight((input_shape[-1], self.units))

    def call(self, x):
        return kerasish.ops.matmul(x, self.w)


def test_model_that_cannot_be_rebuilt_on_a_worker(strategies):
    x, y = data()
    strategy = strategies(num_workers=2, num_ps=1)
    with strategy.scope():
        model = kerasish.Sequential([kerasish.Input((12,)), NoConfig(3)])
        model.compile("sgd", "mse")
    with pytest.raises(ValueError, match="cannot be rebuilt .*get_config"):
        model.fit(x, np.zeros((len(x), 3), "float32"), verbose=0)
    assert strategy.runtime.cluster is None


def test_weights_made_outside_the_scope(strategies):
    x, y = data()
    model = mlp()
    strategy = strategies(num_workers=1)
    with strategy.scope():
        model.compile("adam", "sparse_categorical_crossentropy")
    with pytest.raises(ValueError, match="inside `strategy.scope"):
        model.fit(x, y, verbose=0)


def run_python(code, timeout=90):
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
        text=True, timeout=timeout, cwd=".")
    return result


def test_without_ray_the_error_names_the_extra():
    result = run_python("""
        import sys
        sys.modules["ray"] = None           # as if Ray were not installed
        import kerasish
        try:
            kerasish.distribute.ParameterServerStrategy()
        except ImportError as error:
            print("IMPORT-ERROR", error)
    """)
    assert 'pip install "kerasish[distributed]"' in result.stdout, \
        result.stderr


def test_unreachable_address_fails_fast_and_cleanly():
    result = run_python("""
        import time, numpy as np, ray, kerasish
        s = kerasish.distribute.ParameterServerStrategy(
            num_workers=1, address="127.0.0.1:9")   # nothing listens there
        with s.scope():
            m = kerasish.Sequential([kerasish.Input((2,)),
                                     kerasish.layers.Dense(1)])
            m.compile("sgd", "mse")
        start = time.time()
        try:
            m.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
        except ConnectionError as error:
            print("CONNECTION-ERROR", round(time.time() - start), error)
        print("RAY-RUNNING", ray.is_initialized())
    """)
    assert "CONNECTION-ERROR" in result.stdout, result.stderr
    assert "address='127.0.0.1:9'" in result.stdout
    assert "RAY-RUNNING False" in result.stdout
    seconds = int(result.stdout.split("CONNECTION-ERROR ")[1].split()[0])
    assert seconds < 15


def test_import_kerasish_does_not_import_ray():
    result = run_python("""
        import sys, kerasish
        kerasish.distribute.partitioners.fixed_size_partitioner(2)
        print("RAY-IMPORTED", "ray" in sys.modules)
    """)
    assert "RAY-IMPORTED False" in result.stdout, result.stderr
