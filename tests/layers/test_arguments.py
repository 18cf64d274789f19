"""Constructor arguments of the wrong type or range name the layer, the
argument and the value (`kerasish.layers.arguments`)."""
import numpy as np
import pytest

from kerasish import layers
from kerasish.layers import arguments


@pytest.mark.parametrize("make, match", [
    (lambda: layers.Dropout("a"),
     r"Dropout: invalid value received for argument `rate`\. Expected a "
     r"float value between 0 and 1\. Received: rate='a'"),
    (lambda: layers.Dropout(1.5), r"Dropout: .*rate=1\.5"),
    (lambda: layers.SpatialDropout2D(-0.1), r"SpatialDropout2D: .*rate=-0\.1"),
    (lambda: layers.GaussianNoise(None), r"GaussianNoise: .*stddev=None"),
    (lambda: layers.GaussianDropout("a"), r"GaussianDropout: .*rate='a'"),
    (lambda: layers.AlphaDropout(True), r"AlphaDropout: .*rate=True"),
    (lambda: layers.ReLU(max_value="a"),
     r"ReLU: .*`max_value`\. Expected a number\. Received: max_value='a'"),
    (lambda: layers.ReLU(negative_slope=-1.0), r"negative_slope.*-1\.0"),
    (lambda: layers.HashedCrossing(0),
     r"HashedCrossing: invalid value for argument `num_bins`\. Expected a "
     r"strictly positive integer\. Received: num_bins=0"),
    (lambda: layers.HashedCrossing(-3), r"num_bins=-3"),
    (lambda: layers.BatchNormalization(axis="x"),
     r"BatchNormalization: .*`axis`\. Expected an integer\. "
     r"Received: axis='x'"),
    (lambda: layers.BatchNormalization(axis=[1, 5]), r"axis=\[1, 5\]"),
    (lambda: layers.BatchNormalization(momentum="x"),
     r"BatchNormalization: .*`momentum`\. Expected a number\. "
     r"Received: momentum='x'"),
    (lambda: layers.Lambda(lambda x: x, output_shape="bad"),
     r"Lambda: invalid value for argument `output_shape`.*"
     r"Received: output_shape='bad'"),
    (lambda: layers.Conv2D(0, 3), r"Conv2D: .*filters=0"),
])
def test_bad_constructor_arguments(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_valid_values_pass_through():
    assert arguments.positive_int(layers.Dense, "units", np.int64(3)) == 3
    assert arguments.positive_int(layers.Dense, "units", None,
                                  allow_none=True) is None
    assert arguments.integer(layers.Dense, "axis", -1) == -1
    assert arguments.real_number(layers.Dense, "x", np.float32(0.5)) == 0.5
    assert arguments.unit_interval(layers.Dense, "rate", 1) == 1
    assert layers.HashedCrossing(np.int32(4)).num_bins == 4
    assert layers.BatchNormalization(axis=np.int64(1), momentum=0.9).axis == 1
    assert layers.Lambda(lambda x: x, output_shape=[(3,), (4,)]) is not None
    assert layers.Lambda(lambda x: x,
                         output_shape=(np.int64(3), None)) is not None
