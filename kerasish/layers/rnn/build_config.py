"""Keras's build-config format for layers whose `build` has several
named shape arguments (`build(sequences_shape, initial_state_shape=None)`,
`build(query_shape, value_shape, key_shape=None)`): one shape is stored as
`{"input_shape": ...}`, several as `{"shapes_dict": {...}}`."""


class KerasBuildConfig:
    """Mixin giving a layer Keras's `get_build_config` keys."""

    def get_build_config(self):
        shapes = super().get_build_config()
        if not shapes:
            return shapes
        if len(shapes) == 1:
            return {"input_shape": next(iter(shapes.values()))}
        return {"shapes_dict": shapes}

    def build_from_config(self, config):
        if config and "shapes_dict" in config:
            config = config["shapes_dict"]
        super().build_from_config(config)
