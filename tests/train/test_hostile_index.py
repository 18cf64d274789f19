"""Checkpoint rotation deletes only the saver's own files in its folder,
whatever a (hostile or stale) `checkpoint` index lists."""
import os

from kerasish import train
from tests.train.util import batches, model


def _plant(folder, outside):
    """Canary files the index names: outside, absolute, linked, foreign."""
    os.makedirs(outside, exist_ok=True)
    canaries = [os.path.join(outside, "model.ckpt-1.weights.h5"),
                os.path.join(outside, "abs.weights.h5"),
                os.path.join(folder, "notes-2.weights.h5")]
    for path in canaries:
        with open(path, "w") as f:
            f.write("keep me")
    link = os.path.join(folder, "model.ckpt-7.weights.h5")
    os.symlink(canaries[1], link)
    entries = ["../outside/model.ckpt-1", canaries[1][:-len(".weights.h5")],
               "notes-2", "model.ckpt-7"]
    with open(os.path.join(folder, "checkpoint"), "w") as f:
        f.write('model_checkpoint_path: "model.ckpt-9"\n')
        f.writelines(f'all_model_checkpoint_paths: "{e}"\n' for e in entries)
    return canaries + [link]


def test_monitored_session_rotation_keeps_files_the_index_points_at(
        tmp_path):
    folder = str(tmp_path / "ckpt")
    os.makedirs(folder)
    planted = _plant(folder, str(tmp_path / "outside"))
    saver = train.Saver(max_to_keep=1)
    saver.recover_last_checkpoints(
        train.get_checkpoint_state(folder).all_model_checkpoint_paths)
    assert len(saver.last_checkpoints) == 4
    hook = train.CheckpointSaverHook(folder, save_steps=1, saver=saver)
    with train.MonitoredSession(
            train.ChiefSessionCreator(model=model(), input=batches(3),
                                      scaffold=train.Scaffold(saver=saver)),
            hooks=[hook]) as sess:
        while not sess.should_stop():
            sess.run()
    for path in planted:
        assert os.path.lexists(path), path
    with open(planted[0]) as f:
        assert f.read() == "keep me"
    # Its own checkpoints still rotate: only the newest is left.
    assert os.path.islink(planted[-1])
    assert sorted(os.listdir(folder)) == [
        "checkpoint", "graph.json", "model.ckpt-3.weights.h5",
        "model.ckpt-7.weights.h5", "notes-2.weights.h5"]


def test_saver_deletes_its_own_older_checkpoints(tmp_path):
    m = model()
    prefix = str(tmp_path / "model.ckpt")
    saver = train.Saver(max_to_keep=1)
    for step in (1, 2):
        saver.save(m, prefix, global_step=step)
    assert sorted(os.listdir(tmp_path)) == ["checkpoint",
                                            "model.ckpt-2.weights.h5"]
