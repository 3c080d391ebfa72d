"""Stated conditions on Black's play (``[[condition]]``): the problem format,
the solver against a python-chess brute force (``bruteforce_conditions.py``)
on seeded random small problems, and the checker replaying the certificates
(and rejecting them against the same problem without its condition)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess
import pytest

from bruteforce_conditions import ConditionedBruteForce
from ksolve.certificates import certificate
from ksolve.checker import check_certificate_text
from ksolve.problem import ProblemError, load_problem_text
from ksolve.report import render_report
from ksolve.report.text import render_solution_text
from ksolve.solver import SOLVED, solve
from test_solver_vs_bruteforce import _epds, generate_problems

SEED = 16016
CASES = 25


def problem_text(fen: str, hidden: tuple[str, ...] | list[str], rules: str, moves: int,
                 conditions: list[tuple[list[str], int | None]]) -> str:
    units = ", ".join(f'"{unit}"' for unit in hidden)
    text = f'stipulation = "#{moves}"\nrules = "{rules}"\n'
    for uci, at in conditions:
        text += "[[condition]]\nmoves = [" + ", ".join(f'"{m}"' for m in uci) + "]\n"
        text += f"at = {at}\n" if at is not None else ""
    return text + f'[position]\nfen = "{fen}"\nhidden = [{units}]\n'


def random_conditions(rng: random.Random, epds: frozenset[str], moves: int) -> list[tuple[list[str], int | None]]:
    """A condition that can bite: a black man of a random member that will not
    move (every move from its square), always or at one reply; sometimes a
    second one naming a few single moves."""
    board = chess.Board(sorted(epds)[rng.randrange(len(epds))] + " 0 1")
    square = rng.choice(list(chess.scan_forward(board.occupied_co[chess.BLACK])))
    frozen = [chess.square_name(square) + chess.square_name(to) for to in chess.SQUARES if to != square]
    found = [(frozen, rng.choice([None, None, 1] + ([2] if moves >= 3 else [])))]
    if rng.random() < 0.3:
        board.push(rng.choice(list(board.legal_moves)))
        replies = sorted(move.uci() for move in board.legal_moves)
        if replies:
            found.append((rng.sample(replies, min(len(replies), 2)), None))
    return found


def cases(count: int = CASES) -> list[tuple[str, object, list]]:
    rng = random.Random(SEED)
    found = []
    for problem, belief in generate_problems(count * 4, SEED):
        if problem.moves != 2 or problem.rules not in ("berkeley", "wild16", "orthodox"):
            continue
        conditions = random_conditions(rng, _epds(belief), problem.moves)
        if conditions:
            found.append((problem_text(problem.fen, problem.hidden, problem.rules, problem.moves, conditions),
                          problem, conditions))
        if len(found) == count:
            break
    return found


def brute_fewest(problem, conditions, epds: frozenset[str]) -> int | None:
    reference = [(frozenset(uci), at) for uci, at in conditions]
    return next((n for n in range(1, problem.moves + 1)
                 if ConditionedBruteForce(problem.rules, reference, n).wins(epds, n)), None)


def _agrees(text: str, problem, conditions) -> tuple[int | None, int | None, object]:
    """(the brute force's fewest moves, ksolve's, ksolve's solution) for one problem text."""
    loaded = load_problem_text(text)
    expected = brute_fewest(problem, conditions, _epds(loaded.belief()))
    result = solve(loaded, tree=True)
    return expected, result.moves if result.status == SOLVED else None, result


def test_random_conditions_agree_with_bruteforce() -> None:
    """Random small problems with a black man that will not move (always or at one
    reply) and a few named moves: ksolve's shortest win equals the brute force's,
    and every win's certificate is verified by the checker."""
    failures, won = [], 0
    for text, problem, conditions in cases(CASES):
        expected, got, result = _agrees(text, problem, conditions)
        if got != expected:
            failures.append(f"{problem} {conditions}: brute force {expected}, ksolve {got}")
        elif got is not None:
            won += 1
            verdict = check_certificate_text(text, certificate(load_problem_text(text), result))
            assert verdict.verified, verdict.format()
    assert not failures, "\n".join(failures)
    assert won >= 5


# Positions (found by the brute force among random K+Q v K mates in 2 in orthodox play) that
# Kriegspiel cannot mate in 2 unless Black keeps the stated condition at his first reply.
BITING = [
    ("6k1/3Q4/8/4K3/8/8/8/8 w - - 0 1", ["g8f8"]),
    ("1k6/7Q/3K4/8/8/8/8/8 w - - 0 1", ["b8c8"]),
    ("3k4/7Q/8/3K4/8/8/8/8 w - - 0 1", ["d8c8"]),
    ("5k2/2Q5/8/5K2/8/8/8/8 w - - 0 1", ["f8g8"]),
    ("8/7k/8/6K1/6Q1/8/8/8 w - - 0 1", ["h7h8", "h7g7"]),
]


@dataclass(frozen=True)
class _Plain:
    fen: str
    rules: str = "berkeley"
    moves: int = 2
    hidden: tuple[str, ...] = ()


@pytest.mark.parametrize("fen,moves", BITING, ids=[fen.split()[0] for fen, _ in BITING])
def test_a_condition_that_makes_the_win_and_its_move_number(fen: str, moves: list[str]) -> None:
    """Without the condition no mate in 2; with it at Black's first reply (or always) ksolve
    and the brute force agree, at his second reply (after the last move) too, and the
    checker rejects the strategy against the problem without the condition."""
    problem = _Plain(fen)
    plain = problem_text(fen, [], "berkeley", 2, [])
    assert _agrees(plain, problem, [])[:2] == (None, None)
    verdicts = {}
    for at in (1, None, 2):
        text = problem_text(fen, [], "berkeley", 2, [(moves, at)])
        expected, got, result = _agrees(text, problem, [(moves, at)])
        assert got == expected, (at, expected, got)
        verdicts[at] = got
        if got is not None:
            proof = certificate(load_problem_text(text), result)
            assert check_certificate_text(text, proof).verified
            assert not check_certificate_text(plain, {**proof, "problem_sha256": None}).verified
    assert verdicts[1] == 2 and verdicts[2] is None  # the move number decides


ROOK_MATE = "k7/8/1K6/8/8/8/8/7R w - - 0 1"


def test_conditions_are_shown_in_the_report() -> None:
    text = problem_text(ROOK_MATE, [], "berkeley", 1, [(["a8b8"], None)]) + ""
    text = text.replace("[[condition]]\n", "[[condition]]\nnote = \"Black promises not to play Kb8\"\n")
    loaded = load_problem_text(text)
    result = solve(loaded)
    report = render_solution_text(loaded, result)
    assert "Condition: Black will not play a8b8 (Black promises not to play Kb8)" in report
    page = render_report("html", loaded, result)
    assert "<dt>Condition</dt><dd>Black will not play a8b8 (Black promises not to play Kb8)</dd>" in page


@pytest.mark.parametrize("table,field,reason", [
    ('[[condition]]\nmoves = ["Bb7"]\n', "condition[1].moves", "'Bb7' is not a UCI move"),
    ('[[condition]]\nat = 1\n', "condition[1].moves", "missing"),
    ('[[condition]]\nmoves = ["c8b7"]\nat = 9\n', "condition[1].at", "must be Black's move number, 1 to 2"),
    ('[[condition]]\nmove = "c8b7"\nwhen = 1\n', "condition[1].when", "unknown field"),
])
def test_bad_conditions_are_one_line_errors(table: str, field: str, reason: str) -> None:
    text = 'stipulation = "#2"\nrules = "berkeley"\n' + table + f'[position]\nfen = "{ROOK_MATE}"\n'
    with pytest.raises(ProblemError) as caught:
        load_problem_text(text, "bad.toml")
    assert caught.value.field_name == field and reason in caught.value.reason


@pytest.mark.parametrize("move", ["e8f8", "h8f8"])
def test_a_king_or_rook_move_condition_leaves_castling_allowed(move: str) -> None:
    """Castling empties two squares and fills two: a condition on Kf8 or Rf8
    must not also forbid O-O (the checker, which compares moves, keeps it)."""
    text = (f'stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "4k2r/KQ6/8/8/8/8/8/R7 w k - 0 1"\n'
            f'[[condition]]\nmoves = ["{move}"]\n')
    problem = load_problem_text(text)
    result = solve(problem)
    if result.status == SOLVED:
        assert check_certificate_text(text, certificate(problem, result)).verified
    brute = ConditionedBruteForce("berkeley", [(frozenset({move}), None)], total=2)
    assert (result.status == SOLVED) == brute.wins(frozenset({chess.Board(problem.fen).epd()}), 2)


def test_conditions_with_probes_are_refused_whatever_the_rules_option() -> None:
    from ksolve.analysis import Analysis

    problem = load_problem_text('stipulation = "#2"\nrules = "berkeley"\n[position]\n'
                                'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n[[condition]]\nmoves = ["a8b8"]\n')
    with pytest.raises(ProblemError, match="condition: \\[\\[condition\\]\\] together with probes \\(modern\\)"):
        Analysis(problem, rules="modern")


def test_listed_positions_at_different_move_numbers_with_a_numbered_condition_are_refused() -> None:
    text = ('stipulation = "#2"\nrules = "berkeley"\n[position]\npositions = ["k7/8/1K6/8/8/8/8/7R w - - 0 1", '
            '"k7/8/1K6/8/8/8/8/6R1 w - - 0 5"]\n[[condition]]\nmoves = ["a8b8"]\nat = 1\n')
    with pytest.raises(ProblemError, match="position.positions: move numbers 1 to 5"):
        load_problem_text(text)
