"""`DataParallel`, `ModelParallel` and the global distribution setting.

On kerasish's single CPU device every layout is trivially satisfied: a
distribution answers Keras's layout queries (`get_data_layout`,
`get_variable_layout`, `get_tensor_layout`) exactly as Keras does, and
training under it computes what training without it computes. The
current distribution is global state that `clear_session()` resets, as
in Keras.
"""
import contextlib
import warnings

from kerasish.distribution.mesh import (DeviceMesh, LayoutMap, TensorLayout,
                                        list_devices)
from kerasish.backend.common import global_state as config_utils
from kerasish.backend.common.keras_tensor import KerasTensor
from kerasish.ops import convert_to_tensor

DEFAULT_BATCH_DIM_NAME = "batch"


class Distribution:
    """Base class of distributions: a mesh, a batch axis, layout queries.

    Args:
        device_mesh: A `DeviceMesh`.
        batch_dim_name: Optional mesh axis name of the batch dimension.
        auto_shard_dataset: Whether datasets are sharded among processes
            (a single process never shards). Defaults to `True`.
    """

    def __init__(self, device_mesh, batch_dim_name=None,
                 auto_shard_dataset=True):
        self._device_mesh = device_mesh
        self._batch_dim_name = batch_dim_name
        self._auto_shard_dataset = auto_shard_dataset
        self._num_processes, self._process_id = 1, 0

    @property
    def num_processes(self):
        """Total number of processes (1)."""
        return self._num_processes

    @property
    def data_shard_id(self):
        """The data shard of this process (0)."""
        return self._process_id

    @property
    def device_mesh(self):
        return self._device_mesh

    @property
    def batch_dim_name(self):
        return self._batch_dim_name

    @property
    def auto_shard_dataset(self):
        return self._auto_shard_dataset

    @auto_shard_dataset.setter
    def auto_shard_dataset(self, value):
        self._auto_shard_dataset = value

    def get_data_layout(self, data_shape):
        """Layout of input data: the batch dimension on the batch axis."""
        axes = [None] * len(data_shape)
        axes[0] = self.batch_dim_name
        return TensorLayout(axes, self.device_mesh)

    @contextlib.contextmanager
    def scope(self):
        """Make this the current distribution inside a `with` block."""
        previous = distribution()
        set_distribution(self)
        try:
            yield
        finally:
            set_distribution(previous)

    def distribute_dataset(self, dataset):
        """The dataset this process reads: all of it (one process)."""
        return dataset

    def __repr__(self):
        return f"<{type(self).__name__} device_mesh={self.device_mesh}>"


class DataParallel(Distribution):
    """Data parallelism: variables replicated, batches split on a 1D mesh.

    Give a `device_mesh` or `devices` (not both); by default the mesh
    spans `list_devices()` (here the one CPU device).

    Args:
        device_mesh: Optional `DeviceMesh` (its first axis is the batch
            axis; a mesh of rank > 1 warns, as in Keras).
        devices: Optional list of devices for a 1D mesh.
        auto_shard_dataset: See `Distribution`. Defaults to `True`.

    Example:

    >>> dp = kerasish.distribution.DataParallel()
    >>> dp.batch_dim_name, dp.num_model_replicas
    ('batch', 1)
    >>> dp.get_data_layout((32, 4)).axes
    ('batch', None)
    """

    def __init__(self, device_mesh=None, devices=None,
                 auto_shard_dataset=True):
        if device_mesh:
            if not isinstance(device_mesh, DeviceMesh):
                raise ValueError(
                    "Expect `mesh` to be an instance of `DeviceMesh`. "
                    f"Received: mesh={device_mesh} (of type "
                    f"{type(device_mesh)})")
            super().__init__(device_mesh, device_mesh.axis_names[0],
                             auto_shard_dataset)
            if device_mesh.devices.ndim != 1:
                warnings.warn(
                    "Expect the input mesh to be 1D, but received "
                    f"mesh.devices.ndim={device_mesh.devices.ndim}. The "
                    "first axis will be used for data-parallel sharding.",
                    stacklevel=2)
            return
        devices = list(devices) if devices else list_devices()
        mesh = DeviceMesh((len(devices),), [DEFAULT_BATCH_DIM_NAME],
                          devices=devices)
        super().__init__(mesh, DEFAULT_BATCH_DIM_NAME, auto_shard_dataset)

    @property
    def num_model_replicas(self):
        return self.device_mesh.devices.size

    def get_variable_layout(self, variable):
        """Variables are replicated: no dimension is sharded."""
        if getattr(variable, "_layout", None) is not None:
            return variable._layout
        return TensorLayout([None] * len(variable.shape), self.device_mesh)

    def get_tensor_layout(self, path):
        """Intermediate tensors keep their layout (None)."""
        return None


