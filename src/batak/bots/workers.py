"""Worker processes for long computations with bots (the server's deal reviews, the arena's
boards) that end with the process that started them.

A parent that stops in order shuts its workers down, but one that is killed (``kill -9``, a
crash, the out-of-memory killer, ``kill`` of the parent alone) cannot, and its workers would go
on: a pool's worker holds a copy of its work queue's writing end, so it never sees the queue
close, and one in the middle of a task finishes it first. :func:`end_with_parent` is a worker's
first step: a thread that ends the worker once the parent is gone. The parent's sentinel (a pipe
whose other end the parent holds until it ends) says when, with no polling.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading

__all__ = ["end_with_parent"]


def end_with_parent() -> None:
    """In a worker process: end this process as soon as its parent is gone (see the module's
    text). Elsewhere it does nothing."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a worker: nothing to watch
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
