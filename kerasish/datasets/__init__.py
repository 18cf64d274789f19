"""`kerasish.datasets`: small real data sets shipped with the package."""
from kerasish.datasets import digits  # noqa: F401
from kerasish.datasets import movie_reviews  # noqa: F401,E402
from kerasish.datasets import anes96  # noqa: F401,E402