class ModelParallel(Distribution):
    """Model parallelism: variables sharded following a `LayoutMap`.

    Args:
        layout_map: `LayoutMap` from variable paths (regexes) to layouts;
            its mesh is the distribution's mesh.
        batch_dim_name: Optional mesh axis of the batch dimension.
            Defaults to the mesh's first axis.
        auto_shard_dataset: See `Distribution`. Defaults to `True`.

    Example:

    >>> mesh = kerasish.distribution.DeviceMesh((1, 1), ["batch", "model"])
    >>> layout_map = kerasish.distribution.LayoutMap(mesh)
    >>> layout_map[".*kernel"] = (None, "model")
    >>> mp = kerasish.distribution.ModelParallel(layout_map=layout_map)
    >>> with mp.scope():
    ...     layer = kerasish.layers.Dense(2)
    ...     layer.build((None, 3))
    >>> mp.get_variable_layout(layer.kernel).axes
    (None, 'model')
    >>> mp.get_variable_layout(layer.bias).axes
    (None,)
    """

    def __init__(self, *, layout_map=None, batch_dim_name=None,
                 auto_shard_dataset=True, **kwargs):
        kwargs.pop("device_mesh", None)
        if layout_map is None:
            raise ValueError("You must specify a layout_map argument.")
        if not isinstance(layout_map, LayoutMap):
            raise ValueError(
                "Argument `layout_map` must be a `LayoutMap` instance. "
                f"Received: layout_map={layout_map}")
        mesh = layout_map.device_mesh
        super().__init__(mesh, batch_dim_name or mesh.axis_names[0],
                         auto_shard_dataset)
        self._layout_map = layout_map

    @property
    def num_model_replicas(self):
        axis = self.device_mesh.axis_names.index(self.batch_dim_name)
        return self.device_mesh.shape[axis]

    def get_variable_layout(self, variable):
        """The layout the map gives the variable's path, else replicated."""
        if getattr(variable, "_layout", None) is not None:
            return variable._layout
        layout = self._layout_map[variable.path]
        if layout is not None:
            return layout
        return TensorLayout([None] * len(variable.shape), self.device_mesh)

    def get_tensor_layout(self, path):
        return self._layout_map[path]


def distribute_tensor(tensor, layout):
    """Place `tensor` with `layout`: on one device, the tensor itself.

    Args:
        tensor: A tensor (a symbolic `KerasTensor` is returned unchanged).
        layout: A `TensorLayout` whose mesh uses the available devices.

    Example:

    >>> layout = kerasish.distribution.TensorLayout(
    ...     ("batch",), kerasish.distribution.DeviceMesh((1,), ["batch"]))
    >>> kerasish.distribution.distribute_tensor(np.ones(2), layout).shape
    (2,)
    """
    if isinstance(tensor, KerasTensor):
        return tensor
    if not isinstance(layout, TensorLayout):
        raise ValueError("`layout` must be a `TensorLayout`. Received: "
                         f"layout={layout!r}")
    mesh = layout.device_mesh
    if mesh is not None:
        unknown = sorted({str(d) for d in mesh.devices.ravel()} -
                         set(list_devices()))
        if unknown:
            raise ValueError(
                f"Cannot place a tensor on devices {unknown}: kerasish has "
                f"only {list_devices()}. Received: layout={layout}")
    return convert_to_tensor(tensor)


def distribution():
    """The current global distribution, or None.

    Example:

    >>> kerasish.distribution.distribution() is None
    True
    """
    return config_utils._STATE.get("distribution")


def set_distribution(value):
    """Set the global distribution (`None` to unset).

    Args:
        value: A `Distribution` instance or None.

    Example:

    >>> dp = kerasish.distribution.DataParallel()
    >>> kerasish.distribution.set_distribution(dp)
    >>> kerasish.distribution.distribution() is dp
    True
    >>> kerasish.distribution.set_distribution(None)
    """
    config_utils._STATE["distribution"] = value
