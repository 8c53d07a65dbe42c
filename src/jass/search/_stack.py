"""A search on a fresh frame stack: a thread of its own, which an interrupt can stop.

>>> on_fresh_stack(lambda: 6 * 7, lambda: None, threads=True)
42
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["on_fresh_stack"]

_T = TypeVar("_T")


def on_fresh_stack(search: Callable[[], _T], interrupt: Callable[[], None], *, threads: bool) -> _T:
    """Run ``search`` in a new thread, whose frame stack starts empty.

    CPython 3.11 keeps frames in 16 KiB chunks and frees a chunk as soon as the frame that
    opened it returns: a search that starts near the end of a chunk pays for an allocation on
    every call across the edge (a solve was 60% slower from some stack depths). A new thread's
    stack starts at the beginning of a chunk, and the search fits in one. Starting the thread
    costs about 0.5 ms (caches on another core), so short solves stay put. Without
    ``threads`` (Pyodide, WASI), or where no thread can start, the search runs here: only
    slower, at times. A native solve runs there too, so that an interrupt can cancel it:
    ``interrupt`` is called on one (the search must then stop soon), and the interrupt is
    raised once the search has stopped.

    >>> on_fresh_stack(lambda: 1 + 1, lambda: None, threads=False)
    2
    """
    if not threads:
        return search()
    box: list[_T | BaseException] = []

    def run() -> None:
        try:
            box.append(search())
        except BaseException as error:  # noqa: BLE001  (re-raised in the caller's thread)
            box.append(error)

    worker = threading.Thread(target=run, name="jass-solver", daemon=True)
    try:
        worker.start()
    except RuntimeError:
        # "can't start new thread": a build without threads, or a thread limit reached.
        # The search is only one frame a trick deep, so the caller's stack is enough.
        return search()
    try:
        worker.join()
    except BaseException:
        interrupt()
        worker.join()
        raise
    outcome = box[0]
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome
