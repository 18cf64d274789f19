"""`kerasish.estimator`: TF's `tf.estimator` on kerasish's training loop.

    def model_fn(features, labels, mode, params):
        net = keras.layers.DenseFeatures(params["columns"])(features)
        net = keras.layers.Dense(16, activation="relu")(net)
        logits = keras.layers.Dense(1)(net)
        if mode == estimator.ModeKeys.PREDICT:
            return estimator.EstimatorSpec(mode, predictions=logits)
        loss = keras.losses.binary_crossentropy(labels, logits,
                                                from_logits=True)
        loss = keras.ops.mean(loss)
        train_op = None
        if mode == estimator.ModeKeys.TRAIN:
            optimizer = keras.optimizers.Adagrad(0.05)
            train_op = optimizer.minimize(loss, var_list=...)
        return estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

How TF1-shaped code runs define-by-run. TF called `model_fn` once to build
a graph, then ran the graph per batch. kerasish has no graph: it calls
`model_fn` for every batch, so the `Dense`, `Adagrad` and metric objects
above are new Python objects at every call. What makes them one model is
the Estimator's variable store, TF1's variable reuse by name:

* while `model_fn` runs, object names restart from scratch (`dense`,
  `dense_1`, ... as in a fresh TF1 graph), so every call creates its
  variables at the same paths (`dense/kernel`, `adagrad/...`);
* a variable created at a path the store already holds shares the store's
  array instead of being initialized, so weights, optimizer slots and
  counters, batch-norm statistics and random-generator states persist;
* checkpoints map those names to values (`get_variable_names()` lists
  them), written by kerasish.train's `CheckpointSaverHook` into
  `model_dir/model.ckpt-<step>.weights.h5` with TF1's `checkpoint` index;
* metrics returned in `eval_metric_ops` are local: their state restarts
  at every `evaluate` and is never saved.

`optimizer.minimize(loss, var_list)` applies its update at once (eager, as
in TF2) using the `GradientTape` the Estimator runs `model_fn` under; what
it returns (the optimizer's `iterations`) is the spec's `train_op`. The
global step is the store's `global_step` variable, advanced once per
training step. Objects created *outside* `model_fn` (a layer built
beforehand, a Keras model given to `model_to_estimator`) keep their own
variables; the store records them so they are checkpointed too.
"""
from kerasish.estimator.mode_keys import ModeKeys  # noqa: F401
from kerasish.estimator.run_config import RunConfig, TaskType  # noqa: F401
from kerasish.estimator.estimator_spec import EstimatorSpec  # noqa: F401
from kerasish.estimator.estimator import Estimator  # noqa: F401
from kerasish.estimator.checkpoints import EstimatorSaver  # noqa: F401
from kerasish.estimator.variable_store import VariableStore  # noqa: F401
from kerasish.estimator.warm_starting import (  # noqa: F401
    VocabInfo, WarmStartSettings)
from kerasish.estimator.evaluation import read_eval_results  # noqa: F401
from kerasish.estimator import inputs, warm_starting  # noqa: F401
from kerasish.estimator.head import RegressionHead  # noqa: F401
from kerasish.estimator.classification_heads import (  # noqa: F401
    BinaryClassHead, MultiClassHead)
from kerasish.estimator.linear import (  # noqa: F401
    LinearClassifier, LinearEstimator, LinearRegressor)
from kerasish.estimator.dnn import (  # noqa: F401
    DNNClassifier, DNNEstimator, DNNRegressor)
from kerasish.estimator.dnn_linear_combined import (  # noqa: F401
    DNNLinearCombinedClassifier, DNNLinearCombinedEstimator,
    DNNLinearCombinedRegressor)
from kerasish.estimator.baseline import (  # noqa: F401
    BaselineClassifier, BaselineEstimator, BaselineRegressor)
from kerasish.estimator.extenders import add_metrics  # noqa: F401
from kerasish.estimator.keras_lib import model_to_estimator  # noqa: F401
from kerasish.estimator.training import (  # noqa: F401
    TrainSpec, EvalSpec, train_and_evaluate)
from kerasish.estimator.exporter import (  # noqa: F401
    Exporter, LatestExporter, FinalExporter, BestExporter)
