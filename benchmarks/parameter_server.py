"""Parameter-server runtime against the local runtime, same run.

The MLP and wide & deep models of the shared bench (`keras_models.py`,
same layers, sizes, batch and data from `bench_data.make_data`) trained
locally and under `kerasish.distribute.ParameterServerStrategy` on 1, 2
and 4 workers x 1 and 2 shards, sync and async, and wide & deep with
`sparse_embeddings=True` and `False`. Every configuration runs in a fresh
process (Ray, the actors and numpy's caches are not shared); the
configurations of one repetition are interleaved with the local runs.

    python benchmarks/parameter_server.py             # the full grid, 2 reps
    python benchmarks/parameter_server.py --quick     # a short run
    python benchmarks/parameter_server.py --big-table # 10M x 16 table, RSS

Per configuration one JSON line: train samples/s and per-step time over
the epochs after the first (the first builds the actors and replicas),
the round-trip overhead (PS step time minus the local step time of the
same repetition), and bytes moved per step. Bytes are counted two ways:
`pull_*`/`push_*` from the layout and the data (dense parameters pulled
whole by every worker, dense gradients pushed by every worker, embedding
rows as the unique ids of each worker's part of the batch), and
`measured_*` from the objects themselves (one extra, untimed replica call
after training: the nbytes of the parameter dicts a worker receives and
of the update dicts it returns). A markdown table of medians ends the run.

The machine is shared: compare figures of one run, never a lone number.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _shared_bench():
    """The shared bench: beside the main checkout, or one level further
    up from a worktree under /work/wt/."""
    for up in (2, 3):
        path = os.path.normpath(os.path.join(HERE, *[os.pardir] * up,
                                             "shared", "bench"))
        if os.path.isdir(path):
            return path
    return None


BENCH = _shared_bench()
BIG_VOCAB, BIG_EMB = 10_000_000, 16
# One BLAS thread everywhere: Ray starts its actors with OMP_NUM_THREADS=1,
# and on a loaded 2-core machine a 2-thread OpenBLAS local run spins (an
# MLP step measured 235 ms against 18 ms with one thread), so the local
# runtime would lose for the wrong reason.
THREADS_ENV = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
                   MKL_NUM_THREADS="1")


# -- the child: one configuration --------------------------------------------
def build(keras, model_name, big_table=False):
    """The models of the shared `keras_models.py` (copied: that script
    parses its own command line at import)."""
    from bench_data import WD_EMB, WD_N_CAT, WD_N_NUM, WD_VOCAB
    layers = keras.layers
    if model_name == "mlp":
        model = keras.Sequential([
            keras.Input(shape=(784,)),
            layers.Dense(256, activation="relu"),
            layers.Dense(256, activation="relu"),
            layers.Dense(10, activation="softmax"),
        ])
        model.compile(optimizer=keras.optimizers.Adam(),
                      loss="sparse_categorical_crossentropy")
        return model
    cat_in = [keras.Input(shape=(1,), dtype="int32", name=f"cat{i}")
              for i in range(WD_N_CAT)]
    num_in = keras.Input(shape=(WD_N_NUM,), dtype="float32", name="num")
    # --big-table: column 0 gets a 10M x 16 deep table (and a 10M x 1
    # wide one); the other columns stay as in the shared bench.
    sizes = [(BIG_VOCAB, BIG_EMB) if big_table and i == 0 else
             (WD_VOCAB, WD_EMB) for i in range(WD_N_CAT)]
    embs = [layers.Flatten()(layers.Embedding(v, d)(c))
            for (v, d), c in zip(sizes, cat_in)]
    h = layers.Concatenate()(embs + [num_in])
    h = layers.Dense(256, activation="relu")(h)
    h = layers.Dense(128, activation="relu")(h)
    deep_logit = layers.Dense(1)(h)
    wide = [layers.Flatten()(layers.Embedding(v, 1)(c))
            for (v, _), c in zip(sizes, cat_in)]
    wide.append(layers.Dense(1)(num_in))
    logit = layers.Add()(wide + [deep_logit])
    out = layers.Activation("sigmoid")(logit)
    model = keras.Model(inputs=cat_in + [num_in], outputs=out)
    model.compile(optimizer=keras.optimizers.Adam(),
                  loss="binary_crossentropy")
    return model


def make_data(model_name, n, big_table):
    import numpy as np
    from bench_data import make_data as shared_make_data
    x, y = shared_make_data(model_name, n, 0)
    if big_table:
        # Zipf ids spread over the whole 10M vocabulary (the shared data
        # takes them modulo 10,000).
        rng = np.random.default_rng(1)
        ids = (rng.zipf(1.1, size=n) - 1) % BIG_VOCAB
        x[0] = ids.astype(np.int32).reshape(n, 1)
    return x, y


def rss_mb(pid="self"):
    """VmRSS, VmHWM (peak) and the VmRSS split of a process, in MB.

    RssShmem counts the pages of Ray's object store the process has
    mapped (arguments and results read zero-copy); RssAnon its own."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssShmem"):
                out[key] = int(value.split()[0]) / 1024
    return out


