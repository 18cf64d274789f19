"""`ModeKeys`: the mode a `model_fn` is called in."""


class ModeKeys:
    """Standard names of the Estimator modes (TF's values).

    * `TRAIN`: training: `model_fn` returns a loss and a train op.
    * `EVAL`: evaluation: a loss and (optionally) metrics.
    * `PREDICT`: inference: predictions.

    Example:

    >>> ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT
    ('train', 'eval', 'infer')
    """

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"

    @classmethod
    def all(cls):
        return (cls.TRAIN, cls.EVAL, cls.PREDICT)
