"""Devices, device meshes and tensor layouts (`keras.distribution`).

kerasish computes with numpy in one process, so there is exactly one
device, `"cpu:0"`. The layout objects behave as Keras's (validation,
regex lookup, reprs), and a mesh over the available device is a 1-device
mesh: code written for a cluster runs here unchanged, on one CPU.
"""
import collections.abc
import math
import os
import re

import numpy as np

_DEVICES = ("cpu:0",)


def list_devices(device_type=None):
    """The devices available for computation: `["cpu:0"]`.

    Args:
        device_type: `"cpu"` (or `None`, the default type). Other types
            raise a `ValueError`: kerasish runs on the CPU only.

    Returns:
        List of device strings formatted as `"<type>:<id>"`.

    Example:

    >>> kerasish.distribution.list_devices()
    ['cpu:0']
    """
    _check_device_type(device_type)
    return list(_DEVICES)


def get_device_count(device_type=None):
    """The number of available devices (1).

    Args:
        device_type: `"cpu"` or `None`; see `list_devices`.

    Example:

    >>> kerasish.distribution.get_device_count()
    1
    """
    return len(list_devices(device_type))


def _check_device_type(device_type):
    if device_type is not None and str(device_type).lower() != "cpu":
        raise ValueError(
            "kerasish runs on the CPU only: no device of type "
            f"{device_type!r}. Received: device_type={device_type!r}")


def initialize(job_addresses=None, num_processes=None, process_id=None):
    """Initialize the distribution system: here, a single process.

    Like Keras, missing arguments are read from the environment variables
    `KERAS_DISTRIBUTION_JOB_ADDRESSES`, `KERAS_DISTRIBUTION_NUM_PROCESSES`
    and `KERAS_DISTRIBUTION_PROCESS_ID`. One process (process 0) is
    accepted and needs no setup; a multi-process cluster raises a
    `ValueError`: kerasish trains across processes with its
    parameter-server runtime (`kerasish.distribute`), not through this
    API.

    Args:
        job_addresses: Comma-separated addresses of the jobs (unused by a
            single process).
        num_processes: Number of processes (1 or None).
        process_id: Id of this process (0 or None).

    Example:

    >>> kerasish.distribution.initialize(num_processes=1, process_id=0)
    """
    env = os.environ
    if num_processes is None and "KERAS_DISTRIBUTION_NUM_PROCESSES" in env:
        num_processes = int(env["KERAS_DISTRIBUTION_NUM_PROCESSES"])
    if process_id is None and "KERAS_DISTRIBUTION_PROCESS_ID" in env:
        process_id = int(env["KERAS_DISTRIBUTION_PROCESS_ID"])
    if job_addresses is None:
        job_addresses = env.get("KERAS_DISTRIBUTION_JOB_ADDRESSES")
    jobs = len(job_addresses.split(",")) if job_addresses else 1
    if num_processes not in (None, 1) or process_id not in (None, 0) or \
            jobs > 1:
        raise ValueError(
            "kerasish's `keras.distribution` runs in a single process on "
            "one CPU device; multi-process training uses kerasish's "
            "parameter-server runtime (`kerasish.distribute`). Received: "
            f"job_addresses={job_addresses}, num_processes={num_processes}, "
            f"process_id={process_id}")


class DeviceMesh:
    """A grid of devices with named axes (as `jax.sharding.Mesh`).

    Args:
        shape: Tuple of ints, the mesh shape, e.g. `(1,)` or `(1, 1)`; its
            size must equal the number of devices.
        axis_names: List of axis names, one per mesh dimension.
        devices: Optional list of devices. Defaults to `list_devices()`.

    Example:

    >>> mesh = kerasish.distribution.DeviceMesh((1, 1), ["batch", "model"])
    >>> mesh
    <DeviceMesh shape=(1, 1), axis_names=['batch', 'model']>
    >>> mesh.devices.tolist()
    [['cpu:0']]
    """

    def __init__(self, shape, axis_names, devices=None):
        if not shape or not axis_names:
            raise ValueError("Shape and axis_names cannot be empty. "
                             f"Received: shape={shape}, "
                             f"axis_names={axis_names}")
        if len(shape) != len(axis_names):
            raise ValueError("Shape and axis_names should have same size. "
                             f"Received: shape={shape}, "
                             f"axis_names={axis_names}")
        devices = np.array(list_devices() if devices is None else devices)
        if math.prod(shape) != devices.size:
            raise ValueError("Shape does not match the number of devices. "
                             f"Received: shape={shape}; devices.shape="
                             f"{devices.shape}")
        self._shape = shape
        self._axis_names = axis_names
        self._devices = np.reshape(devices, shape)

    @property
    def shape(self):
        return self._shape

    @property
    def axis_names(self):
        return self._axis_names

    @property
    def devices(self):
        return self._devices

    def __repr__(self):
        return (f"<{type(self).__name__} shape={self.shape}, "
                f"axis_names={self.axis_names}>")


