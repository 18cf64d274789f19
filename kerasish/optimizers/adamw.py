"""`AdamW`: Adam with decoupled weight decay (Loshchilov & Hutter)."""
from kerasish.optimizers.adam import Adam
from kerasish.optimizers.base_optimizer import base_kwargs
from kerasish.saving.object_registration import builtin


@builtin("keras.optimizers", "adamw")
class AdamW(Adam):
    """Adam with decoupled weight decay.

    Each step first shrinks the weights, `w -= w * weight_decay * lr`, then
    applies the Adam update; the decay is not part of the gradient, so the
    adaptive scaling does not weaken it.

    Args:
        learning_rate: Float, schedule or callable. Defaults to 0.001.
        weight_decay: Float, the decoupled decay factor. Defaults to 0.004.
        beta_1: Decay of the first moment. Defaults to 0.9.
        beta_2: Decay of the second moment. Defaults to 0.999.
        epsilon: Numerical fuzz. Defaults to 1e-7.
        amsgrad: Use the AMSGrad variant. Defaults to False.
        clipnorm, clipvalue, global_clipnorm, use_ema, ema_momentum,
        ema_overwrite_frequency, loss_scale_factor,
        gradient_accumulation_steps, name: See `Optimizer`.

    Example:

    >>> import numpy as np
    >>> import kerasish
    >>> w = kerasish.Variable([1.0, -1.0])
    >>> opt = AdamW(learning_rate=0.1, weight_decay=0.5)
    >>> _ = opt.apply([np.array([0.2, 0.2], "float32")], [w])
    >>> np.round(w.numpy().astype(float), 4).tolist()
    [0.85, -1.05]
    """

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9,
                 beta_2=0.999, epsilon=1e-7, amsgrad=False, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, use_ema=False,
                 ema_momentum=0.99, ema_overwrite_frequency=None,
                 loss_scale_factor=None, gradient_accumulation_steps=None,
                 name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1,
                         beta_2=beta_2, epsilon=epsilon, amsgrad=amsgrad,
                         **base_kwargs(locals()), **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. "
                             "Received: weight_decay=None")
