"""`Distiller` (`keras.distillation.Distiller`): train a student on a
frozen teacher.

The model's output is the student's. Each step's loss is
`w * student_loss + (1 - w) * sum_i(weight_i * distillation_loss_i)`, with
the student loss from `compile(loss=...)` on the labels and each
distillation loss comparing teacher and student outputs (final outputs,
or named layers' outputs through feature-extractor models). The three
parts are tracked as the `student_loss`, `distillation_loss` and
`total_loss` metrics, as in Keras 3.15.
"""
from kerasish import ops, tree
from kerasish.distillation.distillation_loss import _as_loss
from kerasish.engine.model import Model
from kerasish.saving.object_registration import builtin
from kerasish.metrics import Mean
from kerasish.saving.serialization_lib import serialize_keras_object
from kerasish.saving.serialization_lib import \
    deserialize_keras_object
from kerasish.engine.layer import _serialize_policy
from kerasish.engine.sequential import Sequential


def _check_shapes(teacher_shape, student_shape, context):
    if len(teacher_shape) != len(student_shape):
        raise ValueError(
            f"Teacher and student {context} shapes have different "
            f"dimensions. Teacher: {teacher_shape}, Student: "
            f"{student_shape}.")
    for a, b in zip(teacher_shape, student_shape):
        if a is not None and b is not None and a != b:
            raise ValueError(
                f"Teacher and student {context} shapes are incompatible. "
                f"Teacher: {teacher_shape}, Student: {student_shape}. All "
                "dimensions must match.")


def _check_models(teacher, student):
    for role, model in (("Teacher", teacher), ("Student", student)):
        if not isinstance(model, Model):
            raise ValueError(
                f"{role} must be a keras.Model, got {type(model)}")
    for context in ("input", "output"):
        ours = getattr(teacher, context + "s", None)
        theirs = getattr(student, context + "s", None)
        if ours is None or theirs is None:
            continue
        tree.map_structure(lambda t, s: _check_shapes(t.shape, s.shape,
                                                      context), ours, theirs)
        for t, s in zip(tree.flatten(ours), tree.flatten(theirs)):
            if t.dtype != s.dtype:
                raise ValueError(
                    f"Teacher and student {context} dtypes must match. "
                    f"Teacher: {t.dtype}, Student: {s.dtype}.")


@builtin("keras.distillation")
class Distiller(Model):
    """Knowledge distillation: a student model learns from a teacher.

    The teacher is frozen (`teacher.trainable = False`); calling the
    distiller calls the student, and `fit` trains the student on
    `student_loss_weight * student_loss + (1 - student_loss_weight) *
    distillation_loss`.

    Args:
        teacher: The trained teacher `Model`.
        student: The student `Model` (same input/output shapes and dtypes).
        distillation_losses: A `DistillationLoss` or a list of them.
        distillation_loss_weights: Weights of the distillation losses
            (default 1.0 each).
        student_loss_weight: Weight in [0, 1] of the student loss on the
            labels. Defaults to 0.5.
        name: Model name. Defaults to `"distiller"`.

    Example:

    >>> def mlp(units):
    ...     return kerasish.Sequential([kerasish.Input((4,)),
    ...                                 kerasish.layers.Dense(units),
    ...                                 kerasish.layers.Dense(3)])
    >>> teacher, student = mlp(16), mlp(4)
    >>> distiller = Distiller(
    ...     teacher, student,
    ...     kerasish.distillation.LogitsDistillation(temperature=3.0),
    ...     student_loss_weight=0.3)
    >>> distiller.compile(optimizer="adam",
    ...                   loss="sparse_categorical_crossentropy")
    >>> history = distiller.fit(np.ones((8, 4)), np.zeros(8), verbose=0)
    >>> sorted(history.history)
    ['distillation_loss', 'loss', 'student_loss', 'total_loss']
    >>> teacher.trainable
    False
    """

    def __init__(self, teacher, student, distillation_losses,
                 distillation_loss_weights=None, student_loss_weight=0.5,
                 name="distiller", **kwargs):
        super().__init__(name=name, **kwargs)
        _check_models(teacher, student)
        self.teacher = teacher
        self.student = student
        self.student_loss_weight = _checked_weight(student_loss_weight)
        self.distillation_losses, self.distillation_loss_weights = \
            _loss_list(distillation_losses, distillation_loss_weights)
        for loss in self.distillation_losses:
            loss.validate_model_compatibility(teacher, student)
        self._teacher_feature_extractor = _feature_extractor(
            teacher, _layer_names(self.distillation_losses, "teacher"))
        self._student_feature_extractor = _feature_extractor(
            student, _layer_names(self.distillation_losses, "student"))
        self.teacher.trainable = False
        self.student_loss_tracker = Mean(name="student_loss")
        self.distillation_loss_tracker = Mean(name="distillation_loss")
        self.total_loss_tracker = Mean(name="total_loss")

    def compile(self, optimizer="adam", loss=None, metrics=None, **kwargs):
        """Configure training; `loss` is the student's loss on labels.

        Args:
            optimizer: Optimizer name or instance. Defaults to `"adam"`.
            loss: Student loss (name, function, instance or a nested
                structure matching the outputs). Required.
            metrics: Optional list of metrics on the student's outputs.
            **kwargs: Other `Model.compile` arguments.
        """
        if loss is None:
            raise ValueError("'loss' cannot be `None`.")
        self._student_loss = tree.map_structure(_as_loss, loss)
        self._student_loss_for_serialization = loss
        if metrics is not None and not isinstance(metrics, (list, tuple)):
            raise ValueError(
                f"metrics must be a list or tuple, got {type(metrics)}")
        super().compile(optimizer=optimizer, loss=None, metrics=metrics,
                        **kwargs)

    def call(self, inputs, training=None, **kwargs):
        return self.student(inputs, training=training, **kwargs)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None,
                     training=True):
        """The weighted student + distillation loss (metrics updated)."""
        if y_pred is None:
            y_pred = self(x, training=training)
        student_loss = 0.0
        if self.student_loss_weight > 0.0 and y is not None:
            student_loss = self._student_part(y, y_pred)
        distillation_loss = 0.0
        if self.student_loss_weight < 1.0:
            distillation_loss = self._distillation_part(x, y_pred)
        w = self.student_loss_weight
        total = ops.add(ops.multiply(w, student_loss),
                        ops.multiply(1.0 - w, distillation_loss))
        self.student_loss_tracker.update_state(student_loss)
        self.distillation_loss_tracker.update_state(distillation_loss)
        self.total_loss_tracker.update_state(total)
        return total

    def _student_part(self, y, y_pred):
        values = tree.flatten(tree.map_structure(
            lambda loss, target, pred: loss(target, pred),
            self._student_loss, y, y_pred))
        loss = ops.sum(ops.stack(values)) if len(values) > 1 else values[0]
        if len(getattr(loss, "shape", ())) > 0:
            loss = ops.mean(loss)
        return loss

    def _distillation_part(self, x, y_pred):
        teacher = self._features(self._teacher_feature_extractor,
                                 self.teacher, x, False, None)
        student = self._features(self._student_feature_extractor,
                                 self.student, x, True, y_pred)
        total = 0.0
        for loss, weight in zip(self.distillation_losses,
                                self.distillation_loss_weights):
            t_out, s_out = _loss_inputs(loss, teacher, student, y_pred)
            loss.validate_outputs(t_out, s_out)
            value = loss.compute_loss(t_out, s_out)
            if len(getattr(value, "shape", ())) > 0:
                raise ValueError(
                    f"Distillation loss {type(loss).__name__} returned a "
                    f"non-scalar loss with shape {value.shape}. The "
                    "compute_loss method must return a scalar tensor.")
            total = ops.add(total, ops.multiply(weight, value))
        return total

    @staticmethod
    def _features(extractor, model, x, training, y_pred):
        if extractor is not None:
            return extractor(x, training=training)
        if y_pred is not None:
            return {"final_output": y_pred}
        return {"final_output": model(x, training=training)}

    def reset_metrics(self):
        super().reset_metrics()
        for tracker in (self.student_loss_tracker,
                        self.distillation_loss_tracker,
                        self.total_loss_tracker):
            tracker.reset_state()

    def get_config(self):
        return {"name": self.name, "trainable": self.trainable,
                "dtype": _policy_config(self),
                "teacher": serialize_keras_object(self.teacher),
                "student": serialize_keras_object(self.student),
                "distillation_losses": [serialize_keras_object(loss) for
                                        loss in self.distillation_losses],
                "distillation_loss_weights": self.distillation_loss_weights,
                "student_loss_weight": self.student_loss_weight}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        for key in ("teacher", "student"):
            config[key] = deserialize_keras_object(
                config[key], custom_objects=custom_objects)
        config["distillation_losses"] = [
            deserialize_keras_object(loss, custom_objects=custom_objects)
            for loss in config["distillation_losses"]]
        return cls(**config)


