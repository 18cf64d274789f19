"""`kerasish.datasets`: small real data sets shipped with the package."""
from kerasish.datasets import digits  # noqa: F401
