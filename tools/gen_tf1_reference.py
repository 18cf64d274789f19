"""Generate tests/tf1_reference/*.json with real TensorFlow 2.15.1.

The oracle of kerasish's TF1 side (`kerasish.train`, `kerasish.estimator`,
`kerasish.feature_column`, candidate sampling): every scenario is run here
on TensorFlow (`tf.compat.v1` hooks and sessions, `tf.estimator`, feature
columns, `tf.nn` sampled losses) and written, with its inputs, to a small
JSON file that tests/tf1_reference/ replays on kerasish. TensorFlow is never
a dependency of kerasish or of its tests; run this by hand in a throwaway
virtualenv:

    python -m venv /tmp/tf215
    /tmp/tf215/bin/pip install tensorflow-cpu==2.15.1 \\
        tensorflow-estimator==2.15.0
    /tmp/tf215/bin/python tools/gen_tf1_reference.py [hooks estimators ...]

With no argument every fixture is regenerated: `hooks` (session-run hooks
and monitored sessions), `custom_estimator` (a `model_fn` Estimator),
`estimators` (the canned ones), `logit_losses`, `candidate_sampling` and
`feature_columns`, each replayed by `tests/tf1_reference/test_<name>.py`
(`test_hooks.py`, `test_custom_estimator.py`, ...). The scenarios are tiny
(a 3-input linear model, a few batches) and fix every initial weight, so
numbers agree to float32 tolerance. Temporary folders are written as
`<dir>` in log lines.
"""
import json
import logging
import os
import re
import shutil
import sys
import tempfile

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
# The column specs are built by the same code on both sides.
from tests.tf1_reference.columns import build_column  # noqa: E402

tf1 = tf.compat.v1
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "tests", "tf1_reference")


