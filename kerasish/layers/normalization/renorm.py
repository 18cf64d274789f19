"""Batch renormalization (Ioffe, 2017) for `BatchNormalization(renorm=True)`.

Training normalizes with the batch statistics corrected by `r = std_B /
std_moving` and `d = (mean_B - mean_moving) / std_moving` (clipped, no
gradient), so training and inference see the same transformation once the
moving statistics settle. Keras tracks a moving standard deviation next to
the moving variance; the weights and their order follow Keras.
"""
import numpy as np

from kerasish import ops

_KEYS = ("rmax", "rmin", "dmax")


def check_clipping(clipping):
    """Validate `renorm_clipping` as Keras does; returns the dict."""
    clipping = clipping or {}
    unknown = set(clipping) - set(_KEYS)
    if unknown:
        raise ValueError(
            "Received invalid keys for `renorm_clipping` argument: "
            f"{clipping}. Supported values: {list(_KEYS)}.")
    rmax, rmin, dmax = (clipping.get(k) for k in _KEYS)
    if rmax is not None and rmin is not None and rmax < rmin:
        raise ValueError(
            "rmax should be greater than rmin in the `renorm_clipping` "
            f"argument. Received: rmax={rmax}, rmin={rmin}.")
    if dmax is not None and dmax < 0:
        raise ValueError(
            "dmax should be non-negative in the `renorm_clipping` argument. "
            f"Received: dmax={dmax}.")
    return clipping


def add_weights(layer, shape):
    """Create moving_stddev, renorm_mean and renorm_stddev (Keras order)."""
    def stddev_initializer(shape, dtype=None):
        clone = type(layer.moving_variance_initializer).from_config(
            layer.moving_variance_initializer.get_config())
        return np.sqrt(np.asarray(clone(shape, dtype=dtype)))

    def mean_initializer(shape, dtype=None):
        clone = type(layer.moving_mean_initializer).from_config(
            layer.moving_mean_initializer.get_config())
        return clone(shape, dtype=dtype)

    for name, init in (("moving_stddev", stddev_initializer),
                       ("renorm_mean", mean_initializer),
                       ("renorm_stddev", stddev_initializer)):
        setattr(layer, name, layer.add_weight(
            shape=shape, name=name, initializer=init, trainable=False,
            autocast=False))


def compose(layer, mean, variance, gamma, beta):
    """Effective `(gamma, beta)` with the renorm corrections folded in."""
    eps = layer.epsilon
    mean_v, var_v = mean._value, variance._value
    stddev = np.sqrt(var_v + eps)
    renorm_mean = layer.renorm_mean._value.reshape(mean_v.shape)
    renorm_stddev = np.maximum(
        layer.renorm_stddev._value.reshape(mean_v.shape), np.sqrt(eps))
    r = stddev / renorm_stddev
    d = (mean_v - renorm_mean) / renorm_stddev
    clip = layer.renorm_clipping
    if clip.get("rmin") is not None:
        r = np.maximum(r, clip["rmin"])
    if clip.get("rmax") is not None:
        r = np.minimum(r, clip["rmax"])
    if clip.get("dmax") is not None:
        d = np.clip(d, -clip["dmax"], clip["dmax"])
    r, d = r.astype(mean_v.dtype), d.astype(mean_v.dtype)
    if gamma is None:
        return ops.convert_to_tensor(r), (
            ops.convert_to_tensor(d) if beta is None else d + beta)
    return gamma * r, (gamma * d if beta is None else gamma * d + beta)


def update(layer, mean, variance):
    """Move the renorm and moving statistics toward the batch's."""
    stddev = np.sqrt(variance + layer.epsilon)

    def blend(var, value, momentum):
        old = var._value
        new = old * momentum + value.reshape(old.shape) * (1.0 - momentum)
        var.assign(new.astype(old.dtype))
        return new

    blend(layer.renorm_mean, mean, layer.renorm_momentum)
    blend(layer.renorm_stddev, stddev, layer.renorm_momentum)
    blend(layer.moving_mean, mean, layer.momentum)
    new_stddev = blend(layer.moving_stddev, stddev, layer.momentum)
    # relu guards against rounding making the variance negative.
    layer.moving_variance.assign(np.maximum(
        new_stddev * new_stddev - layer.epsilon, 0).astype(
            layer.moving_variance.dtype))
