"""Train the digits model on parameter-server shards and workers (Ray).

The same Keras script as a local run, with one change: the model is built
and compiled in a `ParameterServerStrategy` scope. Two ps shards hold the
variables and apply Adam; three workers each compute a third of every
batch. In sync mode the result is the local run's, weight for weight.

    pip install "kerasish[distributed]"
    python examples/parameter_server.py [--mode sync|async|ssp]
        [--address ray://host:10001]
"""
import argparse
import sys

import numpy as np

import kerasish as keras


def build():
    keras.utils.set_random_seed(7)
    model = keras.Sequential([
        keras.Input(shape=(64,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="sync",
                        choices=["sync", "async", "ssp"])
    parser.add_argument("--address", default=None,
                        help="a running Ray cluster (default: in-process)")
    parser.add_argument("--epochs", type=int, default=20)
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error(f"--epochs must be >= 1, got {args.epochs}")
    return args


def main(argv=None):
    args = parse(argv)
    (x, y), (x_test, y_test) = keras.datasets.digits.load_data()
    x = x.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
    fit = dict(batch_size=96, epochs=args.epochs, shuffle=False, verbose=0)

    local = build()
    local.fit(x, y, **fit)
    _, local_accuracy = local.evaluate(x_test, y_test, verbose=0)

    strategy = keras.distribute.ParameterServerStrategy(
        num_workers=3, num_ps=2, mode=args.mode,
        staleness=2 if args.mode == "ssp" else None, address=args.address)
    try:
        with strategy.scope():
            model = build()
        print("variables:", ", ".join(
            f"{v.path} on {v.device}" for v in model.weights))
        history = model.fit(x, y, **fit)
        loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
        same = all(np.allclose(a, b, atol=1e-5) for a, b in
                   zip(model.get_weights(), local.get_weights()))
        print(f"{args.mode}: {int(model.optimizer.iterations.numpy())} "
              f"updates, final training loss "
              f"{history.history['loss'][-1]:.4f}")
    finally:
        strategy.shutdown()
    print(f"Local test accuracy: {local_accuracy:.4f}")
    print(f"Parameter-server test accuracy: {accuracy:.4f} (loss "
          f"{loss:.4f})")
    print(f"Weights equal to the local run's: {same}")


if __name__ == "__main__":
    sys.exit(main())
