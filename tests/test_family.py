"""The long-problem family (``problems/family``, issue 13): each member's
stipulation proven as stated and its certificate replayed by the independent
checker; the smallest member also refuted one move shorter (its stipulation
is its shortest mate).  ``benchmarks/bench_family.py`` runs all of them with
the shortest-mate search, two jobs and a quarter memory budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksolve.certificates import certificate
from ksolve.checker import check_certificate
from ksolve.problem import load_problem
from ksolve.solver import NO_SOLUTION, SOLVED, solve

FAMILY = Path(__file__).resolve().parent.parent / "problems" / "family"
FILES = sorted(FAMILY.glob("*.toml"))
QUICK = "family-09-knight-c1"
"""The smallest member (about 25,000 nodes within 9): in the quick subset."""


def test_the_family_is_long() -> None:
    moves = {path.stem: load_problem(path).moves for path in FILES}
    assert len(moves) >= 4 and max(moves.values()) >= 11
    assert all(len(load_problem(path).belief()) >= 28 for path in FILES)


DEEP = "family-13-walls-d4-e3"
"""The longest member (about 110 s for its proof, 100 s for each cook): only with ``pytest --deep``."""


def _marks(path: Path) -> tuple:
    return () if path.stem == QUICK else (pytest.mark.slow, pytest.mark.deep) if path.stem == DEEP else (pytest.mark.slow,)


@pytest.mark.parametrize("path", [pytest.param(p, marks=_marks(p)) for p in FILES], ids=lambda p: p.stem)
def test_the_stipulation_is_proven_and_certified(path: Path) -> None:
    problem = load_problem(path)
    result = solve(problem, shortest=False)
    assert (result.status, result.moves) == (SOLVED, problem.moves)
    checked = check_certificate(problem.source, certificate(problem, result))
    assert checked.verified, checked.format()


@pytest.mark.slow
def test_the_smallest_member_has_no_shorter_mate() -> None:
    problem = load_problem(FAMILY / f"{QUICK}.toml")
    result = solve(problem, problem.moves - 1, shortest=False)
    assert result.status == NO_SOLUTION, result.reason


@pytest.mark.slow
@pytest.mark.deep
@pytest.mark.parametrize("key", ["d4e5", "a2c2"])
def test_the_cooks_of_the_13_mover_are_certified(key: str) -> None:
    """family-13-walls-d4-e3 is cooked: besides 1.dxc5 (the proof above),
    1.dxe5 and 1.Rc2 mate in 13, each strategy replayed by the checker
    (about 100 s each)."""
    from ksolve.solver import solve_with_key

    problem = load_problem(FAMILY / f"{DEEP}.toml")
    result = solve_with_key(problem, key)
    checked = check_certificate(problem.source, certificate(problem, result))
    assert result.key == key and checked.verified, checked.format()
