"""sync mode gives a local run's numbers; evaluate, predict, saving and
callbacks work as locally."""
import numpy as np
import pytest

import kerasish
from kerasish import layers

pytestmark = pytest.mark.timeout(120)


def data(n=96, d=12, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)).astype("float32")
    return x, rng.integers(0, classes, n)


def mlp(optimizer="adam", seed=0):
    kerasish.utils.set_random_seed(seed)
    model = kerasish.Sequential([
        kerasish.Input((12,)), layers.Dense(8, activation="relu"),
        layers.Dense(3, activation="softmax")])
    model.compile(optimizer, "sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def twins(build, strategy):
    """The same model built locally and in the strategy's scope."""
    local = build()
    with strategy.scope():
        remote = build()
    return local, remote


def assert_same_weights(a, b, atol=2e-6):
    wa, wb = a.get_weights(), b.get_weights()
    assert len(wa) == len(wb)
    for x, y in zip(wa, wb):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=atol)


def test_placement_round_robin_in_creation_order(strategies):
    strategy = strategies(num_workers=1, num_ps=3)
    with strategy.scope():
        model = kerasish.Sequential([kerasish.Input((4,)), layers.Dense(3),
                                     layers.Dense(2)])
    # TF1's replica_device_setter(ps_tasks=3): w_0, b_0, w_1, b_1.
    assert [v.device for v in model.weights] == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:2",
        "/job:ps/task:0"]


def test_placement_greedy_by_bytes(strategies):
    strategy = strategies(num_workers=1, num_ps=2, placement="greedy")
    with strategy.scope():
        model = kerasish.Sequential([kerasish.Input((100,)),
                                     layers.Dense(50), layers.Dense(2)])
    # kernel 0 (20 kB) -> ps 0; then everything fits on the lighter ps 1.
    assert [v.device for v in model.weights] == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:1",
        "/job:ps/task:1"]


@pytest.mark.parametrize("num_workers,num_ps", [(1, 1), (3, 2)])
def test_sync_fit_equals_local(strategies, num_workers, num_ps):
    x, y = data()
    local, remote = twins(mlp, strategies(num_workers=num_workers,
                                          num_ps=num_ps))
    h_local = local.fit(x, y, batch_size=24, epochs=2, shuffle=False,
                        verbose=0)
    h_remote = remote.fit(x, y, batch_size=24, epochs=2, shuffle=False,
                          verbose=0)
    assert h_remote.history.keys() == h_local.history.keys()
    for key in h_local.history:
        np.testing.assert_allclose(h_remote.history[key],
                                   h_local.history[key], rtol=1e-5)
    assert_same_weights(local, remote)
    assert int(remote.optimizer.iterations.numpy()) == 8


OPTIMIZERS = ["sgd", kerasish.optimizers.SGD(0.05, momentum=0.9,
                                             nesterov=True),
              "rmsprop", "adagrad", "adadelta", "adamax", "nadam", "adamw",
              "ftrl", "lion", kerasish.optimizers.Adam(amsgrad=True)]


@pytest.mark.parametrize("optimizer", OPTIMIZERS, ids=lambda o: str(
    getattr(o, "name", o)))
def test_every_optimizer_family_sync_equals_local(strategies, optimizer):
    x, y = data(48)
    config = kerasish.optimizers.serialize(kerasish.optimizers.get(
        optimizer))

    def build():
        return mlp(kerasish.optimizers.deserialize(config))
    local, remote = twins(build, strategies(num_workers=2, num_ps=2))
    local.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert_same_weights(local, remote, atol=1e-5)


def conv_model():
    kerasish.utils.set_random_seed(3)
    model = kerasish.Sequential([
        kerasish.Input((6, 6, 2)), layers.Conv2D(4, 3, activation="relu"),
        layers.Flatten(), layers.Dense(2)])
    model.compile("adam", kerasish.losses.MeanSquaredError())
    return model


def test_conv_model_sync_equals_local(strategies):
    rng = np.random.default_rng(1)
    x = rng.normal(size=(32, 6, 6, 2)).astype("float32")
    y = rng.normal(size=(32, 2)).astype("float32")
    local, remote = twins(conv_model, strategies(num_workers=2, num_ps=2))
    local.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    assert_same_weights(local, remote)


