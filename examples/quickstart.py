"""Quickstart: classify 8x8 handwritten digits with a Sequential model.

Trains on the digits set shipped with kerasish, with EarlyStopping and a
ModelCheckpoint keeping the best weights, then reports test accuracy.

    python examples/quickstart.py
"""
import os
import tempfile

import numpy as np

import kerasish as keras


def main():
    keras.utils.set_random_seed(42)
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = x_train.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0

    model = keras.Sequential([
        keras.Input(shape=(64,)),
        keras.layers.Dense(128, activation="relu"),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    model.summary()

    checkpoint_dir = tempfile.mkdtemp(prefix="kerasish-quickstart-")
    best = os.path.join(checkpoint_dir, "best.weights.h5")
    callbacks = [
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=5,
                                      restore_best_weights=True),
        keras.callbacks.ModelCheckpoint(best, monitor="val_accuracy",
                                        save_best_only=True,
                                        save_weights_only=True),
    ]
    history = model.fit(x_train, y_train, batch_size=32, epochs=60,
                        validation_split=0.15, callbacks=callbacks,
                        verbose=2)

    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"\nTrained {len(history.epoch)} epochs; best weights saved to "
          f"{best}")
    print(f"Test accuracy: {accuracy:.4f} (loss {loss:.4f})")
    predictions = np.argmax(model.predict(x_test[:10], verbose=0), axis=1)
    print("First test predictions:", predictions.tolist(),
          "labels:", y_test[:10].tolist())
    return accuracy


if __name__ == "__main__":
    main()
