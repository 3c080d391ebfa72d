"""Variant presets (``variant = "semikriegspiel" | "pickle-pot" | "one-eye"``):
the black men and rule set they fill in, the report's line, one-line errors,
the checker's own reading of the presets (same initial positions), and the
bundled variant problems solved with their certificates replayed."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from ksolve.certificates import certificate
from ksolve.checker.problem import parse_problem
from ksolve.checker import check_certificate
from ksolve.problem import ProblemError, load_problem, load_problem_text
from ksolve.report.text import render_solution_text
from ksolve.solver import SOLVED, solve

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
SCHOLAR = "8/8/8/7Q/2B5/8/8/4K3 w - - 0 1"


def _text(variant: str, fen: str = SCHOLAR, stipulation: str = "#1", extra: str = "") -> str:
    return f'stipulation = "{stipulation}"\nvariant = {variant}\n{extra}[position]\nfen = "{fen}"\n'


@pytest.mark.parametrize("variant,black", [
    ('{name = "pickle-pot", bishop = "c8"}', "2bqk3/pppppppp"),
    ('{name = "one-eye", bishop = "f8"}', "r3kb1r/pppppppp"),
])
def test_home_presets_place_black_at_home(variant: str, black: str) -> None:
    problem = load_problem_text(_text(variant))
    (row,) = [problem.belief().positions[0]]
    from ksolve.board import position_to_board

    board = position_to_board(row)
    assert board.board_fen().startswith(black + "/8/7Q/2B5")
    assert problem.rules.name == "berkeley" and problem.variant is not None


def test_semikriegspiel_places_king_and_queen_on_every_legal_pair() -> None:
    """Black's king and queen on every pair of empty squares that python-chess calls a
    legal position (Black, not to move, not in check: the queen may shield her king)."""
    fen = "8/8/8/8/8/8/8/QQ2K3 w - - 0 1"
    problem = load_problem_text(_text('"semikriegspiel"', fen))
    expected, base = 0, chess.Board(fen)
    for king in chess.SQUARES:
        for queen in chess.SQUARES:
            board = base.copy(stack=False)
            if king == queen or board.piece_at(king) or board.piece_at(queen):
                continue
            board.set_piece_at(king, chess.Piece(chess.KING, chess.BLACK))
            board.set_piece_at(queen, chess.Piece(chess.QUEEN, chess.BLACK))
            expected += board.status() == chess.STATUS_VALID
    assert len(problem.belief()) == expected > 1000


def test_the_checker_reads_the_presets_itself() -> None:
    for variant, fen in [('"semikriegspiel"', "8/8/8/8/8/8/8/QQ2K3 w - - 0 1"),
                         ('{name = "pickle-pot", bishop = "f8"}', SCHOLAR),
                         ('{name = "one-eye", bishop = "c8"}', SCHOLAR)]:
        text = _text(variant, fen)
        assert len(parse_problem(text).boards) == len(load_problem_text(text).belief())


def test_the_report_names_the_variant() -> None:
    problem = load_problem_text(_text('{name = "pickle-pot", bishop = "c8"}'))
    report = render_solution_text(problem, solve(problem))
    assert "Variant: Pickle-pot (Frankenstein 1903): Black, who sees the board, has king, queen, the c8 bishop" in report
    assert "Key 1.Qxf7#!" in report


@pytest.mark.parametrize("variant,fen,extra,field,reason", [
    ('"pickle-pot"', SCHOLAR, "", "variant", "must name: bishop = 'c8' or 'f8'"),
    ('"dutch"', SCHOLAR, "", "variant", "unknown variant 'dutch'"),
    ('"semikriegspiel"', "k7/8/8/8/8/8/8/4K3 w - - 0 1", "", "position.fen", "holds black men on a8"),
    ('{name = "one-eye", bishop = "c8"}', "4Q3/8/8/8/8/8/8/4K3 w - - 0 1", "", "position.fen",
     "a white man stands where the one-eye preset puts Black's k:e8"),
    ('"semikriegspiel"', SCHOLAR, 'rules = "fog-of-war"\n', "rules", "use a Kriegspiel rule set"),
    ('{name = "one-eye", bishop = "c8", colour = "black"}', SCHOLAR, "", "variant.colour", "unknown field"),
])
def test_bad_variants_are_one_line_errors(variant: str, fen: str, extra: str, field: str, reason: str) -> None:
    with pytest.raises(ProblemError) as caught:
        load_problem_text(_text(variant, fen, extra=extra), "bad.toml")
    assert caught.value.field_name == field and reason in caught.value.reason, caught.value


def test_hidden_units_are_refused_with_a_preset() -> None:
    text = _text('"semikriegspiel"').replace('fen = ', 'hidden = ["p:a7"]\nfen = ')
    with pytest.raises(ProblemError, match="places Black's men itself"):
        load_problem_text(text, "bad.toml")


VARIANT_FILES = sorted(p for p in PROBLEMS.glob("*.toml") if "variant =" in p.read_text())


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_bundled_variant_problems_are_solved_and_certified(path: Path) -> None:
    problem = load_problem(path)
    result = solve(problem)
    assert result.status == SOLVED and result.moves == problem.moves
    assert result.key == problem.published_key
    assert check_certificate(path, certificate(problem, result)).verified


def test_every_variant_has_a_bundled_problem() -> None:
    names = {load_problem(path).variant.name for path in VARIANT_FILES}
    assert names == {"semikriegspiel", "pickle-pot", "one-eye"}


@pytest.mark.parametrize("fen,moves,expected", [
    ("QQQQQQQQ/8/8/8/8/8/8/4K3 w - - 0 1", 2, 2),   # eight queens: mate in 2, not in 1
    ("QQQQ4/8/8/8/8/8/8/4K3 w - - 0 1", 3, None),   # four queens: no mate in 3
    ("8/8/8/8/8/8/8/3QK3 w - - 0 1", 3, None),      # king and queen: no mate in 3
    ("8/8/8/8/8/8/8/Q2QK2R w - - 0 1", 3, None),    # two queens and a rook: no mate in 3
])
def test_semikriegspiel_questions(fen: str, moves: int, expected: int | None) -> None:
    """Which material forces mate against a king and queen placed anywhere (the questions
    problems/semikriegspiel-01.toml's notes report)."""
    problem = load_problem_text(_text('"semikriegspiel"', fen, f"#{moves}"))
    result = solve(problem, tree=False)
    assert (result.moves if result.status == SOLVED else None) == expected
