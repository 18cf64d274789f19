import hashlib
import http.server
import io
import os
import pathlib
import tarfile
import threading
import zipfile

import pytest

import kerasish
from kerasish.utils import file_utils
from kerasish.utils.file_utils import extract_archive, get_file


@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "keras_home"
    monkeypatch.setenv("KERAS_HOME", str(home))
    return home


def _make_tar(path, members):
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def _uri(path):
    return pathlib.Path(path).absolute().as_uri()


def _sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


@pytest.fixture
def archive(tmp_path):
    return _make_tar(tmp_path / "pkg.tar.gz",
                     {"pkg/a.txt": b"hello", "pkg/sub/b.txt": b"world"})


def test_plain_file_goes_to_keras_home_datasets(home, tmp_path, capsys):
    src = tmp_path / "table.csv"
    src.write_text("a,b\n")
    path = get_file(origin=_uri(src))
    assert path == os.path.join(str(home), "datasets", "table.csv")
    assert pathlib.Path(path).read_text() == "a,b\n"
    assert f"Downloading data from {_uri(src)}" in capsys.readouterr().out
    src.unlink()            # cached: the origin is not needed any more
    assert get_file("table.csv", _uri(src)) == path
    assert capsys.readouterr().out == ""


def test_keras_layout_for_extracted_archives(home, archive):
    datasets = home / "datasets"
    path = get_file("pkg.tar.gz", _uri(archive), extract=True)
    assert path == str(datasets / "pkg_extracted")
    assert (datasets / "pkg.tar.gz").is_file()
    assert (datasets / "pkg_extracted" / "pkg" / "sub" / "b.txt"
            ).read_bytes() == b"world"
    # A name without an extension: the archive gets an "_archive" suffix.
    path = get_file("pkg-target", _uri(archive), untar=True)
    assert path == str(datasets / "pkg-target")
    assert (datasets / "pkg-target_archive").is_file()
    assert (datasets / "pkg-target" / "pkg" / "a.txt").is_file()


def test_cache_dir_and_subdir(tmp_path, archive):
    path = get_file("p.tgz", _uri(archive), cache_dir=str(tmp_path / "c"),
                    cache_subdir="models")
    assert path == str(tmp_path / "c" / "models" / "p.tgz")
    absolute = tmp_path / "elsewhere"
    path = get_file("p.tgz", _uri(archive), cache_subdir=str(absolute),
                    cache_dir=str(tmp_path / "c"))
    assert path == str(absolute / "p.tgz")


def test_default_home_without_env(monkeypatch, tmp_path):
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert file_utils.keras_home() == str(tmp_path / ".keras")


def test_zip_extraction(home, tmp_path):
    src = tmp_path / "z.zip"
    with zipfile.ZipFile(src, "w") as z:
        z.writestr("d/x.txt", "zip!")
    path = get_file("z.zip", _uri(src), extract=True)
    assert (pathlib.Path(path) / "d" / "x.txt").read_text() == "zip!"
    with pytest.warns(UserWarning, match="Could not extract"):
        get_file("z2.zip", _uri(src), extract=True, archive_format="tar")


def test_file_already_in_cache_is_used_offline(home, archive):
    # What Keras downloaded before is found without a connection.
    (home / "datasets").mkdir(parents=True)
    cached = home / "datasets" / "mnist.npz"
    cached.write_bytes(archive.read_bytes())
    path = get_file("mnist.npz", "http://127.0.0.1:9/mnist.npz",
                    file_hash=_sha256(archive))
    assert path == str(cached)


def test_hashes_verified(home, archive, capsys):
    sha, md5 = _sha256(archive), hashlib.md5(archive.read_bytes()).hexdigest()
    get_file("a.tgz", _uri(archive), file_hash=sha)
    get_file("b.tgz", _uri(archive), md5_hash=md5)
    get_file("c.tgz", _uri(archive), file_hash=md5, hash_algorithm="md5")
    assert file_utils.validate_file(home / "datasets" / "b.tgz", md5)
    with pytest.raises(ValueError, match="sha256 file hash does not match"):
        get_file("d.tgz", _uri(archive), file_hash="0" * 64)
    # A failed verification leaves neither the file nor a partial copy.
    assert sorted(os.listdir(home / "datasets")) == ["a.tgz", "b.tgz",
                                                     "c.tgz"]


