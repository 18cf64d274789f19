"""`kerasish.mixed_precision`: Keras's legacy mixed-precision names.

`Policy` is `DTypePolicy`; `global_policy` / `set_global_policy` are
`kerasish.config.dtype_policy` / `set_dtype_policy`.

Example:

>>> kerasish.mixed_precision.set_global_policy("mixed_float16")
>>> kerasish.layers.Dense(2).compute_dtype
'float16'
>>> kerasish.mixed_precision.set_global_policy(None)
"""
from kerasish.engine.dtype_policy import (  # noqa: F401
    DTypePolicy, dtype_policy, set_dtype_policy)
from kerasish.optimizers.loss_scale_optimizer import (  # noqa: F401
    LossScaleOptimizer)

Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy
