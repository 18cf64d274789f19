"""Dataset batches offer what tf.data's eager tensors offer (`.numpy()`,
`.shape`, `.dtype`) while staying numpy arrays to numpy code, and the
array subclass never reaches model outputs, weights or saved files."""
import h5py
import numpy as np

import kerasish
from kerasish.data import Dataset
from kerasish.data.eager_array import EagerArray


def _dataset():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((10, 4)).astype("float32")
    y = rng.integers(0, 3, 10)
    return Dataset.from_tensor_slices((x, y)).shuffle(10, seed=1).batch(4)


def test_a_tf_data_program_reads_batches_with_numpy():
    # The keras.io pattern: peek at one batch before training.
    for inputs, targets in _dataset().take(1):
        assert inputs.numpy().shape == (4, 4)
        assert inputs.shape == (4, 4) and inputs.dtype == np.float32
        assert targets.numpy().dtype == np.int64
        assert type(inputs.numpy()) is np.ndarray


def test_numpy_is_a_view_not_a_copy():
    batch = next(iter(Dataset.from_tensor_slices(np.ones((3, 2))).batch(3)))
    assert np.shares_memory(batch.numpy(), batch)


def test_scalar_elements_give_numpy_scalars():
    values = [x.numpy() for x in Dataset.range(3)]
    assert values == [0, 1, 2]
    assert all(type(v) is np.int64 for v in values)


def test_batches_are_numpy_arrays_and_computing_gives_plain_arrays():
    batch, _ = next(iter(_dataset()))
    assert isinstance(batch, np.ndarray)
    for result in (batch * 2, np.mean(batch, axis=0), batch.sum(),
                   np.concatenate([batch, batch]), np.split(batch, 2)[0],
                   batch @ batch.T, np.where(batch > 0, batch, 0)):
        assert not isinstance(result, EagerArray), type(result)
    # Indexing keeps `.numpy()`: `images[i].numpy()` in a plotting loop.
    assert batch[0].numpy().shape == (4,)
    assert repr(batch[:1]).startswith("array(")


def test_as_numpy_iterator_gives_plain_arrays():
    for inputs, targets in _dataset().as_numpy_iterator():
        assert type(inputs) is np.ndarray and type(targets) is np.ndarray


def test_the_subclass_reaches_no_model_output_weight_or_file(tmp_path):
    model = kerasish.Sequential([kerasish.Input((4,)),
                                 kerasish.layers.Dense(3)])
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    model.fit(_dataset(), epochs=1, verbose=0)
    batch, _ = next(iter(_dataset()))
    outputs = [model.predict(_dataset(), verbose=0), model(batch),
               model.predict(batch, verbose=0),
               np.asarray(model.predict_on_batch(batch))]
    assert not any(isinstance(o, EagerArray) for o in outputs)
    model.layers[0].kernel.assign(batch[:, :3])
    variable = kerasish.Variable(batch)
    assert type(variable.numpy()) is np.ndarray
    assert not any(isinstance(w, EagerArray) for w in model.get_weights())
    model.save_weights(str(tmp_path / "m.weights.h5"))
    with h5py.File(tmp_path / "m.weights.h5") as f:
        np.testing.assert_array_equal(
            f["layers/dense/vars/0"][()], batch.numpy()[:, :3])


def test_pickled_batches_are_plain_arrays():
    import pickle
    batch, _ = next(iter(_dataset()))
    assert type(pickle.loads(pickle.dumps(batch))) is np.ndarray


def test_string_batches_read_as_bytes_as_tf_data_gives_them():
    texts = np.array(["caf\u00e9 au lait", "tea"])
    for text, label in Dataset.from_tensor_slices((texts, [1, 0])).batch(2):
        assert text.numpy()[0].decode("utf-8") == "caf\u00e9 au lait"
        assert text.dtype.kind == "U"   # numpy code still sees str
        assert str(text[1]) == "tea"
