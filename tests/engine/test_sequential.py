import numpy as np
import pytest

import kerasish
from kerasish import layers


def test_construct_from_list_with_input():
    model = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(4),
                                 layers.Dense(2)])
    assert model.built and model.output_shape == (None, 2)
    assert [l.name for l in model.layers] == ["dense", "dense_1"]
    assert model.count_params() == 3 * 4 + 4 + 4 * 2 + 2


def test_add_and_pop():
    model = kerasish.Sequential()
    model.add(kerasish.Input((3,)))
    model.add(layers.Dense(4))
    model.add(layers.Dense(2))
    assert model.output_shape == (None, 2)
    popped = model.pop()
    assert popped.name == "dense_1" and model.output_shape == (None, 4)
    # Keras 3.15 raises IndexError when nothing is left to pop.
    with pytest.raises(IndexError, match="no layers"):
        kerasish.Sequential().pop()
    with pytest.raises(ValueError, match="unique names"):
        model.add(layers.Dense(1, name="dense"))
    with pytest.raises(ValueError, match="Only instances of"):
        model.add("not a layer")


def test_lazy_build_on_first_data():
    model = kerasish.Sequential([layers.Dense(4), layers.Dense(1)])
    assert not model.built
    out = model(np.ones((5, 3), "float32"))
    assert out.shape == (5, 1) and model.built
    assert model.layers[0].kernel.shape == (3, 4)


def test_cannot_add_second_input():
    model = kerasish.Sequential([kerasish.Input((3,)), layers.Dense(2)])
    with pytest.raises(ValueError, match="already been configured"):
        model.add(kerasish.Input((3,)))


def test_config_round_trip():
    model = kerasish.Sequential([kerasish.Input((3,)),
                                 layers.Dense(4, activation="relu"),
                                 layers.Dropout(0.5), layers.Dense(1)])
    config = model.get_config()
    assert config["layers"][0]["class_name"] == "InputLayer"
    clone = kerasish.Sequential.from_config(config)
    clone.set_weights(model.get_weights())
    x = np.random.rand(2, 3).astype("float32")
    np.testing.assert_allclose(clone(x).numpy(), model(x).numpy())


SEQ_SUMMARY = """\
Model: "seq"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ hidden (Dense)                  │ (None, 8)              │           136 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dropout (Dropout)               │ (None, 8)              │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dense (Dense)                   │ (None, 1)              │             9 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 145 (580.00 B)
 Trainable params: 145 (580.00 B)
 Non-trainable params: 0 (0.00 B)"""


def test_summary_matches_keras_text():
    # The expected table was printed by Keras 3.15.1 (line_length=76).
    model = kerasish.Sequential([
        kerasish.Input((16,)), layers.Dense(8, activation="relu",
                                            name="hidden"),
        layers.Dropout(0.5), layers.Dense(1)], name="seq")
    lines = []
    model.summary(line_length=76, print_fn=lines.append)
    # Keras hands print_fn rich's captured text, which ends with "\n".
    assert lines[0] == SEQ_SUMMARY + "\n"


def test_summary_shows_optimizer_params_after_training():
    model = kerasish.Sequential([kerasish.Input((16,)),
                                 layers.Dense(8), layers.Dense(1)])
    model.compile("adam", "mse")
    model.fit(np.ones((4, 16)), np.ones((4, 1)), verbose=0)
    lines = []
    model.summary(line_length=76, print_fn=lines.append)
    assert " Optimizer params: 292 (1.14 KB)" in lines[0]


def test_no_input_shape_check_of_its_own():
    # As in Keras: built for (None, 5, 2), a Sequential still runs on
    # another length of axis 1; its layers check what they need.
    model = kerasish.Sequential([kerasish.Input((5, 2)), layers.Dense(3)])
    assert model.input_spec is None
    assert model(np.ones((7, 3, 2), "float32")).shape == (7, 3, 3)
    with pytest.raises(ValueError, match="expected axis -1 of input shape "
                                         "to have value 2"):
        model(np.ones((7, 5, 4), "float32"))


class _Block(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.ffn = kerasish.Sequential([layers.Dense(4), layers.Dense(2)])

    def call(self, x):
        return self.ffn(x)


def test_inner_sequential_on_an_input_of_unknown_length():
    # The keras.io Transformer blocks: a Sequential without Input inside
    # a layer called on `Input((None, d))`.
    block = _Block()
    out = block(kerasish.Input((None, 2)))
    assert out.shape == (None, None, 2)
    assert block(np.ones((2, 7, 2), "float32")).shape == (2, 7, 2)
