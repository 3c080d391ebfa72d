"""How one search spends a memory budget, and the guard that keeps it there.

A search holds three kinds of memory besides the interpreter and its
kernels: the orthodox table (a fixed array of hash slots), the result tables
(proofs, disproofs and proof numbers: entries of roughly known size) and the
beliefs kept with expanded nodes.  ``MemoryPlan`` splits what the budget
leaves after the process's present size among them; ``MemoryGuard`` reads
the process's resident size now and then, asks the tables to shed their
cheapest entries when it passes the budget, and gives up (the run's result is
"unknown (memory budget)") only when shedding no longer helps.

>>> plan = MemoryPlan.for_budget(512 << 20, in_use=200 << 20)
>>> plan.orthodox_slots, plan.table_entries > 100_000
(1048576, True)
>>> MemoryPlan.unbounded().table_entries is None
True
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Callable

from ksolve.errors import SettingError
from ksolve.resources import ROW_BYTES, format_bytes, resident_bytes

ORTHODOX_SLOT_BYTES = 8 + 8
"""One slot of the orthodox table: a position's word (hash, won, lost) and a move's (key, result)."""
MAX_ORTHODOX_SLOTS = 1 << 20
"""The orthodox table's size without a budget (16 MB when every page is touched).
Eight times as many slots (152 MB) were no faster: ten long problems took
137.4 s with 2**23 slots, 160.7 s with 2**22, 170.2 s with 2**21 and 131.6 s
with 2**20 (the nodes vary either way, as the deeper bounds' budgets meet
other table contents), and the thirty orthodox problems solve and verify in
1.6 and 17.6 s against 2.0 and 19.2 s: fewer pages, fewer cache misses."""
MIN_ORTHODOX_SLOTS = 1 << 16
ENTRY_BYTES = 350
"""What one table entry costs (key, value, dict slot): a result-table entry
and a proof-number row, measured with ``benchmarks/bench_memory.py`` (about
310 bytes on average) and rounded up."""
ORTHODOX_SHARE, TABLE_SHARE, BELIEF_SHARE = 0.15, 0.5, 0.05
"""The shares of the free budget (the rest is head room for the beliefs an
attempt's answers are made of while they are searched, and for the kernels a
search loads).  Kept expansions save little (an expansion is two kernel calls,
some 20 microseconds) and proof-number rows save subtrees, so the tables get
the most: the 13-mover within 300 MB took 93 s with 0.25, 0.35 and 0.15, 88 s
with these."""
MIN_FREE = 32 << 20
"""The least free memory a search is started with."""
HARD_MARGIN = 1.25
"""How far past the budget a search may stay while it reuses what its tables shed."""


STEP_SAMPLE = 64
"""Positions of a belief whose moves and replies are counted to estimate a search step's size."""


class BudgetTooSmall(SettingError):
    """A memory budget below what a search needs (bad input: said in one line)."""

    def __init__(self, reason: str) -> None:
        super().__init__("memory", reason)


