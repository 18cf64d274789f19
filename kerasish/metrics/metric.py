"""`Metric`: a stateful quantity accumulated over batches.

`update_state(...)` folds a batch into the metric's variables, `result()`
reads the current value, `reset_state()` zeroes the variables. Metric
updates never record on a gradient tape.
"""
import numpy as np

from kerasish.backend import config
from kerasish.backend.common import naming
from kerasish.backend.common.variable import Variable
from kerasish import initializers


class Metric:
    """Base class of metrics.

    Args:
        name: Metric name (the log key); defaults to snake_case class name.
        dtype: Dtype of the state and result (default floatx).

    Example:

    >>> class Count(Metric):
    ...     def __init__(self, name="count"):
    ...         super().__init__(name=name)
    ...         self.n = self.add_variable((), "zeros", name="n")
    ...     def update_state(self, values):
    ...         self.n.assign_add(len(values))
    ...     def result(self):
    ...         return self.n.value
    >>> m = Count()
    >>> m.update_state([1, 2, 3])
    >>> float(m.result())
    3.0
    """

    def __init__(self, dtype=None, name=None):
        self.name = name or naming.auto_name(type(self).__name__)
        self._dtype = str(getattr(dtype, "compute_dtype", dtype)
                          or config.floatx())
        self._variables = []
        self._metrics = []

    def __setattr__(self, name, value):
        if "_metrics" in self.__dict__ and isinstance(value, Metric) and \
                value is not self and not any(value is m
                                              for m in self._metrics):
            self._metrics.append(value)
        object.__setattr__(self, name, value)

    @property
    def dtype(self):
        return self._dtype

    @property
    def variables(self):
        out = list(self._variables)
        for metric in self._metrics:
            out.extend(metric.variables)
        return out

    def add_variable(self, shape, initializer, dtype=None,
                     aggregation="sum", name=None):
        """Create a state variable (non-trainable).

        Without a `dtype` the variable is floatx, not the metric's dtype
        (as Keras: its confusion counts stay float32 in a float64 metric).
        """
        with naming.name_scope(self.name):
            variable = Variable(initializers.get(initializer), shape=shape,
                                dtype=dtype or config.floatx(),
                                trainable=False,
                                name=name, aggregation=aggregation)
        self._variables.append(variable)
        return variable

    def add_weight(self, shape=(), initializer=None, dtype=None, name=None):
        return self.add_variable(shape, initializer or "zeros", dtype,
                                 name=name)

    def reset_state(self):
        """Zero every state variable."""
        for v in self.variables:
            v._value[...] = 0

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(
            f"Metric {type(self).__name__} must implement `update_state()`.")

    def result(self):
        raise NotImplementedError(
            f"Metric {type(self).__name__} must implement `result()`.")

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def _check_values(self, metric_variables):
        if len(metric_variables) != len(self.variables):
            raise ValueError(
                "Argument `metric_variables` must be a list of tensors "
                f"corresponding 1:1 to {type(self).__name__}().variables. "
                f"Received list with length {len(metric_variables)}, but "
                f"expected {len(self.variables)} variables.")

    def _stateless(self, fn, metric_variables=None):
        """`fn()` on the given values (or the current ones); returns its
        result and the variables' new values, changing nothing."""
        # lazy: kept out of `import kerasish`
        from kerasish.backend.common.scopes import StatelessScope
        if metric_variables is None:
            metric_variables = [v.numpy() for v in self.variables]
        mapping = list(zip(self.variables, metric_variables))
        with StatelessScope(mapping) as scope:
            result = fn()
        new = []
        for v in self.variables:
            value = scope.get_current_value(v)
            new.append(v if value is None else value)
        return result, new

    def stateless_result(self, metric_variables):
        """`result()` for the given variable values (nothing changes)."""
        self._check_values(metric_variables)
        return self._stateless(self.result, metric_variables)[0]

    def stateless_update_state(self, metric_variables, *args, **kwargs):
        """`update_state` on the given values; returns the new values and
        leaves the metric's own variables as they were."""
        self._check_values(metric_variables)
        return self._stateless(lambda: self.update_state(*args, **kwargs),
                               metric_variables)[1]

    def stateless_reset_state(self):
        """The values `reset_state()` would give, changing nothing."""
        return self._stateless(self.reset_state)[1]

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"
