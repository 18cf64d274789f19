"""Clear errors for bad files: every message names the file.

Loaders wrap their reads in `reading(source, what)`: h5py reports a
damaged file as `KeyError` / `OSError` / `RuntimeError` from deep inside,
which becomes one `ValueError` naming the file and the part that could
not be read. `building(source)` prefixes errors raised while a model is
rebuilt from its config (unknown class, refused code, malformed entry)
with the file they came from, keeping their type.
"""
import contextlib


class MissingFileError(FileNotFoundError, ValueError):
    """A file to read does not exist: a `FileNotFoundError`, and the
    `ValueError` Keras's `load_model` raises."""


class UnreadableFileError(ValueError, OSError):
    """A file is not of the expected format: the `ValueError` kerasish
    raises for bad files, and the `OSError` h5py gives Keras users."""


class UnknownObjectError(TypeError, ValueError):
    """A config names a class or function kerasish cannot find (Keras
    raises `TypeError` or, through its legacy path, `ValueError`)."""


def missing_file(filepath):
    return MissingFileError(2, f"No such file: {filepath!r}", filepath)


@contextlib.contextmanager
def reading(source, what):
    try:
        yield
    except (KeyError, OSError, RuntimeError) as e:
        detail = e.args[0] if isinstance(e, KeyError) and e.args else e
        raise ValueError(
            f"{source!r} is corrupted or incomplete: cannot read {what} "
            f"({detail}).") from None


def _retyped(error, message):
    try:
        return type(error)(message)
    except Exception:  # noqa: BLE001 - exotic exception signatures
        return ValueError(message)


@contextlib.contextmanager
def building(source):
    try:
        yield
    except KeyError as e:
        raise ValueError(
            f"Cannot load a model from {source!r}: its config is malformed "
            f"(missing key {e}).") from None
    except RecursionError:
        raise ValueError(
            f"Cannot load a model from {source!r}: its config is nested too "
            "deeply (Python's recursion limit was reached).") from None
    except (TypeError, ValueError) as e:
        if str(e).startswith("Cannot load a model from"):
            raise
        raise _retyped(e, f"Cannot load a model from {source!r}: {e}") \
            from e
