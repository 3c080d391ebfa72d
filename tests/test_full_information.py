"""Full information (``rules = "orthodox"``): the orthodox search as the exact answer.

Under full information a one-position belief is decided by the orthodox
search alone (``Prover.trust_full_information``).  Checked against the brute
force on the random problems of ``test_solver_vs_bruteforce`` (n <= 3),
against the general search with the trust off on the orthodox mate-in-4/5
corpus of ``benchmarks/orthodox`` (the same keys, verdicts and fewest moves),
and every corpus solution's certificate replayed by the independent checker.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bruteforce import BruteForce
from ksolve import api
from ksolve.checker import check_certificate
from ksolve.rules import get_rules
from ksolve.search.prover import Prover
from test_solver_vs_bruteforce import _reference_belief, generate_problems

CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "orthodox"
SIZES = ("light", "medium", "heavy")


def test_trusted_prover_agrees_with_bruteforce() -> None:
    problems = [(problem, belief) for problem, belief in generate_problems() if problem.rules == "orthodox"]
    assert len(problems) >= 30
    won = 0
    for problem, belief in problems:
        fewest = BruteForce(problem.rules).solve(_reference_belief(problem, belief), problem.moves)
        prover = Prover(get_rules("orthodox"))
        prover.trust_full_information(problem.moves)
        assert prover.solve(belief, problem.moves) == fewest, str(problem)
        won += fewest is not None
    assert 10 <= won < len(problems)


def _corpus(size: str) -> list[Path]:
    paths = sorted(CORPUS.glob(f"{size}-*.toml"))
    assert len(paths) == 10
    return paths


@pytest.mark.parametrize("size", [pytest.param(size, marks=pytest.mark.slow) if size != "light" else size
                                  for size in SIZES])
def test_corpus_same_answers_without_the_trust(size: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys, verdict and fewest moves of each key, with and without the trust."""
    trusted = {path.stem: api.verify(api.load_problem(path), duals=False) for path in _corpus(size)}
    monkeypatch.setattr(Prover, "trust_full_information", lambda self, moves: None)
    for path in _corpus(size):
        general = api.verify(api.load_problem(path), duals=False)
        mine = trusted[path.stem]
        assert (mine.verdict, [(key.move, key.moves) for key in mine.keys]) == \
            (general.verdict, [(key.move, key.moves) for key in general.keys]), path.stem
        assert {t.move for t in mine.tries} == {t.move for t in general.tries}, path.stem


@pytest.mark.parametrize("size", SIZES)
def test_corpus_solutions_are_certified(size: str, tmp_path: Path) -> None:
    """The shortest mate is the stipulation, and the checker replays the strategy."""
    for path in _corpus(size):
        problem = api.load_problem(path)
        solution = api.solve(problem)
        assert (solution.status, solution.moves) == ("solved", problem.moves), path.stem
        verdict = check_certificate(path, json.loads(json.dumps(api.certificate(problem, solution))))
        assert verdict.verified, f"{path.stem}: {verdict.format()}"
