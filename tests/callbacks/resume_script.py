"""Child process of the BackupAndRestore kill tests.

    python resume_script.py BACKUP_DIR OUT.npz KILL_AT [CSV]

Trains a small model with dropout, shuffling, validation, Adam, metrics,
EarlyStopping and CSVLogger, backing up every batch. If KILL_AT > 0 the
process SIGKILLs itself at the start of that (1-based, global) batch;
otherwise it prints one line per finished batch (for the parent to kill it
at a random moment) and saves the final weights, optimizer variables and
History to OUT.npz / OUT.npz.json.
"""
import json
import os
import signal
import sys

import numpy as np

import kerasish as keras


def main(backup_dir, out, kill_at, csv_path):
    keras.utils.set_random_seed(7)
    rng = np.random.default_rng(0)
    x = rng.random((60, 4)).astype("float32")
    y = (x.sum(axis=1) > 2).astype("int32")
    model = keras.Sequential([
        keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
        keras.layers.Dropout(0.25), keras.layers.Dense(2,
                                                       activation="softmax")])
    model.compile(keras.optimizers.Adam(0.01),
                  "sparse_categorical_crossentropy", metrics=["accuracy"])
    seen = [0]

    class Progress(keras.callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            seen[0] += 1
            if seen[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

        def on_train_batch_end(self, batch, logs=None):
            print("batch", flush=True)

    callbacks = [keras.callbacks.BackupAndRestore(backup_dir, save_freq=1),
                 Progress(),
                 keras.callbacks.EarlyStopping("val_loss", patience=3),
                 keras.callbacks.CSVLogger(csv_path)]
    history = model.fit(x, y, batch_size=8, epochs=4, validation_split=0.2,
                        callbacks=callbacks, verbose=0)
    arrays = model.get_weights() + [v.numpy()
                                    for v in model.optimizer.variables]
    np.savez(out, *arrays)
    with open(out + ".json", "w") as f:
        json.dump({"history": history.history, "epoch": history.epoch}, f)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], args[1], int(args[2]),
         args[3] if len(args) > 3 else args[1] + ".csv")
