"""A subclassed model with its own `train_step`: mixup on the digits.

`fit()` keeps everything it gives (callbacks, validation, History, progress
bars) while the model decides what one training step does. Here each step
blends every image with another one of the batch (mixup: the targets are
blended the same way), computes the compiled loss on the blend, and applies
the gradients. Validation uses the default `test_step` on clean images.

    python examples/custom_train_step.py --epochs 12 --alpha 0.2
"""
import argparse

import numpy as np

import kerasish as keras


class OneLineParser(argparse.ArgumentParser):
    """Report a bad argument in one line (no usage block)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


class MixupClassifier(keras.Model):
    """A small MLP whose training steps see mixup-blended batches."""

    def __init__(self, num_classes=10, alpha=0.2, seed=0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha
        self.hidden = keras.layers.Dense(128, activation="relu")
        self.dropout = keras.layers.Dropout(0.1)
        self.classifier = keras.layers.Dense(num_classes,
                                             activation="softmax")
        self.rng = np.random.default_rng(seed)

    def call(self, inputs, training=False):
        x = self.hidden(inputs)
        return self.classifier(self.dropout(x, training=training))

    def mix(self, x, y):
        """Blend each sample with a shuffled partner (weights ~ Beta)."""
        x, y = np.asarray(x), np.asarray(y)
        lam = self.rng.beta(self.alpha, self.alpha, size=(len(x), 1))
        lam = np.maximum(lam, 1 - lam).astype("float32")
        partner = self.rng.permutation(len(x))
        return (lam * x + (1 - lam) * x[partner],
                lam * y + (1 - lam) * y[partner])

    def train_step(self, data):
        x, y = data
        x, y = self.mix(x, y)
        with keras.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        variables = self.trainable_variables
        gradients = tape.gradient(loss, variables)
        self.optimizer.apply(gradients, variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


def load():
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    prepare = lambda x: x.reshape(-1, 64).astype("float32") / 16.0  # noqa
    return ((prepare(x_train), keras.utils.to_categorical(y_train, 10)),
            (prepare(x_test), keras.utils.to_categorical(y_test, 10)))


def parse_args(argv):
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--alpha", type=float, default=0.2,
                        help="Beta(alpha, alpha) mixing weights (> 0)")
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error(f"--epochs must be at least 1, got {args.epochs}")
    if not args.alpha > 0:
        parser.error(f"--alpha must be positive, got {args.alpha}")
    return args


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(1)
    (x_train, y_train), (x_test, y_test) = load()
    model = MixupClassifier(alpha=args.alpha)
    model.compile(optimizer=keras.optimizers.Adam(2e-3),
                  loss="categorical_crossentropy",
                  metrics=["categorical_accuracy"])
    history = model.fit(x_train, y_train, batch_size=64, epochs=args.epochs,
                        validation_split=0.15, verbose=2)
    print("history keys:", sorted(history.history))
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"Test accuracy after mixup training: {accuracy:.4f}")
    return accuracy


if __name__ == "__main__":
    main()
