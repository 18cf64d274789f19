"""TensorFlow 2.15's own parameter server on the same models, side by side.

The MLP and wide & deep of the shared bench (`keras_models.py`, data from
`bench_data.make_data`) under `tf.distribute.experimental.
ParameterServerStrategy` with a `ClusterCoordinator`, on an in-process
cluster (one `tf.distribute.Server` per worker and ps task, on
127.0.0.1), at the worker and shard counts of `parameter_server.py`, and
TF's local step (the same `tf.function`, no strategy). This is the peer
`benchmarks/parameter_server.py` is measured against. TensorFlow is not a
dependency of kerasish: run this in its own virtualenv.

    python -m venv /work/venvs/tfps
    /work/venvs/tfps/bin/pip install tensorflow-cpu==2.15.1
    /work/venvs/tfps/bin/python benchmarks/tf_parameter_server.py [--quick]

TF2's PS training is asynchronous only (each scheduled step applies its
own update; TF1's `SyncReplicasOptimizer` is gone), so every step here is
TF's async step on one full batch, as kerasish's `mode="async"`. Tables
are split over the shards with `MinSizePartitioner(max_shards=num_ps)`
(TF's recommended partitioner). Each configuration runs in a fresh
process; one JSON line each, a markdown table of medians at the end.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


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
# One thread per op pool, like the kerasish runs (OMP_NUM_THREADS=1): on a
# loaded 2-core machine extra pool threads only spin.
THREADS_ENV = dict(os.environ, OMP_NUM_THREADS="1",
                   TF_CPP_MIN_LOG_LEVEL="2")


def build(tf, model_name):
    """The models of the shared `keras_models.py`, in tf.keras."""
    from bench_data import WD_EMB, WD_N_CAT, WD_N_NUM, WD_VOCAB
    layers = tf.keras.layers
    if model_name == "mlp":
        model = tf.keras.Sequential([
            tf.keras.Input(shape=(784,)),
            layers.Dense(256, activation="relu"),
            layers.Dense(256, activation="relu"),
            layers.Dense(10, activation="softmax"),
        ])
        return model, tf.keras.losses.SparseCategoricalCrossentropy(
            reduction="none")
    cat_in = [tf.keras.Input(shape=(1,), dtype="int32", name=f"cat{i}")
              for i in range(WD_N_CAT)]
    num_in = tf.keras.Input(shape=(WD_N_NUM,), dtype="float32", name="num")
    embs = [layers.Flatten()(layers.Embedding(WD_VOCAB, WD_EMB)(c))
            for c in cat_in]
    h = layers.Concatenate()(embs + [num_in])
    h = layers.Dense(256, activation="relu")(h)
    h = layers.Dense(128, activation="relu")(h)
    deep_logit = layers.Dense(1)(h)
    wide = [layers.Flatten()(layers.Embedding(WD_VOCAB, 1)(c))
            for c in cat_in]
    wide.append(layers.Dense(1)(num_in))
    logit = layers.Add()(wide + [deep_logit])
    out = layers.Activation("sigmoid")(logit)
    model = tf.keras.Model(inputs=cat_in + [num_in], outputs=out)
    return model, tf.keras.losses.BinaryCrossentropy(reduction="none")


def _free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def start_cluster(tf, workers, shards):
    """In-process servers, one per task; returns the cluster resolver."""
    ports = _free_ports(workers + shards)
    spec = {"worker": [f"127.0.0.1:{p}" for p in ports[:workers]],
            "ps": [f"127.0.0.1:{p}" for p in ports[workers:]]}
    # One intra-op thread per kernel. The inter-op pool needs threads for
    # every task of the process: with the 2-core default the first step
    # never finished, and with 4 threads 4 workers hung the same way.
    config = tf.compat.v1.ConfigProto(
        intra_op_parallelism_threads=1,
        inter_op_parallelism_threads=4 * (workers + shards))
    servers = [tf.distribute.Server(spec, job_name=job, task_index=i,
                                    protocol="grpc", config=config,
                                    start=True)
               for job in ("worker", "ps") for i in range(len(spec[job]))]
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec(spec), rpc_layer="grpc")
    return resolver, servers


def child(cfg):
    sys.path.insert(0, cfg["bench_dir"])
    import tensorflow as tf
    from bench_data import SPECS, make_data
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(
        4 * (cfg["workers"] + cfg["shards"]))
    batch = SPECS[cfg["model"]]["batch"]
    n = batch * cfg["steps"]
    x, y = make_data(cfg["model"], n, 0)
    x = tuple(x) if isinstance(x, list) else x
    tf.keras.utils.set_random_seed(0)

    def dataset_fn(_=None):
        data = tf.data.Dataset.from_tensor_slices((x, y))
        return data.batch(batch, drop_remainder=True).repeat()

    strategy = None
    if cfg["runtime"] == "ps":
        resolver, servers = start_cluster(tf, cfg["workers"], cfg["shards"])
        strategy = tf.distribute.experimental.ParameterServerStrategy(
            resolver, variable_partitioner=tf.distribute.experimental.
            partitioners.MinSizePartitioner(max_shards=cfg["shards"]))
        coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
        with strategy.scope():
            model, loss_fn = build(tf, cfg["model"])
            optimizer = tf.keras.optimizers.Adam()
    else:
        model, loss_fn = build(tf, cfg["model"])
        optimizer = tf.keras.optimizers.Adam()

    def replica_step(xb, yb):
        with tf.GradientTape() as tape:
            # one replica per worker: its mean is the local step's mean
            loss = tf.reduce_mean(loss_fn(yb, model(xb, training=True)))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def step(iterator):
        xb, yb = next(iterator)
        if strategy is None:
            return replica_step(xb, yb)
        return strategy.run(replica_step, args=(xb, yb))

    if strategy is None:
        iterator = iter(dataset_fn())

        def run_epoch():
            for _ in range(cfg["steps"]):
                loss = step(iterator)
            return float(loss)
    else:
        iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))

        def run_epoch():
            for _ in range(cfg["steps"]):
                result = coordinator.schedule(step, args=(iterator,))
            coordinator.join()
            return float(result.fetch())

    times = []
    for _ in range(cfg["epochs"]):
        start = time.perf_counter()
        loss = run_epoch()
        times.append(time.perf_counter() - start)
    return dict(cfg, batch=batch, samples=n, impl="tf-" + tf.__version__,
                train_sps=n * (len(times) - 1) / sum(times[1:]),
                step_ms=1e3 * statistics.median(
                    t / cfg["steps"] for t in times[1:]),
                first_epoch_s=times[0], final_loss=loss)


def run(cfg):
    cmd = [sys.executable, os.path.abspath(__file__), "--child",
           json.dumps(cfg)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800,
                          env=THREADS_ENV)
    if proc.returncode != 0:
        raise RuntimeError(f"{cfg} failed:\n{proc.stderr[-3000:]}")
    record = json.loads(proc.stdout.strip().splitlines()[-1])
    record["loadavg"] = os.getloadavg()[0]
    print(json.dumps(record), flush=True)
    return record


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true",
                    help="1 rep, 30 steps, 1-2 workers, 1 shard")
    ap.add_argument("--models", default="mlp,wide_deep")
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--shards", default="1,2")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--bench-dir", default=BENCH)
    ap.add_argument("--json", help="also append the records to this file")
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    if args.quick:
        args.reps, args.steps, args.epochs = 1, 30, 2
        args.workers, args.shards = "1,2", "1"
    if args.epochs < 2:
        raise SystemExit(f"--epochs must be >= 2, got {args.epochs}")
    records = []
    for rep in range(args.reps):
        for model in args.models.split(","):
            base = dict(model=model, rep=rep, steps=args.steps,
                        epochs=args.epochs, bench_dir=args.bench_dir,
                        workers=1, shards=0, mode="-")
            records.append(run(dict(base, runtime="local")))
            for k in args.shards.split(","):
                for w in args.workers.split(","):
                    records.append(run(dict(base, runtime="ps", mode="async",
                                            workers=int(w), shards=int(k))))
            records.append(run(dict(base, runtime="local")))
        print(f"rep {rep + 1}/{args.reps} done; load average "
              f"{os.getloadavg()}", file=sys.stderr)
    if args.json:
        with open(args.json, "a") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    print(table(records))


def table(records):
    local = {}
    for r in records:
        if r["runtime"] == "local":
            local.setdefault((r["model"], r["rep"]), []).append(r["step_ms"])
    groups = {}
    for r in records:
        base = statistics.median(local[(r["model"], r["rep"])])
        key = (r["model"], r["runtime"], r["mode"], r["workers"],
               r["shards"])
        groups.setdefault(key, []).append(dict(
            r, overhead_ms=r["step_ms"] - base, ratio=r["step_ms"] / base))
    lines = ["| model | runtime | mode | workers x shards | samples/s "
             "| step ms | overhead ms | x local | load |", "|" + "---|" * 9]
    for key, rs in groups.items():
        med = {f: statistics.median(r[f] for r in rs) for f in
               ("train_sps", "step_ms", "overhead_ms", "ratio", "loadavg")}
        where = f"{key[3]} x {key[4]}" if key[1] == "ps" else "-"
        lines.append(
            f"| {key[0]} | tf {key[1]} | {key[2]} | {where} "
            f"| {med['train_sps']:.0f} | {med['step_ms']:.2f} "
            f"| {med['overhead_ms']:.2f} | {med['ratio']:.2f} "
            f"| {med['loadavg']:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
