"""`kerasish.datasets`: Keras's dataset loaders (downloaded once into
`~/.keras/datasets`, as Keras does) and small real data sets shipped with
the package (`digits`, `movie_reviews`, `anes96`)."""
from kerasish.datasets import digits  # noqa: F401
from kerasish.datasets import movie_reviews  # noqa: F401,E402
from kerasish.datasets import anes96  # noqa: F401,E402
# Keras's downloadable datasets (fetched once into ~/.keras/datasets).
from kerasish.datasets import (boston_housing,  # noqa: F401,E402
                               california_housing, cifar10, cifar100,
                               fashion_mnist, imdb, mnist, reuters)
