"""`plot_history`: a `History`'s loss and metric curves, with matplotlib.

matplotlib is an optional extra (`pip install kerasish[plot]`); it is
imported only when a plot is drawn.
"""


def _history_dict(history):
    logs = getattr(history, "history", history)
    if not isinstance(logs, dict) or not logs:
        raise ValueError(
            "`plot_history` expects the `History` returned by `fit()` (or "
            "its `.history` dict of per-epoch values), with at least one "
            f"recorded key. Received: history={history!r}")
    return logs, list(getattr(history, "epoch", []) or [])


def _pick_metrics(logs, metrics):
    available = [k for k in logs if not k.startswith("val_")]
    if metrics is None:
        return available
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    unknown = [m for m in metrics if m not in logs]
    if unknown:
        raise ValueError(
            f"`plot_history` got metrics {unknown} that the history does "
            f"not contain. Available: {sorted(logs)}. Received: "
            f"metrics={metrics}")
    return metrics


def _require_matplotlib():
    try:
        from matplotlib.figure import Figure  # lazy: optional dependency
    except ImportError:
        raise ImportError(
            "`plot_history` needs matplotlib: install it with `pip install "
            "matplotlib` (or `pip install kerasish[plot]`).") from None
    return Figure


def _draw_curves(axes, logs, key, epochs):
    from matplotlib.ticker import MaxNLocator  # lazy: optional dependency
    values = logs[key]
    axes.plot(epochs[:len(values)], values, marker="o", markersize=3,
              label=key)
    if f"val_{key}" in logs:
        val = logs[f"val_{key}"]
        axes.plot(epochs[:len(val)], val, marker="o", markersize=3,
                  label=f"val_{key}")
    axes.set_title(key)
    axes.set_xlabel("epoch")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(True, alpha=0.3)
    axes.legend()


def plot_history(history, metrics=None, to_file=None, figsize=None,
                 dpi=100, title=None):
    """Plot a `History`'s loss and metric curves, with validation curves.

    One panel per metric (the loss first, as recorded), each with the
    training curve and, when present, the matching `val_` curve. Needs
    matplotlib (`pip install kerasish[plot]`).

    Args:
        history: The `History` returned by `model.fit()`, or its
            `.history` dict (`{"loss": [...], "val_loss": [...], ...}`).
        metrics: Optional key or list of keys to plot. Defaults to every
            recorded key that does not start with `val_`.
        to_file: Optional path; the figure is saved there (format from
            the extension, e.g. `.png`, `.svg`, `.pdf`).
        figsize: Optional `(width, height)` in inches. Defaults to 4.5
            inches wide per panel by 3.5 inches high.
        dpi: Resolution when saving. Defaults to 100.
        title: Optional title above the panels.

    Returns:
        The matplotlib `Figure` (shown inline when it is a notebook cell's
        last value).

    Example:

    >>> history = {"loss": [0.9, 0.5, 0.4], "val_loss": [1.0, 0.7, 0.6],
    ...            "accuracy": [0.6, 0.8, 0.9]}
    >>> figure = plot_history(history)
    >>> [axes.get_title() for axes in figure.axes]
    ['loss', 'accuracy']
    """
    logs, epochs = _history_dict(history)
    keys = _pick_metrics(logs, metrics)
    Figure = _require_matplotlib()
    length = max(len(v) for v in logs.values())
    epochs = [e + 1 for e in epochs] if len(epochs) >= length else \
        list(range(1, length + 1))
    figure = Figure(figsize=figsize or (4.5 * len(keys), 3.5))
    for i, key in enumerate(keys):
        _draw_curves(figure.add_subplot(1, len(keys), i + 1), logs, key,
                     epochs)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    if to_file is not None:
        figure.savefig(str(to_file), dpi=dpi)
    return figure
