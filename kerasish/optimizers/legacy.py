"""`keras.optimizers.legacy`: Keras 2's optimizers do not exist in Keras 3.

Keras 3 keeps the names so old code fails with an explanation; each of
them raises an `ImportError` when created, as Keras does. Use the
optimizers of `kerasish.optimizers` instead.
"""


class LegacyOptimizerWarning:
    """Stands for every `keras.optimizers.legacy` optimizer; raises.

    Example:

    >>> kerasish.optimizers.legacy.Adam(learning_rate=0.1)
    Traceback (most recent call last):
      ...
    ImportError: `keras.optimizers.legacy` is not supported in Keras 3. ...
    """

    def __init__(self, *args, **kwargs):
        raise ImportError(
            "`keras.optimizers.legacy` is not supported in Keras 3. When "
            "using `tf.keras`, to continue using a "
            "`tf.keras.optimizers.legacy` optimizer, you can install the "
            "`tf_keras` package (Keras 2) and set the environment variable "
            "`TF_USE_LEGACY_KERAS=True` to configure TensorFlow to use "
            "`tf_keras` when accessing `tf.keras`.")


Adagrad = Adam = Ftrl = Optimizer = RMSprop = SGD = LegacyOptimizerWarning
