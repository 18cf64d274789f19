"""`model.summary()` of functional models: Keras 3.15's text exactly.

The expected tables below were printed by Keras 3.15.1 (rich, console 80
columns wide, `print_fn` capturing).
"""
import pytest

import kerasish
from kerasish import layers as L

MULTI_TRAINABLE = """\
Model: "multi"
┏━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━┓
┃ Layer (type)      ┃ Output Shape    ┃   Param # ┃ Connected to   ┃ Trai… ┃
┡━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━┩
│ in_a (InputLayer) │ (None, 3)       │         0 │ -              │   -   │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ in_b (InputLayer) │ (None, 2)       │         0 │ -              │   -   │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ cat (Concatenate) │ (None, 5)       │         0 │ in_a[0][0],    │   -   │
│                   │                 │           │ in_b[0][0]     │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ hid (Dense)       │ (None, 4)       │        24 │ cat[0][0]      │   Y   │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ bn                │ (None, 4)       │        16 │ hid[0][0]      │   Y   │
│ (BatchNormalizat… │                 │           │                │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ out_a (Dense)     │ (None, 2)       │        10 │ bn[0][0]       │   Y   │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ out_b (Dense)     │ (None, 1)       │         5 │ bn[0][0]       │   Y   │
└───────────────────┴─────────────────┴───────────┴────────────────┴───────┘
 Total params: 55 (220.00 B)
 Trainable params: 47 (188.00 B)
 Non-trainable params: 8 (32.00 B)
"""

MULTI_POSITIONS = """\
Model: "multi"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━┳━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━┓
┃                             ┃              ┃ Par… ┃                      ┃
┃ Layer (type)                ┃ Output Shape ┃    # ┃ Connected to         ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━╇━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━┩
│ in_a (InputLayer)           │ (None, 3)    │    0 │ -                    │
├─────────────────────────────┼──────────────┼──────┼──────────────────────┤
│ in_b (InputLayer)           │ (None, 2)    │    0 │ -                    │
├─────────────────────────────┼──────────────┼──────┼──────────────────────┤
│ cat (Concatenate)           │ (None, 5)    │    0 │ in_a[0][0],          │
│                             │              │      │ in_b[0][0]           │
├─────────────────────────────┼──────────────┼──────┼──────────────────────┤
│ hid (Dense)                 │ (None, 4)    │   24 │ cat[0][0]            │
├─────────────────────────────┼──────────────┼──────┼──────────────────────┤
│ bn (BatchNormalization)     │ (None, 4)    │   16 │ hid[0][0]            │
├─────────────────────────────┼──────────────┼──────┼──────────────────────┤
│ out_a (Dense)               │ (None, 2)    │   10 │ bn[0][0]             │
├─────────────────────────────┼──────────────┼──────┼──────────────────────┤
│ out_b (Dense)               │ (None, 1)    │    5 │ bn[0][0]             │
└─────────────────────────────┴──────────────┴──────┴──────────────────────┘
 Total params: 55 (220.00 B)
 Trainable params: 47 (188.00 B)
 Non-trainable params: 8 (32.00 B)
"""

NESTED_EXPANDED = """\
Model: "outer"
┏━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━━━━━━┳━━━━━━━┓
┃ Layer (type)      ┃ Output Shape    ┃   Param # ┃ Connected to   ┃ Trai… ┃
┡━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━━━━━━╇━━━━━━━┩
│ outer_in          │ (None, 3)       │         0 │ -              │   -   │
│ (InputLayer)      │                 │           │                │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ inner             │ (None, 2)       │        32 │ outer_in[0][0] │   Y   │
│ (Functional)      │                 │           │                │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│    └ inner_in     │ (None, 3)       │         0 │ -              │   -   │
│ (InputLayer)      │                 │           │                │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│    └ inner_d      │ (None, 5)       │        20 │ -              │   Y   │
│ (Dense)           │                 │           │                │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│    └ inner_drop   │ (None, 5)       │         0 │ -              │   -   │
│ (Dropout)         │                 │           │                │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│    └ inner_d2     │ (None, 2)       │        12 │ -              │   Y   │
│ (Dense)           │                 │           │                │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ seq (Sequential)  │ (None, 2)       │        20 │ outer_in[0][0] │   Y   │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│    └ s1 (Dense)   │ (None, 3)       │        12 │ -              │   Y   │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│    └ s2 (Dense)   │ (None, 2)       │         8 │ -              │   Y   │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ add (Add)         │ (None, 2)       │         0 │ inner[0][0],   │   -   │
│                   │                 │           │ seq[0][0]      │       │
├───────────────────┼─────────────────┼───────────┼────────────────┼───────┤
│ outer_d (Dense)   │ (None, 1)       │         3 │ add[0][0]      │   Y   │
└───────────────────┴─────────────────┴───────────┴────────────────┴───────┘
 Total params: 55 (220.00 B)
 Trainable params: 55 (220.00 B)
 Non-trainable params: 0 (0.00 B)
"""

