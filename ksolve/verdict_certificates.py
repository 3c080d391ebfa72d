"""One certificate for a whole verification: every key's strategy, every other first
move's refutation, and the proof that no shorter mate exists.

``ksolve verify FILE --certificate OUT.json`` writes it and ``ksolve check FILE
OUT.json`` checks every part with the independent checker, then draws the verdict
itself (``ksolve.checker.verdict``): *sound* when one key mates in the stipulated
moves, every other first move White has is refuted and no first move mates in fewer.
A part too large to write (a refutation branches over all of White's choices at
each turn) is left out and named; the checker then says what remains unproven.

>>> from ksolve.problem import load_problem_text
>>> from ksolve.verification import verify
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> written = verdict_certificate(problem, verify(problem))
>>> len(written.data["strategies"]), len(written.data["refutations"]), written.left_out
(1, 19, [])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ksolve import __version__
from ksolve.analysis import Analysis
from ksolve.board import move_to_uci
from ksolve.certificates import certificate, problem_identity
from ksolve.checker.schema import VERDICT_FORMAT, VERDICT_VERSION
from ksolve.refutations import MAX_NODES, Refuter, RefutationTooLarge
from ksolve.search.run import Limits, SearchAborted
from ksolve.solver import solve_with_key
from ksolve.verification import UNKNOWN, Verification, first_attempts


@dataclass
class VerdictCertificate:
    """The certificate's JSON object, and the parts left out (each with why)."""

    data: dict[str, Any]
    left_out: list[str] = field(default_factory=list)


def verdict_certificate(problem, report: Verification, limits: Limits | None = None, max_nodes: int = MAX_NODES,
                        progress: Callable[[str, int, int], None] | None = None,
                        dominance: bool = True) -> VerdictCertificate:
    """The certificate of ``report``'s verdict on ``problem`` (``ValueError`` for an
    undecided one): the keys' strategies (version 2), a refutation of each other first
    move within the moves, and of every first move within the fewest moves less one
    (with the key's own where keys need more); ``progress(what, index, parts)`` before each.
    A part past ``max_nodes`` is left out; past ``limits``, it and the parts after it.
    ``dominance``: refutations share the nodes of turns whose positions they include."""
    if report.verdict == UNKNOWN:
        raise ValueError("an undecided verification has no certificate")
    analysis = Analysis(problem, rules=report.rules or None, moves=report.moves)
    refuter = Refuter(analysis, limits, max_nodes, dominance)
    written = VerdictCertificate({"format": VERDICT_FORMAT, "version": VERDICT_VERSION,
                                  "producer": f"ksolve {__version__}", **problem_identity(problem),
                                  "rules": analysis.rules.name, "goal": analysis.rules.goal, "moves": report.moves,
                                  "verdict": report.verdict, "strategies": [], "refutations": []})
    keys = {key.move: key.moves for key in report.keys}

    fewest = min(keys.values(), default=report.moves + 1)
    parts: list[tuple[str, Callable[[], None]]] = []
    for key, moves in keys.items():
        parts.append((f"the strategy of {key}", partial(_strategy, written, problem, report, key, moves, limits)))
    for first in first_attempts(analysis):
        uci = move_to_uci(first)
        if uci not in keys:
            parts.append((f"the refutation of {uci}", partial(_refutation, written, refuter, report.moves, uci)))
    if fewest > 1:
        parts.append((f"no win in {fewest - 1}", partial(_refutation, written, refuter, fewest - 1, None)))
    for key, moves in keys.items():
        if moves > fewest:
            parts.append((f"no win in {moves - 1} beginning with {key}",
                          partial(_refutation, written, refuter, moves - 1, key)))
    for index, (what, write) in enumerate(parts):
        if progress is not None:
            progress(what, index + 1, len(parts))
        try:
            write()
        except RefutationTooLarge as error:
            written.left_out.append(f"{what}: {error}")
        except SearchAborted as stop:
            rest = len(parts) - index
            written.left_out.append(f"{what} and the {rest - 1} parts after it: {stop}" if rest > 1
                                    else f"{what}: {stop}")
            break
    return written


def _strategy(written: VerdictCertificate, problem, report: Verification, key: str, moves: int,
              limits: Limits | None) -> None:
    """The strategy of ``key`` within its fewest ``moves``, added to ``written``."""
    solution = solve_with_key(Analysis(problem, rules=report.rules or None, moves=moves), key, limits=limits)
    if solution.tree is None:
        written.left_out.append(f"the strategy of {key}: {solution.reason}")
        return
    written.data["strategies"].append(certificate(problem, solution, dag=True))


def _refutation(written: VerdictCertificate, refuter: Refuter, moves: int, first: str | None) -> None:
    """The refutation of a win within ``moves`` (beginning with ``first``), added to ``written``."""
    written.data["refutations"].append(refuter.certificate(moves, first))
