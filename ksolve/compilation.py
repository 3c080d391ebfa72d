"""Numba compilation, watched.  The first run of a kernel compiles it (some
30 s for all of ksolve's; numba caches them on disk after, next to the
source), so front ends say that it happens, and durations measured with
``work_clock`` leave it out: a search's seconds are the search's.

>>> from numba import njit
>>> heard = []
>>> announce_compilation(lambda: heard.append("compiling"))
>>> before, clock = compile_seconds(), work_clock()
>>> int(njit(lambda x: x + 1)(41)), heard  # compiled now (a lambda is never cached)
(42, ['compiling'])
>>> compile_seconds() > before, work_clock() - clock < compile_seconds() - before
(True, True)
"""

from __future__ import annotations

import time
from typing import Callable

from numba.core import event


class _CompileWatch(event.Listener):
    """Counts the seconds numba spends compiling (outermost compilations only:
    a kernel's callees compile inside it), and tells the first one."""

    def __init__(self) -> None:
        self.depth = 0
        self.started = 0.0
        self.seconds = 0.0
        self.announce: Callable[[], None] | None = None

    def on_start(self, _event: event.Event) -> None:
        if self.depth == 0:
            self.started = time.perf_counter()
            announce, self.announce = self.announce, None
            if announce is not None:
                announce()
        self.depth += 1

    def on_end(self, _event: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.perf_counter() - self.started


_WATCH = _CompileWatch()
event.register("numba:compile", _WATCH)


def announce_compilation(announce: Callable[[], None]) -> None:
    """Call ``announce()`` once, when numba next begins to compile (loading a
    kernel from numba's disk cache is not compiling)."""
    _WATCH.announce = announce


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels."""
    return _WATCH.seconds + (time.perf_counter() - _WATCH.started if _WATCH.depth else 0.0)


def work_clock() -> float:
    """``time.perf_counter()`` without the seconds spent compiling: the clock of
    search times and time limits."""
    return time.perf_counter() - compile_seconds()