SEQUENTIAL_LIKE_POSITIONS = """\
Model: "seqlike"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┓
┃ Layer (type)                           ┃ Output Shape        ┃   Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━┩
│ a (InputLayer)                         │ (None, 3)           │         0 │
├────────────────────────────────────────┼─────────────────────┼───────────┤
│ d1 (Dense)                             │ (None, 4)           │        16 │
├────────────────────────────────────────┼─────────────────────┼───────────┤
│ d2 (Dense)                             │ (None, 2)           │        10 │
└────────────────────────────────────────┴─────────────────────┴───────────┘
 Total params: 26 (104.00 B)
 Trainable params: 26 (104.00 B)
 Non-trainable params: 0 (0.00 B)
"""

MULTI_LINE_150 = """\
Model: "multi"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
┃ Layer (type)                               ┃ Output Shape                     
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
│ in_a (InputLayer)                          │ (None, 3)                        
├────────────────────────────────────────────┼──────────────────────────────────
│ in_b (InputLayer)                          │ (None, 2)                        
├────────────────────────────────────────────┼──────────────────────────────────
│ cat (Concatenate)                          │ (None, 5)                        
├────────────────────────────────────────────┼──────────────────────────────────
│ hid (Dense)                                │ (None, 4)                        
├────────────────────────────────────────────┼──────────────────────────────────
│ bn (BatchNormalization)                    │ (None, 4)                        
├────────────────────────────────────────────┼──────────────────────────────────
│ out_a (Dense)                              │ (None, 2)                        
├────────────────────────────────────────────┼──────────────────────────────────
│ out_b (Dense)                              │ (None, 1)                        
└────────────────────────────────────────────┴──────────────────────────────────
 Total params: 55 (220.00 B)
 Trainable params: 47 (188.00 B)
 Non-trainable params: 8 (32.00 B)
"""

LAYER_RANGE = """\
Model: "multi"
┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓
┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃
┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩
│ hid (Dense)         │ (None, 4)         │         24 │ cat[0][0]         │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ bn                  │ (None, 4)         │         16 │ hid[0][0]         │
│ (BatchNormalizatio… │                   │            │                   │
├─────────────────────┼───────────────────┼────────────┼───────────────────┤
│ out_a (Dense)       │ (None, 2)         │         10 │ bn[0][0]          │
└─────────────────────┴───────────────────┴────────────┴───────────────────┘
 Total params: 55 (220.00 B)
 Trainable params: 47 (188.00 B)
 Non-trainable params: 8 (32.00 B)
"""


@pytest.fixture(autouse=True)
def console_80_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")


def multi():
    a = kerasish.Input((3,), name="in_a")
    b = kerasish.Input((2,), name="in_b")
    h = L.Concatenate(name="cat")([a, b])
    h = L.Dense(4, activation="tanh", name="hid")(h)
    h = L.BatchNormalization(name="bn")(h)
    return kerasish.Model([a, b], [L.Dense(2, name="out_a")(h),
                                   L.Dense(1, name="out_b")(h)],
                          name="multi")


