"""`get_file`: download a file once into Keras's cache, verify, extract.

The cache is Keras's: `$KERAS_HOME` (default `~/.keras`, or `/tmp/.keras`
when the home folder is read-only), then `cache_subdir` (`"datasets"`),
with Keras's file and folder names, so files that Keras already fetched
are found and reused, and the other way round.

Downloads go to a temporary file next to the target and are renamed into
place only once complete and verified: an interrupted or corrupt download
never leaves a file that a later call would trust. Archives are extracted
into a temporary folder that is renamed when complete, and members that
would land outside it (absolute paths, `..`, links pointing outside) are
skipped with a warning.
"""
import os
import shutil
import tempfile
import warnings

from kerasish.backend.common.global_state import print_msg
from kerasish.utils.progbar import Progbar
import hashlib
from urllib.parse import urlsplit
import zipfile

_ALGORITHMS = ("auto", "md5", "sha256")


def keras_home():
    """Keras's cache root: `$KERAS_HOME`, else `~/.keras` (or `/tmp/.keras`
    if the home folder is not writable)."""
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    base = os.path.expanduser("~")
    if not os.access(base, os.W_OK):
        base = "/tmp"
    return os.path.join(base, ".keras")


# -- hashing ------------------------------------------------------------------
def resolve_hasher(algorithm, file_hash=None):
    """A hashlib object for `algorithm` ("auto": sha256 for a 64-digit
    `file_hash`, else md5)."""
    if algorithm not in _ALGORITHMS:
        raise ValueError(
            f"`hash_algorithm` must be one of {_ALGORITHMS}. Received: "
            f"hash_algorithm={algorithm!r}")
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None
                                 and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def hash_file(fpath, algorithm="sha256", chunk_size=65535):
    """Hex digest of a file's contents.

    Args:
        fpath: Path to the file.
        algorithm: `"sha256"` (default), `"md5"`, `"auto"` (md5), or a
            hashlib object.
        chunk_size: Bytes read at a time. Defaults to `65535`.

    Example:

    >>> with open("hello.txt", "w") as f:
    ...     _ = f.write("hello")
    >>> hash_file("hello.txt", "md5")
    '5d41402abc4b2a76b9719d911017c592'
    """
    hasher = resolve_hasher(algorithm) if isinstance(algorithm, str) \
        else algorithm
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Whether the file's `algorithm` digest equals `file_hash`."""
    hasher = resolve_hasher(algorithm, file_hash)
    return str(hash_file(fpath, hasher, chunk_size)) == str(file_hash)


# -- where things go ----------------------------------------------------------
def _cache_folder(cache_dir, cache_subdir):
    base = os.path.expanduser(keras_home() if cache_dir is None
                              else cache_dir)
    # Keras's fallback when the cache root is read-only. (Keras also falls
    # back for a root that does not exist yet; kerasish creates it.)
    writable = os.access(base, os.W_OK) if os.path.exists(base) \
        else _creatable(base)
    if not writable:
        base = os.path.join("/tmp" if os.path.isdir("/tmp")
                            else tempfile.gettempdir(), ".keras")
    folder = os.path.join(base, cache_subdir)
    os.makedirs(folder, exist_ok=True)
    return folder


def _creatable(path):
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    return os.access(parent, os.W_OK)


def _file_name(fname, origin):
    fname = os.fspath(fname) if fname is not None else None
    if not fname:
        fname = os.path.basename(urlsplit(origin).path)
        if not fname:
            raise ValueError(
                "Can't parse the file name from the origin provided: "
                f"'{origin}'. Please specify the `fname` argument.")
    elif os.sep in fname:
        raise ValueError(
            "Paths are no longer accepted as the `fname` argument. To "
            "specify the file's parent directory, use the `cache_dir` "
            f"argument. Received: fname={fname}")
    return fname


def _targets(folder, fname, provided, extract):
    """`(download_target, extraction_dir)`, named as Keras names them."""
    if not extract:
        return os.path.join(folder, fname), None
    if provided and "." in fname:
        stem = fname[:fname.find(".")]
        return (os.path.join(folder, fname),
                os.path.join(folder, f"{stem}_extracted"))
    return (os.path.join(folder, f"{fname}_archive"),
            os.path.join(folder, fname))


