"""Solutions as problemists print them: SAN checked against python-chess in
every position of the strategy, the published-style main line of Rotenberg
1976, variations, the full tree and the several-first-announcements case."""

from __future__ import annotations

import re
from pathlib import Path

import chess
import pytest

import ksolve
from ksolve.board import move_from_uci, position_to_board
from ksolve.report.lines import main_line, path_text
from ksolve.report.text import render_solution_text
from ksolve.search.base import make_search
from ksolve.solution import strategy_tree

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
DISAMBIGUATION = re.compile(r"^([NBRQK])[a-h]?[1-8]?(x?[a-h][1-8])")


def _plain(san: str) -> str:
    """SAN without the origin's file or rank (White's own board and the true
    position may disambiguate differently)."""
    return DISAMBIGUATION.sub(r"\1\2", san)


@pytest.mark.parametrize("name", ["foster-1996", "rotenberg-1976", "anderson-05", "anderson-27"])
def test_every_move_in_the_tree_is_python_chess_san_in_its_class(name: str) -> None:
    """Each answer edge's SAN (x, +, # included) is what python-chess writes for
    the move in every position of that answer class; each named Black reply is
    python-chess's SAN of a move into that class."""
    problem = ksolve.load_problem(PROBLEMS / f"{name}.toml")
    analysis = ksolve.Analysis(problem)
    solution = ksolve.solve(analysis)
    prover = analysis.prover()
    wins = make_search("pn", prover).wins
    assert [all(wins(first.belief, depth) for first in analysis.classes)
            for depth in range(1, solution.moves + 1)][-1]  # deepening as solve does: the table then holds the proof
    checked = 0
    for first in analysis.classes:
        beliefs: dict = {}
        tree = strategy_tree(prover, first.belief, solution.moves, beliefs)
        for node, (belief, _) in beliefs.items():
            for _, attempt, edge in tree.out_edges(node, data=True):
                if edge["kind"] != "attempt":
                    continue
                move = move_from_uci(edge["move"])
                expected = {tuple(data["key"]): data["san"] for _, _, data in tree.out_edges(attempt, data=True)}
                keys = problem.rules.attempt(belief.positions, move).keys  # one row per position
                for row, key in zip(belief.positions, keys):
                    san = expected[tuple(int(k) for k in key)]
                    if san is None:  # refused here
                        continue
                    board = position_to_board(row)
                    assert _plain(san) == _plain(board.san(chess.Move.from_uci(edge["move"]))), (name, edge)
                    checked += 1
        for parent, child, data in tree.edges(data=True):
            if data["kind"] == "reply" and data.get("san"):
                assert data["san"][0] in "KQRBN" or data["san"][0] in "abcdefgh"
    assert checked > 0


def test_rotenberg_reads_as_published() -> None:
    problem = ksolve.load_problem(PROBLEMS / "rotenberg-1976.toml")
    text = render_solution_text(problem, ksolve.solve(problem))
    lines = text.splitlines()
    assert lines[1] == "White mates in 8. Key 1.Rg2! (the published key)"
    assert lines[3] == "1.Rg2! 2.Rg8 3.Rh8 4.Rh5 5.Rb5 6.Rb1 7.Nf2+ Bxf2 8.Kxf2#"
    assert "  1.Rg2 No (B b2/d2/f2): 1.Nf2#" in lines
    assert "  5.Rb5 No (B c5/e5/g5): 5.Rh3 6.Be5 7.Nf2+ Bxf2 8.Rxh2#" in lines
    assert "  1...Bxf6 2.Nf2# (the same at moves 2, 3, 4, 5, 6)" in lines
    assert len(lines) < 25  # the full tree is over 80 lines
    full = render_solution_text(problem, ksolve.solve(problem), full=True)
    assert "1... Silent [30]" in full and "8.Kxf2# (Capture at f2, checkmate)" in full
    assert len(full.splitlines()) > 80


def test_main_line_and_paths_of_a_tree() -> None:
    problem = ksolve.load_problem(PROBLEMS / "foster-1996.toml")
    solution = ksolve.solve(problem)
    line = main_line(solution.tree)
    assert line.moves == ["1.Ra4!", "2.Qd6#"] and line.count() > 10
    refused = next(node for node, data in solution.tree.nodes(data=True)
                   if data["kind"] == "white" and data["number"] == 1 and node != 0)
    assert path_text(solution.tree, refused).startswith("1.R")


def test_several_first_announcements_each_get_a_line() -> None:
    """Fog of War: what White sees first splits the belief; each class has its own key."""
    problem = ksolve.load_problem_text(
        'stipulation = "xk2"\nrules = "fog-of-war"\n[position]\nfen = "8/8/8/8/8/8/8/R3K3 w - - 0 1"\n'
        'hidden = ["k:a5,a8"]\n')
    solution = ksolve.solve(problem)
    assert solution.tree.nodes[0]["kind"] == "start"
    text = render_solution_text(problem, solution)
    assert "White captures the king in 1 (the stipulation is 2). One strategy per first announcement." in text
    variations = main_line(solution.tree).variations
    assert len(variations) == 2 and all(line.opening.endswith(":") for line in variations)
    assert sorted(line.moves[0] for line in variations) == ["1.Rxa5!", "1.Rxa8!"]
