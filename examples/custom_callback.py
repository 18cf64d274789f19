"""A custom callback: per-batch loss trace, epoch report, and a target stop.

Shows the Callback hooks a Keras user writes: it keeps every batch's
running loss, prints a one-line report per epoch with the learning rate,
and stops training once validation accuracy reaches a target.

    python examples/custom_callback.py
"""
import kerasish as keras


class TrainingReport(keras.callbacks.Callback):
    """Record batch losses; report each epoch; stop at a target accuracy."""

    def __init__(self, target_accuracy=0.96):
        super().__init__()
        self.target_accuracy = target_accuracy
        self.batch_losses = []

    def on_train_begin(self, logs=None):
        self.batch_losses = []
        print(f"Training for up to {self.params['epochs']} epochs of "
              f"{self.params['steps']} steps")

    def on_train_batch_end(self, batch, logs=None):
        self.batch_losses.append(logs["loss"])

    def on_epoch_end(self, epoch, logs=None):
        lr = float(keras.ops.convert_to_numpy(
            self.model.optimizer.learning_rate))
        print(f"epoch {epoch + 1}: loss {logs['loss']:.4f}, "
              f"val_accuracy {logs['val_accuracy']:.4f}, lr {lr:.4g}")
        if logs["val_accuracy"] >= self.target_accuracy:
            print(f"reached val_accuracy >= {self.target_accuracy}; "
                  "stopping")
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        print(f"recorded {len(self.batch_losses)} batch losses; first "
              f"{self.batch_losses[0]:.3f}, last {self.batch_losses[-1]:.3f}")


def main():
    keras.utils.set_random_seed(3)
    (x, y), _ = keras.datasets.digits.load_data()
    x = x.reshape(-1, 64).astype("float32") / 16.0
    model = keras.Sequential([
        keras.Input(shape=(64,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    report = TrainingReport(target_accuracy=0.96)
    history = model.fit(x, y, epochs=40, batch_size=64,
                        validation_split=0.2, callbacks=[report], verbose=0)
    print(f"stopped after {len(history.epoch)} epochs")
    return history, report


if __name__ == "__main__":
    main()
