"""TensorBoard: event files read back with TensorBoard's own reader."""
import gzip
import json
import os
import sys

import numpy as np
import pytest

import kerasish as keras
from tests.callbacks.util import data, regression_model

ea = pytest.importorskip(
    "tensorboard.backend.event_processing.event_accumulator",
    reason="the `test` extra installs tensorboard to read event files")
from kerasish.callbacks import TensorBoard  # noqa: E402


def read(folder):
    acc = ea.EventAccumulator(folder, size_guidance={
        ea.SCALARS: 0, ea.HISTOGRAMS: 0, ea.TENSORS: 0, ea.IMAGES: 0})
    acc.Reload()
    return acc


def scalars(acc, tag):
    return [(e.step, e.value) for e in acc.Scalars(tag)]


def test_epoch_scalars_with_keras_tags(tmp_path):
    x, y = data(20)
    model = regression_model()
    history = model.fit(x, y, batch_size=4, epochs=3, validation_split=0.2,
                        verbose=0, callbacks=[TensorBoard(str(tmp_path))])
    train = read(str(tmp_path / "train"))
    val = read(str(tmp_path / "validation"))
    assert sorted(train.Tags()["scalars"]) == [
        "epoch_learning_rate", "epoch_loss", "epoch_mae"]
    assert sorted(val.Tags()["scalars"]) == [
        "epoch_loss", "epoch_mae", "evaluation_loss_vs_iterations",
        "evaluation_mae_vs_iterations"]
    steps, values = zip(*scalars(train, "epoch_loss"))
    assert steps == (0, 1, 2)
    np.testing.assert_allclose(values, history.history["loss"], rtol=1e-6)
    np.testing.assert_allclose([v for _, v in scalars(val, "epoch_loss")],
                               history.history["val_loss"], rtol=1e-6)
    # Evaluations are stepped by optimizer iterations: 4 batches/epoch.
    assert [s for s, _ in scalars(val, "evaluation_loss_vs_iterations")] == \
        [4, 8, 12]


def test_evaluate_after_fit_keeps_the_fit_validation_events(tmp_path):
    # Keras 3.15 (TF writer) keeps both event files: validation holds the
    # fit's epoch_loss at steps 0, 1 and evaluation_loss_vs_iterations at
    # steps 5, 10 and again 10 for the later evaluate().
    x, y = data(20)
    model = regression_model()
    callback = TensorBoard(str(tmp_path))
    model.fit(x, y, batch_size=4, epochs=2, validation_data=(x, y),
              verbose=0, callbacks=[callback])
    model.evaluate(x, y, verbose=0, callbacks=[callback])
    val = read(str(tmp_path / "validation"))
    assert [s for s, _ in scalars(val, "epoch_loss")] == [0, 1]
    assert [s for s, _ in scalars(val, "evaluation_loss_vs_iterations")] \
        == [5, 10, 10]
    assert len(os.listdir(tmp_path / "validation")) == 2


def test_batch_scalars_every_update_freq(tmp_path):
    x, y = data(20)
    regression_model().fit(
        x, y, batch_size=4, epochs=2, verbose=0,
        callbacks=[TensorBoard(str(tmp_path), update_freq=2,
                               write_steps_per_second=True)])
    train = read(str(tmp_path / "train"))
    assert [s for s, _ in scalars(train, "batch_loss")] == [2, 4, 6, 8, 10]
    assert "batch_steps_per_second" in train.Tags()["scalars"]
    assert "epoch_steps_per_second" in train.Tags()["scalars"]


def test_histograms_images_and_graph(tmp_path):
    x, y = data(8)
    model = regression_model()
    model.fit(x, y, epochs=2, verbose=0, callbacks=[TensorBoard(
        str(tmp_path), histogram_freq=1, write_images=True)])
    train = read(str(tmp_path / "train"))
    tags = train.Tags()
    assert "sequential/dense/kernel/histogram" in tags["histograms"]
    assert [e.step for e in train.Histograms(
        "sequential/dense/kernel/histogram")] == [0, 1]
    assert "sequential/dense/kernel/image" in tags["images"]
    assert tags["graph"] is True
    graph = train.Graph()
    assert [n.op for n in graph.node][:2] == ["Dense", "Dense"]
    config = train.Tensors("keras")[0].tensor_proto.string_val[0]
    assert json.loads(config)["class_name"] == "Sequential"


