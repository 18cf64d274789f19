"""Approximate quantile summaries for `Discretization.adapt`.

A summary is a `(2, n)` array: sorted values and the weight (number of
samples) each stands for. Batches are summarized, merged, and compressed
back to about `1 / epsilon` entries, so adapting streams over any amount
of data in bounded memory; the same scheme as Keras, so the learned
boundaries agree.
"""
import numpy as np


def empty():
    return np.array([[], []], dtype="float32")


def summarize(values, epsilon):
    """Every `len / (1 / epsilon)`-th sorted value, weighted by the step."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(values.size * epsilon, 1)
    kept = values[int(step - 1)::int(step)]
    return np.stack([kept, np.full_like(kept, step)])


def merge(first, second, epsilon):
    merged = np.concatenate((first, second), axis=1)
    merged = np.take(merged, np.argsort(merged[0]), axis=1)
    return compress(merged, epsilon)


def compress(summary, epsilon):
    """Interpolate the summary's CDF at `epsilon`-spaced percentiles."""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_percents, summary[0])
    cum_weights = np.interp(percents, cum_percents, cum_weights)
    new_weights = cum_weights - np.concatenate(([0.0], cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype("float32")


def boundaries(summary, num_bins):
    """The `num_bins - 1` inner boundaries of equal-mass buckets."""
    return compress(summary, 1.0 / num_bins)[0, :-1]
