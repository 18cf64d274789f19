"""Transfer learning: reuse a trained base, freeze it, then fine-tune it.

A small convolutional base learns to read the digits 0-4. It is saved, then
reused to classify the digits 5-9 from only a few labelled images per
class: first with the base frozen (only the new head trains; its
BatchNormalization stays in inference mode), then unfrozen and fine-tuned
end to end with a small learning rate (recompiling after changing
`trainable`, as in Keras). A model trained from scratch on the same few
images is the baseline. Pass `--base FILE.keras` to start from a base saved
by an earlier run instead of pre-training one.

    python examples/transfer_learning.py --labels-per-class 10
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


def build_base():
    return keras.Sequential([
        keras.Input((8, 8, 1)),
        layers.Conv2D(16, 3, padding="same", use_bias=False),
        layers.BatchNormalization(),
        layers.Activation("relu"),
        layers.Conv2D(32, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(2),
        layers.Flatten(name="features"),
    ], name="base")


def classifier_on(base, training_base=False):
    """A new head on `base`; the base runs in inference mode if asked."""
    inputs = keras.Input((8, 8, 1))
    features = base(inputs, training=training_base)
    outputs = layers.Dense(5, activation="softmax", name="head")(
        layers.Dropout(0.2)(features))
    return keras.Model(inputs, outputs, name="transfer")


def split_tasks():
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = (x_train.astype("float32") / 16.0)[..., None]
    x_test = (x_test.astype("float32") / 16.0)[..., None]

    def task(low):
        keep, keep_test = (y_train // 5 == low), (y_test // 5 == low)
        return ((x_train[keep], y_train[keep] - 5 * low),
                (x_test[keep_test], y_test[keep_test] - 5 * low))
    return task(0), task(1)


def few_labels(x, y, per_class, seed):
    rng = np.random.default_rng(seed)
    picked = np.concatenate([rng.choice(np.flatnonzero(y == c), per_class,
                                        replace=False) for c in range(5)])
    return x[picked], y[picked]


def compile_model(model, learning_rate):
    model.compile(optimizer=keras.optimizers.Adam(learning_rate),
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])


def pretrain_base(source, folder):
    (x, y), _ = source
    base = build_base()
    model = keras.Sequential([base, layers.Dense(5, activation="softmax")])
    compile_model(model, 3e-3)
    model.fit(x, y, batch_size=32, epochs=8, verbose=0)
    path = os.path.join(folder, "base.keras")
    base.save(path)
    print(f"pre-trained the base on digits 0-4; saved to {path}")
    return path


def load_base(path):
    """The saved base; a wrong file is reported in one line."""
    try:
        base = keras.saving.load_model(path, compile=False)
    except (OSError, ValueError) as error:
        raise SystemExit(f"transfer_learning.py: error: --base: {error}")
    if base.output_shape[-1:] != (512,) or \
            base.input_shape[1:] != (8, 8, 1):
        raise SystemExit(
            f"transfer_learning.py: error: --base: {path} maps "
            f"{base.input_shape} to {base.output_shape}; expected a base "
            "from (None, 8, 8, 1) to (None, 512)")
    return base


def train_and_score(model, small, test, epochs):
    (x, y), (x_test, y_test) = small, test
    model.fit(x, y, batch_size=16, epochs=epochs, verbose=0)
    return model.evaluate(x_test, y_test, verbose=0)[1]


def transfer(base, small, test, epochs):
    base.trainable = False
    model = classifier_on(base)
    compile_model(model, 3e-3)
    print(f"frozen base: {len(model.trainable_weights)} trainable weights "
          f"(the head), {len(model.non_trainable_weights)} frozen")
    frozen = train_and_score(model, small, test, epochs)
    print(f"  accuracy with the base frozen: {frozen:.4f}")
    base.trainable = True
    compile_model(model, 3e-4)          # recompile after changing trainable
    print(f"unfrozen: {len(model.trainable_weights)} trainable weights")
    tuned = train_and_score(model, small, test, epochs)
    print(f"  accuracy after fine-tuning: {tuned:.4f}")
    return frozen, tuned


def parse_args(argv):
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--labels-per-class", type=int, default=10)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--base", metavar="FILE.keras",
                        help="a base saved by an earlier run")
    args = parser.parse_args(argv)
    if not 1 <= args.labels_per_class <= 100:
        parser.error("--labels-per-class must be in 1..100, got "
                     f"{args.labels_per_class}")
    if args.epochs < 1:
        parser.error(f"--epochs must be at least 1, got {args.epochs}")
    if args.base is not None and not os.path.isfile(args.base):
        parser.error(f"--base: no such file: {args.base}")
    return args


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(2)
    source, (train_target, test_target) = split_tasks()
    path = args.base or pretrain_base(source, tempfile.mkdtemp())
    base = load_base(path)
    small = few_labels(*train_target, args.labels_per_class, seed=2)
    print(f"target task: digits 5-9 from {len(small[0])} labelled images")

    scratch_model = classifier_on(build_base(), training_base=None)
    compile_model(scratch_model, 3e-3)
    scratch = train_and_score(scratch_model, small, test_target, args.epochs)
    print(f"  baseline trained from scratch: {scratch:.4f}")
    frozen, tuned = transfer(base, small, test_target, args.epochs)
    return scratch, frozen, tuned


if __name__ == "__main__":
    main()
