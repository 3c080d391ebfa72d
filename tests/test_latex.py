"""LaTeX diagrams (``ksolve.latex``, ``ksolve export --to latex``): every bundled problem's
diagram, read back from its ``\\pieces`` and ``\\fieldtext`` by a parser of the package's
notation, shows the men of its position and marks the squares of its hidden units; the
booklet typesets with pdflatex where TeX Live's diagram.sty is installed."""

from __future__ import annotations

import re
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

import ksolve
from ksolve import latex
from ksolve.execution import typeset
from ksolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "problems").rglob("*.toml"))
GERMAN = {"K": chess.KING, "D": chess.QUEEN, "T": chess.ROOK, "L": chess.BISHOP, "S": chess.KNIGHT, "B": chess.PAWN}
needs_tex = pytest.mark.skipif(not typeset.tex_available(), reason="pdflatex or diagram.sty not installed "
                               "(Debian: texlive-latex-base texlive-games texlive-pstricks)")


def read_pieces(text: str) -> chess.Board:
    """The board of a diagram's ``\\pieces{wKg6, sKh8}`` (one man per entry, as ksolve writes)."""
    board = chess.Board(None)
    listed = re.search(r"\\pieces\{([^}]*)\}", text)[1]
    for man in listed.split(", "):
        colour, letter, square = man[0], man[1], man[2:]
        assert colour in "ws" and letter in GERMAN, man
        board.set_piece_at(chess.parse_square(square), chess.Piece(GERMAN[letter], colour == "w"))
    return board


def read_marks(text: str) -> dict[str, str]:
    """A diagram's ``\\fieldtext`` marks: square -> text."""
    found = re.search(r"\\fieldtext\{(.*)\}\n", text)
    return {square: mark for mark, square in re.findall(r"\{([^}]*)\}([a-h][1-8])", found[1])} if found else {}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda path: path.stem)
def test_a_diagram_shows_the_men_white_and_black_see_and_marks_the_hidden_units(path: Path) -> None:
    problem = ksolve.load_problem(path)
    text = latex.diagram(problem)
    boards = [chess.Board(fen) for fen in ([problem.fen] if problem.fen else problem.positions)]
    shown = read_pieces(text)
    for square in chess.SQUARES:
        common = {board.piece_at(square) for board in boards}
        assert shown.piece_at(square) == (common.pop() if len(common) == 1 else None), chess.square_name(square)
    marks = read_marks(text)
    for unit in problem.hidden:
        if chess.popcount(unit.squares) <= latex.MARKED_SQUARES:
            letters = "?" if len(problem.hidden) == 1 else "/".join(chess.piece_symbol(p).upper() for p in unit.pieces)
            for square in chess.scan_forward(unit.squares):
                assert letters in marks[chess.square_name(square)].split(","), chess.square_name(square)
    assert len(marks) == len({square for unit in problem.hidden if chess.popcount(unit.squares) <= latex.MARKED_SQUARES
                              for square in chess.scan_forward(unit.squares)}) or not problem.hidden
    assert rf"\stipulation{{{latex.escape(problem.stipulation)}}}" in text
    assert ("Fog of War" if problem.rules.fog else "Kriegspiel") in text
    if problem.hidden and len(problem.hidden) <= 3:
        assert "Hidden: " in text and all(chess.piece_name(unit.pieces[0]) in text for unit in problem.hidden)


def test_a_diagram_says_who_where_when_and_the_solution_with_the_key() -> None:
    text = latex.diagram(ksolve.load_problem(ROOT / "problems" / "rotenberg-1976.toml"), certified=True)
    assert r"\author{Rotenberg, J.}" in text and r"\source{The Problemist}" in text and r"\year{1976}" in text
    assert r"\Co+" in text and r"\remark{Hidden: black bishop on a dark square}" in text
    assert re.search(r"\\solution\{1\.Rg2! .*8\.Kxf2\\#\.\}", text)
    assert r"\Co-" in latex.diagram(ksolve.load_problem(ROOT / "problems" / "foster-1996.toml"), certified=False)


def test_twins_and_specials_are_written_as_latex_reads_them() -> None:
    text = ('id = "t"\ntitle = "50% & more"\nauthor = "A. B. Smith_Jones"\nstipulation = "#1"\nrules = "berkeley"\n'
            '[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'
            '[[twin]]\nname = "b"\nfen = "1k6/8/1K6/8/8/8/8/7R w - - 0 1"\nnote = "the king on b8 & not a8"\n')
    diagram = latex.diagram(ksolve.load_problem_text(text, "t.toml"))
    assert r"\author{Smith\_Jones, A. B.}" in diagram and r"\twins{b) the king on b8 \& not a8}" in diagram


def test_export_writes_one_document_and_refuses_a_pdf_of_another_format(tmp_path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["export", "problems/fog-05.toml", "--to", "latex"])
    assert result.exit_code == 0 and result.output.count(r"\begin{diagram}") == 1
    assert result.output.startswith(r"\documentclass") and r"\putsol" in result.output
    refused = runner.invoke(main, ["export", "problems/fog-05.toml", "--to", "olive", "-o", str(tmp_path / "a.pdf")])
    assert refused.exit_code == 2 and "a PDF is written by --to latex only" in refused.output


def test_a_pdf_without_tex_is_one_error_line_before_any_work(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(typeset, "tex_available", lambda: False)
    result = CliRunner().invoke(main, ["export", "problems", "--to", "latex", "-o", str(tmp_path / "b.pdf")])
    assert result.exit_code == 2 and result.output.count("ksolve: error:") == 1
    assert "needs pdflatex and diagram.sty" in result.output and not (tmp_path / "b.pdf").exists()


@needs_tex
def test_the_whole_collection_typesets_as_a_booklet(tmp_path) -> None:
    result = CliRunner().invoke(main, ["export", "problems", "--to", "latex", "-o", str(tmp_path / "booklet.pdf")])
    assert result.exit_code == 0, result.output
    pdf = (tmp_path / "booklet.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and f"{len(BUNDLED)} diagrams written" in result.output
