"""A custom layer, its gradients checked with `kerasish.utils.check_grads`.

`GaussianRBF` is a radial-basis-function layer written the Keras way
(`build` creates the weights, `call` uses `kerasish.ops`, `get_config`
makes it savable). Before training with it we check its gradients with
respect to the inputs and to every weight against finite differences, in
float64. The same check catches a wrong hand-written gradient: a
`custom_gradient` op with a deliberate mistake fails it.

    python examples/custom_layer_check_grads.py --epochs 15
"""
import argparse
import os
import tempfile

import numpy as np

import kerasish as keras
from kerasish import ops


class OneLineParser(argparse.ArgumentParser):
    """Report a bad argument in one line (no usage block)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


@keras.saving.register_keras_serializable(package="examples")
class GaussianRBF(keras.layers.Layer):
    """`exp(-gamma_j * ||x - c_j||^2)` for `units` learned centres `c_j`.

    Args:
        units: Number of centres (output size).
        initial_gamma: Starting width parameter of every unit.
    """

    def __init__(self, units, initial_gamma=1.0, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(units, int) or units < 1:
            raise ValueError("`units` must be a positive int. Received: "
                             f"units={units!r}")
        self.units, self.initial_gamma = units, initial_gamma

    def build(self, input_shape):
        self.centers = self.add_weight(
            shape=(input_shape[-1], self.units), name="centers",
            initializer=keras.initializers.RandomUniform(0.0, 1.0))
        # Learn log(gamma) so that the width stays positive.
        self.log_gamma = self.add_weight(
            shape=(self.units,), name="log_gamma",
            initializer=keras.initializers.Constant(
                np.log(self.initial_gamma)))

    def call(self, inputs):
        # ||x - c||^2 = ||x||^2 - 2 x.c + ||c||^2, one matmul for the batch.
        squared = (ops.sum(ops.square(inputs), axis=-1, keepdims=True)
                   - 2.0 * ops.matmul(inputs, self.centers)
                   + ops.sum(ops.square(self.centers), axis=0))
        return ops.exp(-ops.exp(self.log_gamma) * ops.maximum(squared, 0.0))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "initial_gamma": self.initial_gamma}


@ops.custom_gradient
def softplus_with_a_bug(x):
    """softplus(x) whose hand-written gradient forgets a factor."""
    def grad(upstream):
        return upstream * ops.exp(x)          # should be sigmoid(x)
    return ops.softplus(x), grad


def check_layer_gradients(seed):
    rng = np.random.default_rng(seed)
    layer = GaussianRBF(4, initial_gamma=0.5, dtype="float64")
    x = rng.random((3, 5))
    layer.build(x.shape)
    analytic, numeric = keras.utils.check_grads(
        layer, [x], variables=layer.trainable_weights)
    print(f"GaussianRBF gradients match finite differences: "
          f"{analytic:.6f} vs {numeric:.6f}")


def show_a_caught_bug():
    try:
        keras.utils.check_grads(softplus_with_a_bug, [np.array([0.3, -1.2])])
    except AssertionError as error:
        print("check_grads caught the wrong gradient:",
              str(error).splitlines()[0])
        return True
    return False


def build_model():
    return keras.Sequential([
        keras.Input((64,)),
        keras.layers.Dense(16),
        GaussianRBF(48, initial_gamma=0.5),
        keras.layers.Dense(10, activation="softmax"),
    ])


def parse_args(argv):
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error(f"--epochs must be at least 1, got {args.epochs}")
    return args


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(args.seed)
    check_layer_gradients(args.seed)
    caught = show_a_caught_bug()

    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = x_train.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
    model = build_model()
    model.compile(optimizer=keras.optimizers.Adam(1e-2),
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=args.epochs,
              validation_split=0.1, verbose=0)
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"RBF network test accuracy: {accuracy:.4f}")

    path = os.path.join(tempfile.mkdtemp(), "rbf.keras")
    model.save(path)
    restored = keras.saving.load_model(path)
    print("reloaded the custom layer:", type(restored.layers[1]).__name__,
          np.allclose(restored.predict(x_test, verbose=0),
                      model.predict(x_test, verbose=0)))
    return accuracy, caught


if __name__ == "__main__":
    main()
