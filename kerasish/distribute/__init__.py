"""`kerasish.distribute`: strategies and the runtimes that run steps."""
from kerasish.distribute import partitioners  # noqa: F401
from kerasish.distribute.parameter_server_strategy import (  # noqa: F401
    ParameterServerStrategy)
from kerasish.distribute.placement import (  # noqa: F401
    GreedyLoadBalancingStrategy, RoundRobinStrategy, byte_size_load_fn)
from kerasish.distribute.runtime import Runtime, LocalRuntime  # noqa: F401
from kerasish.distribute.sharded_variable import ShardedVariable  # noqa
from kerasish.distribute.strategy import (Strategy, get_strategy,  # noqa
                                          has_strategy, current_runtime)
