"""`DTypePolicyMap`: per-layer-path dtype policies for one parent layer."""
import re
from collections.abc import MutableMapping

from kerasish.engine.dtype_policy import DTypePolicy, get
from kerasish.saving.object_registration import builtin
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import \
    deserialize_keras_object


@builtin("keras.dtype_policies")
class DTypePolicyMap(DTypePolicy, MutableMapping):
    """A dict from layer paths (or regexes of paths) to `DTypePolicy`s.

    A parent layer passed a map as its `dtype` gives every sublayer the
    policy stored under that sublayer's `path`; a path with no exact key
    is matched against the keys as regular expressions (`re.fullmatch`),
    and one matching no key gets `default_policy`. Saving a model whose
    layers were quantized one by one uses this to record each policy.

    Args:
        default_policy: Policy of unmatched paths. Defaults to the global
            policy (`kerasish.config.dtype_policy()`), looked up when used.
        policy_map: Optional initial dict of path -> policy.

    Example:

    >>> policy_map = DTypePolicyMap(default_policy="float32")
    >>> policy_map["encoder/dense"] = "float64"
    >>> policy_map["encoder/.*"] = "float16"
    >>> policy_map["encoder/dense"].name, policy_map["encoder/query"].name
    ('float64', 'float16')
    >>> policy_map["decoder/query"].name
    'float32'
    """

    _is_policy_map = True   # lets layers recognize a map without imports

    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError(
                "If specified, `policy_map` must be a dict. Received: "
                f"policy_map={policy_map} of type {type(policy_map)}")
        self._default_policy_arg = default_policy
        self._default_policy = get(default_policy)
        self._policy_map = policy_map or {}

    @property
    def name(self):
        return f"map_{self.default_policy._name}"

    @property
    def default_policy(self):
        """The policy of paths matching no key."""
        return get(self._default_policy)

    @property
    def variable_dtype(self):
        return self.default_policy.variable_dtype

    @property
    def compute_dtype(self):
        return self.default_policy.compute_dtype

    @property
    def quantization_mode(self):
        return self.default_policy.quantization_mode

    def __getitem__(self, key):
        """The policy of path `key`: exact key, else the one regex match."""
        if key in self._policy_map:
            return self._policy_map[key]
        matches = [pattern for pattern in self._policy_map
                   if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(
                f"Path '{key}' matches multiple dtype policy specification "
                f"keys: {matches}. Please make sure each path only matches "
                "at most one dtype policy specification key in the "
                "DTypePolicyMap.")
        if matches:
            return self._policy_map[matches[0]]
        return self.default_policy

    def __setitem__(self, key, policy):
        if key in self._policy_map:
            raise ValueError(
                f"{key} already exist in the DTypePolicyMap with value "
                f"{self._policy_map[key]}. Please make sure to not use "
                "duplicated keys.")
        try:
            policy = get(policy)
        except Exception:  # noqa: BLE001 - re-raised with Keras's message
            raise ValueError(
                "Cannot interpret the assigned value by "
                "`keras.dtype_policies.get`. Received: "
                f"{policy} of type {type(policy)}") from None
        self._policy_map[key] = policy

    def __delitem__(self, key):
        return self._policy_map.pop(key)

    def __contains__(self, key):
        return key in self._policy_map

    def __len__(self):
        return len(self._policy_map)

    def __iter__(self):
        return iter(self._policy_map)

    def __eq__(self, other):
        return (isinstance(other, DTypePolicyMap) and
                self._default_policy == other._default_policy and
                self._policy_map == other._policy_map)

    __hash__ = object.__hash__

    def get_config(self):
        policies = {}
        for key, policy in self._policy_map.items():
            config = serialize_keras_object(policy)
            if self._default_policy_arg is None:
                # No default: the saved policies defer to the global policy
                # of the program that loads them, as Keras writes them.
                inner = dict(config["config"])
                inner["source_name" if "source_name" in inner else
                      "name"] = None
                config = dict(config, config=inner)
            policies[key] = config
        return {"default_policy": self._default_policy_arg,
                "policy_map": policies}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["policy_map"] = deserialize_keras_object(
            config["policy_map"], custom_objects=custom_objects)
        return cls(**config)

    def __repr__(self):
        default = (self._default_policy.name
                   if self._default_policy is not None else None)
        mapping = [(k, v.name) for k, v in self._policy_map.items()]
        return (f"<DTypePolicyMap at {hex(id(self))} "
                f"default_policy={default}, mapping={mapping}>")
