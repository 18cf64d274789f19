"""Layer assets in `.keras` files: `assets/<object path>/<file>`.

A layer with `save_assets(dir_path)` (an adapted `StringLookup` writes its
vocabulary there) gets a folder named after its place in the weights walk;
Keras zips those folders under `assets/`, and on loading each layer's
`load_assets(dir_path)` reads its own folder back. Extraction refuses
member names that would land outside the temporary folder.
"""
import os
import posixpath
import tempfile
import zipfile

from kerasish.saving import state_walk

_ROOT = "assets"


def _folder(base, path):
    return os.path.join(base, *path.split("/")) if path else base


def save_assets(model, folder):
    """Write every layer's assets under `folder` (Keras's `assets/`)."""
    for path, obj in state_walk.walk(model):
        if hasattr(obj, "save_assets"):
            target = _folder(folder, path)
            os.makedirs(target, exist_ok=True)
            obj.save_assets(target)


def load_assets(model, folder):
    """Give each layer with `load_assets` its folder under `folder`."""
    for path, obj in state_walk.walk(model):
        target = _folder(folder, path)
        if hasattr(obj, "load_assets") and os.path.isdir(target):
            obj.load_assets(target)


def write_assets(model, zf):
    """Add every layer's assets to the open zip `zf`."""
    with tempfile.TemporaryDirectory() as tmp:
        save_assets(model, tmp)
        for folder, _, files in os.walk(tmp):
            for name in sorted(files):
                full = os.path.join(folder, name)
                relative = os.path.relpath(full, tmp).replace(os.sep, "/")
                zf.write(full, f"{_ROOT}/{relative}")


def _checked_name(name, source):
    parts = name.split("/")
    if name.startswith("/") or "\\" in name or ".." in parts or \
            posixpath.normpath(name).startswith(".."):
        raise ValueError(f"{source!r} holds an asset outside the assets "
                         f"folder: {name!r}. The file is refused.")
    return parts


def read_assets(model, zf, source=None):
    """Give each layer with `load_assets` its folder from the zip."""
    source = source or zf.filename
    members = [n for n in zf.namelist() if n.startswith(_ROOT + "/")
               and not n.endswith("/")]
    if not members:
        return
    with tempfile.TemporaryDirectory() as tmp:
        for name in members:
            target = os.path.join(tmp, *_checked_name(name, source))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            try:
                data = zf.read(name)
            except (zipfile.BadZipFile, OSError, EOFError) as e:
                raise ValueError(f"{source!r} is corrupted: cannot read "
                                 f"{name} ({e}).") from None
            except (RuntimeError, NotImplementedError) as e:
                # an encrypted member; an unknown compression method
                raise ValueError(f"{source!r} is not a valid .keras file: "
                                 f"cannot read {name} ({e}).") from None
            with open(target, "wb") as f:
                f.write(data)
        load_assets(model, os.path.join(tmp, _ROOT))
