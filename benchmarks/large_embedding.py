"""Training throughput with a large embedding table, Keras vs kerasish.

A click-log style model: one `Embedding(vocab, 32)` looked up with
Zipf-distributed ids, a small MLP, `Adam`. Keras's Adam updates every row
of the table at every step; kerasish gives the same numbers but brings
untouched rows up to date only when they are read
(`kerasish/optimizers/deferred_rows.py`), so its step costs what the
batch's rows cost. Written against the Keras 3 API only: the same file
runs on both.

    python benchmarks/large_embedding.py --impl kerasish --vocab 1000000
    KERAS_BACKEND=jax python benchmarks/large_embedding.py --impl keras

Prints one JSON line: train samples/s over the epochs after the first,
and the final loss. Run the libraries alternately; the machine is shared.
"""
import argparse
import json
import time

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--impl", choices=["keras", "kerasish"],
                    default="kerasish")
parser.add_argument("--vocab", type=int, default=1_000_000)
parser.add_argument("--samples", type=int, default=51_200)
parser.add_argument("--batch", type=int, default=256)
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()

if args.impl == "kerasish":
    import kerasish as keras
else:
    import keras


def data(n, vocab, seed=0):
    rng = np.random.default_rng(seed)
    ids = ((rng.zipf(1.3, size=(n, 4)) - 1) % vocab).astype("int32")
    weights = rng.standard_normal(vocab).astype("float32")
    score = weights[ids].sum(axis=1) * 0.5 - 1.0
    y = (rng.random(n) < 1 / (1 + np.exp(-score))).astype("float32")
    return ids, y.reshape(n, 1)


def build(vocab):
    inputs = keras.Input((4,), dtype="int32")
    x = keras.layers.Embedding(vocab, 32)(inputs)
    x = keras.layers.Flatten()(x)
    x = keras.layers.Dense(64, activation="relu")(x)
    model = keras.Model(inputs, keras.layers.Dense(1, activation="sigmoid")(x))
    model.compile(optimizer=keras.optimizers.Adam(),
                  loss="binary_crossentropy")
    return model


class EpochTimes(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        self.ends = [time.perf_counter()]

    def on_epoch_end(self, epoch, logs=None):
        self.ends.append(time.perf_counter())


x, y = data(args.samples, args.vocab)
keras.utils.set_random_seed(0)
model = build(args.vocab)
times = EpochTimes()
history = model.fit(x, y, batch_size=args.batch, epochs=args.epochs,
                    shuffle=False, verbose=0, callbacks=[times])
later = times.ends[-1] - times.ends[1]
print(json.dumps({
    "impl": args.impl, "vocab": args.vocab,
    "train_sps": args.samples * (args.epochs - 1) / later,
    "first_epoch_s": times.ends[1] - times.ends[0],
    "final_loss": history.history["loss"][-1]}))
