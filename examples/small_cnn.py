"""A small convolutional network on the digits, as 8x8x1 images.

Two 3x3 convolutions (with batch normalization), max pooling, dropout and
a softmax classifier, trained with a learning-rate schedule. With
`--plot DIR` it also writes the model graph (`plot_model`, needs Graphviz)
and the training curves (`plot_history`, needs matplotlib) as PNGs.

    python examples/small_cnn.py --epochs 8 --plot /tmp/cnn-pictures
"""
import argparse
import os

import numpy as np

import kerasish as keras
from kerasish import layers


class OneLineParser(argparse.ArgumentParser):
    """Report a bad argument in one line (no usage block)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_model():
    return keras.Sequential([
        keras.Input((8, 8, 1)),
        layers.Conv2D(16, 3, padding="same", use_bias=False),
        layers.BatchNormalization(),
        layers.Activation("relu"),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2),
        layers.Flatten(),
        layers.Dropout(0.3),
        layers.Dense(10, activation="softmax"),
    ], name="digits_cnn")


def save_pictures(model, history, folder):
    """The graph and the curves as PNGs; a missing tool is one line."""
    for name, draw in (
            ("model.png", lambda path: keras.utils.plot_model(
                model, to_file=path, show_shapes=True, dpi=96)),
            ("history.png", lambda path: keras.utils.plot_history(
                history, to_file=path))):
        path = os.path.join(folder, name)
        try:
            draw(path)
            print(f"wrote {path}")
        except ImportError as error:
            print(f"skipped {name}: {error}")


def parse_args(argv):
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--plot", metavar="DIR",
                        help="existing folder for model.png and history.png")
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error(f"--epochs must be at least 1, got {args.epochs}")
    if args.plot is not None and not os.path.isdir(args.plot):
        parser.error(f"--plot: no such folder: {args.plot}")
    return args


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(11)
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = (x_train.astype("float32") / 16.0)[..., np.newaxis]
    x_test = (x_test.astype("float32") / 16.0)[..., np.newaxis]

    model = build_model()
    steps = args.epochs * int(np.ceil(len(x_train) * 0.85 / 32))
    schedule = keras.optimizers.schedules.CosineDecay(3e-3, steps)
    model.compile(optimizer=keras.optimizers.Adam(schedule),
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.summary()
    history = model.fit(x_train, y_train, batch_size=32, epochs=args.epochs,
                        validation_split=0.15, verbose=2)
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"CNN test accuracy: {accuracy:.4f}")
    if args.plot:
        save_pictures(model, history, args.plot)
    return accuracy


if __name__ == "__main__":
    main()
