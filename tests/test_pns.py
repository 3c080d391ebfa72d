"""Proof-number search (``ksolve.search.pns``) against the depth-first prover
and the independent checker.

Above ``exact_moves`` the proof-number search decides everything itself, so
the tests lower it to 1 (only the last move is left to the depth-first
prover's kernel): then the seeded random problems of the brute-force test
(n <= 3) exercise every part of it, OR and AND nodes, "No" branches, and in
the rule sets with "Any?" the question and its obligations."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from ksolve.problem import load_problem, load_problem_text
from ksolve.rules import get_rules
from ksolve.search.base import SEARCHES
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import Prover
from ksolve.solver import SOLVED, solve
from test_solver_vs_bruteforce import certify_solved, generate_problems


def _agree(rules_name: str, belief, moves: int) -> bool:
    rules = get_rules(rules_name)
    expected = Prover(rules).wins(belief, moves)
    for exact in (1, 2):
        assert ProofNumberSearch(Prover(rules), exact_moves=exact).wins(belief, moves) == expected
    return expected


def test_agrees_with_the_depth_first_prover_on_random_problems() -> None:
    problems = generate_problems()
    won = sum(_agree(problem.rules, belief, problem.moves) for problem, belief in problems)
    assert 50 < won < len(problems) - 50  # both verdicts are well represented


@pytest.mark.parametrize("rules_name", ["berkeley-any", "english"])
def test_agrees_where_white_may_ask_any(rules_name: str) -> None:
    """The same beliefs under the rule sets with "Any?" (a question node with
    its answers, and the "Try"/"Yes" obligations)."""
    with_pawns = [(problem, belief) for problem, belief in generate_problems()
                  if "P" in problem.fen.split()[0] and problem.moves >= 2][:60]
    assert len(with_pawns) >= 20
    for problem, belief in with_pawns:
        _agree(rules_name, belief, problem.moves)


def test_strategies_found_are_certified_by_the_checker(tmp_path, monkeypatch) -> None:
    """``solve`` with the proof-number search deciding all but the last move:
    every strategy it builds is replayed by the independent checker."""
    monkeypatch.setitem(SEARCHES, "pn", functools.partial(ProofNumberSearch, exact_moves=1))
    checked = certify_solved(tmp_path, [problem for problem, _ in generate_problems()[:250]])
    assert checked >= 40


def test_proves_a_hidden_king_mate_the_depth_first_search_finds_slowly() -> None:
    """K+Q against a king hidden on one of nine corner squares: mate in 9.
    The depth-first prover needs about 390,000 nodes at depth 9 (every wrong
    attempt refuted); the proof-number search a few hundred."""
    problem = load_problem_text(
        'stipulation = "#9"\nrules = "berkeley"\n[position]\nfen = "8/8/8/8/8/8/8/K6Q w - - 0 1"\n'
        'hidden = [{piece = "k", squares = ["a8","b8","c8","a7","b7","c7","a6","b6","c6"]}]\n')
    prover = Prover(problem.rules)
    assert ProofNumberSearch(prover).wins(problem.belief(), 9)
    assert prover.stats.nodes < 20_000


DEEP = Path(__file__).resolve().parent.parent / "benchmarks" / "deep"


def test_deeper_bounds_with_three_men_keep_the_verdicts() -> None:
    """``fit_bounds`` (orthodox bounds 8 moves deep with three men) changes the
    speed, not the answers: the default bounds agree depth by depth."""
    problem = load_problem(DEEP / "kq-k-2x2.toml")
    belief = problem.belief()
    fitted, default = Prover(problem.rules), Prover(problem.rules)
    fitted.fit_bounds(belief)
    assert (fitted.viable_depth, default.viable_depth) == (8, 4)
    verdicts = [(fitted.wins(belief, depth), default.wins(belief, depth)) for depth in range(5, 9)]
    assert verdicts == [(False, False)] * 3 + [(True, True)]


def test_deep_problem_solved_with_a_certified_strategy(tmp_path) -> None:
    """K+Q against a king hidden in a 3x3 corner: shortest mate 9 (every shorter
    depth refuted), and the strategy's certificate replays in the checker."""
    from ksolve.certificates import certificate
    from ksolve.checker import check_certificate

    path = DEEP / "kq-k-3x3.toml"
    problem = load_problem(path)
    result = solve(problem)
    assert (result.status, result.moves) == (SOLVED, 9)
    verdict = check_certificate(path, json.loads(json.dumps(certificate(problem, result))))
    assert verdict.verified, verdict.format()


def test_at_most_proves_the_stipulation_without_the_shorter_depths(tmp_path) -> None:
    """``shortest=False`` (``ksolve solve --at-most``): mate within 12 proven
    directly (the strategy certified), no mate within 8 refuted directly."""
    from click.testing import CliRunner

    from ksolve.certificates import certificate
    from ksolve.checker import check_certificate
    from ksolve.cli import main
    from ksolve.solver import NO_SOLUTION

    path = DEEP / "kq-k-3x3.toml"
    problem = load_problem(path)
    result = solve(problem, moves=12, shortest=False)
    assert (result.status, result.moves, result.shortest) == (SOLVED, 12, False)
    assert check_certificate(path, json.loads(json.dumps(certificate(problem, result)))).verified
    assert solve(problem, moves=8, shortest=False).status == NO_SOLUTION
    output = CliRunner().invoke(main, ["solve", str(path), "--moves", "12", "--at-most"])
    assert output.exit_code == 0 and "White mates in at most 12" in output.output
