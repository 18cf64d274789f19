"""Write tools/reference_names.json: the public names of Keras 3 (and TF1).

Run with real Keras (not needed by kerasish or its tests):

    KERAS_BACKEND=jax /work/kvenv/bin/python tools/dump_reference_names.py

Keras's names are read from its public namespaces. TensorFlow 1 is not
installed anywhere here, so its hook, session and Estimator names are the
TF 1.15 API's, listed below by hand (tf.compat.v1.train.*Hook and friends,
tf.compat.v1.estimator).
"""
import json
import os
import types

NAMESPACES = [
    "layers", "losses", "metrics", "optimizers", "optimizers.schedules",
    "callbacks", "activations", "initializers", "regularizers",
    "constraints", "ops", "ops.nn", "ops.numpy", "ops.linalg", "ops.image",
    "random", "utils", "saving", "models", "config", "datasets", "tree",
]

TF1 = {
    "train (hooks and sessions)": [
        "SessionRunHook", "SessionRunArgs", "SessionRunContext",
        "SessionRunValues", "LoggingTensorHook", "StopAtStepHook",
        "CheckpointSaverHook", "CheckpointSaverListener", "StepCounterHook",
        "NanTensorHook", "NanLossDuringTrainingError", "SummarySaverHook",
        "GlobalStepWaiterHook", "FinalOpsHook", "FeedFnHook", "ProfilerHook",
        "MonitoredSession", "SingularMonitoredSession",
        "MonitoredTrainingSession", "ChiefSessionCreator",
        "WorkerSessionCreator", "SessionCreator", "Scaffold",
        "get_global_step", "get_or_create_global_step",
        "create_global_step", "latest_checkpoint",
        "get_checkpoint_state", "checkpoint_exists", "SecondOrStepTimer",
    ],
    "estimator": [
        "Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "TrainSpec",
        "EvalSpec", "train_and_evaluate", "LinearClassifier",
        "LinearRegressor", "LinearEstimator", "DNNClassifier",
        "DNNRegressor", "DNNEstimator", "DNNLinearCombinedClassifier",
        "DNNLinearCombinedRegressor", "DNNLinearCombinedEstimator",
        "BaselineClassifier", "BaselineRegressor", "BaselineEstimator",
        "WarmStartSettings", "VocabInfo", "Exporter", "LatestExporter",
        "BestExporter", "FinalExporter", "add_metrics",
    ],
}


def public_names(module):
    return sorted(name for name in dir(module) if not name.startswith("_")
                  and not isinstance(getattr(module, name),
                                     types.ModuleType))


def main():
    import importlib
    import keras
    out = {"keras_version": keras.__version__, "keras": {}, "tf1": TF1}
    for ns in NAMESPACES:
        module = importlib.import_module(f"keras.{ns}")
        out["keras"][ns] = public_names(module)
    path = os.path.join(os.path.dirname(__file__), "reference_names.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
