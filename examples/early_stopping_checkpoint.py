"""EarlyStopping + ModelCheckpoint + BackupAndRestore: survive a crash.

The first `fit` "crashes" halfway through an epoch (a callback raises, as a
kill or a preemption would stop the process). The second `fit` — the same
call, as when you simply re-run a script — resumes from the backup at the
exact batch where the last backup was taken: same weights, optimizer state,
data order, dropout draws and History as if nothing had happened.
EarlyStopping watches the validation loss (restoring the best weights),
and ModelCheckpoint keeps the two best models (by the same measure) on
disk.

    python examples/early_stopping_checkpoint.py
"""
import os
import tempfile

import numpy as np

import kerasish as keras


class SimulatedCrash(keras.callbacks.Callback):
    """Stop the process's training abruptly at one global batch."""

    def __init__(self, at_batch):
        super().__init__()
        self.at_batch, self.seen = at_batch, 0

    def on_train_batch_begin(self, batch, logs=None):
        self.seen += 1
        if self.seen == self.at_batch:
            raise RuntimeError(f"simulated crash at batch {self.seen}")


def build_model():
    keras.utils.set_random_seed(0)      # same start in every "process"
    model = keras.Sequential([
        keras.Input(shape=(64,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def train(x, y, folder, crash_at=None):
    model = build_model()
    callbacks = [
        keras.callbacks.BackupAndRestore(os.path.join(folder, "backup"),
                                         save_freq=9),
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=3,
                                      restore_best_weights=True),
        keras.callbacks.ModelCheckpoint(
            os.path.join(folder, "best-e{epoch:02d}-{val_loss:.3f}.keras"),
            monitor="val_loss", save_best_only=True, max_to_keep=2),
    ]
    if crash_at:
        callbacks.append(SimulatedCrash(crash_at))
    history = model.fit(x, y, batch_size=64, epochs=12, validation_split=0.2,
                        callbacks=callbacks, verbose=0)
    return model, history


def main():
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = x_train.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
    folder = tempfile.mkdtemp(prefix="kerasish-early-stopping-")

    try:
        train(x_train, y_train, folder, crash_at=40)
    except RuntimeError as error:
        print(f"First run: {error}; backup kept in {folder}/backup")
    model, history = train(x_train, y_train, folder)
    print(f"Second run resumed and finished: {len(history.epoch)} epochs in "
          f"History (epochs {history.epoch[0]}..{history.epoch[-1]}), "
          f"optimizer iterations {int(model.optimizer.iterations.numpy())}")

    _, reference = train(x_train, y_train, tempfile.mkdtemp())
    same = reference.history == history.history
    print(f"History identical to an uninterrupted run: {same}")
    best = sorted(f for f in os.listdir(folder) if f.endswith(".keras"))
    print(f"Best checkpoints kept: {best}")
    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"Test accuracy with the restored best weights: {accuracy:.4f}")
    restored = keras.saving.load_model(os.path.join(folder, best[-1]))
    print(f"Best checkpoint reloads: test accuracy "
          f"{restored.evaluate(x_test, y_test, verbose=0)[1]:.4f}")
    np.testing.assert_equal(same, True)


if __name__ == "__main__":
    main()