def test_profile_batch_writes_a_chrome_trace(tmp_path):
    x, y = data(16)
    regression_model().fit(x, y, batch_size=4, epochs=1, verbose=0,
                           callbacks=[TensorBoard(str(tmp_path),
                                                  profile_batch=(2, 3))])
    folder = tmp_path / "train" / "plugins" / "profile"
    (run,) = os.listdir(folder)
    (name,) = os.listdir(folder / run)
    with gzip.open(folder / run / name, "rt") as f:
        events = json.load(f)["traceEvents"]
    steps = [e["args"]["step"] for e in events if e["name"] == "train_step"]
    assert steps == [2, 3]
    forward = {e["name"] for e in events if e.get("cat") == "forward"}
    assert forward == {"dense", "dense_1"}


def test_bad_arguments():
    with pytest.raises(ValueError, match="profile_batch must be"):
        TensorBoard(profile_batch=(3, 1))
    with pytest.raises(ValueError, match="update_freq"):
        TensorBoard(update_freq="sometimes")


def test_missing_writer_library_names_the_pip_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorboardX", None)
    with pytest.raises(ImportError, match="pip install 'kerasish"
                                          r"\[tensorboard\]'"):
        TensorBoard()


def test_embeddings_checkpoint_and_projector_config(tmp_path):
    x, y = data(8)
    regression_model().fit(x, y, epochs=1, verbose=0, callbacks=[
        TensorBoard(str(tmp_path), embeddings_freq=1)])
    assert os.path.exists(tmp_path / "train" /
                          "keras_embedding.ckpt-0.weights.h5")
    assert os.path.exists(tmp_path / "projector_config.pbtxt")


def test_multi_optimizer_rates_get_one_tag_each(tmp_path):
    # Keras 3.15's tags: epoch_learning_rate_<inner optimizer name>.
    from tests.callbacks.test_lr_callbacks import multi_optimizer_model
    x, y = data(10)
    model = multi_optimizer_model()
    model.fit(x, y, batch_size=5, epochs=2, verbose=0,
              callbacks=[TensorBoard(str(tmp_path), write_graph=False)])
    train = read(str(tmp_path / "train"))
    assert sorted(train.Tags()["scalars"]) == [
        "epoch_learning_rate_sgd_a", "epoch_learning_rate_sgd_b",
        "epoch_loss"]
    np.testing.assert_allclose(
        [v for _, v in scalars(train, "epoch_learning_rate_sgd_a")],
        [0.1, 0.1], rtol=1e-6)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("budget", [100, 3000])
def test_full_disk_is_a_clear_error_not_a_hang(tmp_path, monkeypatch,
                                               budget):
    # tensorboardX's writer thread dies on a failed write; its queue then
    # fills and training blocked forever. Events are written in the
    # training thread instead, so the error reaches `fit`.
    import threading
    from tests.saving.full_disk import FullDisk
    x, y = data(8)
    model = regression_model()
    threads = threading.active_count()  # other tests' may still run
    with monkeypatch.context() as patch:
        FullDisk(patch, tmp_path, budget)
        with pytest.raises(OSError, match="No space left on device: could "
                           "not write") as info:
            model.fit(x, y, epochs=40, verbose=0, callbacks=[
                TensorBoard(str(tmp_path), histogram_freq=1)])
    assert info.value.errno == 28
    assert threading.active_count() <= threads   # no writer thread left
    if budget:      # what was written before the disk filled still reads
        assert "scalars" in read(str(tmp_path / "train")).Tags()


def test_events_are_written_without_a_writer_thread(tmp_path):
    import threading
    x, y = data(8)
    callback = TensorBoard(str(tmp_path))
    before = set(threading.enumerate())   # other tests' may still run
    regression_model().fit(x, y, epochs=1, verbose=0, callbacks=[callback])
    assert set(threading.enumerate()) <= before
    assert [e.step for e in read(str(tmp_path / "train"))
            .Scalars("epoch_loss")] == [0]
