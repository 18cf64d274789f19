"""Progress output seen by a user (issue #8): silence at verbose=0, tqdm's
notebook widget in notebooks, totals and the whole-fit ETA on the bar."""
import io
import sys
import types

from kerasish.callbacks import ProgbarLogger
from kerasish.callbacks import progbar_logger
from tests.callbacks.util import data, regression_model


def test_verbose_0_prints_nothing_anywhere(capfd):
    x, y = data(20)
    model = regression_model()
    model.fit(x, y, batch_size=5, epochs=2, validation_split=0.2, verbose=0)
    model.evaluate(x, y, verbose=0)
    model.predict(x, verbose=0)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_notebooks_get_tqdm_auto(monkeypatch):
    import tqdm
    import tqdm.auto
    assert progbar_logger._tqdm_class() is tqdm.tqdm
    monkeypatch.setitem(sys.modules, "ipykernel",
                        types.ModuleType("ipykernel"))
    assert progbar_logger._tqdm_class() is tqdm.auto.tqdm
    assert progbar_logger._interactive(io.StringIO())


def test_bar_shows_step_totals_and_the_whole_fit_eta():
    stream = io.StringIO()
    x, y = data(20)
    regression_model().fit(
        x, y, batch_size=5, epochs=3, verbose=1,
        callbacks=[ProgbarLogger(display="bar", stream=stream)])
    epochs = stream.getvalue().split("Epoch ")[1:]
    assert [e.split("\n")[0] for e in epochs] == ["1/3", "2/3", "3/3"]
    finals = [e.rstrip("\n").split("\r")[-1] for e in epochs]
    assert all(f.startswith("4/4 ") and "loss: " in f for f in finals)
    # Every epoch but the last shows the time left for the whole fit.
    assert ["fit ETA" in f for f in finals] == [True, True, False]
