"""`kerasish.distribute`: strategies and the runtimes that run steps."""
from kerasish.distribute.runtime import Runtime, LocalRuntime  # noqa: F401
from kerasish.distribute.strategy import (Strategy, get_strategy,  # noqa
                                          has_strategy, current_runtime)
