"""Distillation losses (`keras.distillation`): teacher vs student outputs.

`LogitsDistillation` compares temperature-scaled final outputs,
`FeatureDistillation` the outputs of named intermediate layers (or the
final ones). Both accept a loss per output (a nested structure, `None`
skipping an output) and reduce to one scalar, as Keras 3.15 does. Note
Keras's rule, kept here: only a `KLDivergence` *instance* gets softmax
probabilities and the `temperature ** 2` factor; a loss given by name
(the default `"kl_divergence"`) is applied to the scaled logits as they
are.
"""
from kerasish import ops, tree
from kerasish.saving.object_registration import builtin
from kerasish import losses
from kerasish.losses import KLDivergence
from kerasish.saving.serialization_lib import serialize_keras_object


def _as_loss(item):
    """A loss name becomes the loss; `None` and callables stay."""
    if item is None or not isinstance(item, str):
        return item
    loss = losses.get(item)
    if loss is None:
        raise ValueError(f"Unknown loss function: '{item}'.")
    return loss


def _sum_losses(values):
    return ops.sum(ops.stack([ops.convert_to_tensor(v, "float32")
                              for v in tree.flatten(values)]))


class DistillationLoss:
    """Base class of distillation losses.

    Subclasses implement `compute_loss(teacher_outputs, student_outputs)`
    returning a scalar, and may check models and outputs in
    `validate_model_compatibility` / `validate_outputs`.

    Example:

    >>> class L1(DistillationLoss):
    ...     def compute_loss(self, teacher_outputs, student_outputs, **kw):
    ...         return kerasish.ops.mean(kerasish.ops.abs(
    ...             teacher_outputs - student_outputs))
    >>> float(L1().compute_loss(np.ones(2), np.zeros(2)))
    1.0
    """

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The distillation loss (scalar) between the two outputs."""
        raise NotImplementedError("Subclasses must implement compute_loss")

    def validate_outputs(self, teacher_outputs, student_outputs):
        """Raise a `ValueError` unless the outputs are nested alike."""
        tree.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher, student):
        """Raise a `ValueError` if this loss cannot use these models."""


@builtin("keras.distillation")
class FeatureDistillation(DistillationLoss):
    """Match intermediate (or final) features of teacher and student.

    Args:
        loss: Loss name, function or instance, or a nested structure of
            them (one per output, `None` skips one). Defaults to `"mse"`.
        teacher_layer_name: Teacher layer whose output is used; `None`
            (default) uses the final output.
        student_layer_name: Student layer whose output is used; `None`
            (default) uses the final output.

    Example:

    >>> loss = FeatureDistillation(loss="mse")
    >>> float(loss.compute_loss(np.ones((2, 3)), np.zeros((2, 3))))
    1.0
    """

    def __init__(self, loss="mse", teacher_layer_name=None,
                 student_layer_name=None):
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self.loss = tree.map_structure(_as_loss, loss)
        if all(item is None for item in tree.flatten(self.loss)):
            raise ValueError("The `loss` argument in `FeatureDistillation` "
                             "must contain at least one non-`None` value.")

    def validate_model_compatibility(self, teacher, student):
        if self.teacher_layer_name is None and \
                self.student_layer_name is None:
            return
        subclassed = [role for role, model in (("teacher", teacher),
                                               ("student", student))
                      if getattr(model, "inputs", None) is None]
        if subclassed:
            raise ValueError(
                "FeatureDistillation with specific layer names requires "
                "Functional or Sequential models. The "
                f"{' and '.join(subclassed)} model(s) appear to be "
                "subclassed (no symbolic inputs/outputs). Either use "
                "Functional/Sequential models, or use FeatureDistillation "
                "without layer names (to distill final outputs only), or "
                "use LogitsDistillation instead.")
        for role, model, name in (("teacher", teacher,
                                   self.teacher_layer_name),
                                  ("student", student,
                                   self.student_layer_name)):
            if name is not None:
                try:
                    model.get_layer(name=name)
                except ValueError as e:
                    raise ValueError(f"In {role} model: {e}") from None

    def validate_outputs(self, teacher_outputs, student_outputs):
        super().validate_outputs(teacher_outputs, student_outputs)
        try:
            tree.assert_same_structure(self.loss, teacher_outputs)
        except ValueError as e:
            raise ValueError(f"Loss structure mismatch. Loss structure: "
                             f"{self.loss}, Output structure: "
                             f"{teacher_outputs}. Error: {e}") from None

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def apply(loss_fn, teacher, student):
            if loss_fn is None:
                return 0.0
            return ops.mean(loss_fn(teacher, student))
        return _sum_losses(tree.map_structure(apply, self.loss,
                                              teacher_outputs,
                                              student_outputs))

    def get_config(self):
        return {"loss": losses.serialize(self.loss),
                "teacher_layer_name": self.teacher_layer_name,
                "student_layer_name": self.student_layer_name}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = losses.deserialize(config["loss"])
        return cls(**config)


@builtin("keras.distillation")
class LogitsDistillation(DistillationLoss):
    """Match temperature-softened final outputs (logits).

    Both outputs are divided by `temperature`, then compared with `loss`
    (see the module note on `KLDivergence` instances).

    Args:
        temperature: Positive softening temperature. Defaults to 3.0.
        loss: Loss name, function or instance, or a nested structure of
            them (`None` skips an output). Defaults to `"kl_divergence"`.

    Example:

    >>> loss = LogitsDistillation(temperature=2.0,
    ...                           loss=kerasish.losses.KLDivergence())
    >>> logits = np.array([[1.0, 2.0, 3.0]])
    >>> float(loss.compute_loss(logits, logits))
    0.0
    """

    def __init__(self, temperature=3.0, loss="kl_divergence"):
        self.temperature = temperature
        self.loss = tree.map_structure(_as_loss, loss)
        if all(item is None for item in tree.flatten(self.loss)):
            raise ValueError("At least one loss must be non-`None`.")
        if isinstance(temperature, bool) or \
                not isinstance(temperature, (int, float)):
            raise ValueError(
                f"temperature must be a number, got {type(temperature)}")
        if temperature <= 0.0:
            raise ValueError("temperature must be positive.")

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        t = self.temperature

        def apply(loss_fn, teacher, student):
            if loss_fn is None:
                return 0.0
            teacher, student = ops.divide(teacher, t), ops.divide(student, t)
            if isinstance(loss_fn, KLDivergence):
                value = ops.mean(loss_fn(ops.softmax(teacher, axis=-1),
                                         ops.softmax(student, axis=-1)))
                return value * (t ** 2)
            return ops.mean(loss_fn(teacher, student))
        return _sum_losses(tree.map_structure(apply, self.loss,
                                              teacher_outputs,
                                              student_outputs))

    def get_config(self):
        return {"temperature": self.temperature,
                "loss": serialize_keras_object(self.loss)}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = losses.deserialize(config["loss"])
        return cls(**config)