class TensorLayout:
    """How a tensor's dimensions map to mesh axes (`None`: replicated).

    Args:
        axes: Tuple of mesh axis names or `None`, one per tensor dimension.
        device_mesh: Optional `DeviceMesh`; can be set once later.

    Example:

    >>> mesh = kerasish.distribution.DeviceMesh((1,), ["batch"])
    >>> kerasish.distribution.TensorLayout(("batch", None), mesh).axes
    ('batch', None)
    """

    def __init__(self, axes, device_mesh=None):
        self._axes = tuple(axes)
        self._device_mesh = device_mesh
        self._validate_axes()

    @property
    def axes(self):
        return self._axes

    @property
    def device_mesh(self):
        return self._device_mesh

    @device_mesh.setter
    def device_mesh(self, device_mesh):
        if self._device_mesh is not None:
            raise ValueError("Cannot override device mesh value. Existing "
                             f"value is {self._device_mesh}")
        self._device_mesh = device_mesh
        self._validate_axes()

    def _validate_axes(self):
        if self._device_mesh:
            valid = set(self._device_mesh.axis_names)
            names = set(self._axes) - {None}
            if names - valid:
                raise ValueError("Invalid axis names for Layout. Valid axis "
                                 f"names: {valid}, Got {names}")

    def __repr__(self):
        return (f"<{type(self).__name__} axes={self.axes}, "
                f"device_mesh={self.device_mesh}>")


class LayoutMap(collections.abc.MutableMapping):
    """Map variable paths (exact, else regex full matches) to layouts.

    A tuple value is turned into a `TensorLayout` on the map's mesh.

    Args:
        device_mesh: The `DeviceMesh` of the layouts.

    Example:

    >>> mesh = kerasish.distribution.DeviceMesh((1, 1), ["batch", "model"])
    >>> layout_map = kerasish.distribution.LayoutMap(mesh)
    >>> layout_map[".*dense.*kernel"] = (None, "model")
    >>> layout_map["model/dense_1/kernel"].axes
    (None, 'model')
    >>> layout_map["model/conv2d/kernel"] is None
    True
    """

    def __init__(self, device_mesh):
        self._layout_map = collections.OrderedDict()
        self._device_mesh = device_mesh

    def __getitem__(self, key):
        if key in self._layout_map:
            return self._layout_map[key]
        matches = [p for p in self._layout_map if re.fullmatch(p, key)]
        if len(matches) > 1:
            raise ValueError(
                f"Path '{key}' matches multiple layout specification keys: "
                f"{matches}. Please make sure each tensor/variable path only "
                "matches at most one layout specification key in the "
                "LayoutMap.")
        return self._layout_map[matches[0]] if matches else None

    def __setitem__(self, key, layout):
        if key in self._layout_map:
            raise ValueError(
                f"{key} already exist in the LayoutMap with value "
                f"{self._layout_map[key]}. Please make sure to not use "
                "duplicated keys.")
        if isinstance(layout, tuple):
            layout = TensorLayout(axes=layout)
        if not isinstance(layout, TensorLayout):
            raise ValueError(f"{layout} should be a TensorLayout type, got "
                             f"{type(layout)}")
        if layout.device_mesh is None and self._device_mesh is not None:
            layout.device_mesh = self._device_mesh
        self._layout_map[key] = layout

    def __delitem__(self, key):
        return self._layout_map.pop(key)

    def __len__(self):
        return len(self._layout_map)

    def __iter__(self):
        return iter(self._layout_map)

    @property
    def device_mesh(self):
        return self._device_mesh