def dump(name, content):
    content = {"generated_by": "tools/gen_tf1_reference.py",
               "tensorflow": tf.__version__, **content}
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as f:
        json.dump(_plain(content), f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


def _plain(value):
    """JSON-ready: numpy arrays as nested lists, numpy scalars as numbers."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "SO":
            return _plain(value.tolist())
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


class LogCapture(logging.Handler):
    """TF's INFO/WARNING/ERROR lines, temporary folders as `<dir>`."""

    def __init__(self, folder):
        super().__init__(logging.INFO)
        self.folder, self.lines = folder, []

    def emit(self, record):
        if "is deprecated and will be removed" in record.getMessage():
            return
        text = record.getMessage().replace(self.folder, "<dir>")
        text = re.sub(re.escape(tempfile.gettempdir()) + r"/tmp\w+", "<dir>",
                      text)
        self.lines.append([record.levelname, text])

    def __enter__(self):
        logger = tf.get_logger()
        logger.setLevel(logging.INFO)
        logger.addHandler(self)
        return self

    def __exit__(self, *exc):
        tf.get_logger().removeHandler(self)


def checkpoint_steps(folder):
    """Steps of the checkpoint files in `folder`, and of the index."""
    files = sorted(int(m.group(1)) for m in (
        re.match(r"model\.ckpt-(\d+)\.index$", f) for f in os.listdir(folder))
        if m)
    state = tf1.train.get_checkpoint_state(folder)
    listed = [] if state is None else [
        int(p.rsplit("-", 1)[1]) for p in state.all_model_checkpoint_paths]
    return {"files": files, "index": listed}


def event_tags(folder, recursive=True):
    """`[tag, step, value]` of every scalar summary under `folder`."""
    out = []
    for root, _, names in os.walk(folder) if recursive else [
            (folder, None, os.listdir(folder))]:
        for name in sorted(names):
            if "tfevents" not in name:
                continue
            for event in tf1.train.summary_iterator(os.path.join(root, name)):
                for value in event.summary.value:
                    out.append([value.tag, int(event.step),
                                float(value.simple_value)])
    return sorted(out, key=lambda e: (e[0], e[1]))


# -- hooks and MonitoredTrainingSession ---------------------------------------

RNG = np.random.default_rng(27)
HOOK_X = RNG.uniform(-1, 1, (8, 4, 3)).astype(np.float32)
HOOK_Y = (HOOK_X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
          ).astype(np.float32)
HOOK_W0 = np.array([[0.1], [0.2], [-0.1]], np.float32)
HOOK_B0 = np.array([0.05], np.float32)
HOOK_LR = 0.1
# One thread runs the graph's ops in a fixed order, so a global step read
# with the train op is always the value before the update (with more, it
# sometimes is the value after: TF's own hooks then see racy steps).
ONE_THREAD = tf1.ConfigProto(inter_op_parallelism_threads=1,
                             intra_op_parallelism_threads=1)


class Recorder(tf1.train.SessionRunHook):
    """Every hook call, with the global step it sees after the step."""

    def __init__(self, trace, global_step=None, weights=()):
        self.trace, self.fetched = trace, []
        self._step, self._weights = global_step, weights
        self.final_weights = None

    def begin(self):
        if self._step is None:
            self._step = tf1.train.get_global_step()
        self._read = global_step_read()
        self.trace.append(["begin"])

    def after_create_session(self, session, coord):
        self.trace.append(["after_create_session",
                           int(session.run(self._step))])

    def before_run(self, run_context):
        self.trace.append(["before_run"])
        return tf1.train.SessionRunArgs(self._read)

    def after_run(self, run_context, run_values):
        # run_values.results is read before the update in TF's graph; the
        # value after the step is what kerasish's hooks see.
        self.fetched.append(int(run_values.results))
        self.trace.append(["after_run",
                           int(run_context.session.run(self._step))])

    def end(self, session):
        self.trace.append(["end", int(session.run(self._step))])
        self.final_weights = [session.run(w) for w in self._weights]


class AbortOnce(tf1.train.SessionRunHook):
    """Raises `AbortedError` once, after the step reaching `at_step`: the
    monitored session re-creates its session from the last checkpoint."""

    def __init__(self, at_step):
        self.at_step, self.done = at_step, False

    def after_run(self, run_context, run_values):
        step = run_context.session.run(tf1.train.get_global_step())
        if step == self.at_step and not self.done:
            self.done = True
            raise tf.errors.AbortedError(None, None, "preempted")


class Listener(tf1.train.CheckpointSaverListener):
    def __init__(self, trace, stop_at=None):
        self.trace, self.stop_at = trace, stop_at

    def begin(self):
        self.trace.append(["begin"])

    def before_save(self, session, global_step_value):
        self.trace.append(["before_save", int(global_step_value)])

    def after_save(self, session, global_step_value):
        self.trace.append(["after_save", int(global_step_value)])
        return self.stop_at is not None and global_step_value >= self.stop_at

    def end(self, session, global_step_value):
        self.trace.append(["end", int(global_step_value)])


def linear_graph(batches, nan_at=None, feed=False):
    """The kerasish scenario's model in a TF graph: Dense(1), MSE, SGD.

    Returns `((train_op, loss), weights, placeholders)`; the batches come
    from a one-shot dataset (its end is an `OutOfRangeError`), or from feeds.
    """
    global_step = tf1.train.get_or_create_global_step()
    if feed:
        x = tf1.placeholder(tf.float32, (None, 3), name="x")
        y = tf1.placeholder(tf.float32, (None, 1), name="y")
    else:
        xs, ys = batches
        if nan_at is not None:
            xs = xs.copy()
            xs[nan_at, 0, 0] = np.nan
        data = tf.data.Dataset.from_tensor_slices((xs, ys))
        x, y = tf1.data.make_one_shot_iterator(data).get_next()
    w = tf1.get_variable("dense/kernel", initializer=HOOK_W0)
    b = tf1.get_variable("dense/bias", initializer=HOOK_B0)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    tf1.summary.scalar("loss", loss)
    # As the Estimator builds its model_fn: the update waits for the read
    # of the global step the hooks fetch, so they always see the value
    # before the step (else it is a race).
    with tf.control_dependencies([global_step_read()]):
        train_op = tf1.train.GradientDescentOptimizer(HOOK_LR).minimize(
            loss, global_step=global_step)
    return (train_op, loss), (w, b), (x, y)


def global_step_read():
    """The global step tensor TF's own hooks fetch."""
    from tensorflow.python.training import training_util
    return training_util._get_or_create_global_step_read()


def run_session(make_hooks, checkpoint_dir=None, n_batches=8, nan_at=None,
                feed=None, mts=True, **kwargs):
    """One TF session over `n_batches` batches; everything it shows."""
    folder = tempfile.mkdtemp()
    checkpoint_dir = checkpoint_dir or folder
    trace, result = [], {}
    with tf.Graph().as_default(), LogCapture(checkpoint_dir) as logs:
        (train_op, loss), weights, placeholders = linear_graph(
            (HOOK_X[:n_batches], HOOK_Y[:n_batches]), nan_at,
            feed=feed is not None)
        recorder = Recorder(trace, weights=weights)
        hooks = make_hooks(loss, placeholders)
        runs, losses = 0, []
        session = tf1.train.MonitoredTrainingSession(
            checkpoint_dir=checkpoint_dir, hooks=[recorder] + hooks,
            config=ONE_THREAD, **kwargs) if mts else \
            tf1.train.MonitoredSession(
                tf1.train.ChiefSessionCreator(config=ONE_THREAD),
                hooks=[recorder] + hooks)
        try:
            with session as sess:
                while not sess.should_stop():
                    losses.append(float(sess.run([train_op, loss])[1]))
                    runs += 1
        except Exception as e:  # noqa: BLE001 - the error is the scenario
            result["error"] = type(e).__name__
    result.update({"trace": trace, "fetched_before_update": recorder.fetched,
                   "runs": runs, "losses": losses, "logs": logs.lines})
    if os.listdir(checkpoint_dir):
        result["checkpoints"] = checkpoint_steps(checkpoint_dir)
        result["events"] = event_tags(checkpoint_dir)
    if recorder.final_weights is not None:
        result["weights"] = recorder.final_weights
    shutil.rmtree(folder, ignore_errors=True)
    return result


def hooks_fixture():
    s = {}
    s["mts_hook_sequence"] = run_session(lambda loss, _: [
        tf1.train.StopAtStepHook(last_step=5),
        tf1.train.LoggingTensorHook(
            {"loss": loss, "step": global_step_read()}, every_n_iter=2),
        tf1.train.GlobalStepWaiterHook(wait_until_step=0)],
        save_checkpoint_steps=2, save_summaries_steps=2,
        log_step_count_steps=3)
    s["monitored_session_input_runs_dry"] = run_session(
        lambda loss, _: [], n_batches=3, mts=False)
    # Restores: one folder, three sessions one after the other.
    folder = tempfile.mkdtemp()
    s["restore_first"] = run_session(
        lambda loss, _: [tf1.train.StopAtStepHook(last_step=3)],
        checkpoint_dir=folder, save_checkpoint_steps=100,
        save_summaries_steps=None, log_step_count_steps=None)
    s["restore_num_steps"] = run_session(
        lambda loss, _: [tf1.train.StopAtStepHook(num_steps=2)],
        checkpoint_dir=folder, save_checkpoint_steps=100,
        save_summaries_steps=None, log_step_count_steps=None)
    s["restore_past_last_step"] = run_session(
        lambda loss, _: [tf1.train.StopAtStepHook(last_step=4)],
        checkpoint_dir=folder, save_checkpoint_steps=100,
        save_summaries_steps=None, log_step_count_steps=None)
    s["restore_global_step_idiom"] = global_step_idiom(folder)
    shutil.rmtree(folder)
    s["stop_at_step_num_steps_minus_one"] = run_session(
        lambda loss, _: [tf1.train.StopAtStepHook(num_steps=-1)],
        save_checkpoint_secs=None, save_summaries_steps=None,
        log_step_count_steps=None)
    s["checkpoint_saver_secs"] = run_session(
        lambda loss, _: [tf1.train.StopAtStepHook(last_step=4)],
        save_checkpoint_secs=3600, save_summaries_steps=None,
        log_step_count_steps=None)
    s["checkpoint_saver_listeners"] = listener_session(None)
    s["checkpoint_listener_requests_stop"] = listener_session(4)
    s["nan_tensor_hook_stop"] = run_session(
        lambda loss, _: [tf1.train.NanTensorHook(loss,
                                                 fail_on_nan_loss=False)],
        nan_at=2, mts=False)
    s["nan_tensor_hook_raise"] = run_session(
        lambda loss, _: [tf1.train.NanTensorHook(loss)], nan_at=2, mts=False)
    s["logging_tensor_hook_at_end"] = run_session(
        lambda loss, _: [
            tf1.train.StopAtStepHook(last_step=3),
            tf1.train.LoggingTensorHook({"loss": loss}, at_end=True)],
        mts=False)
    s["final_ops_hook"] = final_ops_session()
    s["feed_fn_hook"] = run_session(lambda loss, ph: [
        tf1.train.StopAtStepHook(last_step=3),
        tf1.train.FeedFnHook(feeder(ph))], feed=True, mts=False)
    s["summary_and_step_counter"] = run_session(
        lambda loss, _: [tf1.train.StopAtStepHook(last_step=7)],
        save_checkpoint_secs=None, save_summaries_steps=3,
        log_step_count_steps=2)
    s["profiler_hook"] = profiler_session()
    s["aborted_error_recovery"] = run_session(
        lambda loss, _: [tf1.train.StopAtStepHook(last_step=6),
                         AbortOnce(at_step=3)],
        save_checkpoint_steps=2, save_summaries_steps=None,
        log_step_count_steps=None)
    dump("hooks", {"inputs": {"x": HOOK_X, "y": HOOK_Y, "kernel": HOOK_W0,
                              "bias": HOOK_B0, "learning_rate": HOOK_LR},
                   "scenarios": s})


def feeder(placeholders):
    """Feeds batch i of the inputs at the i-th step, in reverse order."""
    x, y = placeholders
    count = iter(range(7, -1, -1))

    def feed_fn():
        i = next(count)
        return {x: HOOK_X[i], y: HOOK_Y[i]}
    return feed_fn


def listener_session(stop_at):
    folder = tempfile.mkdtemp()
    trace = []
    result = run_session(lambda loss, _: [
        tf1.train.StopAtStepHook(last_step=5),
        tf1.train.CheckpointSaverHook(folder, save_steps=2, listeners=[
            Listener(trace, stop_at)])], checkpoint_dir=folder, mts=False)
    result["listener"] = trace
    shutil.rmtree(folder, ignore_errors=True)
    return result


def final_ops_session():
    holder = {}

    def make(loss, _):
        w = tf1.trainable_variables()[0]
        holder["hook"] = tf1.train.FinalOpsHook(
            {"step": tf1.train.get_global_step(), "kernel": w})
        return [tf1.train.StopAtStepHook(last_step=3), holder["hook"]]
    result = run_session(make, mts=False)
    result["final_ops_values"] = holder["hook"].final_ops_values
    return result


def profiler_session():
    folder = tempfile.mkdtemp()
    result = run_session(lambda loss, _: [
        tf1.train.StopAtStepHook(last_step=6),
        tf1.train.ProfilerHook(save_steps=2, output_dir=folder)], mts=False)
    result["timelines"] = sorted(f for f in os.listdir(folder)
                                 if f.startswith("timeline"))
    shutil.rmtree(folder)
    return result


def global_step_idiom(folder):
    """TF1's idiom: the step made before the model, read by a hook."""
    trace = []
    with tf.Graph().as_default():
        step = tf1.train.get_or_create_global_step()
        (train_op, _), _, _ = linear_graph((HOOK_X, HOOK_Y))
        seen = []

        class Seen(tf1.train.SessionRunHook):
            def after_create_session(self, session, coord):
                seen.append(["after_create_session",
                             int(session.run(step)),
                             int(session.run(tf1.train.get_global_step()))])

            def after_run(self, run_context, run_values):
                seen.append(["after_run", int(run_context.session.run(
                    tf1.train.get_or_create_global_step()))])

        with tf1.train.MonitoredTrainingSession(
                checkpoint_dir=folder, hooks=[
                    Seen(), Recorder(trace, step),
                    tf1.train.StopAtStepHook(num_steps=1)],
                save_checkpoint_secs=None, save_summaries_steps=None,
                log_step_count_steps=None, config=ONE_THREAD) as sess:
            while not sess.should_stop():
                sess.run(train_op)
    return {"seen": seen, "trace": trace}


# -- candidate sampling -------------------------------------------------------

CS_RNG = np.random.default_rng(2715)
CS_WEIGHTS = CS_RNG.normal(0, 0.5, (10, 3)).astype(np.float32)
CS_BIASES = CS_RNG.normal(0, 0.1, (10,)).astype(np.float32)
CS_INPUTS = CS_RNG.normal(0, 1, (4, 3)).astype(np.float32)
CS_LABELS = {1: np.array([[5], [0], [3], [9]], np.int64),
             2: np.array([[5, 1], [0, 2], [3, 8], [9, 4]], np.int64)}
# Candidate 5 is a true class of the first example: an accidental hit.
CS_SAMPLED = np.array([1, 5, 7, 2, 6], np.int64)
CS_SAMPLED_EXPECTED = np.array([0.9, 0.5, 0.25, 0.8, 0.3], np.float32)
CS_TRUE_EXPECTED = {1: np.array([[0.5], [1.2], [0.7], [0.2]], np.float32),
                    2: np.array([[0.5, 0.9], [1.2, 0.8], [0.7, 0.1],
                                 [0.2, 0.6]], np.float32)}
# Each example's loss weighted differently, so input gradients differ.
CS_LOSS_WEIGHTS = np.array([1.0, -0.5, 2.0, 0.25], np.float32)


def _shards(strategy):
    """Three shards of CS_WEIGHTS/biases as `tf.nn` reads them."""
    ids = np.arange(10)
    if strategy == "mod":
        parts = [ids[ids % 3 == i] for i in range(3)]
    else:
        parts = [ids[:4], ids[4:7], ids[7:]]
    return [CS_WEIGHTS[p] for p in parts]


def sampled_loss_case(loss, num_true, remove_accidental_hits, inputs=None,
                      shards=None, partition_strategy="mod",
                      zero_logits=False):
    """One loss; `zero_logits`: zero inputs and biases and expected counts
    of 1 make every logit exactly 0 (the kink of sigmoid cross-entropy)."""
    inputs = CS_INPUTS if inputs is None else inputs
    true_expected, sampled_expected = CS_TRUE_EXPECTED[num_true], \
        CS_SAMPLED_EXPECTED
    biases_value = CS_BIASES
    if zero_logits:
        inputs = np.zeros_like(CS_INPUTS)
        biases_value = np.zeros_like(CS_BIASES)
        true_expected = np.ones_like(true_expected)
        sampled_expected = np.ones_like(sampled_expected)
    with tf.Graph().as_default(), tf1.Session() as sess:
        if shards is None:
            weights = [tf.constant(CS_WEIGHTS)]
            arg = weights[0]
        else:
            weights = [tf.constant(w) for w in _shards(shards)]
            arg = weights
        biases = tf.constant(biases_value)
        x = tf.constant(inputs)
        fn = tf1.nn.sampled_softmax_loss if loss == "sampled_softmax" \
            else tf1.nn.nce_loss
        out = fn(arg, biases, CS_LABELS[num_true], x, num_sampled=5,
                 num_classes=10, num_true=num_true,
                 sampled_values=(CS_SAMPLED, true_expected,
                                 sampled_expected),
                 remove_accidental_hits=remove_accidental_hits,
                 partition_strategy=partition_strategy)
        total = tf.reduce_sum(out * CS_LOSS_WEIGHTS)
        grads = tf.gradients(total, weights + [biases, x])
        grads = [tf.convert_to_tensor(g) for g in grads]
        values = sess.run([out] + grads)
    return {"loss": loss, "num_true": num_true,
            "remove_accidental_hits": remove_accidental_hits,
            "zero_inputs": inputs is not CS_INPUTS and not zero_logits,
            "zero_logits": zero_logits, "shards": shards,
            "partition_strategy": partition_strategy,
            "losses": values[0], "grad_weights": values[1:-2],
            "grad_biases": values[-2], "grad_inputs": values[-1]}


def sampler_case(name, **kwargs):
    """Expected counts of every id (all ids as the true classes), plus
    one draw, of a sampler with `unique=False` (deterministic counts)."""
    range_max = kwargs["range_max"]
    every_id = np.arange(range_max, dtype=np.int64)[None, :]
    with tf.Graph().as_default(), tf1.Session() as sess:
        fn = getattr(tf.random, name)
        out = fn(true_classes=every_id, num_true=range_max, num_sampled=40,
                 unique=False, seed=3, **kwargs)
        sampled, true_expected, sampled_expected = sess.run(out)
    args = {k: v for k, v in kwargs.items()}
    return {"sampler": name, "kwargs": args, "num_sampled": 40,
            "expected_count": true_expected[0], "sampled": sampled,
            "sampled_expected": sampled_expected}


VOCAB_COUNTS = "the,12\nof,7\nand,5\nto,3\na,2\nin,2\nis,1\nit,1\n"


def candidate_sampling_fixture():
    cases = []
    for loss in ["sampled_softmax", "nce"]:
        for num_true in [1, 2]:
            for hits in [True, False]:
                cases.append(sampled_loss_case(loss, num_true, hits))
        cases.append(sampled_loss_case(loss, 1, False,
                                       inputs=np.zeros_like(CS_INPUTS)))
        cases.append(sampled_loss_case(loss, 1, False, zero_logits=True))
        for strategy in ["mod", "div"]:
            cases.append(sampled_loss_case(loss, 1, loss != "nce",
                                           shards=strategy,
                                           partition_strategy=strategy))
    folder = tempfile.mkdtemp()
    vocab = os.path.join(folder, "vocab.txt")
    with open(vocab, "w") as f:
        f.write(VOCAB_COUNTS)
    unigrams = [5.0, 1.0, 0.0, 3.0, 2.0, 8.0, 1.0, 4.0]
    samplers = [
        sampler_case("uniform_candidate_sampler", range_max=7),
        sampler_case("log_uniform_candidate_sampler", range_max=9),
        sampler_case("fixed_unigram_candidate_sampler", range_max=8,
                     unigrams=unigrams),
        sampler_case("fixed_unigram_candidate_sampler", range_max=8,
                     unigrams=unigrams, distortion=0.5),
        sampler_case("fixed_unigram_candidate_sampler", range_max=8,
                     unigrams=unigrams[:6], num_reserved_ids=2),
        # A shard's range is its own ids (1, 4, 7 of the 8), renumbered.
        sampler_case("fixed_unigram_candidate_sampler", range_max=3,
                     unigrams=unigrams, num_shards=3, shard=1),
        sampler_case("fixed_unigram_candidate_sampler", range_max=8,
                     vocab_file=vocab, distortion=0.75),
    ]
    for case in samplers:
        if case["kwargs"].get("vocab_file"):
            case["kwargs"]["vocab_file"] = "<vocab_file>"
    shutil.rmtree(folder)
    dump("candidate_sampling", {
        "inputs": {"weights": CS_WEIGHTS, "biases": CS_BIASES,
                   "inputs": CS_INPUTS, "labels": CS_LABELS,
                   "sampled": CS_SAMPLED,
                   "sampled_expected": CS_SAMPLED_EXPECTED,
                   "true_expected": CS_TRUE_EXPECTED,
                   "loss_weights": CS_LOSS_WEIGHTS,
                   "vocab_file": VOCAB_COUNTS},
        "losses": cases, "samplers": samplers})


# -- feature columns ----------------------------------------------------------

FC_FEATURES = {
    "age": np.array([[17.0], [25.0], [40.5], [70.0]], np.float32),
    "pair": np.array([[1.0, -2.0], [0.5, 0.0], [3.0, 1.5], [-1.0, 2.0]],
                     np.float32),
    # "" is a missing value; "purple" is out of the vocabulary.
    "color": np.array(["red", "green", "", "purple"]),
    "city": np.array(["paris", "tokyo", "lima", "oslo"]),
    "zip": np.array([75001, 100, 15001, -1], np.int64),
    "id": np.array([0, 3, -1, 2], np.int64),
    "word": np.array(["b", "zzz", "a", "c"]),
    # Multivalent: "" pads.
    "tags": np.array([["x", "y", ""], ["z", "", ""], ["", "", ""],
                      ["y", "y", "w"]]),
    "tag_ids": np.array([[0, 2, -1], [1, -1, -1], [3, 3, -1], [-1, -1, -1]],
                        np.int64),
    "tag_w": np.array([[0.5, 2.0, 0.0], [1.5, 0.0, 0.0], [1.0, 3.0, 0.0],
                       [0.0, 0.0, 0.0]], np.float32),
    "other_tags": np.array([["w", "", ""], ["x", "z", ""], ["y", "", ""],
                            ["", "", ""]]),
}
FC_VOCAB_FILE = "a\nb\nc\n"


def _table(rows, dim, offset=0.0):
    return (np.arange(rows * dim, dtype=np.float32).reshape(rows, dim) / 10.0
            - 0.7 + offset).round(3)


COLOR = {"type": "vocab_list", "key": "color",
         "vocabulary_list": ["red", "green", "blue"], "num_oov_buckets": 2}
TAGS = {"type": "vocab_list", "key": "tags",
        "vocabulary_list": ["w", "x", "y", "z"]}
AGE_BUCKETS = {"type": "bucketized",
               "source": {"type": "numeric", "key": "age"},
               "boundaries": [18.0, 25.0, 35.0, 50.0]}
WEIGHTED = {"type": "weighted", "weight_feature_key": "tag_w",
            "categorical": {"type": "identity", "key": "tag_ids",
                            "num_buckets": 4}}
FC_COLUMNS = {
    "numeric": {"type": "numeric", "key": "age"},
    "numeric_shape_2": {"type": "numeric", "key": "pair", "shape": [2]},
    "bucketized": AGE_BUCKETS,
    "bucketized_2d": {"type": "bucketized", "boundaries": [0.0, 1.0],
                      "source": {"type": "numeric", "key": "pair",
                                 "shape": [2]}},
    "indicator_vocab_oov_buckets": {"type": "indicator", "categorical": COLOR},
    "indicator_vocab_default_value": {"type": "indicator", "categorical": {
        "type": "vocab_list", "key": "color", "default_value": 1,
        "vocabulary_list": ["red", "green", "blue"]}},
    "indicator_vocab_oov_dropped": {"type": "indicator", "categorical": {
        "type": "vocab_list", "key": "color",
        "vocabulary_list": ["red", "green", "blue"]}},
    "indicator_vocab_file": {"type": "indicator", "categorical": {
        "type": "vocab_file", "key": "word", "vocabulary_size": 3,
        "num_oov_buckets": 1}},
    "indicator_identity": {"type": "indicator", "categorical": {
        "type": "identity", "key": "id", "num_buckets": 4}},
    "indicator_hash": {"type": "indicator", "categorical": {
        "type": "hash", "key": "city", "hash_bucket_size": 7}},
    "indicator_hash_int": {"type": "indicator", "categorical": {
        "type": "hash", "key": "zip", "hash_bucket_size": 5,
        "dtype": "int64"}},
    "indicator_crossed": {"type": "indicator", "categorical": {
        "type": "crossed", "keys": ["city", AGE_BUCKETS],
        "hash_bucket_size": 11}},
    # TF crosses categorical columns before raw features, whatever the
    # order of the keys: this one crosses like the one above.
    "indicator_crossed_columns_first": {"type": "indicator", "categorical": {
        "type": "crossed", "keys": [AGE_BUCKETS, "city"],
        "hash_bucket_size": 11}},
    "indicator_crossed_missing_string": {"type": "indicator", "categorical": {
        "type": "crossed", "keys": ["color", "city"],
        "hash_bucket_size": 13}},
    "indicator_crossed_oov_id": {"type": "indicator", "categorical": {
        "type": "crossed", "hash_bucket_size": 13, "keys": [{
            "type": "vocab_list", "key": "color",
            "vocabulary_list": ["red", "green", "blue"]}, "city"]}},
    "indicator_multivalent": {"type": "indicator", "categorical": TAGS},
    "indicator_weighted": {"type": "indicator", "categorical": WEIGHTED},
}
for _combiner in ["mean", "sum", "sqrtn"]:
    FC_COLUMNS[f"embedding_{_combiner}"] = {
        "type": "embedding", "categorical": TAGS, "dimension": 2,
        "combiner": _combiner, "table": _table(4, 2)}
    FC_COLUMNS[f"embedding_weighted_{_combiner}"] = {
        "type": "embedding", "categorical": WEIGHTED, "dimension": 3,
        "combiner": _combiner, "table": _table(4, 3)}
FC_COLUMNS["embedding_single_value"] = {
    "type": "embedding", "categorical": COLOR, "dimension": 2,
    "combiner": "mean", "table": _table(5, 2)}
FC_COLUMNS["embedding_max_norm"] = {
    "type": "embedding", "categorical": TAGS, "dimension": 2,
    "combiner": "sum", "table": _table(4, 2, offset=0.3), "max_norm": 0.5}
FC_SHARED = {"type": "shared", "dimension": 2, "combiner": "sqrtn",
             "table": _table(4, 2, offset=0.1),
             "categoricals": [TAGS, dict(TAGS, key="other_tags")]}
FC_LINEAR_COLUMNS = ["numeric", "numeric_shape_2", "bucketized",
                     "indicator_vocab_oov_buckets", "indicator_identity",
                     "indicator_crossed_columns_first",
                     "indicator_multivalent",
                     "indicator_weighted"]


def _tf_features():
    return {k: tf.constant(v) for k, v in FC_FEATURES.items()}


def _tf_fc_module():
    """tf.feature_column with hash dtypes as TF spells them."""
    class FC:
        def __getattr__(self, name):
            return getattr(tf.feature_column, name)

        @staticmethod
        def categorical_column_with_hash_bucket(key, size, dtype):
            return tf.feature_column.categorical_column_with_hash_bucket(
                key, size, dtype=tf.as_dtype(dtype))
    return FC()


def feature_columns_fixture():
    folder = tempfile.mkdtemp()
    vocab = os.path.join(folder, "vocab.txt")
    with open(vocab, "w") as f:
        f.write(FC_VOCAB_FILE)
    fc = _tf_fc_module()
    outputs = {}
    for name, spec in FC_COLUMNS.items():
        with tf.Graph().as_default(), tf1.Session() as sess:
            column = build_column(spec, fc, tf.constant_initializer, vocab)
            out = tf1.feature_column.input_layer(_tf_features(), [column])
            sess.run(tf1.global_variables_initializer())
            sess.run(tf1.tables_initializer())
            outputs[name] = {"spec": spec, "output": sess.run(out)}
    with tf.Graph().as_default(), tf1.Session() as sess:
        # One case per column name (input_layer's order is by name).
        columns, names, seen = [], [], set()
        for n in sorted(FC_COLUMNS):
            column = build_column(FC_COLUMNS[n], fc, tf.constant_initializer,
                                  vocab)
            if column.name not in seen:
                seen.add(column.name)
                columns.append(column)
                names.append(n)
        out = tf1.feature_column.input_layer(_tf_features(), columns)
        sess.run(tf1.global_variables_initializer())
        sess.run(tf1.tables_initializer())
        together = {"cases": names, "column_names": [c.name for c in columns],
                    "output": sess.run(out)}
    shared = shared_embedding_case(vocab)
    shared_v2 = shared_embeddings_v2_case(vocab)
    linear = [linear_model_case(vocab, combiner, units)
              for combiner, units in [("sum", 1), ("mean", 2),
                                      ("sqrtn", 1)]]
    shutil.rmtree(folder)
    dump("feature_columns", {"features": {
        k: {"dtype": str(v.dtype) if v.dtype.kind != "U" else "string",
            "value": v} for k, v in FC_FEATURES.items()},
        "vocab_file": FC_VOCAB_FILE, "columns": outputs,
        "input_layer_all_columns": together, "shared_embedding": shared,
        "shared_embeddings_v2": shared_v2,
        "linear_model": linear})


def shared_embedding_case(vocab):
    fc = _tf_fc_module()
    with tf.Graph().as_default(), tf1.Session() as sess:
        cats = [build_column(c, fc, None, vocab)
                for c in FC_SHARED["categoricals"]]
        columns = tf1.feature_column.shared_embedding_columns(
            cats, FC_SHARED["dimension"], combiner=FC_SHARED["combiner"],
            initializer=tf.constant_initializer(FC_SHARED["table"]))
        out = tf1.feature_column.input_layer(_tf_features(), columns)
        sess.run(tf1.global_variables_initializer())
        sess.run(tf1.tables_initializer())
        return {"spec": FC_SHARED, "names": [c.name for c in columns],
                "variables": [v.name for v in tf1.global_variables()],
                "output": sess.run(out)}


def shared_embeddings_v2_case(vocab):
    """TF 2's `shared_embeddings` in `DenseFeatures`: its table is named
    after the columns alone (no `input_layer/.../embedding_weights`)."""
    fc = _tf_fc_module()
    with tf.Graph().as_default(), tf1.Session() as sess:
        cats = [build_column(c, fc, None, vocab)
                for c in FC_SHARED["categoricals"]]
        columns = tf.feature_column.shared_embeddings(
            cats, FC_SHARED["dimension"], combiner=FC_SHARED["combiner"],
            initializer=tf.constant_initializer(FC_SHARED["table"]))
        out = tf1.keras.layers.DenseFeatures(columns)(_tf_features())
        sess.run(tf1.global_variables_initializer())
        sess.run(tf1.tables_initializer())
        return {"spec": FC_SHARED, "names": [c.name for c in columns],
                "variables": [v.name for v in tf1.global_variables()],
                "output": sess.run(out)}


def linear_model_case(vocab, sparse_combiner, units):
    """`linear_model` with every weight set by `linear_weight`."""
    fc = _tf_fc_module()
    with tf.Graph().as_default(), tf1.Session() as sess:
        columns = [build_column(FC_COLUMNS[n]["categorical"] if
                                FC_COLUMNS[n]["type"] == "indicator" else
                                FC_COLUMNS[n], fc, None, vocab)
                   for n in FC_LINEAR_COLUMNS]
        out = tf1.feature_column.linear_model(
            _tf_features(), columns, units=units,
            sparse_combiner=sparse_combiner)
        sess.run(tf1.global_variables_initializer())
        sess.run(tf1.tables_initializer())
        weights = {}
        for v in tf1.global_variables():
            value = linear_weight(v.shape.as_list())
            v.load(value, sess)
            weights[v.name.split(":")[0]] = value
        return {"columns": FC_LINEAR_COLUMNS, "units": units,
                "sparse_combiner": sparse_combiner, "weights": weights,
                "output": sess.run(out)}


def linear_weight(shape):
    size = int(np.prod(shape))
    return (np.linspace(-1.0, 1.5, size, dtype=np.float32) ** 2 - 0.4
            ).reshape(shape).round(4)


# -- canned estimators --------------------------------------------------------

EST_RNG = np.random.default_rng(15)
EST_X = EST_RNG.normal(0, 1, (8, 2)).astype(np.float32)
EST_C = np.array(["a", "b", "c", "a", "b", "c", "a", "b"])
EST_LABELS = {
    "binary": np.array([[0], [1], [1], [0], [1], [0], [1], [1]], np.int64),
    "multiclass": np.array([[0], [2], [1], [0], [2], [1], [1], [2]],
                           np.int64),
    "vocabulary": np.array([["no"], ["yes"], ["yes"], ["no"], ["yes"],
                            ["no"], ["yes"], ["yes"]]),
    "regression": (EST_X @ np.array([[1.5], [-0.5]], np.float32) + 0.25
                   ).astype(np.float32),
    "regression_2d": np.concatenate(
        [EST_X @ np.array([[1.5], [-0.5]], np.float32),
         EST_X[:, :1] * 2.0 - 1.0], axis=1).astype(np.float32),
}
# Columns as specs (tests/tf1_reference/columns.py builds them).
EST_NUMERIC = {"type": "numeric", "key": "x", "shape": [2]}
EST_VOCAB = {"type": "vocab_list", "key": "c",
             "vocabulary_list": ["a", "b", "c"]}
EST_EMBEDDING = {"type": "embedding", "categorical": EST_VOCAB,
                 "dimension": 2, "combiner": "mean",
                 "table": np.zeros((3, 2), np.float32)}
LINEAR = [EST_NUMERIC, EST_VOCAB]
DNN = [EST_NUMERIC, EST_EMBEDDING]
EST_STEPS = 6
EST_CASES = {
    "LinearClassifier": ("LinearClassifier", "binary",
                         {"feature_columns": LINEAR}),
    "LinearClassifier_n_classes_3": (
        "LinearClassifier", "multiclass",
        {"feature_columns": LINEAR, "n_classes": 3}),
    "LinearClassifier_label_vocabulary": (
        "LinearClassifier", "vocabulary",
        {"feature_columns": LINEAR, "label_vocabulary": ["no", "yes"]}),
    "LinearRegressor": ("LinearRegressor", "regression",
                        {"feature_columns": LINEAR}),
    "LinearRegressor_label_dimension_2": (
        "LinearRegressor", "regression_2d",
        {"feature_columns": LINEAR, "label_dimension": 2}),
    "DNNClassifier": ("DNNClassifier", "binary",
                      {"feature_columns": DNN, "hidden_units": [3]}),
    "DNNClassifier_n_classes_3": (
        "DNNClassifier", "multiclass",
        {"feature_columns": DNN, "hidden_units": [3, 2], "n_classes": 3}),
    "DNNRegressor": ("DNNRegressor", "regression",
                     {"feature_columns": DNN, "hidden_units": [3]}),
    # Without an embedding: no input-layer variable, only the layers'.
    "DNNRegressor_numeric_columns": (
        "DNNRegressor", "regression",
        {"feature_columns": [EST_NUMERIC], "hidden_units": [3]}),
    "DNNClassifier_numeric_columns": (
        "DNNClassifier", "binary",
        {"feature_columns": [EST_NUMERIC], "hidden_units": [3]}),
    "DNNLinearCombinedClassifier": (
        "DNNLinearCombinedClassifier", "binary",
        {"linear_feature_columns": LINEAR, "dnn_feature_columns": DNN,
         "dnn_hidden_units": [3]}),
    "DNNLinearCombinedRegressor": (
        "DNNLinearCombinedRegressor", "regression",
        {"linear_feature_columns": LINEAR, "dnn_feature_columns": DNN,
         "dnn_hidden_units": [3]}),
    "BaselineClassifier": ("BaselineClassifier", "binary", {}),
    "BaselineClassifier_n_classes_3": ("BaselineClassifier", "multiclass",
                                       {"n_classes": 3}),
    "BaselineRegressor": ("BaselineRegressor", "regression", {}),
}


def _estimator_args(kwargs, vocab_file=None):
    fc = _tf_fc_module()
    out = {}
    for name, value in kwargs.items():
        if name.endswith("feature_columns"):
            value = [build_column(spec, fc, tf.constant_initializer, None)
                     for spec in value]
        out[name] = value
    return out


def _est_input(labels, features, epochs=None):
    def input_fn():
        data = tf.data.Dataset.from_tensor_slices((features, labels))
        data = data.batch(4)
        return data.repeat() if epochs is None else data
    return input_fn


def _start_values(names):
    """Fixed initial values of the trainable variables (not zeros: the
    hidden units must differ)."""
    values = {}
    for i, (name, shape) in enumerate(sorted(names.items())):
        size = int(np.prod(shape)) if shape else 1
        grid = np.linspace(-0.6, 0.8, size, dtype=np.float32)
        values[name] = (np.sin(grid * (3 + i)) * 0.5).reshape(shape).round(4)
    return values


def _write_tf_checkpoint(values, prefix):
    with tf.Graph().as_default(), tf1.Session() as sess:
        variables = [tf1.Variable(v, name=n) for n, v in values.items()]
        sess.run(tf1.variables_initializer(variables))
        tf1.train.Saver(variables).save(sess, prefix)


def estimator_case(class_name, label_kind, kwargs):
    labels = EST_LABELS[label_kind]
    baseline = class_name.startswith("Baseline")
    # TF's baseline reads its batch size from a numeric feature only.
    features = {"x": EST_X} if baseline else {"x": EST_X, "c": EST_C}
    cls = getattr(tf.estimator, class_name)
    probe_dir, model_dir, start = (tempfile.mkdtemp() for _ in range(3))
    args = _estimator_args(kwargs)
    start_values = None
    warm = None
    if not class_name.startswith(("Linear", "Baseline")):
        # Find the trainable variables, then warm-start them all from
        # fixed values (linear and baseline models start at zero in both).
        probe = cls(model_dir=probe_dir, **args)
        probe.train(_est_input(labels, features), steps=1)
        with tf.Graph().as_default():
            probe_names = set(probe.get_variable_names())
        trainable = {n: probe.get_variable_value(n).shape for n in
                     probe_names if not n.startswith("training/")
                     and n != "global_step"}
        start_values = _start_values(trainable)
        _write_tf_checkpoint(start_values, os.path.join(start, "start"))
        warm = tf.estimator.WarmStartSettings(os.path.join(start, "start"),
                                              vars_to_warm_start=".*")
    if warm is not None:
        args["warm_start_from"] = warm
    est = cls(model_dir=model_dir, **args)
    est.train(_est_input(labels, features), steps=EST_STEPS)
    names = est.get_variable_names()
    model_names = [n for n in names if not n.startswith("training/")]
    evaluation = est.evaluate(_est_input(labels, features, epochs=1))
    predictions = list(est.predict(_est_input(labels, features, epochs=1)))
    result = {
        "class": class_name, "labels": label_kind, "kwargs": kwargs,
        "steps": EST_STEPS, "start_values": start_values,
        "variable_names": names,
        "weights": {n: est.get_variable_value(n) for n in model_names
                    if n != "global_step"},
        "evaluate": {k: v for k, v in evaluation.items()},
        "predict": [{k: v for k, v in p.items()} for p in predictions],
        "checkpoints": checkpoint_steps(model_dir)}
    for folder in (probe_dir, model_dir, start):
        shutil.rmtree(folder, ignore_errors=True)
    return result


def warm_start_vocab_case():
    """LinearRegressor warm-started with a vocabulary remapping
    (`VocabInfo`): rows follow their tokens into the new vocabulary, a new
    token starts at zero."""
    folder = tempfile.mkdtemp()
    old_vocab, new_vocab = (os.path.join(folder, n) for n in ("old", "new"))
    with open(old_vocab, "w") as f:
        f.write("a\nb\nc\n")
    with open(new_vocab, "w") as f:
        f.write("c\nd\na\nb\n")
    features = {"x": EST_X, "c": EST_C}
    labels = EST_LABELS["regression"]
    fc = tf.feature_column

    def columns(vocab, size):
        return [fc.numeric_column("x", shape=2),
                fc.categorical_column_with_vocabulary_file(
                    "c", vocab, vocabulary_size=size)]
    old = tf.estimator.LinearRegressor(columns(old_vocab, 3),
                                       model_dir=os.path.join(folder, "m0"))
    old.train(_est_input(labels, features), steps=3)
    start = {n: old.get_variable_value(n) for n in old.get_variable_names()
             if n.startswith("linear/")}
    _write_tf_checkpoint(start, os.path.join(folder, "start"))
    name = "linear/linear_model/c/weights"
    warm = tf.estimator.WarmStartSettings(
        os.path.join(folder, "start"), vars_to_warm_start=".*",
        var_name_to_vocab_info={name: tf.estimator.VocabInfo(
            new_vocab, new_vocab_size=4, num_oov_buckets=0,
            old_vocab=old_vocab, old_vocab_size=3)})
    new = tf.estimator.LinearRegressor(columns(new_vocab, 4),
                                       model_dir=os.path.join(folder, "m1"),
                                       warm_start_from=warm)
    new.train(_est_input(labels, features), steps=1)
    result = {"old_vocab": "a\nb\nc\n", "new_vocab": "c\nd\na\nb\n",
              "start_values": start,
              "weights": {n: new.get_variable_value(n)
                          for n in new.get_variable_names()
                          if n.startswith("linear/")}}
    shutil.rmtree(folder)
    return result


def estimators_fixture():
    cases = {name: estimator_case(*args) for name, args in EST_CASES.items()}
    dump("estimators", {"inputs": {"x": EST_X, "c": EST_C,
                                   "labels": EST_LABELS,
                                   "batch_size": 4},
                        "cases": cases,
                        "warm_start_vocab": warm_start_vocab_case()})


# -- a custom Estimator: train/evaluate/predict, hooks, train_and_evaluate ----

CE_X = HOOK_X.reshape(-1, 3)[:8]
CE_Y = HOOK_Y.reshape(-1, 1)[:8]


def custom_model_fn(features, labels, mode):
    """The hooks scenario's linear model as a `model_fn`."""
    w = tf1.get_variable("dense/kernel", initializer=HOOK_W0)
    b = tf1.get_variable("dense/bias", initializer=HOOK_B0)
    y = tf.matmul(features["x"], w) + b
    predictions = {"y": y, "double": 2.0 * y}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)
    loss = tf.reduce_mean(tf.square(y - labels))
    train_op = None
    if mode == tf.estimator.ModeKeys.TRAIN:
        train_op = tf1.train.GradientDescentOptimizer(HOOK_LR).minimize(
            loss, global_step=tf1.train.get_global_step())
    metrics = {"mae": tf1.metrics.mean_absolute_error(labels, y)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops=metrics,
                                      predictions=predictions)


