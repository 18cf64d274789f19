"""`DTypePolicy`: a layer's variable dtype and compute dtype.

The float policies live here because every layer needs one at creation;
the quantized policies and `DTypePolicyMap` live in `kerasish.dtype_policies`
and are imported only when a quantized name or config shows up.
"""
from kerasish.backend import config
from kerasish.backend.dtypes import is_float, standardize_dtype
from kerasish.saving.object_registration import builtin
from kerasish import ops
from kerasish.backend.tensor import Tensor
from kerasish.backend.common.keras_tensor import KerasTensor

QUANTIZATION_MODES = ("int8", "float8", "int4", "gptq", "awq")
_MIXED = {"mixed_float16": ("float16", "float32"),
          "mixed_bfloat16": ("bfloat16", "float32")}
_GLOBAL_POLICY = [None]


@builtin("keras")
class DTypePolicy:
    """A dtype policy for a layer: its compute dtype and variable dtype.

    Pass a policy (or its name) as a layer's `dtype` argument, or set a
    global one with `kerasish.config.set_dtype_policy`. A float dtype name
    (`"float32"`, `"float64"`, `"float16"`, `"bfloat16"`) computes and
    stores in that dtype; `"mixed_float16"` and `"mixed_bfloat16"` keep
    the variables in float32 and compute in float16 / bfloat16 (the
    layers cast their inputs, and read their variables cast, to the
    compute dtype). bfloat16 arrays need the `ml_dtypes` package
    (`pip install kerasish[ml-dtypes]`).

    Args:
        name: The policy name. Defaults to the global policy's name.

    Example:

    >>> policy = kerasish.DTypePolicy("mixed_float16")
    >>> policy.compute_dtype, policy.variable_dtype
    ('float16', 'float32')
    >>> kerasish.layers.Dense(2, dtype="float64").dtype_policy
    <DTypePolicy "float64">
    """

    # Read by `Layer.__call__` on every call: True when the layer needs no
    # autocast scope and no quantized call path (float32, float64...).
    # Quantized policies and policy maps keep the class default.
    _plain = False
    _is_policy_map = False

    def __init__(self, name=None):
        if name is None:
            name = dtype_policy().name
        self._name = name
        self._compute_dtype, self._variable_dtype = self._parse_name(name)
        self._quantization_mode = None
        self._plain = type(self) in (DTypePolicy, FloatDTypePolicy) and \
            self._compute_dtype == self._variable_dtype

    def _parse_name(self, name):
        """`(compute_dtype, variable_dtype)` of a float policy name."""
        if not isinstance(name, str):
            raise TypeError(
                "'name' must be a string, such as 'mixed_float16'. "
                f"Received: name={name} (of type {type(name)})")
        if name in _MIXED:
            compute, variable = _MIXED[name]
            return standardize_dtype(compute), variable
        try:
            dtype = standardize_dtype(name)
        except (ValueError, TypeError):
            raise ValueError(
                f"Cannot convert '{name}' to a mixed precision DTypePolicy. "
                "Valid policies include 'mixed_float16', 'mixed_bfloat16', "
                "and the name of any float dtype such as 'float32'."
            ) from None
        return dtype, dtype

    @property
    def name(self):
        """The policy's name."""
        return self._name

    @property
    def compute_dtype(self):
        """The dtype layers compute in (and usually output)."""
        return self._compute_dtype

    @property
    def variable_dtype(self):
        """The dtype layers create their variables in."""
        return self._variable_dtype

    @property
    def quantization_mode(self):
        """The quantization mode (`"int8"`, ...), `None` for float ones."""
        return self._quantization_mode

    def convert_input(self, x, autocast, dtype):
        """Convert an array-like `x` to a tensor, casting floats to `dtype`.

        Integer and boolean inputs keep their dtype; float inputs are cast
        when `autocast` is true and their dtype differs.
        """
        dtype = standardize_dtype(dtype)
        if not isinstance(x, (Tensor, KerasTensor)):
            if not hasattr(x, "__array__") and \
                    not isinstance(x, (int, float, list, tuple)):
                return x
            x = ops.convert_to_tensor(x)
        if autocast and is_float(x.dtype) and \
                standardize_dtype(x.dtype) != dtype:
            x = ops.cast(x, dtype)
        return x

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        class_name = type(self).__name__
        if class_name == "FloatDTypePolicy":
            class_name = "DTypePolicy"
        return f'<{class_name} "{self._name}">'

    def __eq__(self, other):
        if type(self) in (DTypePolicy, FloatDTypePolicy):
            if type(other) not in (DTypePolicy, FloatDTypePolicy):
                return False
        elif type(other) is not type(self):
            return False
        return self._name == other._name

    __hash__ = object.__hash__


@builtin("keras")
class FloatDTypePolicy(DTypePolicy):
    """Alias of `DTypePolicy` (Keras keeps it for older configs).

    Example:

    >>> kerasish.dtype_policies.FloatDTypePolicy("float32")
    <DTypePolicy "float32">
    """


def get(identifier):
    """Resolve None / a name / a config dict / a policy to a `DTypePolicy`.

    Args:
        identifier: `None` (the global policy), a policy name such as
            `"mixed_float16"` or `"int8_from_float32"`, a serialized policy
            dict, or a `DTypePolicy`.

    Example:

    >>> get("mixed_float16").compute_dtype
    'float16'
    """
    if identifier is None:
        return dtype_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return _from_dict(identifier)
    if isinstance(identifier, str):
        if identifier.startswith(QUANTIZATION_MODES):
            # lazy: kept out of `import kerasish`
            from kerasish.dtype_policies import quantized_policies
            return quantized_policies.policy_from_name(identifier)
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(standardize_dtype(identifier))
    except (ValueError, TypeError):
        raise ValueError(
            "Cannot interpret `dtype` argument. Expected a string or an "
            f"instance of DTypePolicy. Received: dtype={identifier}"
        ) from None


def _from_dict(identifier):
    name = identifier.get("class_name")
    if name in (None, "DTypePolicy", "FloatDTypePolicy"):
        inner = identifier.get("config", identifier)
        cls = FloatDTypePolicy if name == "FloatDTypePolicy" else DTypePolicy
        return cls.from_config(dict(inner))
    from kerasish import dtype_policies  # lazy: kept out of `import kerasish`
    return dtype_policies.deserialize(identifier)


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
        policy: A `DTypePolicy`, a policy name such as `"float64"`,
            `"mixed_float16"` or `"int8_from_float32"`, or `None` for the
            default (floatx).

    Example:

    >>> kerasish.config.set_dtype_policy("float64")
    >>> kerasish.layers.Dense(1).dtype_policy.name
    'float64'
    >>> kerasish.config.set_dtype_policy(None)
    """
    if policy is not None and not isinstance(policy, (DTypePolicy, str)):
        raise ValueError(
            "Invalid `policy` argument. Expected the string name of a policy "
            "(such as 'mixed_float16') or a `DTypePolicy` instance. "
            f"Received: policy={policy} (of type {type(policy)})")
    _GLOBAL_POLICY[0] = get(policy) if policy is not None else None
