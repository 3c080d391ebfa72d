"""One search run: its limits, its progress callback and its counters.

Every search algorithm ticks the same ``SearchRun`` once per node, so time
and node limits, progress reports and statistics mean the same whatever
algorithm (or combination: proof-number search over the depth-first
prover's exact leaves) does the work.

>>> run = SearchRun(Limits(nodes=2))
>>> for _ in range(CHECK_EVERY):  # limits are looked at every CHECK_EVERY nodes
...     run.tick()
Traceback (most recent call last):
...
ksolve.search.run.SearchAborted: node limit 2 reached
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ksolve.compilation import work_clock
from ksolve.search.memory import MemoryGuard


class SearchAborted(Exception):
    """The search hit its time or node limit before deciding."""


@dataclass
class Limits:
    """When to give up: seconds, OR nodes and ``memory``, the process's resident
    bytes (None: no limit).  Within a memory budget the search's tables are
    sized to fit and shed their cheapest entries when the process nears it;
    the search gives up only when shedding no longer helps."""

    seconds: float | None = None
    nodes: int | None = None
    memory: int | None = None
    workers: int = 1
    """How many worker processes share the limits ``asked`` (``share``)."""
    asked: Limits | None = None
    """The limits asked for, when these are one worker's share of them: what
    the messages name."""

    def share(self, workers: int) -> Limits:
        """One of ``workers`` processes' share: the nodes and the memory split
        evenly, the same time.

        >>> share = Limits(10, 1001, 3 << 20).share(2)
        >>> share.nodes, share.memory, share.asked.nodes
        (500, 1572864, 1001)
        """
        if workers == 1:
            return self
        return Limits(self.seconds, None if self.nodes is None else max(1, self.nodes // workers),
                      None if self.memory is None else self.memory // workers, workers, self)

    @property
    def named(self) -> Limits:
        """The limits a message names: those asked for."""
        return self.asked or self


@dataclass
class Stats:
    """Counters of one search; its seconds leave out numba's compilation
    (``ksolve.compilation.work_clock``), so the time limit and the reported
    time are the search's."""

    nodes: int = 0
    leaf_calls: int = 0
    bound_cuts: int = 0
    pruned_attempts: int = 0
    table_hits: int = 0
    started: float = field(default_factory=work_clock)

    @property
    def seconds(self) -> float:
        return work_clock() - self.started


Progress = Callable[[Stats, int], None]
"""A progress callback: the run's counters and the depth being searched."""

CHECK_EVERY = 16
"""Nodes between two looks at the clock (and calls of the progress callback)."""


class SearchRun:
    """Limits, progress and counters shared by the searches of one run."""

    def __init__(self, limits: Limits | None = None, progress: Progress | None = None) -> None:
        self.limits = limits or Limits()
        self.progress = progress
        self.stats = Stats()
        self.depth = 0
        """The depth (White moves) being searched, for progress reports."""
        self.guard = MemoryGuard(self.limits.memory, workers=self.limits.workers)
        self._next_check = CHECK_EVERY
        self._looks = 0

    def tick(self) -> None:
        """Count one node; raise ``SearchAborted`` past a limit."""
        stats = self.stats
        stats.nodes += 1
        if stats.nodes < self._next_check:
            return
        self._check()

    def charge(self, nodes: int) -> None:
        """Count ``nodes`` searched at once elsewhere (the metaposition engine's
        steps) and look at the limits now; raise ``SearchAborted`` past one.

        >>> run = SearchRun(Limits(nodes=1000))
        >>> run.charge(999)
        >>> run.charge(1)
        Traceback (most recent call last):
        ...
        ksolve.search.run.SearchAborted: node limit 1,000 reached
        """
        self.stats.nodes += nodes
        self._check()

    def look(self) -> None:
        """Look at the limits from work that is not a search node (reading a
        strategy back turn by turn): at the first call and every ``CHECK_EVERY``th;
        raise ``SearchAborted`` past one.

        >>> run = SearchRun(Limits(seconds=0))
        >>> run.look()
        Traceback (most recent call last):
        ...
        ksolve.search.run.SearchAborted: time limit 0 s reached
        """
        self._looks += 1
        if self._looks % CHECK_EVERY == 1:
            self._check()

    def _check(self) -> None:
        stats = self.stats
        self._next_check = stats.nodes + CHECK_EVERY
        if self.limits.nodes is not None and stats.nodes >= self.limits.nodes:
            raise SearchAborted(f"node limit {self.limits.named.nodes:,} reached")
        if self.limits.seconds is not None and stats.seconds >= self.limits.seconds:
            raise SearchAborted(f"time limit {self.limits.named.seconds:g} s reached")
        over_memory = self.guard.check()
        if over_memory is not None:
            raise SearchAborted(over_memory)
        if self.progress is not None:
            self.progress(stats, self.depth)