def _ce_input(epochs=None, with_labels=True):
    def input_fn():
        data = tf.data.Dataset.from_tensor_slices(
            ({"x": CE_X}, CE_Y) if with_labels else {"x": CE_X}).batch(4)
        return data.repeat() if epochs is None else data.repeat(epochs)
    return input_fn


def _ce_estimator(model_dir, **config):
    config = tf.estimator.RunConfig(model_dir=model_dir,
                                    session_config=ONE_THREAD, **config)
    return tf.estimator.Estimator(custom_model_fn, config=config)


def custom_estimator_fixture():
    s = {}
    folder = tempfile.mkdtemp()
    trace, result = [], {}
    with LogCapture(folder) as logs:
        est = _ce_estimator(folder, save_checkpoints_steps=2,
                            log_step_count_steps=2)
        recorder = Recorder(trace, weights=())
        est.train(_ce_input(), steps=3, hooks=[recorder])
        result["steps_3"] = {"trace": list(trace), "logs": list(logs.lines),
                             "checkpoints": checkpoint_steps(folder)}
        del trace[:], logs.lines[:]
        listened = []
        est.train(_ce_input(), max_steps=5,
                  saving_listeners=[Listener(listened)])
        result["max_steps_5"] = {"logs": list(logs.lines),
                                 "checkpoints": checkpoint_steps(folder),
                                 "listener": listened}
        del logs.lines[:]
        est.train(_ce_input(), max_steps=4)
        result["max_steps_4_again"] = {"logs": list(logs.lines),
                                       "checkpoints": checkpoint_steps(folder)}
        del logs.lines[:]
        # The training summaries (every 100 steps by default, and the
        # first step's).
        result["train_events"] = event_tags(folder, recursive=False)
        result["evaluate"] = est.evaluate(_ce_input(epochs=1))
        result["evaluate_steps_1_named"] = est.evaluate(
            _ce_input(epochs=1), steps=1, name="one")
        result["evaluate_logs"] = list(logs.lines)
        result["eval_dirs"] = sorted(f for f in os.listdir(folder)
                                     if f.startswith("eval"))
        result["eval_events"] = {d: event_tags(os.path.join(folder, d))
                                 for d in result["eval_dirs"]}
        result["predict"] = list(est.predict(_ce_input(epochs=1,
                                                       with_labels=False)))
        result["predict_keys_y"] = list(est.predict(
            _ce_input(epochs=1, with_labels=False), predict_keys=["y"]))
        result["predict_batches"] = list(est.predict(
            _ce_input(epochs=1, with_labels=False),
            yield_single_examples=False))
        result["variable_names"] = est.get_variable_names()
        result["weights"] = {n: est.get_variable_value(n) for n in
                             ["dense/kernel", "dense/bias"]}
    s["train_evaluate_predict"] = result
    shutil.rmtree(folder)
    s["train_and_evaluate_throttle_0"] = train_and_evaluate_case()
    dump("custom_estimator", {"inputs": {
        "x": CE_X, "y": CE_Y, "kernel": HOOK_W0, "bias": HOOK_B0,
        "learning_rate": HOOK_LR, "batch_size": 4}, "scenarios": s})