def nested():
    ia = kerasish.Input((3,), name="inner_in")
    x = L.Dropout(0.1, name="inner_drop")(L.Dense(5, name="inner_d")(ia))
    inner = kerasish.Model(ia, L.Dense(2, name="inner_d2")(x), name="inner")
    seq = kerasish.Sequential([L.Dense(3, name="s1"), L.Dense(2, name="s2")],
                              name="seq")
    a = kerasish.Input((3,), name="outer_in")
    o = L.Add(name="add")([inner(a), seq(a)])
    return kerasish.Model(a, L.Dense(1, name="outer_d")(o), name="outer")


def seqlike():
    a = kerasish.Input((3,), name="a")
    o = L.Dense(2, name="d2")(L.Dense(4, name="d1")(a))
    return kerasish.Model(a, o, name="seqlike")


def summary(model, **kwargs):
    texts = []
    model.summary(print_fn=texts.append, **kwargs)
    assert len(texts) == 1
    return texts[0]


def test_words_too_long_for_a_cell_end_in_an_ellipsis():
    # "Trainable" and "(BatchNormalization)" do not fit their columns.
    assert summary(multi(), show_trainable=True) == MULTI_TRAINABLE


def test_header_cells_align_to_the_bottom():
    assert summary(multi(), positions=[0.4, 0.6, 0.7, 1.0]) == \
        MULTI_POSITIONS


def test_expanded_nested_layers_are_not_connected_in_the_outer_graph():
    assert summary(nested(), expand_nested=True, show_trainable=True) == \
        NESTED_EXPANDED


def test_narrow_positions_widen_to_the_line_length():
    # Four positions for three columns: the fourth is ignored and the
    # columns grow in proportion to fill the line.
    assert summary(seqlike(), positions=[0.4, 0.6, 0.7, 1.0]) == \
        SEQUENTIAL_LIKE_POSITIONS


def test_a_table_wider_than_the_console_is_cropped():
    assert summary(multi(), line_length=150) == MULTI_LINE_150


def test_layer_range():
    model = multi()
    assert summary(model, layer_range=["hid", "out_a"]) == LAYER_RANGE
    # Reversed bounds give the same slice.
    assert summary(model, layer_range=["out_a", "hid"]) == LAYER_RANGE
    with pytest.raises(ValueError, match="do not match the layer names"):
        summary(model, layer_range=["nope", "out_a"])
    with pytest.raises(ValueError, match="of length 2"):
        summary(model, layer_range=["hid"])
    with pytest.raises(ValueError, match="string type only"):
        summary(model, layer_range=["hid", 3])


SUBCLASSED = """\
Model: "outer_model"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ doubler (Doubler)               │ ?                      │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ first_two (FirstTwo)            │ (2, 2)                 │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ my_dense (MyDense)              │ (2, 4)                 │            12 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ inner_model (InnerModel)        │ ?                      │            15 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ sequential (Sequential)         │ (2, 2)                 │             8 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 35 (140.00 B)
 Trainable params: 35 (140.00 B)
 Non-trainable params: 0 (0.00 B)
"""


class Doubler(L.Layer):
    def call(self, x):
        return x * 2


class FirstTwo(L.Layer):
    def call(self, x):
        return x[:, :2]

    def compute_output_shape(self, input_shape):
        return (input_shape[0], 2)


class MyDense(L.Dense):
    pass


class InnerModel(kerasish.Model):
    def __init__(self):
        super().__init__()
        self.d = L.Dense(3)

    def call(self, x):
        return self.d(x)


class OuterModel(kerasish.Model):
    def __init__(self):
        super().__init__()
        self.c, self.w, self.m = Doubler(), FirstTwo(), MyDense(4)
        self.i = InnerModel()
        self.seq = kerasish.Sequential([L.Dense(2)])

    def call(self, x):
        return self.seq(self.i(self.m(self.w(self.c(x)))))


def test_subclassed_sublayers_without_compute_output_shape_show_a_question_mark():
    # Printed by Keras 3.15.1: outside a graph, a custom layer's shape is
    # known only through its own compute_output_shape (built-in ones, and
    # subclasses of them, always have one).
    model = OuterModel()
    model(kerasish.ops.ones((2, 5)))
    assert summary(model) == SUBCLASSED
