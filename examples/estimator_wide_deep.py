"""Wide & deep on the 1996 American National Election Study: Clinton or Dole?

A `DNNLinearCombinedClassifier` predicts each respondent's expected vote
from census-style columns (party identification, education and income
categories, age, ideology placements, TV news, town size) through feature
columns: the wide (linear) part sees bucketized and categorical columns and
their crosses; the deep part sees embeddings, one-hot placements and
normalized numbers.

Training stops after `--steps` steps, is evaluated, then a new Estimator on
the same `model_dir` -- as after a restart -- resumes from the saved global
step. Running the script again with the same `--model-dir` continues the
same model from its last checkpoint.

    python examples/estimator_wide_deep.py --model-dir /tmp/anes
"""
import argparse
import logging
import math
import tempfile

import numpy as np

import kerasish as keras
from kerasish import estimator
from kerasish import feature_column as fc
from kerasish.datasets import anes96


def readable(x):
    """Codes -> the survey's labels, for the vocabulary columns."""
    features = {key: np.asarray(value) for key, value in x.items()}
    features["party"] = np.array(anes96.PARTY_ID)[x["PID"]]
    features["education"] = np.array(anes96.EDUCATION)[x["educ"] - 1]
    return features


def columns():
    """`(wide, deep)` feature columns."""
    party = fc.categorical_column_with_vocabulary_list("party",
                                                       anes96.PARTY_ID)
    education = fc.categorical_column_with_vocabulary_list(
        "education", anes96.EDUCATION)
    income = fc.categorical_column_with_identity("income", num_buckets=25)
    ideology = {key: fc.categorical_column_with_identity(key, num_buckets=8)
                for key in ("selfLR", "ClinLR", "DoleLR")}
    age = fc.numeric_column("age", normalizer_fn=lambda a: (a - 47) / 17)
    age_buckets = fc.bucketized_column(fc.numeric_column("age"),
                                       [30, 40, 50, 60, 70])
    town = fc.numeric_column("popul",
                             normalizer_fn=lambda p: np.log(p + 0.1) / 4)
    tv = fc.numeric_column("TVnews", normalizer_fn=lambda t: t / 7)
    wide = [party, education, age_buckets, ideology["selfLR"],
            fc.crossed_column([party, ideology["selfLR"]], 100),
            fc.crossed_column([education, age_buckets], 100),
            fc.crossed_column([ideology["ClinLR"], ideology["DoleLR"]], 100)]
    deep = [fc.embedding_column(party, 3), fc.embedding_column(education, 3),
            fc.embedding_column(income, 4), age, town, tv]
    deep += [fc.indicator_column(column) for column in ideology.values()]
    return wide, deep


def input_fn(x, y, batch_size, epochs=1, shuffle=False):
    def make():
        ds = keras.data.Dataset.from_tensor_slices((readable(x), y))
        if shuffle:
            ds = ds.shuffle(len(y), seed=1)
        return ds.repeat(epochs).batch(batch_size)
    return make


def build(model_dir):
    wide, deep = columns()
    return estimator.DNNLinearCombinedClassifier(
        model_dir=model_dir,
        linear_feature_columns=wide,
        linear_optimizer=keras.optimizers.Ftrl(0.05),
        dnn_feature_columns=deep,
        dnn_hidden_units=[32, 16],
        dnn_optimizer=keras.optimizers.Adagrad(0.05),
        dnn_dropout=0.1,
        label_vocabulary=list(anes96.VOTE),
        config=estimator.RunConfig(save_checkpoints_steps=100,
                                   log_step_count_steps=None,
                                   tf_random_seed=7))


def report(title, metrics):
    keys = ["accuracy", "auc", "precision", "recall", "loss"]
    print(f"{title}: " + ", ".join(f"{k} = {metrics[k]:.3f}" for k in keys) +
          f" (global step {metrics['global_step']})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", default=None)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    logging.basicConfig(level="WARNING")
    model_dir = args.model_dir or tempfile.mkdtemp()
    (x_train, y_train), (x_test, y_test) = anes96.load_data()
    labels = np.array(anes96.VOTE)
    train_fn = input_fn(x_train, labels[y_train], args.batch_size,
                        epochs=math.ceil(10**6 / len(y_train)), shuffle=True)
    test_fn = input_fn(x_test, labels[y_test], 256)

    model = build(model_dir)
    start = model.latest_checkpoint()
    if start is None:
        print(f"Starting from scratch in {model_dir}")
    else:
        step = int(model.get_variable_value("global_step"))
        print(f"Resuming from global step {step} ({start})")
    model.train(train_fn, steps=args.steps)
    report("Test", model.evaluate(test_fn, name="test"))
    stopped = int(model.get_variable_value("global_step"))
    print(f"Stopped at global step {stopped}")

    # A new Estimator on the same folder: what a restarted job does.
    resumed = build(model_dir)
    print(f"Restarted: resuming from global step "
          f"{int(resumed.get_variable_value('global_step'))}")
    resumed.train(train_fn, steps=args.steps // 2)
    report("Test after resuming", resumed.evaluate(test_fn, name="test"))

    voters = {key: value[:3] for key, value in x_test.items()}
    for person, prediction in enumerate(
            resumed.predict(lambda: readable(voters))):
        party = anes96.PARTY_ID[voters["PID"][person]]
        print(f"  {party:>24s}, age {voters['age'][person]}: "
              f"{prediction['classes'][0].decode()} "
              f"(P(Dole) = {prediction['logistic'][0]:.2f})")


if __name__ == "__main__":
    main()
