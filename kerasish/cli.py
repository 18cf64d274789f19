"""The `kerasish` command line: look at, convert, compare and draw model files.

    kerasish summary model.keras          # the layer table of model.summary()
    kerasish convert model.keras model.h5 # between .keras and legacy .h5
    kerasish diff a.keras b.keras         # which weights differ, and by how far
    kerasish plot model.keras -o net.png  # plot_model to a PNG

`python -m kerasish ...` does the same. A user error (a missing file, a file
of the wrong kind) prints one line to stderr and exits with status 2; `diff`
exits with 0 when the weights are identical and 1 when they differ.
"""
import argparse
import contextlib
import logging
import os
import sys

import numpy as np
from kerasish.saving import saving_api
from kerasish.saving import state_walk
import h5py
from kerasish.utils import plotting
from kerasish.version import __version__
from kerasish.saving import h5_store

_MODEL_EXTENSIONS = (".keras", ".h5", ".hdf5")


class CommandError(Exception):
    """A user error: printed as one line, exit status 2."""


# -- files --------------------------------------------------------------------
def _check_path(path, role="file"):
    if not os.path.exists(path):
        raise CommandError(f"no such {role}: {path}")
    if os.path.isdir(path) and not os.path.isfile(
            os.path.join(path, "config.json")):
        raise CommandError(f"{path} is a folder, not a model file")


def _check_model_path(path):
    _check_path(path)
    if path.endswith(".weights.h5"):
        raise CommandError(
            f"{path} holds weights only, without the model's architecture; "
            "give a .keras or .h5 model file")
    if os.path.isfile(path) and not path.endswith(_MODEL_EXTENSIONS):
        raise CommandError(
            f"{path} is not a model file: expected a .keras, .h5 or .hdf5 "
            "file")


def load(path, compile=True, safe_mode=True):
    """Load a model file for a command; errors become `CommandError`s."""
    _check_model_path(path)
    try:
        return saving_api.load_model(path, compile=compile,
                                     safe_mode=safe_mode)
    except (ValueError, OSError, KeyError, TypeError) as error:
        raise CommandError(_one_line(error)) from error


def _one_line(error):
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 400 else text[:397] + "..."


# -- summary ------------------------------------------------------------------
def cmd_summary(args):
    """Print the model's architecture table."""
    model = load(args.file, compile=True, safe_mode=not args.unsafe)
    model.summary(line_length=args.line_length,
                  expand_nested=args.expand_nested,
                  show_trainable=args.show_trainable)
    return 0


# -- convert ------------------------------------------------------------------
def _check_output(path, overwrite, source):
    if not path.endswith(_MODEL_EXTENSIONS):
        raise CommandError(
            f"cannot write {path}: the output must end in .keras, .h5, "
            ".hdf5 or .weights.h5")
    if os.path.abspath(path) == os.path.abspath(source):
        raise CommandError(f"{path} is both the input and the output")
    if os.path.exists(path) and not overwrite:
        raise CommandError(
            f"{path} exists; pass --overwrite to replace it")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CommandError(f"cannot write {path}: no such folder {folder}")


def cmd_convert(args):
    """Load IN and save it as OUT, in the format OUT's extension names."""
    _check_output(args.output, args.overwrite, args.input)
    model = load(args.input, compile=True, safe_mode=not args.unsafe)
    try:
        with _quiet_saving():
            if args.output.endswith(".weights.h5"):
                model.save_weights(args.output)
            else:
                model.save(args.output)
    except (ValueError, OSError) as error:
        raise CommandError(_one_line(error)) from error
    optimizer = getattr(model, "optimizer", None)
    state = (f"with the {type(optimizer).__name__} optimizer state"
             if optimizer is not None and optimizer.variables
             else "no optimizer state")
    print(f"Wrote {args.output}: {len(model.weights)} weights, {state}.")
    return 0


@contextlib.contextmanager
def _quiet_saving():
    """Mute the "legacy HDF5 format" notice: the user chose the format."""
    logger = logging.getLogger("kerasish.saving")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


# -- diff ---------------------------------------------------------------------
def _h5_arrays(h5file):
    """{dataset path: array} of an HDF5 weights layout, in file order.

    Read through the loaders' own checks (`h5_store.safe_dataset`): a
    dataset stored in an external file or mapping other files (virtual),
    or a link, is refused as `load_model` refuses it.
    """
    names = []

    def visit(name, obj):
        if hasattr(obj, "shape"):
            names.append(name)
    h5file.visititems(visit)
    return {name: h5_store.safe_dataset(h5file, name) for name in names}, {}