def train_and_evaluate_case():
    folder = tempfile.mkdtemp()
    with LogCapture(folder) as logs:
        est = _ce_estimator(folder, save_checkpoints_steps=2,
                            log_step_count_steps=None)
        train_spec = tf.estimator.TrainSpec(_ce_input(), max_steps=6)
        eval_spec = tf.estimator.EvalSpec(_ce_input(epochs=1), steps=None,
                                          start_delay_secs=0,
                                          throttle_secs=0)
        final, _ = tf.estimator.train_and_evaluate(est, train_spec,
                                                   eval_spec)
    result = {"final": final, "checkpoints": checkpoint_steps(folder),
              "eval_events": event_tags(os.path.join(folder, "eval")),
              "logs": logs.lines}
    shutil.rmtree(folder)
    return result


# -- losses on logits at the kink (logit exactly 0) ------------------------

LOGITS = np.array([[-2.0, 0.0, 0.0, 1.5], [0.0, 3.0, -0.5, 0.0]], np.float32)
LOGIT_LABELS = np.array([[1.0, 0.0, 1.0, 0.3], [0.5, 1.0, 0.0, 1.0]],
                        np.float32)
LOGIT_LOSSES = {
    "sigmoid_cross_entropy_with_logits": lambda z, x: tf.reduce_sum(
        tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x)),
    "keras.binary_crossentropy": lambda z, x: tf.reduce_sum(
        tf.keras.losses.binary_crossentropy(z, x, from_logits=True)),
    "keras.binary_crossentropy_label_smoothing": lambda z, x: tf.reduce_sum(
        tf.keras.losses.binary_crossentropy(z, x, from_logits=True,
                                            label_smoothing=0.2)),
    "keras.binary_focal_crossentropy": lambda z, x: tf.reduce_sum(
        tf.keras.losses.binary_focal_crossentropy(z, x, from_logits=True,
                                                  gamma=2.0)),
    "log_sigmoid": lambda z, x: tf.reduce_sum(tf.math.log_sigmoid(x) * z),
}


def logit_losses_fixture():
    cases = {}
    for name, fn in LOGIT_LOSSES.items():
        with tf.Graph().as_default(), tf1.Session() as sess:
            x = tf.constant(LOGITS)
            loss = fn(tf.constant(LOGIT_LABELS), x)
            value, grad = sess.run([loss, tf.gradients(loss, x)[0]])
        cases[name] = {"loss": value, "grad": grad}
    dump("logit_losses", {"logits": LOGITS, "labels": LOGIT_LABELS,
                          "cases": cases})


FIXTURES = {"hooks": hooks_fixture,
            "logit_losses": logit_losses_fixture,
            "custom_estimator": custom_estimator_fixture,
            "estimators": estimators_fixture,
            "candidate_sampling": candidate_sampling_fixture,
            "feature_columns": feature_columns_fixture}


def main(argv):
    names = argv or list(FIXTURES)
    tf1.disable_eager_execution()
    for name in names:
        FIXTURES[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
