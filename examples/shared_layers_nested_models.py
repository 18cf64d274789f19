"""Shared layers and nested models: a siamese network on the digits.

One encoder model (itself a Sequential) is applied to two images; the same
weights serve both branches. A comparison head, another nested functional
model, decides whether the two images show the same digit. The trained
encoder is then reused on its own as a feature extractor, and the whole
model is saved and reloaded with its nested structure intact.

    python examples/shared_layers_nested_models.py --epochs 6
"""
import argparse
import os
import tempfile

import numpy as np

import kerasish as keras
from kerasish import layers


class OneLineParser(argparse.ArgumentParser):
    """Report a bad argument in one line (no usage block)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def make_pairs(x, y, count, rng):
    """`count` image pairs, half of the same digit; target 1 when same."""
    by_digit = [np.flatnonzero(y == d) for d in range(10)]
    first = rng.integers(0, len(x), count)
    same = rng.random(count) < 0.5
    second = np.where(
        same, [rng.choice(by_digit[y[i]]) for i in first],
        rng.integers(0, len(x), count))
    return ({"left": x[first], "right": x[second]},
            (y[first] == y[second]).astype("float32"))


def build_encoder():
    return keras.Sequential([
        keras.Input((64,)),
        layers.Dense(64, activation="relu"),
        layers.Dense(32, activation="relu", name="embedding"),
    ], name="encoder")


def build_head():
    a, b = keras.Input((32,), name="a"), keras.Input((32,), name="b")
    # An op on symbolic tensors becomes a node of the graph (and is saved).
    distance = keras.ops.absolute(layers.Subtract()([a, b]))
    product = layers.Multiply(name="product")([a, b])
    hidden = layers.Dense(16, activation="relu")(
        layers.Concatenate()([distance, product]))
    return keras.Model([a, b], layers.Dense(1, activation="sigmoid")(hidden),
                       name="head")


def build_siamese():
    encoder, head = build_encoder(), build_head()
    left, right = keras.Input((64,), name="left"), keras.Input((64,),
                                                                name="right")
    same = head([encoder(left), encoder(right)])   # encoder shared
    return keras.Model({"left": left, "right": right}, same,
                       name="siamese"), encoder, head


def parse_args(argv):
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--pairs", type=int, default=6000,
                        help="training pairs to draw (at least 100)")
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error(f"--epochs must be at least 1, got {args.epochs}")
    if args.pairs < 100:
        parser.error(f"--pairs must be at least 100, got {args.pairs}")
    return args


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(5)
    rng = np.random.default_rng(5)
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = x_train.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
    model, encoder, head = build_siamese()
    model.summary(expand_nested=True)
    print(f"parameters: {model.count_params()} = encoder "
          f"{encoder.count_params()} (counted once: both branches share it)"
          f" + head {head.count_params()}")

    model.compile(optimizer="adam", loss="binary_crossentropy",
                  metrics=["accuracy"])
    pairs, same = make_pairs(x_train, y_train, args.pairs, rng)
    model.fit(pairs, same, batch_size=64, epochs=args.epochs,
              validation_split=0.1, verbose=2)
    test_pairs, test_same = make_pairs(x_test, y_test, 1000, rng)
    _, accuracy = model.evaluate(test_pairs, test_same, verbose=0)
    print(f"Same-digit accuracy on test pairs: {accuracy:.4f}")

    features = encoder.predict(x_test, verbose=0)
    print("encoder alone maps test images to", features.shape)
    path = os.path.join(tempfile.mkdtemp(), "siamese.keras")
    model.save(path)
    restored = keras.saving.load_model(path)
    print("reloaded nested models:",
          [layer.name for layer in restored.layers
           if isinstance(layer, keras.Model)])
    same_predictions = np.allclose(model.predict(test_pairs, verbose=0),
                                   restored.predict(test_pairs, verbose=0))
    print(f"reloaded model predicts the same: {same_predictions}")
    return accuracy


if __name__ == "__main__":
    main()