def _policy_config(layer):
    return _serialize_policy(layer.dtype_policy)


def _checked_weight(weight):
    if isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise ValueError(
            f"student_loss_weight must be a number, got {type(weight)}")
    if not 0.0 <= weight <= 1.0:
        raise ValueError("student_loss_weight must be between 0.0 and 1.0, "
                         f"got {weight}")
    return weight


def _loss_list(losses, weights):
    if losses is None:
        raise ValueError(
            "'distillation_losses' cannot be `None`. Provide a distillation "
            "loss (e.g., LogitsDistillation or FeatureDistillation) or a "
            "list of distillation losses.")
    if not isinstance(losses, (list, tuple)):
        return [losses], [1.0]
    if weights is None:
        return list(losses), [1.0] * len(losses)
    if len(weights) != len(losses):
        raise ValueError(
            f"Number of distillation_loss_weights ({len(weights)}) must "
            f"match number of distillation_losses ({len(losses)})")
    return list(losses), list(weights)


def _layer_names(losses, role):
    names = []
    for loss in losses:
        name = getattr(loss, f"{role}_layer_name", None)
        if name and name not in names:
            names.append(name)
    return names


def _feature_extractor(model, layer_names):
    """A model from `model`'s inputs to its final and named outputs."""
    if not layer_names:
        return None
    if getattr(model, "inputs", None) is None:
        raise ValueError(f"Cannot create feature extractor for {model.name}."
                         " The model has no symbolic inputs attribute.")
    outputs = {"final_output": model.layers[-1].output
               if isinstance(model, Sequential) else model.output}
    for name in layer_names:
        outputs[name] = model.get_layer(name=name).output
    return Model(inputs=model.inputs, outputs=outputs,
                 name=f"{model.name}_multi_feature_extractor")


def _loss_inputs(loss, teacher_features, student_features, y_pred):
    """The teacher and student outputs a distillation loss compares."""
    if getattr(loss, "teacher_layer_name", None) is None:
        return teacher_features["final_output"], y_pred
    picked = []
    for role, features in (("teacher", teacher_features),
                           ("student", student_features)):
        name = getattr(loss, f"{role}_layer_name", None) or "final_output"
        if name not in features:
            raise RuntimeError(
                f"Failed to extract features for {type(loss).__name__} "
                f"targeting teacher layer '{loss.teacher_layer_name}' and "
                f"student layer '{loss.student_layer_name}'. Original error: "
                f"Layer '{name}' not found in extracted features. "
                f"Available: {list(features)}")
        picked.append(features[name])
    return tuple(picked)