def child(cfg):
    sys.path.insert(0, cfg["bench_dir"])
    sys.path.insert(0, ROOT)
    import numpy as np

    import kerasish as keras
    from bench_data import SPECS
    batch = SPECS[cfg["model"]]["batch"]
    n = batch * cfg["steps"]
    x, y = make_data(cfg["model"], n, cfg["big_table"])
    keras.utils.set_random_seed(0)
    strategy = None
    if cfg["runtime"] == "ps":
        strategy = keras.distribute.ParameterServerStrategy(
            num_workers=cfg["workers"], num_ps=cfg["shards"],
            mode=cfg["mode"], sparse_embeddings=cfg["sparse"])
    try:
        if strategy is None:
            model = build(keras, cfg["model"], cfg["big_table"])
        else:
            with strategy.scope():
                model = build(keras, cfg["model"], cfg["big_table"])
        times = []

        class EpochTimer(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                self.t = time.perf_counter()

            def on_epoch_end(self, epoch, logs=None):
                if strategy is not None:
                    strategy.runtime.sync()   # async: count every update
                times.append(time.perf_counter() - self.t)

        history = model.fit(x, y, batch_size=batch, epochs=cfg["epochs"],
                            shuffle=False, verbose=0,
                            callbacks=[EpochTimer()])
        steps = cfg["steps"]
        step_s = statistics.median(t / steps for t in times[1:])
        record = dict(cfg, batch=batch, samples=n,
                      train_sps=n * (len(times) - 1) / sum(times[1:]),
                      step_ms=1e3 * step_s, first_epoch_s=times[0],
                      final_loss=float(history.history["loss"][-1]),
                      driver_rss_mb=rss_mb(),
                      omp_threads=os.environ.get("OMP_NUM_THREADS"))
        if strategy is not None:
            record.update(traffic(strategy.runtime, x, y, batch, cfg))
            record["shard_versions"] = [
                s["version"] for s in strategy.runtime.shard_status()]
            record["actor_rss_mb"] = actor_rss(strategy.runtime)
    finally:
        if strategy is not None:
            strategy.shutdown()
    return record


def _nbytes(entry):
    import numpy as np
    return int(np.prod(entry["shape"], dtype=np.int64)) * \
        np.dtype(entry["dtype"]).itemsize


def _table_columns(model):
    """`{table path: input index}` for each Embedding of the model."""
    from kerasish.layers.core.embedding import Embedding
    names = [t.name for t in model.inputs]
    out = {}
    for layer in model.layers:
        if isinstance(layer, Embedding):
            source = layer.input.name
            out[layer.embeddings.path] = names.index(source)
    return out


def traffic(runtime, x, y, batch, cfg):
    """Bytes per step, from the layout and the data, and measured."""
    import numpy as np
    layout, workers = runtime.layout, cfg["workers"]
    columns = _table_columns(runtime.model)
    dense = [e for e in layout if not e["rows"]]
    # An Embedding's gradient is rows (IndexedSlices) whether its table
    # is pulled by rows or whole: the worker pushes it as rows either way.
    out = {"pull_dense_bytes": sum(_nbytes(e) for e in dense),
           "push_dense_bytes": sum(_nbytes(e) for e in dense
                                   if e["trainable"] and
                                   e["path"] not in columns),
           "table_bytes": sum(_nbytes(e) for e in layout
                              if e["path"] in columns)}
    pull_rows = push_rows = 0
    steps = len(y) // batch
    for entry in layout:
        if entry["path"] not in columns:
            continue
        ids = x[columns[entry["path"]]].reshape(steps, batch)
        # a row travels with its id (int32, as the batch has it)
        row_bytes = _nbytes(entry) // entry["shape"][0] + ids.itemsize
        push_rows += batch * row_bytes      # one row per lookup
        if entry["rows"]:
            for part in np.array_split(ids, workers, axis=1):
                unique = sum(len(np.unique(r)) for r in part) / steps
                pull_rows += unique * row_bytes
    # per worker and step (a sync step: every worker does this once)
    out["pull_rows_bytes"] = pull_rows / workers
    out["push_rows_bytes"] = push_rows / workers
    out.update(measured_traffic(runtime, x, y, batch, workers))
    return out


def _size(obj):
    import numpy as np
    if isinstance(obj, np.ndarray):
        return obj.nbytes
    if isinstance(obj, dict):
        return sum(_size(v) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return sum(_size(v) for v in obj)
    return 0


def measured_traffic(runtime, x, y, batch, workers):
    """One untimed replica call on worker 0's part of the first batch:
    the nbytes of the parameter dicts it gets and the updates it returns
    (nothing is applied)."""
    import ray
    first = [a[:batch] for a in x] if isinstance(x, list) else x[:batch]
    sub = batch // workers + (batch % workers > 0)
    part = ([a[:sub] for a in first] if isinstance(first, list)
            else first[:sub], y[:sub])
    cluster = runtime.cluster
    params = ray.get(runtime._param_refs)
    refs = cluster.workers[0].train.options(
        num_returns=len(cluster.shards) + 1).remote(
            part, *runtime._param_refs)
    updates = ray.get(refs[:-1])
    return {"measured_pull_dense_bytes": _size(params),
            "measured_push_dense_bytes": sum(_size(u["dense"])
                                             for u in updates),
            "measured_push_rows_bytes": sum(_size(u["rows"])
                                            for u in updates),
            "measured_push_rows_ids": sum(
                len(ids) for u in updates
                for ids, _, _ in u["rows"].values())}


def actor_rss(runtime):
    import ray
    cluster = runtime.cluster
    pids = ray.get([w.ping.remote() for w in cluster.workers] +
                   [s.ping.remote() for s in cluster.shards])
    workers = len(cluster.workers)
    return {"workers": [rss_mb(p) for p in pids[:workers]],
            "shards": [rss_mb(p) for p in pids[workers:]]}


# -- the parent: the grid, interleaved, fresh processes -----------------------
def run(cfg):
    cmd = [sys.executable, os.path.abspath(__file__), "--child",
           json.dumps(cfg)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                          timeout=1800, env=THREADS_ENV)
    if proc.returncode != 0:
        raise RuntimeError(f"{cfg} failed:\n{proc.stderr[-3000:]}")
    record = json.loads(proc.stdout.strip().splitlines()[-1])
    record["loadavg"] = os.getloadavg()[0]
    print(json.dumps(record), flush=True)
    return record


def grid(args):
    """Per model: its PS configurations, in the order they run."""
    out = {}
    for model in args.models:
        sparse = [True, False] if model == "wide_deep" and \
            not args.big_table else [True]
        out[model] = [dict(runtime="ps", workers=w, shards=k, mode=m,
                           sparse=s)
                      for s in sparse for m in args.modes
                      for k in args.shards for w in args.workers]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true",
                    help="1 rep, 30 steps, 1-2 workers, 1 shard")
    ap.add_argument("--big-table", action="store_true",
                    help="wide & deep with a 10M x 16 table: memory")
    ap.add_argument("--models", default="mlp,wide_deep")
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--shards", default="1,2")
    ap.add_argument("--modes", default="sync,async")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--steps", type=int, default=100,
                    help="steps per epoch")
    ap.add_argument("--epochs", type=int, default=3,
                    help="epochs, the first one untimed (>= 2)")
    ap.add_argument("--bench-dir", default=BENCH)
    ap.add_argument("--json", help="also append the records to this file")
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    _normalise(args)
    records = []
    for rep in range(args.reps):
        for model, configs in grid(args).items():
            base = dict(model=model, rep=rep, steps=args.steps,
                        epochs=args.epochs, big_table=args.big_table,
                        bench_dir=args.bench_dir, workers=1, shards=0,
                        mode="-", sparse=True)
            # local before and after the PS block: drift shows up
            records.append(run(dict(base, runtime="local")))
            for cfg in configs:
                records.append(run(dict(base, **cfg)))
            records.append(run(dict(base, runtime="local")))
        print(f"rep {rep + 1}/{args.reps} done; load average "
              f"{os.getloadavg()}", file=sys.stderr)
    if args.json:
        with open(args.json, "a") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    print(table(records))