def embedding_model(optimizer="adam"):
    kerasish.utils.set_random_seed(5)
    ids = kerasish.Input((3,), dtype="int32")
    h = layers.Flatten()(layers.Embedding(50, 4)(ids))
    out = layers.Dense(1, activation="sigmoid")(h)
    model = kerasish.Model(ids, out)
    model.compile(optimizer, "binary_crossentropy")
    return model


@pytest.mark.parametrize("sparse", [True, False])
@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_embedding_sync_equals_local(strategies, sparse, optimizer):
    rng = np.random.default_rng(2)
    x = rng.integers(0, 50, (64, 3)).astype("int32")
    y = rng.integers(0, 2, (64, 1)).astype("float32")
    strategy = strategies(num_workers=2, num_ps=2, sparse_embeddings=sparse)
    local, remote = twins(lambda: embedding_model(optimizer), strategy)
    local.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert_same_weights(local, remote)


def test_partitioned_embedding_is_split_and_reassembled(strategies):
    rng = np.random.default_rng(2)
    x = rng.integers(0, 50, (64, 3)).astype("int32")
    y = rng.integers(0, 2, (64, 1)).astype("float32")
    strategy = strategies(
        num_workers=2, num_ps=2,
        variable_partitioner=kerasish.distribute.partitioners.
        min_max_variable_partitioner(max_partitions=2, min_slice_size=400))
    local, remote = twins(embedding_model, strategy)
    table = remote.layers[1].embeddings
    assert table.device == ("/job:ps/task:0", "/job:ps/task:1")
    assert [p[:2] for p in table.parts] == [(0, 25), (25, 50)]
    local.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert_same_weights(local, remote)
    np.testing.assert_allclose(table.numpy(),
                               local.layers[1].embeddings.numpy(),
                               atol=2e-6)


def bn_model():
    kerasish.utils.set_random_seed(7)
    model = kerasish.Sequential([
        kerasish.Input((5,)), layers.Dense(6), layers.BatchNormalization(),
        layers.Activation("relu"), layers.Dense(1)])
    model.compile("adam", "mse")
    return model


def test_batchnorm_moving_statistics_on_the_shards(strategies):
    # One replica normalises the whole batch, as locally; the moving
    # statistics are updated on the shards from the replica's values.
    rng = np.random.default_rng(4)
    x = rng.normal(size=(40, 5)).astype("float32")
    y = rng.normal(size=(40, 1)).astype("float32")
    local, remote = twins(bn_model, strategies(num_workers=1, num_ps=2))
    local.fit(x, y, batch_size=10, epochs=2, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=10, epochs=2, shuffle=False, verbose=0)
    assert_same_weights(local, remote)
    bn = remote.layers[1]
    assert not np.allclose(bn.moving_mean.numpy(), 0)


def test_evaluate_and_predict_equal_local(strategies):
    x, y = data()
    local, remote = twins(mlp, strategies(num_workers=3, num_ps=2))
    local.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    np.testing.assert_allclose(remote.evaluate(x, y, batch_size=20,
                                               verbose=0),
                               local.evaluate(x, y, batch_size=20,
                                              verbose=0), rtol=1e-5)
    np.testing.assert_allclose(remote.predict(x, batch_size=7, verbose=0),
                               local.predict(x, batch_size=7, verbose=0),
                               atol=1e-6)


def test_validation_callbacks_and_saving(strategies, tmp_path):
    x, y = data()
    local, remote = twins(mlp, strategies(num_workers=2, num_ps=2))
    seen = []

    class Record(kerasish.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append((batch, round(logs["loss"], 5)))

    def fit(model, path):
        return model.fit(x, y, batch_size=24, epochs=2, shuffle=False,
                         validation_split=0.25, verbose=0,
                         callbacks=[Record(), kerasish.callbacks.
                                    ModelCheckpoint(str(path))])
    h_local = fit(local, tmp_path / "local.keras")
    local_seen, seen[:] = list(seen), []
    h_remote = fit(remote, tmp_path / "remote.keras")
    assert seen == local_seen
    for key in ("loss", "val_loss", "val_accuracy"):
        np.testing.assert_allclose(h_remote.history[key],
                                   h_local.history[key], rtol=1e-5)
    loaded = kerasish.saving.load_model(tmp_path / "remote.keras")
    assert_same_weights(loaded, local)
    # The optimizer state was gathered from the shards.
    for a, b in zip(loaded.optimizer.variables, local.optimizer.variables):
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=2e-6)


