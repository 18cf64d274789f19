"""`kerasish.distillation` (`keras.distillation`): knowledge distillation.

`Distiller` trains a student model on a frozen teacher with
`LogitsDistillation` and/or `FeatureDistillation` losses (or custom
`DistillationLoss` subclasses).
"""
from kerasish.distillation.distillation_loss import (  # noqa: F401
    DistillationLoss, FeatureDistillation, LogitsDistillation)
from kerasish.distillation.distiller import Distiller  # noqa: F401
