"""`DTypePolicy`: a layer's variable dtype and compute dtype."""
from kerasish.backend import config
from kerasish.backend.dtypes import standardize_dtype

_GLOBAL_POLICY = [None]


class DTypePolicy:
    """Variable and compute dtypes of a layer.

    `"float32"` computes and stores in float32; `"mixed_float16"` stores
    variables in float32 and computes in float16.

    Args:
        name: `"float32"`, `"float64"`, `"float16"`, `"mixed_float16"`, ...

    Example:

    >>> policy = kerasish.DTypePolicy("float64")
    >>> policy.compute_dtype, policy.variable_dtype
    ('float64', 'float64')
    """

    def __init__(self, name=None):
        name = name or config.floatx()
        if not isinstance(name, str):
            raise TypeError(
                "'name' must be a string, such as 'mixed_float16'. "
                f"Received: name={name} (of type {type(name)})")
        if name.startswith("mixed_"):
            self._compute = standardize_dtype(name[len("mixed_"):])
            self._variable = "float32"
        else:
            self._compute = self._variable = standardize_dtype(name)
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def compute_dtype(self):
        return self._compute

    @property
    def variable_dtype(self):
        return self._variable

    def __repr__(self):
        return f'<DTypePolicy "{self._name}">'

    def __eq__(self, other):
        return isinstance(other, DTypePolicy) and other._name == self._name

    __hash__ = object.__hash__

    def get_config(self):
        return {"name": self._name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def get(identifier):
    """Resolve None / str / dict / DTypePolicy to a `DTypePolicy`."""
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return DTypePolicy(**identifier.get("config", identifier))
    return DTypePolicy(standardize_dtype(identifier)
                       if not str(identifier).startswith("mixed_")
                       else identifier)


def dtype_policy():
    """The global policy (floatx unless set).

    Example:

    >>> kerasish.config.dtype_policy().name
    'float32'
    """
    return _GLOBAL_POLICY[0] or DTypePolicy(config.floatx())


def set_dtype_policy(policy):
    """Set the global dtype policy used by layers created afterwards.

    Args:
        policy: A `DTypePolicy`, a policy name such as `"float64"` or
            `"mixed_float16"`, or `None` for the default (floatx).

    Example:

    >>> kerasish.config.set_dtype_policy("float64")
    >>> kerasish.layers.Dense(1).dtype_policy.name
    'float64'
    >>> kerasish.config.set_dtype_policy(None)
    """
    _GLOBAL_POLICY[0] = get(policy) if policy is not None else None
