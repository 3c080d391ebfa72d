"""The search interface: what every search algorithm offers and leaves behind.

A search decides whether White wins a belief within a number of moves
(``wins``) or whether one first attempt does (``attempt_wins``).  The
contract every implementation keeps:

- it counts its nodes on the ``run`` (``SearchRun``: limits, progress,
  statistics) and raises ``SearchAborted`` past a limit;
- every proof it returns leaves the proven strategy in ``table``
  (``ResultTable``): for each White turn of the strategy an entry with
  ``proven <= moves`` and the winning attempt, so that
  ``Prover.winning_move`` and ``ksolve.solution.strategy_tree`` read the
  strategy back from the table without searching again;
- a disproof leaves ``disproven >= moves`` on the belief's entry.

``SEARCHES`` names the implementations; ``make_search`` builds one over a prover.

>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> sorted(SEARCHES), type(make_search("pn", Prover(get_rules("berkeley")))).__name__
(['dfs', 'pn'], 'ProofNumberSearch')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

from ksolve.rules.base import FRESH

if TYPE_CHECKING:
    from ksolve.belief import BeliefState
    from ksolve.search.prover import Prover
    from ksolve.search.run import SearchRun
    from ksolve.search.table import ResultTable


class Search(Protocol):
    """A search over belief states (see the module's contract)."""

    run: "SearchRun"
    table: "ResultTable"

    def wins(self, belief: "BeliefState", moves: int, state: int = FRESH) -> bool:
        """Whether White wins ``belief`` within ``moves`` in a turn in ``state``."""
        ...

    def attempt_wins(self, belief: "BeliefState", move: int, moves: int, state: int = FRESH) -> bool:
        """Whether trying ``move`` first (``ASK``: asking "Any?") wins within ``moves``."""
        ...


def _proof_number(prover: "Prover") -> Search:
    from ksolve.search.pns import ProofNumberSearch

    return ProofNumberSearch(prover)


def _depth_first(prover: "Prover") -> Search:
    return prover


SEARCHES: dict[str, Callable[["Prover"], Search]] = {"pn": _proof_number, "dfs": _depth_first}
"""Proof-number search over the depth-first prover's exact leaves, or the
depth-first prover alone: the same results at different speeds."""


def make_search(name: str, prover: "Prover") -> Search:
    """The search called ``name`` (a key of ``SEARCHES``) over ``prover``."""
    try:
        return SEARCHES[name](prover)
    except KeyError:
        raise ValueError(f"unknown search {name!r}; valid: {', '.join(SEARCHES)}") from None