def _model_arrays(model):
    """{weights-file path: array} and {path: variable path} of a model."""
    arrays, labels = {}, {}
    for path, obj in state_walk.walk(model):
        for i, variable in enumerate(state_walk.own_variables(obj)):
            key = f"{path}/vars/{i}" if path else f"vars/{i}"
            arrays[key] = np.asarray(variable.numpy())
            labels[key] = variable.path
    return arrays, labels


def _read_h5(path, reader):
    # lazy: kept out of `import kerasish`
    from kerasish.saving import limits
    try:
        limits.check_hdf5_file(path)
        with h5py.File(path, "r") as f:
            return reader(f)
    except ValueError as error:
        raise CommandError(f"{path}: {_one_line(error)}") from error
    except OSError as error:
        raise CommandError(f"{path} is not a readable HDF5 file "
                           f"({_one_line(error)})") from error


def weight_arrays(path, safe_mode=True):
    """The weights (and optimizer state) stored in a model or weights file.

    Returns `({path: array}, {path: variable path})`, keyed by the layout of
    Keras 3 weights files (`layers/dense/vars/0`), whatever the format.
    """
    _check_path(path)
    if path.endswith(".weights.h5"):
        return _read_h5(path, _h5_arrays)
    return _model_arrays(load(path, compile=True, safe_mode=safe_mode))


def _difference(a, b):
    """Max abs difference, `None` when equal, `inf` for shape mismatch."""
    if a.shape != b.shape:
        return float("inf")
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        if np.array_equal(a, b, equal_nan=True):
            return None
        delta = np.abs(a.astype(np.float64) - b.astype(np.float64))
        return float(np.nanmax(delta)) if np.isfinite(delta).any() \
            else float("inf")
    return None if np.array_equal(a, b) else float(
        np.max(np.abs(a.astype(np.int64) - b.astype(np.int64))))


def _describe(key, labels):
    label = labels.get(key)
    return f"{key} ({label})" if label and label != key else key


def compare(arrays_a, arrays_b, atol=0.0):
    """Rows `(key, shape_a, shape_b, max_abs_diff)` for differing weights.

    A key missing from one side has `None` for its shape there and an
    infinite difference.
    """
    rows = []
    for key in list(arrays_a) + [k for k in arrays_b if k not in arrays_a]:
        a, b = arrays_a.get(key), arrays_b.get(key)
        if a is None or b is None:
            rows.append((key, getattr(a, "shape", None),
                         getattr(b, "shape", None), float("inf")))
            continue
        delta = _difference(np.asarray(a), np.asarray(b))
        if delta is not None and delta > atol:
            rows.append((key, a.shape, b.shape, delta))
    return rows


def _print_row(row, labels, names):
    key, shape_a, shape_b, delta = row
    name = _describe(key, labels)
    if shape_a is None or shape_b is None:
        print(f"  {name}: only in {names[shape_a is None]}")
    elif shape_a != shape_b:
        print(f"  {name}: shape {shape_a} vs {shape_b}")
    else:
        print(f"  {name}: shape {shape_a}, max abs difference {delta:.6g}")


def cmd_diff(args):
    """Compare two files' weights; exit 1 if any differ."""
    arrays_a, labels_a = weight_arrays(args.a, not args.unsafe)
    arrays_b, labels_b = weight_arrays(args.b, not args.unsafe)
    if args.no_optimizer:
        arrays_a, arrays_b = ({k: v for k, v in arrays.items()
                               if not k.startswith("optimizer/")}
                              for arrays in (arrays_a, arrays_b))
    labels = {**labels_b, **labels_a}
    rows = compare(arrays_a, arrays_b, args.atol)
    total = len(set(arrays_a) | set(arrays_b))
    if not rows:
        print(f"{args.a} and {args.b} have identical weights "
              f"({total} arrays).")
        return 0
    print(f"{len(rows)} of {total} weight arrays differ between {args.a} "
          f"and {args.b}:")
    for row in rows:
        _print_row(row, labels, (args.a, args.b))
    return 1