def test_stale_cached_file_is_downloaded_again(home, archive, capsys):
    (home / "datasets").mkdir(parents=True)
    (home / "datasets" / "p.tgz").write_bytes(b"truncated")
    path = get_file("p.tgz", _uri(archive), file_hash=_sha256(archive))
    out = capsys.readouterr().out
    assert "the sha256 file hash does not match" in out
    assert "Downloading data from" in out
    assert _sha256(path) == _sha256(archive)


def test_force_download(home, tmp_path):
    src = tmp_path / "v.txt"
    src.write_text("1")
    path = get_file("v.txt", _uri(src))
    src.write_text("2")
    assert pathlib.Path(get_file("v.txt", _uri(src))).read_text() == "1"
    get_file("v.txt", _uri(src), force_download=True)
    assert pathlib.Path(path).read_text() == "2"


def test_offline_error_names_url_and_cache_path(home):
    url = "http://127.0.0.1:9/mnist.npz"
    with pytest.raises(OSError) as info:
        get_file("mnist.npz", url)
    message = str(info.value)
    assert f"URL fetch failure on {url}" in message
    assert str(home / "datasets" / "mnist.npz") in message
    assert os.listdir(home / "datasets") == []


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/ok.bin":
            body = b"x" * 10000
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404, "Not Found")

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


def test_http_download_and_http_error(home, server, capsys):
    path = get_file(origin=f"{server}/ok.bin")
    assert pathlib.Path(path).read_bytes() == b"x" * 10000
    out = capsys.readouterr().out
    assert "10000/10000" in out
    with pytest.raises(OSError, match="URL fetch failure on .*missing.bin: "
                                      "404 -- Not Found"):
        get_file(origin=f"{server}/missing.bin")


def test_interrupted_download_leaves_nothing(home, monkeypatch, tmp_path):
    import urllib.request

    def interrupted(url, filename, hook):
        with open(filename, "wb") as f:
            f.write(b"half")
        raise KeyboardInterrupt
    monkeypatch.setattr(urllib.request, "urlretrieve", interrupted)
    with pytest.raises(KeyboardInterrupt):
        get_file("big.bin", "http://example.com/big.bin")
    assert os.listdir(home / "datasets") == []


def test_unsafe_tar_members_are_skipped(tmp_path):
    src = tmp_path / "evil.tar"
    with tarfile.open(src, "w") as archive:
        for name in ("ok.txt", "../escape.txt", "/abs.txt"):
            info = tarfile.TarInfo(name)
            info.size = 1
            archive.addfile(info, io.BytesIO(b"x"))
        link = tarfile.TarInfo("link")
        link.type, link.linkname = tarfile.SYMTYPE, "../../outside"
        archive.addfile(link)
    out = tmp_path / "out" / "x"
    with pytest.warns(UserWarning, match="Skipping invalid path") as record:
        assert extract_archive(src, out)
    assert len(record) == 3
    assert os.listdir(out) == ["ok.txt"]
    assert not (tmp_path / "out" / "escape.txt").exists()


def test_unsafe_zip_members_are_skipped(tmp_path):
    src = tmp_path / "evil.zip"
    with zipfile.ZipFile(src, "w") as z:
        z.writestr("ok.txt", "x")
        z.writestr("../escape.txt", "x")
    out = tmp_path / "out"
    with pytest.warns(UserWarning, match="'../escape.txt'"):
        assert extract_archive(src, out, "zip")
    assert os.listdir(out) == ["ok.txt"]


def test_failed_extraction_leaves_nothing(tmp_path, monkeypatch):
    src = _make_tar(tmp_path / "a.tgz", {"x.txt": b"1"})

    def broken(file_path, base):
        open(os.path.join(base, "partial"), "w").close()
        raise tarfile.ReadError("truncated")
    monkeypatch.setattr(file_utils, "_extract_tar", broken)
    with pytest.raises(tarfile.ReadError):
        extract_archive(src, tmp_path / "out")
    assert sorted(os.listdir(tmp_path)) == ["a.tgz"]


def test_argument_errors(home, archive):
    with pytest.raises(ValueError, match='specify the "origin"'):
        get_file("x")
    with pytest.raises(ValueError, match="Paths are no longer accepted"):
        get_file(os.path.join("a", "b.txt"), _uri(archive))
    with pytest.raises(ValueError, match="Can't parse the file name"):
        get_file(origin="http://example.com/")
    with pytest.raises(ValueError, match="hash_algorithm='sha1'"):
        get_file("x", _uri(archive), hash_algorithm="sha1")
    with pytest.raises(ValueError, match="archive_format='rar'"):
        get_file("y.tgz", _uri(archive), extract=True, archive_format="rar")


def test_public_names():
    assert kerasish.utils.get_file is get_file
