"""`kerasish.distribution` (`keras.distribution`) on one CPU device.

Keras's distribution API -- devices, meshes, layouts, `DataParallel`,
`ModelParallel` -- for a single process: there is one device
(`"cpu:0"`), meshes over it have size 1 and training under a
distribution computes exactly what it computes without one. Training
across processes is the job of kerasish's parameter-server runtime
(`kerasish.distribute`), not of this API.
"""
from kerasish.distribution.mesh import (  # noqa: F401
    DeviceMesh, LayoutMap, TensorLayout, get_device_count, initialize,
    list_devices)
from kerasish.distribution.distributions import (  # noqa: F401
    DataParallel, ModelParallel, distribute_tensor,
    distribution, set_distribution)