def test_driver_writes_reach_the_shards(strategies):
    x, y = data()
    local, remote = twins(mlp, strategies(num_workers=2, num_ps=1))
    local.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    weights = [w * 0.5 for w in local.get_weights()]
    local.set_weights(weights)
    remote.set_weights(weights)
    local.optimizer.learning_rate = 0.01
    remote.optimizer.learning_rate = 0.01
    local.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    assert_same_weights(local, remote)


def test_train_on_batch_and_custom_train_step(strategies):
    class Halved(kerasish.Model):
        """A user train_step: gradients halved before `apply`."""

        def train_step(self, data):
            x, y = data
            with kerasish.GradientTape() as tape:
                loss = self.compute_loss(x, y, self(x, training=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply([g * 0.5 for g in grads],
                                 self.trainable_variables)
            self._loss_tracker.update_state(loss)
            return {"loss": self._loss_tracker.result()}

    def build():
        kerasish.utils.set_random_seed(9)
        inputs = kerasish.Input((12,))
        model = Halved(inputs, layers.Dense(3)(inputs))
        model.compile("sgd", "mse")
        return model
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 12)).astype("float32")
    y = rng.normal(size=(32, 3)).astype("float32")
    local, remote = twins(build, strategies(num_workers=2, num_ps=1))
    np.testing.assert_allclose(remote.train_on_batch(x, y),
                               local.train_on_batch(x, y), rtol=1e-5)
    local.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    assert_same_weights(local, remote)


def test_strategy_names(strategies):
    strategy = strategies(num_workers=3, num_ps=1, backup_workers=1)
    assert strategy.num_replicas_in_sync == 2
    assert strategies(num_workers=3, mode="async").num_replicas_in_sync == 1
    with strategy.scope():
        assert kerasish.distribute.get_strategy() is strategy
        model = mlp()
    assert kerasish.distribute.get_strategy() is not strategy
    assert model._runtime is strategy.runtime


def test_monitored_training_session_trains_through_the_strategy(
        strategies, tmp_path):
    x, y = data(120)

    def run(model, folder):
        seen = []

        class Fetch(kerasish.train.SessionRunHook):
            def before_run(self, run_context):
                return kerasish.train.SessionRunArgs(["loss", "global_step"])

            def after_run(self, run_context, run_values):
                seen.append(run_values.results)

        batches = ((x[i:i + 24], y[i:i + 24]) for i in range(0, 120, 24))
        with kerasish.train.MonitoredTrainingSession(
                model=model, input=batches, checkpoint_dir=str(folder),
                hooks=[Fetch(), kerasish.train.StopAtStepHook(last_step=4)]
        ) as session:
            while not session.should_stop():
                session.run()
        return seen

    local, remote = twins(mlp, strategies(num_workers=2, num_ps=2))
    seen_local = run(local, tmp_path / "local")
    seen_remote = run(remote, tmp_path / "remote")
    assert [step for _, step in seen_remote] == [1, 2, 3, 4]
    np.testing.assert_allclose([loss for loss, _ in seen_remote],
                               [loss for loss, _ in seen_local], rtol=1e-5)
    assert_same_weights(local, remote)


def test_workers_keep_no_optimizer_state(strategies):
    import ray
    x, y = data()
    strategy = strategies(num_workers=2, num_ps=1)
    with strategy.scope():
        model = mlp()
    model.fit(x, y, batch_size=24, epochs=1, verbose=0)

    def slots(worker):
        inner = worker.model.optimizer._inner
        return inner.built, len(inner.variables)
    cluster = strategy.runtime.cluster
    # The slots live on the shards only: a replica's optimizer is never
    # built (its iterations and learning rate are its only variables).
    for worker in cluster.workers:
        built, count = ray.get(worker.__ray_call__.remote(slots))
        assert not built and count == 2


def test_the_trained_weights_outlive_the_shards(strategies):
    x, y = data()
    local, remote = twins(mlp, strategies(num_workers=2, num_ps=2))
    local.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    remote.fit(x, y, batch_size=24, epochs=1, shuffle=False, verbose=0)
    remote._runtime.shutdown()      # nothing read the weights before
    assert_same_weights(local, remote)
    np.testing.assert_allclose(remote.predict(x, verbose=0),
                               local.predict(x, verbose=0), atol=1e-6)
