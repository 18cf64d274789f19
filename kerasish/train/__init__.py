"""`kerasish.train`: TF1's session-run hooks and monitored sessions.

The same training step as `model.fit` (one `StepRunner`, the model's
runtime), seen through TF1's `SessionRunHook` protocol:

    import kerasish as keras
    from kerasish import train

    with train.MonitoredTrainingSession(
            model=model, input=batches, checkpoint_dir="ckpt",
            hooks=[train.StopAtStepHook(last_step=1000)]) as sess:
        while not sess.should_stop():
            logs = sess.run()

Hooks also work in `model.fit(callbacks=[...])`, and Keras callbacks in
`hooks=[...]`.
"""
from kerasish.train.session_run_hook import (  # noqa: F401
    SessionRunHook, SessionRunArgs, SessionRunContext, SessionRunValues)
from kerasish.train.errors import (  # noqa: F401
    OpError, OutOfRangeError, AbortedError, UnavailableError,
    NanLossDuringTrainingError)
from kerasish.train.coordinator import Coordinator  # noqa: F401
from kerasish.train.global_step import (  # noqa: F401
    create_global_step, get_global_step, get_or_create_global_step)
from kerasish.train.checkpoint import (  # noqa: F401
    CheckpointState, Saver, checkpoint_exists, get_checkpoint_state,
    latest_checkpoint)
from kerasish.train.session import (  # noqa: F401
    TrainingSession, RunOptions, RunMetadata)
from kerasish.train.session_creator import (  # noqa: F401
    Scaffold, SessionCreator, ChiefSessionCreator, WorkerSessionCreator)
from kerasish.train.monitored_session import (  # noqa: F401
    MonitoredSession, SingularMonitoredSession, StepContext)
from kerasish.train.monitored_training_session import (  # noqa: F401
    MonitoredTrainingSession, USE_DEFAULT)
from kerasish.train.timer import SecondOrStepTimer  # noqa: F401
from kerasish.train.basic_hooks import (  # noqa: F401
    StopAtStepHook, StepCounterHook, LoggingTensorHook, FeedFnHook,
    FinalOpsHook, GlobalStepWaiterHook)
from kerasish.train.checkpoint_hooks import (  # noqa: F401
    CheckpointSaverHook, CheckpointSaverListener)
from kerasish.train.diagnostic_hooks import (  # noqa: F401
    NanTensorHook, SummarySaverHook, ProfilerHook)
from kerasish.train.callback_hooks import (  # noqa: F401
    HookCallback, CallbackHook)
from kerasish.train.stages import (  # noqa: F401
    Stage, StageContext, FunctionStage)
from kerasish.train.step_runner import StepRunner  # noqa: F401
from kerasish.train.device_setter import (  # noqa: F401
    replica_device_setter, GreedyLoadBalancingStrategy, byte_size_load_fn,
    VariableOp, ps_task_assignments, STANDARD_PS_OPS)
