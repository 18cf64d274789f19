"""One in-process Ray for the parameter-server tests (started once,
stopped after the last test of the folder); actors take no CPU slot."""
import os

import pytest

ray = pytest.importorskip("ray")


@pytest.fixture(scope="package", autouse=True)
def ray_local():
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    started = not ray.is_initialized()
    if started:
        from kerasish.distribute.ps.cluster import _import_path
        ray.init(address="local", num_cpus=2, include_dashboard=False,
                 log_to_driver=False, configure_logging=False,
                 runtime_env={"env_vars": {"PYTHONPATH": _import_path()}})
    yield
    if started:
        ray.shutdown()


@pytest.fixture
def strategies():
    """Make strategies through this; every one is shut down after the
    test, so no actor outlives it."""
    made = []

    def make(**kwargs):
        import kerasish
        strategy = kerasish.distribute.ParameterServerStrategy(**kwargs)
        made.append(strategy)
        return strategy
    yield make
    for strategy in made:
        strategy.shutdown()
