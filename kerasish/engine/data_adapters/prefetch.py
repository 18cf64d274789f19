"""Ordered prefetching of `dataset[i]` with thread or process workers.

A sliding window of at most `depth` submitted tasks runs ahead of the
consumer; results are yielded in index order. No extra scheduling thread:
the consumer tops the window up as it takes each result. The pool lives as
long as the generator, which shuts it down when exhausted or closed.
"""
import collections
import warnings

_DATASET = [None]   # the dataset inside forked worker processes


def _set_dataset(dataset):
    _DATASET[0] = dataset


def _get_item(index):
    return _DATASET[0][index]


def _fork_context():
    # lazy: kept out of `import kerasish`
    import multiprocessing      # on first use: it costs `import kerasish`
    try:
        return multiprocessing.get_context("fork")
    except ValueError:
        return None


def make_executor(dataset, workers, use_multiprocessing):
    """A pool of `workers`; processes are forked (no pickling of the
    dataset), threads are used where fork is unavailable."""
    from concurrent import futures  # lazy: kept out of `import kerasish`
    if use_multiprocessing:
        context = _fork_context()
        if context is not None:
            return futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=context,
                initializer=_set_dataset, initargs=(dataset,)), _get_item
        warnings.warn(
            "`use_multiprocessing=True` needs the 'fork' start method, "
            "which this platform lacks; using threads instead.",
            stacklevel=3)
    return futures.ThreadPoolExecutor(max_workers=workers), dataset.__getitem__


def prefetch(dataset, indices, workers, use_multiprocessing, depth):
    """Yield `dataset[i]` for `i` in `indices`, computed ahead, in order."""
    executor, fetch = make_executor(dataset, workers, use_multiprocessing)
    pending = collections.deque()
    indices = iter(indices)
    try:
        for index in indices:
            pending.append(executor.submit(fetch, index))
            if len(pending) >= max(depth, 1):
                break
        while pending:
            batch = pending.popleft().result()
            for index in indices:
                pending.append(executor.submit(fetch, index))
                break
            yield batch
    finally:
        for future in pending:
            future.cancel()
        executor.shutdown(wait=False, cancel_futures=True)
