"""Functional API: two inputs, two named outputs, a loss per output.

Reads a digit from two views of the same 8x8 image — the pixels, and the
per-row/per-column ink totals — and predicts both the digit and whether it
is even, weighting the two losses.

    python examples/functional_multi_io.py
"""
import numpy as np

import kerasish as keras
from kerasish import layers


def load():
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()

    def views(x):
        x = x.astype("float32") / 16.0
        stats = np.concatenate([x.sum(axis=1), x.sum(axis=2)], axis=1) / 8
        return {"pixels": x.reshape(-1, 64), "ink": stats}

    def targets(y):
        return {"digit": y, "is_even": (y % 2 == 0).astype("float32")}
    return (views(x_train), targets(y_train)), (views(x_test), targets(y_test))


def build_model():
    pixels = keras.Input(shape=(64,), name="pixels")
    ink = keras.Input(shape=(16,), name="ink")
    a = layers.Dense(64, activation="relu")(pixels)
    b = layers.Dense(16, activation="relu")(ink)
    shared = layers.Dense(64, activation="relu")(
        keras.ops.concatenate([a, b], axis=-1))
    digit = layers.Dense(10, activation="softmax", name="digit")(shared)
    is_even = layers.Dense(1, activation="sigmoid", name="is_even")(shared)
    return keras.Model(inputs={"pixels": pixels, "ink": ink},
                       outputs={"digit": digit, "is_even": is_even})


def main():
    keras.utils.set_random_seed(7)
    (x_train, y_train), (x_test, y_test) = load()
    model = build_model()
    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=3e-3),
        loss={"digit": "sparse_categorical_crossentropy",
              "is_even": "binary_crossentropy"},
        loss_weights={"digit": 1.0, "is_even": 0.5},
        metrics={"digit": ["accuracy"], "is_even": ["accuracy"]})
    model.summary()
    history = model.fit(x_train, y_train, epochs=15, batch_size=32,
                        validation_split=0.1, verbose=0)
    print("history keys:", sorted(history.history))
    results = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    for key in sorted(results):
        print(f"test {key}: {results[key]:.4f}")
    return results


if __name__ == "__main__":
    main()
