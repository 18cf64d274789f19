import json
import os

import pytest

from kerasish.utils import progbar
from kerasish.utils.progbar import Progbar
from tests.utils.progbar_scenarios import SCENARIOS, FakeClock

_REFERENCE = os.path.join(os.path.dirname(__file__), "..", "fixtures",
                          "data_utils", "progbar.json")
with open(_REFERENCE, encoding="utf-8") as _f:
    KERAS_OUTPUT = json.load(_f)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_output_matches_keras(name, monkeypatch, capsys):
    clock = FakeClock()
    monkeypatch.setattr(progbar, "time", clock)
    SCENARIOS[name](Progbar, clock)
    assert capsys.readouterr().out == KERAS_OUTPUT[name]


def test_final_line_format(monkeypatch, capsys):
    clock = FakeClock()
    monkeypatch.setattr(progbar, "time", clock)
    bar = Progbar(4)
    for step in range(1, 5):
        clock.now += 0.25
        bar.update(step, values=[("loss", 0.5)])
    last = capsys.readouterr().out.split("\r")[-1]
    assert last == ("\x1b[1m4/4\x1b[0m \x1b[32m" + "━" * 20 + "\x1b[0m"
                    "\x1b[37m\x1b[0m \x1b[1m1s\x1b[0m 250ms/step - "
                    "loss: 0.5000\n")


def test_averages_weighted_by_steps(monkeypatch, capsys):
    monkeypatch.setattr(progbar, "time", FakeClock())
    bar = Progbar(10, verbose=0)
    bar.update(2, values=[("loss", 1.0)])
    bar.update(6, values=[("loss", 4.0)])
    assert bar._values["loss"] == [1.0 * 2 + 4.0 * 4, 6]


def test_both_metric_lists_rejected():
    with pytest.raises(ValueError, match="Only one of"):
        Progbar(3, stateful_metrics=["a"], stateless_metrics=["b"])


def test_public_names():
    import kerasish
    assert kerasish.utils.Progbar is Progbar