def _normalise(args):
    if args.quick:
        args.reps, args.steps, args.epochs = 1, 30, 2
        args.workers, args.shards = "1,2", "1"
    if args.big_table:
        args.models, args.modes = "wide_deep", "sync"
        args.workers, args.shards = "1,2", "1"
        args.steps = min(args.steps, 40)
    args.models = args.models.split(",")
    args.workers = [int(w) for w in args.workers.split(",")]
    args.shards = [int(k) for k in args.shards.split(",")]
    args.modes = args.modes.split(",")
    if args.epochs < 2:
        raise SystemExit(f"--epochs must be >= 2, got {args.epochs}")


def _key(r):
    return (r["model"], r["runtime"], r["sparse"], r["mode"], r["workers"],
            r["shards"])


def table(records):
    """Medians over the repetitions; the overhead and the ratio are taken
    against the local runs of the same model and repetition."""
    local = {}
    for r in records:
        if r["runtime"] == "local":
            local.setdefault((r["model"], r["rep"]), []).append(r["step_ms"])
    groups = {}
    for r in records:
        base = statistics.median(local[(r["model"], r["rep"])])
        groups.setdefault(_key(r), []).append(dict(
            r, overhead_ms=r["step_ms"] - base, ratio=r["step_ms"] / base))
    head = ("| model | runtime | emb | mode | workers x shards | samples/s "
            "| step ms | overhead ms | x local | pull/worker/step KB "
            "| push/worker/step KB | load |")
    lines = [head, "|" + "---|" * 12]
    for key, rs in groups.items():
        med = {f: statistics.median(r[f] for r in rs) for f in
               ("train_sps", "step_ms", "overhead_ms", "ratio",
                "loadavg")}
        ps = key[1] == "ps"
        pull = statistics.median(r["pull_dense_bytes"] + r["pull_rows_bytes"]
                                 for r in rs) / 1e3 if ps else 0
        push = statistics.median(r["measured_push_dense_bytes"] +
                                 r["measured_push_rows_bytes"]
                                 for r in rs) / 1e3 if ps else 0
        emb = ("sparse" if key[2] else "dense") \
            if key[0] == "wide_deep" and ps else "-"
        where = f"{key[4]} x {key[5]}" if ps else "-"
        lines.append(
            f"| {key[0]} | {key[1]} | {emb} | {key[3]} | {where} "
            f"| {med['train_sps']:.0f} | {med['step_ms']:.2f} "
            f"| {med['overhead_ms']:.2f} | {med['ratio']:.2f} "
            f"| {pull:.1f} | {push:.1f} | {med['loadavg']:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