# -- downloading --------------------------------------------------------------
class _DownloadProgress:
    """`urlretrieve` report hook drawing a `Progbar` of bytes received."""

    def __init__(self):
        self.bar = None
        self.finished = False

    def __call__(self, block_num, block_size, total_size):
        total = None if total_size in (-1, 0) else total_size
        if self.bar is None:
            self.bar = Progbar(total)
        current = block_num * block_size
        if total is None or current < total:
            self.bar.update(current)
        elif not self.finished:
            self.bar.update(total)
            self.finished = True


def _fetch_failure(origin, target, code, reason):
    return OSError(
        f"URL fetch failure on {origin}: {code} -- {reason}. If this "
        "machine is offline, download the file elsewhere and place it at "
        f"{target} (kerasish and Keras look there before downloading).")


def _download(origin, target, file_hash, algorithm):
    """Fetch `origin` into a temporary file, verify it, rename to
    `target`."""
    import urllib.error  # lazy: kept out of `import kerasish`
    import urllib.request  # lazy: kept out of `import kerasish`
    print_msg(f"Downloading data from {origin}")
    fd, partial = tempfile.mkstemp(dir=os.path.dirname(target),
                                   prefix=f".{os.path.basename(target)}.",
                                   suffix=".part")
    os.close(fd)
    try:
        try:
            urllib.request.urlretrieve(origin, partial, _DownloadProgress())
        except urllib.error.HTTPError as e:
            raise _fetch_failure(origin, target, e.code, e.msg) from e
        except urllib.error.URLError as e:
            raise _fetch_failure(origin, target, e.errno, e.reason) from e
        except OSError as e:
            raise _fetch_failure(origin, target, e.errno, e) from e
        if file_hash is not None and not validate_file(partial, file_hash,
                                                       algorithm):
            raise ValueError(
                "Incomplete or corrupted file detected. The "
                f"{_algorithm_name(algorithm, file_hash)} file hash does "
                f"not match the provided value of {file_hash} (downloaded "
                f"from {origin}).")
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def _algorithm_name(algorithm, file_hash):
    return resolve_hasher(algorithm, file_hash).name


def _needs_download(target, file_hash, algorithm, force_download):
    if force_download or not os.path.exists(target):
        return True
    if file_hash is not None and not validate_file(target, file_hash,
                                                   algorithm):
        name = _algorithm_name(algorithm, file_hash)
        print_msg("A local file was found, but it seems to be incomplete or "
                  f"outdated because the {name} file hash does not match "
                  f"the original value of {file_hash} so we will "
                  "re-download the data.")
        return True
    return False


def get_file(fname=None, origin=None, untar=False, md5_hash=None,
             file_hash=None, cache_subdir="datasets", hash_algorithm="auto",
             extract=False, archive_format="auto", cache_dir=None,
             force_download=False):
    """Downloads a file from a URL if it is not already in the cache.

    By default the file at `origin` is downloaded to
    `~/.keras/datasets/fname` (the cache root is `$KERAS_HOME` if set) and
    its path returned. With `extract=True`, an archive is also extracted
    and the extraction folder returned: named `fname` without its
    extension plus `_extracted` when `fname` has one (the archive is kept
    as `fname`), else `fname` itself (the archive is kept as
    `fname + "_archive"`).

    Passing a hash verifies the file after download, and a cached file
    whose hash does not match is downloaded again.

    Args:
        fname: Name of the file (no folders: use `cache_dir`). If `None`,
            the last part of `origin`'s path is used.
        origin: Original URL of the file.
        untar: Deprecated in favour of `extract`: whether the file is a tar
            archive to extract.
        md5_hash: Deprecated in favour of `file_hash`: md5 hash of the file.
        file_hash: Expected hash string of the file after download; sha256
            and md5 are supported.
        cache_subdir: Subfolder of the cache root where the file is saved.
            Defaults to `"datasets"`. An absolute path is used as is.
        hash_algorithm: `"md5"`, `"sha256"` or `"auto"` (the default:
            detected from the length of `file_hash`).
        extract: If `True`, extract the archive (tar or zip). Defaults to
            `False`.
        archive_format: Archive format(s) to try when extracting: `"auto"`
            (the default, `["tar", "zip"]`), `"tar"`, `"zip"`, a list of
            those, or `None` (no extraction).
        cache_dir: Cache root. Defaults to `$KERAS_HOME` or `~/.keras`.
        force_download: If `True`, download the file even if it is
            cached. Defaults to `False`.

    Returns:
        Path to the downloaded file, or to the extraction folder.

    Example:

    >>> import os, pathlib
    >>> with open("data.csv", "w") as f:
    ...     _ = f.write("a,b\\n1,2\\n")
    >>> url = pathlib.Path("data.csv").absolute().as_uri()
    >>> path = get_file(origin=url, cache_dir=".")  # doctest: +ELLIPSIS
    Downloading data from file://...
    >>> os.path.relpath(path)
    'datasets/data.csv'
    >>> get_file(origin=url, cache_dir=".") == path    # now cached
    True
    """
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the '
                         "file to download).")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    resolve_hasher(hash_algorithm)
    folder = _cache_folder(cache_dir, cache_subdir)
    name = _file_name(fname, origin)
    target, extraction_dir = _targets(folder, name, bool(fname),
                                      extract or untar)
    downloaded = _needs_download(target, file_hash, hash_algorithm,
                                 force_download)
    if downloaded:
        _download(origin, target, file_hash, hash_algorithm)
    if extraction_dir is None:
        return target
    if downloaded or not os.path.isdir(extraction_dir):
        if not extract_archive(target, extraction_dir,
                               "tar" if untar else archive_format):
            warnings.warn(f"Could not extract archive {target} (formats "
                          f"tried: {archive_format}).", stacklevel=2)
    return extraction_dir


