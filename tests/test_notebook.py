"""Jupyter displays (``ksolve.report.notebook``): the problem's SVG diagram with
the hidden units' possible squares, the solution's and the verification's HTML."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from pathlib import Path

import chess
import pytest

from ksolve.problem import Problem, load_problem, load_problem_text
from ksolve.report import notebook
from ksolve.report.diagram import SQUARE
from ksolve.report.notebook import MARK_CLASS, problem_svg, solution_html, verification_html
from ksolve.report.text import render_lines
from ksolve.solver import Solution, solve

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
SVG = "{http://www.w3.org/2000/svg}"
HREF = ("href", "{http://www.w3.org/1999/xlink}href")
TINY = 'stipulation = "#1"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'


def tiny(text: str = TINY) -> Problem:
    return load_problem_text(text)


def markers(svg: str) -> list[ET.Element]:
    """The possible-square markers of a diagram (which must be well-formed XML)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [element for element in root.iter() if MARK_CLASS in (element.get("class") or "").split()]


def assert_standalone(svg: str) -> None:
    """Every piece the diagram shows is drawn from a definition inside it."""
    root = ET.fromstring(svg)
    ids = {element.get("id") for element in root.iter() if element.get("id")}
    used = [next(element.get(name) for name in HREF if element.get(name))
            for element in root.iter(f"{SVG}use") if any(element.get(name) for name in HREF)]
    pieces = [href for href in used if href.startswith(("#white-", "#black-"))]
    assert pieces and all(href[1:] in ids for href in pieces)


def test_rotenberg_marks_exactly_the_bishops_squares() -> None:
    problem = load_problem(PROBLEMS / "rotenberg-1976.toml")
    svg = problem._repr_svg_()
    assert svg == problem_svg(problem)
    found = markers(svg)
    occupied = chess.BaseBoard(problem.fen.split()[0]).occupied
    expected = {chess.square_name(s) for s in chess.scan_forward(chess.BB_DARK_SQUARES & ~occupied)}
    assert len(expected) == 30
    assert len(found) == 30
    assert {marker.get("data-square") for marker in found} == expected
    assert {marker.get("class") for marker in found} == {f"{MARK_CLASS} ks-unit-0"}  # one unit, one colour
    assert len({marker.get("fill") for marker in found}) == 1
    assert all(marker.tag == f"{SVG}circle" and float(marker.get("r")) < SQUARE / 3 for marker in found)
    assert all("black bishop" in marker.findtext(f"{SVG}title") for marker in found)
    assert_standalone(svg)
    assert svg.count('<use href="#white-') == 4 and svg.count('<use href="#black-') == 2  # the visible men


def test_several_units_get_one_marker_each_in_their_colour() -> None:
    problem = tiny(TINY + 'hidden = ["p?:a4,c4", "n?:c4,e4"]\n')
    found = markers(problem_svg(problem))
    by_square = {}
    for marker in found:
        by_square.setdefault(marker.get("data-square"), []).append(marker.get("class").split()[1])
    assert by_square == {"a4": ["ks-unit-0"], "c4": ["ks-unit-0", "ks-unit-1"], "e4": ["ks-unit-1"]}
    colors = {marker.get("class"): marker.get("fill") for marker in found}
    assert len(set(colors.values())) == 2


def test_no_hidden_units_no_markers_and_escaped_title() -> None:
    problem = tiny('title = "Rook <mate> & co"\n' + TINY)
    svg = problem_svg(problem, size=200)
    assert markers(svg) == [] and 'width="200"' in svg
    assert ET.fromstring(svg).findtext(f"{SVG}title").startswith("Rook <mate> & co")
    assert_standalone(svg)


def test_problem_given_as_positions_renders() -> None:
    problem = tiny('stipulation = "#2"\nrules = "berkeley"\n[position]\npositions = '
                   '["8/8/5B2/8/8/3N4/Rb5p/5K1k w - - 0 1", "8/8/5B2/8/8/3N4/R2b3p/5K1k w - - 0 1"]\n')
    assert problem.fen is None
    svg = problem._repr_svg_()
    assert {marker.get("data-square") for marker in markers(svg)} == {"b2", "d2"}
    assert_standalone(svg)
    assert 'href="#white-rook"' in svg and 'href="#white-knight"' in svg


def test_roche_positions_problem_renders() -> None:
    problem = load_problem(PROBLEMS / "roche-1986.toml")
    found = markers(problem_svg(problem))
    squares = {marker.get("data-square") for marker in found}
    assert {"d2", "f6", "g8", "a4", "a7"} <= squares  # the king's and the pawn's squares


def test_solved_solution_html() -> None:
    solution = solve(tiny())
    page = solution._repr_html_()
    assert page == solution_html(solution)
    assert "solved" in page and "1.Rh8!" in page
    assert "solved: White mates in 1, key 1.Rh8!" in page
    assert "Belief: 1 position" in page
    assert f"<pre>{html.escape(render_lines(solution.tree))}</pre>" in page  # the solution as `ksolve solve` prints it
    assert "<details>" not in page  # short: shown open
    assert "<svg" in page and "<script" not in page


def test_key_label_comes_from_the_tree_else_the_uci() -> None:
    solution = solve(tiny())
    solution.tree = None
    assert "key 1.h1h8!" in solution_html(solution)
    solution.problem = None
    assert "<svg" not in solution_html(solution)


def test_long_strategy_is_collapsed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notebook, "MAX_OPEN_LINES", 0)
    solution = solve(tiny())
    text = render_lines(solution.tree)
    page = solution._repr_html_()
    assert f"<details><summary>Strategy ({text.count(chr(10)) + 1} lines)</summary><pre>{html.escape(text)}" in page


def test_no_solution_and_unknown_show_status_and_reason() -> None:
    page = solve(tiny(TINY.replace("k7/8/1K6/8/8/8/8/7R", "k7/8/8/8/8/8/8/K6R")))._repr_html_()
    assert "no solution: White cannot win within 1 move<" in page
    unknown = Solution("unknown", None, 8, None, 30, 1000, 1.5, reason="node limit <1000> reached")
    page = unknown._repr_html_()
    assert "unknown: node limit &lt;1000&gt; reached" in page and "<1000>" not in page
    assert "<pre>" not in page


def test_verification_html() -> None:
    from ksolve.verification import verify

    verification = verify(tiny(TINY + '[published]\nkey = "h1h8"\n'))
    page = verification._repr_html_()
    assert page == verification_html(verification)
    assert "<strong>Sound</strong> White mates in 1: key" in page and "1.Rh8!" in page
    assert page.count('class="verdict') == 1 and "Verdict" not in page  # one verdict, said once
