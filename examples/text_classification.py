"""Text classification: sentiment of movie review sentences, Embedding + LSTM.

Uses the movie review sentences shipped with kerasish (real Rotten
Tomatoes snippets rated by people; `kerasish.datasets.movie_reviews`, an
IMDB-style loader). Sentences become padded word-index sequences; an
`Embedding` with `mask_zero=True` feeds an `LSTM` that skips the padding,
and a sigmoid unit says positive or negative. EarlyStopping keeps the best
epoch. Finally the model rates sentences of your own (`--review`).

    python examples/text_classification.py --review "A gorgeous, moving film."
"""
import argparse
import os

import numpy as np

import kerasish as keras
from kerasish import layers
from kerasish.datasets import movie_reviews


class OneLineParser(argparse.ArgumentParser):
    """Report a bad argument in one line (no usage block)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_model(num_words, maxlen):
    return keras.Sequential([
        keras.Input((maxlen,), dtype="int32"),
        layers.Embedding(num_words, 32, mask_zero=True),
        layers.LSTM(16),
        layers.Dropout(0.3),
        layers.Dense(1, activation="sigmoid"),
    ], name="sentiment")


def encode(texts, num_words, maxlen):
    """Raw sentences -> padded index sequences, as `load_data` encodes."""
    index = movie_reviews.get_word_index()
    sequences = []
    for text in texts:
        ranks = [index.get(w) for w in movie_reviews.tokenize(text)]
        sequences.append([1] + [r + 3 if r + 3 < num_words else 2
                                for r in ranks if r is not None])
    return keras.utils.pad_sequences(sequences, maxlen=maxlen)


def parse_args(argv):
    parser = OneLineParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--num-words", type=int, default=4000)
    parser.add_argument("--maxlen", type=int, default=32,
                        help="words kept per sentence (its last ones)")
    parser.add_argument("--review", action="append", default=[],
                        help="a sentence to rate (repeatable)")
    parser.add_argument("--save", metavar="FILE.keras",
                        help="save the trained model there")
    args = parser.parse_args(argv)
    for name in ("epochs", "num_words", "maxlen"):
        if getattr(args, name) < (10 if name == "num_words" else 1):
            parser.error(f"--{name.replace('_', '-')} is too small: "
                         f"{getattr(args, name)}")
    if args.save and not args.save.endswith(".keras"):
        parser.error(f"--save: the file name must end in .keras, got "
                     f"{args.save}")
    if args.save and not os.path.isdir(os.path.dirname(
            os.path.abspath(args.save))):
        parser.error(f"--save: no such folder for {args.save}")
    return args


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(0)
    (texts, labels), _ = movie_reviews.load_texts()
    for text, label in list(zip(texts, labels))[:3]:
        print(f"  [{'positive' if label else 'negative'}] {text}")
    (x_train, y_train), (x_test, y_test) = movie_reviews.load_data(
        num_words=args.num_words)
    x_train = keras.utils.pad_sequences(x_train, maxlen=args.maxlen)
    x_test = keras.utils.pad_sequences(x_test, maxlen=args.maxlen)
    print(f"{len(x_train)} training and {len(x_test)} test sentences, "
          f"padded to {x_train.shape[1]} words")

    model = build_model(args.num_words, args.maxlen)
    model.compile(optimizer=keras.optimizers.Adam(3e-3),
                  loss="binary_crossentropy", metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=args.epochs,
              validation_split=0.1, verbose=2, callbacks=[
                  keras.callbacks.EarlyStopping(
                      monitor="val_loss", patience=1,
                      restore_best_weights=True)])
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"Test accuracy: {accuracy:.4f} (chance is 0.5)")

    reviews = args.review or ["A gorgeous, moving and funny film.",
                              "Dull, predictable and far too long."]
    scores = model.predict(encode(reviews, args.num_words, args.maxlen),
                           verbose=0)[:, 0]
    for review, score in zip(reviews, np.asarray(scores)):
        print(f"  {score:.2f} {'positive' if score > 0.5 else 'negative'}:"
              f" {review}")
    if args.save:
        model.save(args.save)
        print(f"saved to {args.save}")
    return accuracy


if __name__ == "__main__":
    main()
