"""The Fog-of-War problems of ``problems/`` (composed with ksolve): each sound
with its key and tries, its certificate replayed by the independent checker;
the themes they show (a hidden king, en passant visibility, castling through
an attacked square) checked on the board; the reports in Fog-of-War
conventions (White's view as the diagram, the fog)."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from ksolve.certificates import certificate
from ksolve.checker import fog as checker_fog
from ksolve.checker import check_certificate
from ksolve.problem import load_problem
from ksolve.report import render_report
from ksolve.report.text import render_solution_text
from ksolve.solver import SOLVED, solve
from ksolve.verification import verify

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
FOG = sorted(p for p in PROBLEMS.glob("*.toml") if 'rules = "fog-of-war"' in p.read_text())


def test_the_fog_of_war_set() -> None:
    assert len(FOG) >= 10
    problems = [load_problem(path) for path in FOG]
    assert all(p.goal == "king-capture" and p.stipulation.startswith("xk") for p in problems)
    assert all(any("k" in unit.spec.split(":")[0] for unit in p.hidden) for p in problems), "each hides the king"


QUICK = {"fog-01", "fog-03"}  # the others (about 5 s each) run with the slow tests


@pytest.mark.parametrize("path", [pytest.param(p, marks=() if p.stem in QUICK else pytest.mark.slow) for p in FOG],
                         ids=lambda p: p.stem)
def test_fog_problem_is_sound_with_tries_and_its_certificate_replays(path: Path) -> None:
    problem = load_problem(path)
    report = verify(problem)
    assert report.verdict == "sound" and [k.move for k in report.keys] == [problem.published_key], report.line()
    refuted = [t for t in report.tries if t.refutation is not None]
    assert refuted, "each problem has tries with their refutations"
    result = solve(problem)
    assert result.status == SOLVED and result.moves == problem.moves
    checked = check_certificate(path, certificate(problem, result))
    assert checked.verified, checked.format()


def test_en_passant_visibility() -> None:
    """fog-11: the b5 pawn is in White's view only because c5xb6 e.p. is possible, for
    ksolve's referee and for the checker's own view alike."""
    problem = load_problem(PROBLEMS / "fog-11.toml")
    board = chess.Board(problem.fen)
    assert board.ep_square == chess.B6
    view = problem.rules.turn_info(problem.belief().positions)[0]
    assert problem.rules.view_squares(view) >> chess.B5 & 1
    assert "b5" in checker_fog.view(board)["visible"]
    board.ep_square = None
    assert "b5" not in checker_fog.view(board)["visible"]


def test_reports_show_whites_view_and_the_fog() -> None:
    problem = load_problem(PROBLEMS / "fog-06.toml")
    result = solve(problem)
    text = render_solution_text(problem, result)
    assert "White's view (? the fog," in text and "Sees K" in text and "mate" not in text.split("\n")[1]
    html = render_report("html", problem, result)
    assert html.count('class="fog"') > 20 and "the fog:" in html and "squares White does not see" in html


def test_castling_from_an_attacked_square() -> None:
    """fog-12: the key castles with the king attacked on e1 (illegal in orthodox chess,
    legal in Fog of War, for ksolve's move generator and the checker's alike)."""
    problem = load_problem(PROBLEMS / "fog-12.toml")
    assert problem.published_key == "e1g1"
    board = chess.Board(problem.fen)
    board.set_piece_at(chess.A5, chess.Piece(chess.BISHOP, chess.BLACK))
    board.set_piece_at(chess.F8, chess.Piece(chess.KING, chess.BLACK))
    assert board.is_attacked_by(chess.BLACK, chess.E1) and chess.Move.from_uci("e1g1") not in board.legal_moves
    assert chess.Move.from_uci("e1g1") in checker_fog.fog_moves(board)
    report = verify(problem)
    assert [k.move for k in report.keys] == ["e1g1"]
    rook_try = next(t for t in report.tries if t.move == "h1f1")
    assert "Capture at e1, king captured" in rook_try.as_dict()["refutation"]  # the bishop takes the king
