"""The bundled problems: they load, the published keys win, ksolve solves them,
every solution's certificate is verified by the independent checker, and
orthodox play agrees with the known orthodox keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksolve.certificates import certificate
from ksolve.checker import check_certificate
from ksolve.problem import load_problem
from ksolve.rules import get_rules
from ksolve.solver import NO_SOLUTION, SOLVED, key_wins, solve

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
FILES = sorted(PROBLEMS.glob("*.toml"))
SLOW = {"rotenberg-1976", "anderson-37", "anderson-25"}  # checked separately or in the benchmark
# Published solutions ksolve refutes, with the reason (problems/README.md explains).
REFUTED = {"anderson-41": "after 1.Rg2 the silent class (12 positions) is not mated in 3"}
# Published keys that are a question first ("Any?"), not a move.
ASKS_FIRST = {"roche-1986"}


def test_every_problem_file_loads() -> None:
    assert len(FILES) >= 20
    sizes = {path.stem: len(load_problem(path).belief()) for path in FILES}
    assert sizes["rotenberg-1976"] == 30
    assert sizes["foster-1996"] == 25


@pytest.mark.parametrize("path", [p for p in FILES if p.stem not in SLOW], ids=lambda p: p.stem)
def test_problem_is_solved_as_published(path: Path) -> None:
    problem = load_problem(path)
    result = solve(problem)
    if problem.id in REFUTED:
        assert result.status == NO_SOLUTION
        assert key_wins(problem, problem.published_key) is False
        return
    assert result.status == SOLVED and result.moves == problem.moves, result
    checked = check_certificate(path, certificate(problem, result))
    assert checked.verified, checked.format()
    if problem.id in ASKS_FIRST:
        assert result.key == "any"
    elif problem.published_key:
        assert key_wins(problem, problem.published_key) is True


@pytest.mark.parametrize("name,key,moves", [
    ("ciancarini-intro-7.2", "b7b8n", 3),  # orthodox #3 (Kriegspiel needs 4)
    ("anderson-09", "h1f1", 2),            # "the orthodox solution 1.Rf1 fails in Kriegspiel"
    ("dawson-fcr3192", "d2d5", 2),         # "orthodox 1.Qd5 fails in Kriegspiel"
])
def test_orthodox_keys_win_in_orthodox_but_not_in_kriegspiel(name: str, key: str, moves: int) -> None:
    problem = load_problem(PROBLEMS / f"{name}.toml")
    assert key_wins(problem, key, moves) is False
    problem.rules = get_rules("orthodox")
    assert key_wins(problem, key, moves) is True
    assert solve(problem, moves=moves, tree=False).moves == moves


def test_rotenberg_mates_in_8_with_the_published_key() -> None:
    problem = load_problem(PROBLEMS / "rotenberg-1976.toml")
    result = solve(problem)
    assert (result.status, result.moves, result.key) == (SOLVED, 8, "a2g2")
    answers = {data["label"] for _, _, data in result.tree.edges(data=True)}
    assert {"No", "Silent", "Capture at f2, checkmate", "Knight check"} <= answers
    refused = [n for n, d in result.tree.nodes(data=True) if d.get("hidden") == {"bishop": ["b2", "d2", "f2"]}]
    assert refused, "the 'No' to 1.Rg2 leaves the bishop on b2, d2 or f2"
    proof = certificate(problem, result)
    checked = check_certificate(problem.source, proof)
    assert checked.verified and checked.positions == 30, checked.format()
    corrupted = _replace_first(proof, "g2g8", "g2g7")  # 2.Rg8 becomes 2.Rg7
    checked = check_certificate(problem.source, corrupted)
    assert not checked.verified and checked.counterexample is not None
    assert "Rg7" in checked.format() or "g2g7" in checked.format()


def _replace_first(proof: dict, old: str, new: str) -> dict:
    """A copy of the certificate with its first attempt ``old`` (depth first) replaced."""
    import json

    text = json.dumps(proof)
    assert f'"attempt": "{old}"' in text
    return json.loads(text.replace(f'"attempt": "{old}"', f'"attempt": "{new}"', 1))


def test_rotenberg_has_no_mate_in_7() -> None:
    problem = load_problem(PROBLEMS / "rotenberg-1976.toml")
    assert solve(problem, moves=7, tree=False).status == NO_SOLUTION


@pytest.mark.slow
def test_anderson_37_mates_in_9_with_the_published_key() -> None:
    """The #9 left undecided by the shortest-mate search (which must refute
    every depth below 9 first): proved as stipulated, mate in at most 9 (about
    150,000 nodes, half a minute), its certificate replayed by the checker."""
    problem = load_problem(PROBLEMS / "anderson-37.toml")
    result = solve(problem, shortest=False)
    assert (result.status, result.moves, result.key) == (SOLVED, 9, "h6g5")
    checked = check_certificate(problem.source, certificate(problem, result))
    assert checked.verified, checked.format()
