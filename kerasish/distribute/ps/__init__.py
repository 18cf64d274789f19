"""The parameter-server runtime on Ray (the only package importing Ray).

Imported when a `ParameterServerStrategy` is made, never by
`import kerasish`. See `runtime.py` for the protocol between the driver,
the ps shards (`shard.py`) and the workers (`worker.py`).
"""
try:
    import ray  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the machine
    raise ImportError(
        "The parameter-server runtime runs on Ray, which is not installed. "
        'Install it with: pip install "kerasish[distributed]"') from error
