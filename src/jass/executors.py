"""Executors for cluster engines that have no :class:`concurrent.futures.Executor` of their own.

:func:`jass.play_match` runs its chunks of deals on any :class:`concurrent.futures.Executor`.
Dask has one (``distributed.Client.get_executor()``); Ray has none, so this module gives
:class:`RayExecutor`. Ray is imported only when a :class:`RayExecutor` is made, and a missing
Ray raises :class:`~jass.errors.MissingDependencyError`; install it with
``pip install 'python-jass[cluster]'`` (or ``pip install ray``).

>>> from concurrent.futures import Executor
>>> issubclass(RayExecutor, Executor)
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Executor as _Executor
from concurrent.futures import Future
from types import ModuleType
from typing import Any, TypeVar

from jass.errors import InvalidInputError, MissingDependencyError

__all__ = ["RayExecutor"]

T = TypeVar("T")


def _import_ray() -> ModuleType:
    try:
        import ray  # noqa: PLC0415  (heavy and optional: only when asked for)
    except ImportError as error:
        raise MissingDependencyError(
            "RayExecutor needs Ray, which is not installed: pip install 'python-jass[cluster]'"
            " (or pip install ray)"
        ) from error
    return ray


def _call(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """The one Ray task: call ``fn``, which may be any picklable callable.

    ``ray.remote`` itself takes only functions and classes; a builtin, a
    ``functools.partial`` or a callable object travels here as an argument.
    """
    return fn(*args, **kwargs)


class RayExecutor(_Executor):
    """A :class:`concurrent.futures.Executor` that runs every submitted call as a Ray task.

    Pass it as ``executor=`` to :func:`jass.play_match`. Any picklable callable can be
    submitted: a function, a builtin, a ``functools.partial``, a callable object. It uses
    the Ray instance of this process: call ``ray.init(...)`` first to choose the cluster
    (``ray.init(address="auto")``) or the size of a local one; otherwise Ray starts a local
    instance with every CPU at the first submission. Functions, arguments and results are
    pickled with Ray's ``cloudpickle`` and travel through its object store.

    Cancelling a returned future that has not finished cancels its Ray task. A task whose
    worker process dies is retried by Ray (``max_retries``, 3 by default for tasks);
    :func:`jass.play_match` submits a failed chunk again on top of that.

    Args:
        **options: Ray task options, given to ``ray.remote`` for every task, e.g.
            ``num_cpus=1`` or ``max_retries=0``.

    Raises:
        MissingDependencyError: Ray is not installed.
        InvalidInputError: Ray refuses ``options``.

    >>> executor = RayExecutor(num_cpus=1, max_retries=2)
    >>> executor.options
    {'num_cpus': 1, 'max_retries': 2}
    >>> RayExecutor(num_cpus=-1)
    Traceback (most recent call last):
    ...
    jass.errors.InvalidInputError: Ray refuses the task options {'num_cpus': -1}: ...
    """

    def __init__(self, **options: Any) -> None:
        self._ray = _import_ray()
        try:  # Ray checks the options when it wraps a function
            self._task = self._ray.remote(**options)(_call) if options else self._ray.remote(_call)
        except (TypeError, ValueError) as error:
            raise InvalidInputError(f"Ray refuses the task options {options!r}: {error}") from error
        self._options = dict(options)
        self._running: dict[Future[Any], Any] = {}  # unfinished futures and their ObjectRefs
        self._lock = threading.Lock()
        self._shutdown = False

    @property
    def options(self) -> dict[str, Any]:
        """The Ray task options given to every submitted function (a copy).

        >>> RayExecutor().options
        {}
        """
        return dict(self._options)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; a future of its result.

        The future is a plain :class:`concurrent.futures.Future`. Its ``result()`` raises
        what the task raised, or Ray's error when the task could not be run (e.g.
        ``ray.exceptions.WorkerCrashedError`` once Ray's own retries are spent).

        Raises:
            RuntimeError: the executor was shut down.

        >>> executor = RayExecutor()
        >>> executor.shutdown()
        >>> executor.submit(print, "never runs")
        Traceback (most recent call last):
        ...
        RuntimeError: cannot submit to a RayExecutor after shutdown
        """
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot submit to a RayExecutor after shutdown")
            ref = self._task.remote(fn, *args, **kwargs)
            future: Future[T] = ref.future()
            self._running[future] = ref
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            ref = self._running.pop(future, None)
        if future.cancelled() and ref is not None:
            self._ray.cancel(ref)  # nobody waits for it: free the worker

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Refuse new submissions; wait for the running tasks, or cancel them.

        It leaves the Ray instance running (``ray.shutdown()`` stops it). Calling it again
        does nothing more.

        Args:
            wait: wait until every submitted task is done.
            cancel_futures: cancel every task that has not finished.

        >>> with RayExecutor() as executor:  # a with block shuts it down at the end
        ...     pass
        >>> executor.shutdown()
        """
        with self._lock:
            self._shutdown = True
            futures = list(self._running)
        if cancel_futures:
            for future in futures:
                future.cancel()
        if wait:
            for future in futures:
                if not future.cancelled():
                    future.exception()  # waits; the outcome is the submitter's business