def step_bytes(positions, fog: bool = False) -> tuple[int, float]:
    """What one step of a search over a belief of ``positions`` holds at once,
    estimated from a sample of them, and the mean number of Black's replies:
    the step is a kernel call over every position, which holds an attempt's
    children and Black's replies to each (or, at the last move, every White
    move of every position), as position rows.

    >>> from ksolve.board import positions_from_fens
    >>> from ksolve.resources import ROW_BYTES
    >>> size, replies = step_bytes(positions_from_fens(["4k3/8/8/8/8/8/8/R3K3 w - - 0 1"]))
    >>> round(replies, 1), size // ROW_BYTES  # Black's replies to each move; the rook's 10 moves, the king's 5
    (4.5, 15)
    """
    import numpy as np

    from ksolve.board import count_moves, expand
    count = len(positions)
    if not count:
        return 0, 0.0
    sample = positions[::max(1, count // STEP_SAMPLE)][:STEP_SAMPLE]
    children, _, _ = expand(np.ascontiguousarray(sample), fog)
    white = len(children) / len(sample)
    replies = float(count_moves(children, fog).mean()) if len(children) else 0.0
    return int(count * max(white, 1 + replies) * ROW_BYTES), replies


def fitting_processes(positions, fog: bool, budget: int, processes: int = 1, in_use: int | None = None) -> int:
    """How many (at most ``processes``, at least one) searches of a belief of
    ``positions`` fit in ``budget`` bytes at once, each adding a step
    (``step_bytes``) and ``MIN_FREE`` to what the process holds now
    (``in_use``, default its resident size: each of several worker processes
    starts as a copy of it); ``BudgetTooSmall`` if not even one does, said
    before the search begins.

    >>> fitting_processes([], False, 4 << 30, 2, in_use=100 << 20)
    2
    >>> fitting_processes([], False, 300 << 20, 2, in_use=100 << 20)
    1
    """
    in_use = (resident_bytes() or 0) if in_use is None else in_use
    step, replies = step_bytes(positions, fog)
    search = step + MIN_FREE
    if budget < in_use + search:
        raise BudgetTooSmall(f"{format_bytes(budget)} is less than the search needs: one step over the "
                             f"{len(positions):,} positions of the belief holds ~{format_bytes(step)} at once (an "
                             f"attempt's children and Black's ~{replies:.0f} replies to each), and the process holds "
                             f"{format_bytes(in_use)} before searching")
    if processes == 1:
        return 1
    return int(max(1, min(processes, (budget - in_use) // (in_use + search))))


@dataclass(frozen=True)
class MemoryPlan:
    """What a search may hold: orthodox slots, table entries and expansion bytes
    (None: no bound), within ``budget`` bytes of resident size (None: no guard)."""

    budget: int | None
    orthodox_slots: int
    table_entries: int | None
    expansion_bytes: int | None

    @property
    def result_entries(self) -> int | None:
        """The result table's share of ``table_entries`` (proofs and disproofs of
        whole turns): a quarter.  A proof-number search fills it slowly (the
        13-mover's ``--at-most``: 23,000 entries against 555,000 proof-number
        rows), so most of the entries go to the rows."""
        return None if self.table_entries is None else max(1, self.table_entries // 4)

    @property
    def number_entries(self) -> int | None:
        """The proof-number search's rows: the rest of ``table_entries``.  With
        half of them (not three quarters) the 13-mover within 300 MB took 1.28 M
        nodes in 88 s against 0.91 M in 66 s."""
        return None if self.table_entries is None else max(1, self.table_entries - self.result_entries)

    @classmethod
    def unbounded(cls) -> "MemoryPlan":
        """No budget: the largest orthodox table, unbounded result tables."""
        return cls(None, MAX_ORTHODOX_SLOTS, None, None)

    @classmethod
    def for_budget(cls, budget: int, in_use: int | None = None, workers: int = 1) -> "MemoryPlan":
        """The plan for ``budget`` bytes when the process already holds ``in_use``
        (default: its resident size now); ``BudgetTooSmall`` if that leaves
        less than ``MIN_FREE``.  ``workers``: the budget is one of so many
        worker processes' share of ``--max-memory``.

        >>> MemoryPlan.for_budget(100 << 20, in_use=90 << 20, workers=2)
        Traceback (most recent call last):
        ...
        ksolve.search.memory.BudgetTooSmall: memory budget: 200 MB is less than 2 worker processes need to search: each holds 90 MB before searching and needs 32 MB more (fewer worker processes need less)
        """
        in_use = (resident_bytes() or 0) if in_use is None else in_use
        free = budget - in_use
        if free < MIN_FREE and workers > 1:
            raise BudgetTooSmall(f"{megabytes(budget * workers)} is less than {workers} worker processes need to "
                                 f"search: each holds {megabytes(in_use)} before searching and needs "
                                 f"{megabytes(MIN_FREE)} more (fewer worker processes need less)")
        if free < MIN_FREE:
            raise BudgetTooSmall(f"{megabytes(budget)} is less than ksolve needs to search: it holds "
                                 f"{megabytes(in_use)} before searching and needs {megabytes(MIN_FREE)} more")
        slots = MIN_ORTHODOX_SLOTS
        while slots * 2 <= MAX_ORTHODOX_SLOTS and slots * 2 * ORTHODOX_SLOT_BYTES <= free * ORTHODOX_SHARE:
            slots *= 2
        return cls(budget, slots, int(free * TABLE_SHARE) // ENTRY_BYTES, int(free * BELIEF_SHARE))


def megabytes(size: int) -> str:
    return f"{size / 2**20:,.0f} MB"




Shed = Callable[[], bool]
"""Asked to drop a table's cheapest entries; says whether it dropped any."""


class MemoryGuard:
    """Watches the resident size against a budget (see the module's docstring).

    ``check()`` is called by the search run every few nodes; past the budget
    it calls every registered ``Shed`` and returns None, or, if none could
    shed anything, returns the reason to give up.

    >>> guard = MemoryGuard(budget=1, read=lambda: 2)
    >>> guard.check()
    'memory budget 0 MB reached'
    """

    def __init__(self, budget: int | None, read: Callable[[], int | None] | None = None, workers: int = 1) -> None:
        self.budget = budget
        self.workers = workers
        """How many worker processes share ``--max-memory``, ``budget`` being one's share."""
        self.read = read
        """Reads the resident size (default ``resident_bytes``)."""
        self._sheds: list[weakref.WeakMethod] = []
        self.shed_count = 0
        """How often the tables were asked to shed."""
        self.shed_at: int | None = None
        """The resident size at the last shed."""

    def add(self, shed: Shed) -> None:
        """Ask ``shed`` (a table's bound method, held weakly) under memory pressure."""
        self._sheds = [ref for ref in self._sheds if ref() is not None]
        self._sheds.append(weakref.WeakMethod(shed))

    def check(self) -> str | None:
        """None while within the budget (shedding if it must), else why to stop.

        Past the budget and growing, the tables shed; past it but no larger
        than at the last shed, the memory they freed is being reused (the
        allocator keeps it), so the search goes on unless it is more than
        ``HARD_MARGIN`` over; it stops when there is nothing left to shed."""
        if self.budget is None:
            return None
        size = (self.read or resident_bytes)()
        if size is None or size <= self.budget:
            return None
        if self.shed_at is None or size > self.shed_at:
            sheds = [ref() for ref in self._sheds]
            if any([shed() for shed in sheds if shed is not None]):
                self.shed_count += 1
                self.shed_at = size
                return None
        elif size <= self.budget * HARD_MARGIN:
            return None
        if self.workers > 1:
            return f"memory budget {megabytes(self.budget * self.workers)} (a worker's share: {megabytes(self.budget)}) reached"
        return f"memory budget {megabytes(self.budget)} reached"
