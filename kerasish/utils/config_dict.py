"""`Config` (`keras.utils.Config`): a freezable dict with attribute access."""
import copy
import json


class Config:
    """A dict-like container of named values, readable as attributes.

    Values are set through the constructor, as attributes or as items;
    `freeze()` makes later changes raise. Iteration yields the keys in
    sorted order, as in Keras.

    Args:
        **kwargs: Initial entries.

    Example:

    >>> config = kerasish.utils.Config(learning_rate=0.1)
    >>> config.momentum = 0.9
    >>> config["seed"] = 123
    >>> config.learning_rate, config["momentum"], list(config)
    (0.1, 0.9, ['learning_rate', 'momentum', 'seed'])
    >>> config.freeze()
    >>> config.seed = 1
    Traceback (most recent call last):
      ...
    ValueError: Cannot mutate attribute(s) because the config is frozen.
    """

    # The names the class itself defines; anything else is an entry.
    __attrs__ = None

    def __init__(self, **kwargs):
        self._config = kwargs
        self._frozen = False
        self.__attrs__ = set(dir(self))

    @property
    def frozen(self):
        """Whether the config refuses modifications."""
        return self._frozen

    def freeze(self):
        """Refuse any further modification."""
        self._frozen = True

    def unfreeze(self):
        """Allow modifications again."""
        self._frozen = False

    def _raise_if_frozen(self):
        if self._frozen:
            raise ValueError(
                "Cannot mutate attribute(s) because the config is frozen.")

    def as_dict(self):
        """A shallow copy of the entries as a plain dict."""
        return copy.copy(self._config)

    def to_json(self):
        """The entries as a JSON string."""
        return json.dumps(self._config)

    def keys(self):
        return self._config.keys()

    def values(self):
        return self._config.values()

    def items(self):
        return self._config.items()

    def get(self, keyname, value=None):
        return self._config.get(keyname, value)

    def pop(self, *args):
        self._raise_if_frozen()
        return self._config.pop(*args)

    def update(self, *args, **kwargs):
        self._raise_if_frozen()
        return self._config.update(*args, **kwargs)

    def __setattr__(self, name, value):
        attrs = object.__getattribute__(self, "__attrs__")
        if attrs is None or name in attrs:
            object.__setattr__(self, name, value)
            return
        self._raise_if_frozen()
        self._config[name] = value

    def __getattr__(self, name):
        # Only called for names that are not regular attributes.
        config = object.__getattribute__(self, "_config")
        if name in config:
            return config[name]
        message = f"Unknown attribute: '{name}'."
        # lazy: kept out of `import kerasish`
        import difflib          # on first use: it costs `import kerasish`
        close = difflib.get_close_matches(name, config.keys(), n=1,
                                          cutoff=0.7)
        if close:
            message += f" Did you mean '{close[0]}'?"
        raise AttributeError(message)

    def __setitem__(self, key, item):
        self._raise_if_frozen()
        self._config[key] = item

    def __getitem__(self, key):
        return self._config[key]

    def __delitem__(self, key):
        self._raise_if_frozen()
        del self._config[key]

    def __contains__(self, item):
        return item in self._config

    def __iter__(self):
        return iter(sorted(self._config.keys()))

    def __len__(self):
        return len(self._config)

    def __repr__(self):
        return f"<Config {self._config}>"
