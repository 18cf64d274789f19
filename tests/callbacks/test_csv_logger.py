"""CSVLogger: Keras's columns, separator, append; kerasish's consistent
append."""
import pytest

from kerasish.callbacks import CSVLogger
from tests.callbacks.util import data, regression_model


def fit(path, epochs=2, validation=False, **kwargs):
    x, y = data(10)
    model = regression_model()
    model.fit(x, y, epochs=epochs, verbose=0,
              validation_split=0.2 if validation else 0.0,
              callbacks=[CSVLogger(path, **kwargs)])


def read(path):
    with open(path) as f:
        return [line.rstrip("\r\n") for line in f]


def test_columns_without_validation_add_val_na(tmp_path):
    path = str(tmp_path / "log.csv")
    fit(path)
    lines = read(path)
    assert lines[0] == "epoch,loss,mae,val_loss,val_mae"
    assert lines[1].startswith("0,") and lines[1].endswith(",NA,NA")
    assert lines[2].startswith("1,") and len(lines) == 3


def test_columns_with_validation_and_separator(tmp_path):
    path = str(tmp_path / "log.tsv")
    fit(path, validation=True, separator="\t")
    header = read(path)[0]
    assert header == "epoch\tloss\tmae\tval_loss\tval_mae"
    assert "NA" not in read(path)[1]


def test_append_adds_rows_under_one_header(tmp_path):
    path = str(tmp_path / "log.csv")
    fit(path, append=True)
    fit(path, append=True)
    lines = read(path)
    assert lines.count("epoch,loss,mae,val_loss,val_mae") == 1
    assert [line.split(",")[0] for line in lines[1:]] == ["0", "1", "0", "1"]


def test_append_with_new_keys_widens_the_header(tmp_path):
    path = str(tmp_path / "log.csv")
    with open(path, "w") as f:
        f.write("epoch,loss\r\n0,1.5\r\n")
    fit(path, epochs=1, append=True)
    lines = read(path)
    assert lines[0] == "epoch,loss,mae,val_loss,val_mae"
    assert lines[1] == "0,1.5,NA,NA,NA"
    assert len(lines[2].split(",")) == 5


def test_lists_are_quoted_and_state_round_trip(tmp_path):
    path = str(tmp_path / "log.csv")
    cb = CSVLogger(path)
    cb.on_train_begin()
    cb.on_epoch_end(0, {"a": [1, 2], "val_a": "x"})
    state = cb.get_state()
    cb.on_epoch_end(1, {"a": [3], "val_a": "y"})
    cb.set_state(state)
    cb.on_epoch_end(1, {"a": [4], "val_a": "z"})
    cb.on_train_end()
    assert read(path) == ["epoch,a,val_a", '0,"""[1, 2]""",x',
                          '1,"""[4]""",z']


def test_missing_directory_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        CSVLogger(str(tmp_path / "no" / "log.csv")).on_train_begin()


def _rows_of(path):
    with open(path, newline="") as f:
        return f.read()


@pytest.mark.parametrize("append", [True, False])
def test_full_disk_raises_and_leaves_no_half_row(tmp_path, monkeypatch,
                                                 append):
    from tests.saving.full_disk import FullDisk
    path = str(tmp_path / "log.csv")
    fit(path)
    before = _rows_of(path)
    for budget in [0, 5, 16]:      # a row takes 17 bytes
        cb = CSVLogger(path, append=append)
        with monkeypatch.context() as patch:
            FullDisk(patch, tmp_path, budget)
            cb.on_train_begin()
            with pytest.raises(OSError, match="No space left on device: "
                               "could not write") as info:
                cb.on_epoch_end(0, {"loss": 1.0, "mae": 2.0})
        cb._close()
        assert info.value.errno == 28
        assert _rows_of(path) == before, budget
        assert sorted(p.name for p in tmp_path.iterdir()) == ["log.csv"]


def test_without_append_the_old_log_stays_until_the_first_row(tmp_path):
    path = str(tmp_path / "log.csv")
    fit(path)
    before = _rows_of(path)
    cb = CSVLogger(path)
    cb.on_train_begin()         # Keras empties the file here
    assert _rows_of(path) == before
    cb.on_epoch_end(0, {"loss": 1.0})
    assert read(path) == ["epoch,loss,val_loss", "0,1.0,NA"]
    cb.on_train_end()


def test_a_run_without_epochs_leaves_an_empty_log_as_keras(tmp_path):
    path = str(tmp_path / "log.csv")
    fit(path)
    cb = CSVLogger(path)
    cb.on_train_begin()
    cb.on_train_end()
    assert _rows_of(path) == ""
