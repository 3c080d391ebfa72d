"""What building a belief may use: a memory budget (by default half of the
machine's memory), what one position costs, and who hears of the progress.

A belief's positions are rows of ``POSITION_WIDTH`` 64-bit words; building
one and searching from it needs work arrays of the same size (the rows held
while they are sorted by hash, the children of an attempt), so a position is
counted at ``BYTES_PER_POSITION``, three rows.

>>> parse_memory("4G"), parse_memory("512m"), parse_memory("1.5GB")
(4294967296, 536870912, 1610612736)
>>> Resources(memory=parse_memory("1G")).max_positions
2485513
>>> format_bytes(3 * 2**30), format_bytes(5 * 2**20), format_bytes(1536)
('3.0 GB', '5 MB', '1.5 KB')
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from collections.abc import Callable

from ksolve.board.layout import POSITION_WIDTH

ROW_BYTES = POSITION_WIDTH * 8
"""One position row."""
BYTES_PER_POSITION = 3 * ROW_BYTES
"""What one position of a belief costs while it is built and searched: its
row, the copy sorted by hash, and a row of work arrays (an attempt's children)."""
MEMORY_SHARE = 0.5
"""The share of the machine's physical memory a run may use by default."""
FALLBACK_MEMORY = 4 << 30
"""The default budget when the machine's memory cannot be read."""

EnumerationProgress = Callable[[int, int, int], None]
"""Called while a belief is enumerated: placements tried, placements in all, positions kept."""

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


class _Statm:
    """``/proc/self/statm`` held open by the process that opened it (a forked child opens
    its own: the file names the process that opened it), read with ``pread``; a search reads
    it every few nodes, and opening it each time cost a few per cent of a long search."""

    def __init__(self) -> None:
        self.pid = -1
        self.fd = -1
        self.page = os.sysconf("SC_PAGE_SIZE")

    def resident(self) -> int:
        if self.pid != os.getpid():
            if self.fd >= 0:
                os.close(self.fd)  # the parent's, inherited by this forked child
            self.fd = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
            self.pid = os.getpid()
        return int(os.pread(self.fd, 128, 0).split()[1]) * self.page


_STATM = _Statm()


def resident_bytes() -> int | None:
    """The process's resident size now (Linux ``/proc``; None elsewhere).

    >>> resident_bytes() > 10 << 20  # this interpreter, numpy loaded
    True
    """
    try:
        return _STATM.resident()
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def physical_memory() -> int | None:
    """The machine's physical memory in bytes (None if it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def default_memory_budget() -> int:
    """``MEMORY_SHARE`` of the machine's physical memory."""
    memory = physical_memory()
    return int(memory * MEMORY_SHARE) if memory else FALLBACK_MEMORY


def parse_memory(text: str) -> int:
    """Bytes of a size such as ``4G``, ``512M``, ``1.5GB`` or ``1000000`` (powers of 1024).

    >>> parse_memory("lots")
    Traceback (most recent call last):
    ...
    ValueError: 'lots' is not a size such as 4G, 512M or 1.5G
    """
    match = _SIZE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a size such as 4G, 512M or 1.5G")
    number, unit = match.groups()
    return int(float(number) * 1024 ** " kmgt".index(unit.lower() or " "))


def format_bytes(size: float) -> str:
    """A size as the budget errors say it: GB (2**30 bytes) from a tenth of one, else MB or KB."""
    if size >= 2**30 / 10:
        return f"{size / 2**30:,.1f} GB"
    if size >= 2**20:
        return f"{size / 2**20:,.0f} MB"
    return f"{size / 2**10:,.1f} KB"


def check_budget(budget: int, text: str = "") -> int:
    """``budget`` (bytes, said as ``text``) if a process can work within it:
    ``ValueError`` if it is no more than this process holds already, or more
    than the machine's memory.

    >>> check_budget(0, "0")
    Traceback (most recent call last):
    ...
    ValueError: 0 is no memory at all (a budget such as 4G, 512M or 1.5G)
    >>> check_budget(2**80, "1000000000G")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 1000000000G is more than this machine's memory (...)
    """
    text = text or format_bytes(budget)
    if budget <= 0:
        raise ValueError(f"{text} is no memory at all (a budget such as 4G, 512M or 1.5G)")
    held = resident_bytes()
    if held is not None and budget <= held:
        raise ValueError(f"{text} is less than ksolve holds before doing anything ({format_bytes(held)})")
    machine = physical_memory()
    if machine is not None and budget > machine:
        raise ValueError(f"{text} is more than this machine's memory ({format_bytes(machine)})")
    return budget


@dataclass(frozen=True)
class Resources:
    """What building a belief may use: ``memory`` bytes (None: the default
    share of the machine's memory), and a ``progress`` callback."""

    memory: int | None = None
    progress: EnumerationProgress | None = None

    @property
    def budget(self) -> int:
        """The memory budget in bytes."""
        return self.memory if self.memory is not None else default_memory_budget()

    @property
    def max_positions(self) -> int:
        """The largest belief the budget holds."""
        return self.budget // BYTES_PER_POSITION


class OverMemoryBudget(ValueError):
    """A belief that would not fit the memory budget (a message about the
    budget: ``setting`` for the front ends, which name it their way)."""

    setting = "memory"

    def __init__(self, positions: int, budget: int) -> None:
        super().__init__(f"the belief would need ~{positions:,} positions "
                         f"({format_bytes(positions * BYTES_PER_POSITION)}), over the memory budget of "
                         f"{format_bytes(budget)}")
        self.positions, self.budget = positions, budget
