"""One run description: what to search and within what, validated once (importing
it loads nothing heavy: the command line reads its options before any kernel).

``RunOptions`` is what every front end maps its own words onto (the command
line's ``--timeout``, ``--max-memory``...; the web API's ``options.timeout``,
``options.max_memory``...): a bad value is a ``SettingError`` naming the setting
in the library's words, and each front end names it its own way
(``cli_support.cli_message``, ``web.errors.web_message``).

>>> options = RunOptions(seconds=30, tries=5)
>>> options.limits().seconds, options.tries
(30, 5)
>>> RunOptions(moves=0)
Traceback (most recent call last):
...
ksolve.errors.SettingError: moves: 0 is not a number of moves from 1 to 60
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from typing import TYPE_CHECKING

from ksolve.errors import SettingError

if TYPE_CHECKING:
    from ksolve.search.run import Limits

DEFAULT_SECONDS = 600.0
"""Seconds after which a search gives up (status unknown) unless told otherwise."""
SEARCHES = ("pn", "dfs")
"""The searches a run may name (``ksolve.search.base.SEARCHES``, repeated so that reading options imports no search)."""


@dataclass(frozen=True)
class RunOptions:
    """What a run searches and within what limits.

    ``rules``/``moves``: another rule set or number of moves than the problem's;
    ``at_most``: prove the stipulation without looking for a shorter win;
    ``search``: ``pn`` or ``dfs``; ``seconds``/``nodes``: each search's limits
    (None: none); ``memory``: the memory budget in bytes of the belief and every
    search table (None: the problem's, by default half of the machine's memory);
    ``tries``: keep the best k tries; ``duals``: look for duals; ``workers``:
    processes sharing one proof (0: one per core)."""

    rules: str | None = None
    moves: int | None = None
    at_most: bool = False
    search: str = "pn"
    seconds: float | None = DEFAULT_SECONDS
    nodes: int | None = None
    memory: int | None = None
    tries: int | None = None
    duals: bool = True
    workers: int = 1

    def __post_init__(self) -> None:
        from ksolve.problem import MAX_MOVES

        if self.moves is not None and not 1 <= self.moves <= MAX_MOVES:
            raise SettingError("moves", f"{self.moves} is not a number of moves from 1 to {MAX_MOVES}")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise SettingError("timeout", f"{self.seconds} is not a number of seconds more than 0")
        if self.nodes is not None and self.nodes < 1:
            raise SettingError("nodes", f"{self.nodes} is not a number of nodes, 1 or more")
        if self.memory is not None and self.memory <= 0:
            raise SettingError("memory", f"{self.memory} is no memory at all (a budget such as 4G, 512M or 1.5G)")
        if self.tries is not None and self.tries < 0:
            raise SettingError("tries", f"{self.tries} is not a number of tries, 0 or more")
        if self.search not in SEARCHES:
            raise SettingError("search", f"{self.search!r} is not one of {', '.join(SEARCHES)}")
        if self.workers < 0:
            raise SettingError("jobs", f"{self.workers} is not a number of worker processes (1 or more; 0: one "
                                       "per core)")

    def limits(self) -> "Limits":
        """Each search's limits (seconds and nodes; the memory budget belongs to the analysis)."""
        from ksolve.search.run import Limits

        return Limits(self.seconds, self.nodes)