# -- extraction ---------------------------------------------------------------
def _inside(base, path):
    path = os.path.realpath(path)
    try:
        return os.path.commonpath([path, base]) == base
    except ValueError:          # different drives on Windows
        return False


def _safe_tar_member(info, base):
    dest = os.path.join(base, info.name)
    if not _inside(base, dest):
        return False
    if info.issym():
        return _inside(base, os.path.join(os.path.dirname(
            os.path.realpath(dest)), info.linkname))
    if info.islnk():
        return _inside(base, os.path.join(base, info.linkname))
    return info.isfile() or info.isdir()


def _safe_members(members, is_safe, name_of):
    for member in members:
        if is_safe(member):
            yield member
        else:
            warnings.warn("Skipping invalid path during archive extraction: "
                          f"'{name_of(member)}'.", stacklevel=3)


def _extract_tar(file_path, base):
    import tarfile  # lazy: kept out of `import kerasish`
    with tarfile.open(file_path) as archive:
        members = list(_safe_members(
            archive.getmembers(), lambda m: _safe_tar_member(m, base),
            lambda m: m.name))
        # The "data" filter (Python >= 3.11.4) also drops set-uid bits and
        # re-checks every path; older Pythons rely on the checks above.
        kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") \
            else {}
        archive.extractall(base, members=members, **kwargs)


def _extract_zip(file_path, base):
    with zipfile.ZipFile(file_path) as archive:
        members = list(_safe_members(
            archive.infolist(),
            lambda m: _inside(base, os.path.join(base, m.filename)),
            lambda m: m.filename))
        archive.extractall(base, members=members)


def _archive_kind(file_path, formats):
    import tarfile  # lazy: kept out of `import kerasish`
    tests = {"tar": tarfile.is_tarfile, "zip": zipfile.is_zipfile}
    for kind in formats:
        if kind not in tests:
            raise ValueError(
                "`archive_format` must be 'auto', 'tar', 'zip', a list of "
                f"those, or None. Received: archive_format={kind!r}")
        if tests[kind](file_path):
            return kind
    return None


def extract_archive(file_path, path=".", archive_format="auto"):
    """Extract a tar or zip archive into the folder `path`.

    The archive is unpacked into a temporary folder next to `path`, which
    then replaces `path`: a failed extraction leaves nothing behind.

    Args:
        file_path: Path to the archive.
        path: Folder to extract into. Defaults to `"."`.
        archive_format: `"auto"` (the default, tar then zip), `"tar"`,
            `"zip"`, a list of those, or `None` (do nothing).

    Returns:
        `True` if an archive was extracted, `False` if the file is not an
        archive of the given formats.
    """
    if archive_format is None:
        return False
    if archive_format == "auto":
        archive_format = ["tar", "zip"]
    if isinstance(archive_format, str):
        archive_format = [archive_format]
    file_path, path = os.fspath(file_path), os.fspath(path)
    kind = _archive_kind(file_path, archive_format)
    if kind is None:
        return False
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(dir=parent, suffix=".part",
                               prefix=f".{os.path.basename(path)}.")
    try:
        base = os.path.realpath(staging)
        (_extract_tar if kind == "tar" else _extract_zip)(file_path, base)
        if os.path.lexists(path):
            _remove(path)
        os.replace(staging, path)
    finally:
        if os.path.exists(staging):
            shutil.rmtree(staging)
    return True


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.remove(path)
