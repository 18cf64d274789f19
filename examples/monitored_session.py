"""A custom training loop with TF1-style hooks (`MonitoredTrainingSession`).

Trains a digits classifier one `sess.run()` at a time, with hooks that log,
check for NaN and stop at a global step, a Keras callback mixed in, and a
"stage" that evaluates on the test set every 100 steps. Checkpoints go to
`--checkpoint-dir`: run the script again and it resumes from the latest one
(with a higher `--last-step`, training continues from there).

    python examples/monitored_session.py --checkpoint-dir /tmp/digits-ckpt
    python examples/monitored_session.py --checkpoint-dir /tmp/digits-ckpt \\
        --last-step 600
"""
import argparse
import logging
import os
import tempfile

import numpy as np

import kerasish as keras
from kerasish import train


def batches(x, y, batch_size, seed):
    """Endless shuffled batches (one permutation per pass)."""
    rng = np.random.default_rng(seed)
    while True:
        order = rng.permutation(len(x))
        for start in range(0, len(x) - batch_size + 1, batch_size):
            index = order[start:start + batch_size]
            yield x[index], y[index]


def build_model():
    model = keras.Sequential([
        keras.Input(shape=(64,)),
        keras.layers.Dense(64, activation="relu", name="hidden"),
        keras.layers.Dense(10, activation="softmax", name="digits"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-3),
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkpoint-dir", default=os.path.join(
        tempfile.gettempdir(), "kerasish-monitored-session"))
    parser.add_argument("--last-step", type=int, default=300)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="  [hook] %(message)s")
    logging.getLogger("kerasish.train").setLevel(logging.INFO)

    keras.utils.set_random_seed(0)
    (x_train, y_train), (x_test, y_test) = keras.datasets.digits.load_data()
    x_train = x_train.reshape(-1, 64).astype("float32") / 16.0
    x_test = x_test.reshape(-1, 64).astype("float32") / 16.0
    model = build_model()

    def evaluate(session, ctx):
        """A stage: runs inside the session every 100 steps."""
        loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
        print(f"step {ctx.global_step}: test accuracy {accuracy:.3f}")

    hooks = [
        train.StopAtStepHook(last_step=args.last_step),
        train.LoggingTensorHook({"step": "global_step", "loss": "loss"},
                                every_n_iter=100),
        train.NanTensorHook("loss"),
        keras.callbacks.TerminateOnNaN(),     # a Keras callback, as a hook
    ]
    with train.MonitoredTrainingSession(
            model=model, input=batches(x_train, y_train, 32, seed=0),
            checkpoint_dir=args.checkpoint_dir, save_checkpoint_steps=100,
            save_summaries_steps=None, log_step_count_steps=None,
            hooks=hooks, stages=[(evaluate, 100)]) as sess:
        start = int(train.get_global_step(model).numpy())
        if start:
            print(f"Resumed from {train.latest_checkpoint(args.checkpoint_dir)}"
                  f" at global step {start}.")
        else:
            print(f"Starting from scratch in {args.checkpoint_dir}.")
        while not sess.should_stop():
            logs = sess.run()
    step = int(train.get_global_step(model).numpy())
    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"Stopped at global step {step} (last batch loss "
          f"{logs['loss'] if start < step else float('nan'):.4f}); "
          f"test accuracy {accuracy:.4f}")


if __name__ == "__main__":
    main()