# -- plot ---------------------------------------------------------------------
def cmd_plot(args):
    """Draw the model with plot_model, next to the file or to -o."""
    output = args.output or os.path.splitext(
        args.file.rstrip(os.sep))[0] + ".png"
    model = load(args.file, compile=False, safe_mode=not args.unsafe)
    try:
        plotting.plot_model(
            model, to_file=output, show_shapes=args.show_shapes,
            show_dtype=args.show_dtype,
            show_layer_names=args.show_layer_names, rankdir=args.rankdir,
            expand_nested=args.expand_nested, dpi=args.dpi,
            show_layer_activations=args.show_layer_activations,
            show_trainable=args.show_trainable)
    except (ImportError, ValueError, OSError) as error:
        raise CommandError(_one_line(error)) from error
    print(f"Wrote {output}")
    return 0


# -- parser -------------------------------------------------------------------
def _add_summary(commands, common):
    p = commands.add_parser("summary", help="print a model file's layers",
                            description=cmd_summary.__doc__,
                            parents=[common])
    p.add_argument("file", help="a .keras or .h5 model file")
    p.add_argument("--line-length", type=int, default=None)
    p.add_argument("--expand-nested", action="store_true")
    p.add_argument("--show-trainable", action="store_true")
    p.set_defaults(run=cmd_summary)


def _add_convert(commands, common):
    p = commands.add_parser(
        "convert", help="convert between .keras and .h5", parents=[common],
        description="Load IN and save it as OUT (.keras, .h5/.hdf5, or "
        ".weights.h5 for the weights alone), keeping the weights and the "
        "optimizer state.")
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT")
    p.add_argument("--overwrite", action="store_true",
                   help="replace OUT if it exists")
    p.set_defaults(run=cmd_convert)


def _add_diff(commands, common):
    p = commands.add_parser(
        "diff", help="list weights that differ between two files",
        parents=[common],
        description="Compare the weights (and optimizer state) of two "
        ".keras, .h5 or .weights.h5 files. Exit status: 0 identical, 1 "
        "different, 2 error.")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--atol", type=float, default=0.0,
                   help="ignore differences up to this size (default 0)")
    p.add_argument("--no-optimizer", action="store_true",
                   help="compare the model's weights only")
    p.set_defaults(run=cmd_diff)


def _add_plot(commands, common):
    p = commands.add_parser("plot", help="draw a model file as a PNG",
                            description=cmd_plot.__doc__,
                            parents=[common])
    p.add_argument("file", help="a .keras or .h5 model file")
    p.add_argument("-o", "--output", help="image path (default: FILE with "
                   "a .png extension); .svg/.pdf/.dot pick other formats")
    flag = argparse.BooleanOptionalAction
    p.add_argument("--show-shapes", action=flag, default=True)
    p.add_argument("--show-layer-names", action=flag, default=True)
    p.add_argument("--show-dtype", action="store_true")
    p.add_argument("--show-layer-activations", action="store_true")
    p.add_argument("--show-trainable", action="store_true")
    p.add_argument("--expand-nested", action="store_true")
    p.add_argument("--rankdir", choices=["TB", "LR", "BT", "RL"],
                   default="TB")
    p.add_argument("--dpi", type=int, default=96)
    p.set_defaults(run=cmd_plot)


def build_parser():
    """The `kerasish` argument parser (one sub-command per task)."""
    parser = argparse.ArgumentParser(
        prog="kerasish", description="Inspect, convert, compare and draw "
        "Keras model files (.keras, .h5, .weights.h5).")
    parser.add_argument("--version", action="version",
                        version=f"kerasish {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    common = _common_options()
    for add in (_add_summary, _add_convert, _add_diff, _add_plot):
        add(commands, common)
    return parser


def _common_options():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--unsafe", action="store_true",
                        help="allow loading Python lambdas stored in files "
                        "you trust (safe_mode=False)")
    common.add_argument("--traceback", action="store_true",
                        help="show the full traceback of an error")
    return common


def main(argv=None):
    """Run the command line; returns the exit status.

    Example:

    >>> main(["diff", "no-such-a.keras", "b.keras"])  # one line on stderr
    2
    """
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CommandError as error:
        if args.traceback:
            raise
        message = str(error)
    except Exception as error:  # noqa: BLE001 - one line, not a traceback
        if args.traceback:
            raise
        message = (f"{type(error).__name__}: {_one_line(error)} (run with "
                   "--traceback for details)")
    print(f"kerasish {args.command}: error: {message}", file=sys.stderr)
    return 2


def run():
    """Console-script entry point: exit with `main()`'s status."""
    sys.exit(main())
