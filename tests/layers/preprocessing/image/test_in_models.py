"""Image layers inside models, `fit`/`predict`, `Dataset.map` pipelines and
`Pipeline`, and saved with `.keras` files."""
import numpy as np

import kerasish
from kerasish import layers

RNG = np.random.default_rng(0)
IMAGES = RNG.uniform(0, 1, (16, 8, 8, 3)).astype("float32")
TARGETS = RNG.normal(size=(16, 1)).astype("float32")


def augmenting_model():
    inputs = kerasish.Input((8, 8, 3))
    x = layers.RandomFlip(seed=0)(inputs)
    x = layers.RandomRotation(0.1, seed=0)(x)
    x = layers.Resizing(6, 6)(x)
    x = layers.Flatten()(x)
    return kerasish.Model(inputs, layers.Dense(1)(x))


def test_functional_model_shapes_and_inference_identity():
    model = augmenting_model()
    assert model.output_shape == (None, 1)
    first = model.predict(IMAGES, verbose=0)
    np.testing.assert_array_equal(first, model.predict(IMAGES, verbose=0))
    plain = kerasish.Sequential([kerasish.Input((8, 8, 3)),
                                 layers.Resizing(6, 6), layers.Flatten(),
                                 model.layers[-1]])
    np.testing.assert_allclose(first, plain.predict(IMAGES, verbose=0),
                               rtol=1e-5, atol=1e-6)
    training_out = np.asarray(model(IMAGES, training=True))
    assert not np.allclose(training_out, first)


class Recorder(layers.Layer):
    """Identity that records the batches it saw in training."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seen = []

    def call(self, x, training=False):
        if training:
            self.seen.append(np.asarray(x).copy())
        return x


def test_fit_augments_only_in_training():
    recorder = Recorder()
    model = kerasish.Sequential([kerasish.Input((8, 8, 3)),
                                 layers.RandomFlip("horizontal", seed=1),
                                 recorder, layers.Flatten(),
                                 layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(IMAGES, TARGETS, batch_size=16, epochs=2, verbose=0,
              shuffle=False)
    assert len(recorder.seen) == 2
    flipped = [np.array_equal(seen, image[:, ::-1])
               for seen, image in zip(recorder.seen[0], IMAGES)]
    assert 0 < sum(flipped) < 16
    evaluation = model.evaluate(IMAGES, TARGETS, verbose=0)
    direct = np.mean((np.asarray(model.layers[-1](
        IMAGES.reshape(16, -1))) - TARGETS) ** 2)
    np.testing.assert_allclose(evaluation, direct, rtol=1e-5)


def test_dataset_map_pipeline_with_dicts():
    data = {"images": IMAGES,
            "bounding_boxes": {"boxes": np.tile([[[1.0, 1.0, 4.0, 5.0]]],
                                                (16, 1, 1)),
                               "labels": np.ones((16, 1), "int32")}}
    augment = layers.Pipeline([
        layers.RandomFlip(seed=0, bounding_box_format="xyxy"),
        layers.RandomZoom(0.2, seed=0, bounding_box_format="xyxy"),
        layers.Resizing(4, 4, bounding_box_format="xyxy")])
    dataset = kerasish.data.Dataset.from_tensor_slices(data).map(
        augment).batch(8)
    batches = list(dataset)
    assert len(batches) == 2
    assert batches[0]["images"].shape == (8, 4, 4, 3)
    assert batches[0]["bounding_boxes"]["boxes"].shape == (8, 1, 4)
    boxes = np.concatenate([b["bounding_boxes"]["boxes"] for b in batches])
    assert boxes.min() >= 0.0 and boxes.max() <= 4.0
    images_only = kerasish.data.Dataset.from_tensor_slices(IMAGES).batch(
        4).map(layers.RandomContrast(0.3, value_range=(0, 1), seed=0))
    assert next(iter(images_only)).shape == (4, 8, 8, 3)


def test_pipeline_config_round_trip_and_training_flag():
    pipeline = layers.Pipeline([layers.RandomFlip(seed=0),
                                layers.CenterCrop(4, 4)], name="augment")
    config = pipeline.get_config()
    assert set(config) == {"layers", "name"}
    assert [c["class_name"] for c in config["layers"]] == ["RandomFlip",
                                                           "CenterCrop"]
    clone = layers.Pipeline.from_config(config)
    assert clone.name == "augment" and len(clone.layers) == 2
    out = clone(IMAGES, training=False)
    np.testing.assert_array_equal(np.asarray(out), IMAGES[:, 2:6, 2:6])
    symbolic = pipeline(kerasish.Input((8, 8, 3)))
    assert symbolic.shape == (None, 4, 4, 3)


def test_model_with_image_layers_saves_and_loads(tmp_path):
    model = augmenting_model()
    path = str(tmp_path / "augment.keras")
    model.save(path)
    loaded = kerasish.saving.load_model(path)
    assert [type(layer).__name__ for layer in loaded.layers[1:4]] == \
        ["RandomFlip", "RandomRotation", "Resizing"]
    assert loaded.layers[2].get_config() == model.layers[2].get_config()
    np.testing.assert_allclose(loaded.predict(IMAGES, verbose=0),
                               model.predict(IMAGES, verbose=0), rtol=1e-6)


def test_keras_written_configs_load():
    # Configs as Keras 3.15 writes them (tuples saved as lists).
    config = {"module": "keras.layers", "class_name": "RandomShear",
              "config": {"name": "random_shear", "trainable": True,
                         "dtype": {"module": "keras",
                                   "class_name": "DTypePolicy",
                                   "config": {"name": "float32"},
                                   "registered_name": None},
                         "data_format": "channels_last",
                         "x_factor": [-0.3, 0.3], "y_factor": [-0.0, 0.0],
                         "fill_mode": "reflect",
                         "interpolation": "bilinear", "seed": None,
                         "fill_value": 0.0},
              "registered_name": None}
    layer = kerasish.saving.deserialize_keras_object(config)
    assert layer.x_factor == (-0.3, 0.3)
    assert layer(IMAGES, training=True).shape == IMAGES.shape
    contrast = kerasish.layers.deserialize(
        {"module": "keras.layers", "class_name": "RandomContrast",
         "config": {"name": "c", "factor": [0, 0.5],
                    "value_range": [0, 255], "seed": None,
                    "data_format": "channels_last"}})
    assert contrast.factor == (0, 0.5)


def test_dict_inputs_in_a_functional_model():
    images = kerasish.Input((8, 8, 3), name="images")
    labels = kerasish.Input((4,), name="labels")
    out = layers.MixUp(seed=0)({"images": images, "labels": labels})
    model = kerasish.Model({"images": images, "labels": labels}, out)
    result = model({"images": IMAGES, "labels": np.eye(4)[np.arange(16) % 4]},
                   training=True)
    assert result["images"].shape == (16, 8, 8, 3)
    assert result["labels"].shape == (16, 4)
