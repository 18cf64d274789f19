"""Side-by-side throughput of kerasish and PyTorch on the shared workloads.

Runs the Keras-API benchmark (`keras_models.py --impl kerasish`) and its
plain-PyTorch twin (`torch_models.py`) from the shared bench folder, in
fresh processes, alternating libraries within each repetition so both see
the same machine conditions. Prints medians and kerasish/torch ratios.

    python benchmarks/compare.py --model mlp --reps 3
    python benchmarks/compare.py --model cnn --torch-python /path/to/python

The machine is shared and noisy: compare runs made together, never a lone
absolute figure.
"""
import argparse
import contextlib
import fcntl
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BENCH = os.path.normpath(os.path.join(HERE, "..", "..", "shared",
                                              "bench"))
FIELDS = ["train_sps", "predict_sps", "import_s", "peak_rss_mb",
          "first_epoch_s", "final_loss"]


LOCK = os.path.join(os.environ.get("TMPDIR", "/tmp"), "kerasish-bench.lock")


@contextlib.contextmanager
def bench_lock():
    """Only one benchmark at a time on this machine (they would collide)."""
    with open(LOCK, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _busy_fraction(interval=1.0):
    def read():
        with open("/proc/stat") as f:
            fields = [float(v) for v in f.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]
    total0, idle0 = read()
    time.sleep(interval)
    total1, idle1 = read()
    return 1.0 - (idle1 - idle0) / max(total1 - total0, 1e-9)


def wait_for_idle(threshold=0.15, max_wait=120):
    """Wait (up to `max_wait` s) for two quiet seconds; report the load."""
    start, quiet = time.time(), 0
    while time.time() - start < max_wait:
        busy = _busy_fraction()
        quiet = quiet + 1 if busy < threshold else 0
        if quiet >= 2:
            return busy
    print(f"warning: machine still busy ({busy:.0%}) after {max_wait}s; "
          "figures will be noisy", file=sys.stderr)
    return busy


def run_once(python, script, model, extra, env=None):
    wait_for_idle()
    cmd = [python, script, "--model", model] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True,
                    choices=["mlp", "cnn", "lstm", "wide_deep"])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=None)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--bench-dir", default=DEFAULT_BENCH)
    ap.add_argument("--torch-python", default=os.environ.get(
        "TORCH_PY", "/work/tvenv/bin/python"))
    ap.add_argument("--json", help="also append raw records to this file")
    args = ap.parse_args(argv)

    extra = []
    if args.epochs:
        extra += ["--epochs", str(args.epochs)]
    if args.samples:
        extra += ["--samples", str(args.samples)]
    keras_script = os.path.join(args.bench_dir, "keras_models.py")
    torch_script = os.path.join(args.bench_dir, "torch_models.py")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE))
    # Import time as an installed package has it (pip byte-compiles).
    import compileall
    compileall.compile_dir(os.path.join(os.path.dirname(HERE), "kerasish"),
                           quiet=1)
    have_torch = os.path.exists(args.torch_python)
    records = {"kerasish": [], "torch": []}
    with bench_lock():
        _run_reps(args, records, keras_script, torch_script, extra, env,
                  have_torch)
    if args.json:
        with open(args.json, "a") as f:
            for lib, runs in records.items():
                for r in runs:
                    f.write(json.dumps(dict(r, lib=lib)) + "\n")
    report(args.model, records)


def _run_reps(args, records, keras_script, torch_script, extra, env,
              have_torch):
    for rep in range(args.reps):
        records["kerasish"].append(run_once(
            sys.executable, keras_script, args.model,
            ["--impl", "kerasish"] + extra, env))
        if have_torch:
            records["torch"].append(run_once(args.torch_python, torch_script,
                                             args.model, extra))
        print(f"rep {rep + 1}/{args.reps} done", file=sys.stderr)


def report(model, records):
    print(f"\n{model}: median of {len(records['kerasish'])} runs")
    print(f"{'library':10}" + "".join(f"{f:>15}" for f in FIELDS))
    medians = {}
    for lib, runs in records.items():
        if not runs:
            continue
        medians[lib] = {f: statistics.median(r[f] for r in runs)
                        for f in FIELDS}
        print(f"{lib:10}" + "".join(f"{medians[lib][f]:>15.4g}"
                                    for f in FIELDS))
    if "torch" in medians and "kerasish" in medians:
        k, t = medians["kerasish"], medians["torch"]
        print(f"\nkerasish / torch: train {k['train_sps'] / t['train_sps']:.2f}x"
              f", predict {k['predict_sps'] / t['predict_sps']:.2f}x, "
              f"peak RSS {k['peak_rss_mb'] / t['peak_rss_mb']:.2f}x")


if __name__ == "__main__":
    main()
