"""Rich displays for Jupyter, as python-chess boards show themselves in notebooks.

``Problem._repr_svg_`` calls ``problem_svg``, ``Solution._repr_html_`` calls
``solution_html`` and ``Verification._repr_html_`` calls
``verification_html``.  They reuse the HTML report's pieces
(``ksolve.report.html``, ``ksolve.report.diagram``, ``ksolve.report.text``):
the same diagram with the hidden units' possible squares dotted, the same
solution text, the same verdict block.  Each output stands alone: the SVG
carries the drawings of its pieces, the HTML needs no script and no page
style (a few inline rules, scoped to its own classes).

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
...                             'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> problem._repr_svg_().startswith("<svg")
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import chess

from ksolve.report.lines import key_label

if TYPE_CHECKING:
    from ksolve.problem import Problem
    from ksolve.report.position import UnitMark
    from ksolve.solver import Solution
    from ksolve.verification import Verification

MARK_CLASS = "ks-hidden"
"""The class of every marker of a possible square (one per hidden unit and square)."""
MAX_OPEN_LINES = 40
"""A solution longer than this many lines starts collapsed."""
DIAGRAM_SIZE = 360
"""The diagram's width and height in pixels (``problem_svg``)."""
SOLUTION_DIAGRAM_SIZE = 280
"""The diagram's size next to a solution."""

_e = html.escape
_CIRCLE = re.compile(r"<circle ([^>]*?)\s*/>")

STYLE = """<style>
.ksolve-nb{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.4}
.ksolve-nb .ks-top{display:flex;gap:18px;flex-wrap:wrap;align-items:flex-start}
.ksolve-nb .ks-status{font-weight:600;margin:.2em 0}
.ksolve-nb .ks-status.good,.ksolve-nb .verdict.good{color:#1b5e20}
.ksolve-nb .ks-status.bad,.ksolve-nb .verdict.bad{color:#b71c1c}
.ksolve-nb .ks-meta,.ksolve-nb .caption{color:#555;font-size:.9em;margin:.2em 0}
.ksolve-nb .ks-legend{list-style:none;padding:0;margin:.3em 0;font-size:.9em}
.ksolve-nb .ks-sw{display:inline-block;width:.8em;height:.8em;border-radius:50%;border:1px solid #555;
vertical-align:-1px;margin-right:6px}
.ksolve-nb pre{margin:.3em 0;padding:6px 8px;background:#f6f6f6;border-radius:4px;line-height:1.3}
.ksolve-nb .move.key{color:#0b5394;font-weight:600}
</style>"""
"""Inline rules for the HTML fragments, every selector under ``.ksolve-nb``."""


def _piece_defs(board: chess.BaseBoard) -> str:
    """``<defs>`` with the drawings of the pieces on ``board`` (``diagram.board``
    leaves them out: a page shares one copy, a notebook output stands alone)."""
    import chess.svg

    symbols = sorted({piece.symbol() for piece in board.piece_map().values()})
    return f"<defs>{''.join(chess.svg.PIECES[symbol] for symbol in symbols)}</defs>" if symbols else ""


def _tagged_dots(marks: dict[int, list[int]], units: list[UnitMark], margin: float) -> tuple[str, str]:
    """The dots ``diagram.dots`` draws for ``marks`` (square -> unit indices), and
    the same dots each with the class ``MARK_CLASS``, its unit, its square and a tooltip."""
    from ksolve.report import diagram

    plain, tagged = [], []
    for square, indices in marks.items():
        dots = diagram.dots({square: [units[index].color for index in indices]}, margin)
        circles = iter(indices)

        def tag(match: re.Match[str], square: int = square, circles: Iterator[int] = circles) -> str:
            index = next(circles)
            return (f'<circle class="{MARK_CLASS} ks-unit-{index}" data-square="{chess.square_name(square)}" '
                    f'{match.group(1)}><title>{_e(units[index].label)}</title></circle>')

        plain.append(dots)
        tagged.append(_CIRCLE.sub(tag, dots))
    return "".join(plain), "".join(tagged)


def problem_svg(problem: Problem, size: int = DIAGRAM_SIZE) -> str:
    """The problem's diagram as a standalone SVG: the visible men (for a problem
    given as explicit positions, White's men and the black men standing in
    every position) and, under them, a dot on each square where a hidden unit
    may stand, one colour per unit (``ksolve.report.html.hidden_marks``; the
    dots are ``<circle class="ks-hidden ks-unit-N" data-square="e4">``).

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
    ...                             'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\nhidden = ["p?:a4,c4"]\\n')
    >>> svg = problem_svg(problem)
    >>> svg.count('class="ks-hidden'), 'data-square="c4"' in svg, '<g id="white-rook"' in svg
    (2, True, True)
    """
    from ksolve.report import diagram
    from ksolve.report.position import hidden_marks, visible_board

    units = hidden_marks(problem)
    board = visible_board(problem)
    marks: dict[int, list[int]] = {}
    for index, unit in enumerate(units):
        for square in chess.scan_forward(unit.mask):
            marks.setdefault(square, []).append(index)
    marks = dict(sorted(marks.items()))
    hidden = "; ".join(unit.label for unit in units)
    title = f"{problem.name} ({problem.stipulation}): the visible position" + (f"; {hidden}" if hidden else "")
    colors = {square: [units[index].color for index in indices] for square, indices in marks.items()}
    svg = diagram.board(board, colors, size=size, title=title)
    plain, tagged = _tagged_dots(marks, units, diagram.SQUARE / 3)
    if plain:  # diagram.board drew the dots: the same, tagged (one per unit and square)
        svg = svg.replace(plain, tagged, 1)
    end = svg.rindex("</svg>")
    return svg[:end] + _piece_defs(board) + svg[end:]


def _legend(problem: Problem) -> str:
    """The hidden units' colours and squares as a list (empty when none)."""
    from ksolve.report.position import hidden_marks

    units = hidden_marks(problem)
    items = "".join(f'<li><span class="ks-sw" style="background:{_e(unit.color)}"></span>{_e(unit.label)}</li>'
                    for unit in units)
    return f'<ul class="ks-legend">{items}</ul>' if items else ""


def _goal_words(solution: Solution) -> str:
    """``mates`` or ``captures the king``: the problem's goal, else the rule set's."""
    if solution.problem is not None:
        goal = solution.problem.goal
    else:
        from ksolve.rules import get_rules

        goal = get_rules(solution.rules).goal if solution.rules else "mate"
    return "captures the king" if goal == "king-capture" else "mates"


def _moves(count: int | None) -> str:
    return f"{count} move{'' if count == 1 else 's'}"


def status_line(solution: Solution) -> str:
    """The result in one line (plain text).

    >>> from ksolve.problem import load_problem_text
    >>> from ksolve.solver import solve
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
    ...                             'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> status_line(solve(problem))
    'solved: White mates in 1, key 1.Rh8!'
    """
    reason = f" ({solution.reason})" if solution.reason else ""
    if solution.status == "solved":
        within = "in" if solution.shortest else "within"
        text = f"solved: White {_goal_words(solution)} {within} {solution.moves}"
        label = key_label(solution)
        if label:
            text += f", key {label}"
        elif len(solution.classes) > 1:
            text += ", the first move depends on what White hears first"
        return text + reason
    if solution.status == "no solution":
        return f"no solution: White cannot win within {_moves(solution.max_moves)}{reason}"
    if solution.status == "unknown":
        return f"unknown: {solution.reason or 'the search stopped'} (within {_moves(solution.max_moves)})"
    return f"{solution.status}{reason}"


def _strategy(solution: Solution) -> str:
    """The solution as ``ksolve solve`` prints it (the main line and its variations) in a
    ``<pre>``, collapsed when long."""
    from ksolve.report.text import render_lines

    tree = solution.tree
    if tree is None or not tree.number_of_nodes():
        return '<p class="ks-meta">No strategy tree.</p>' if solution.status == "solved" else ""
    text = render_lines(tree)
    lines = text.count("\n") + 1
    block = f"<pre>{_e(text)}</pre>"
    if lines > MAX_OPEN_LINES:
        return f"<details><summary>Strategy ({lines} lines)</summary>{block}</details>"
    return f'<div class="ks-meta">Strategy:</div>{block}'


def solution_html(solution: Solution) -> str:
    """A compact HTML fragment for a solve: the diagram (when the solution
    knows its problem), the status line, the belief's size, the search's
    figures, and the solution as ``ksolve solve`` prints it (collapsed
    beyond ``MAX_OPEN_LINES`` lines); for "no solution" or "unknown", the
    status and its reason.

    >>> from ksolve.problem import load_problem_text
    >>> from ksolve.solver import solve
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
    ...                             'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> page = solution_html(solve(problem))
    >>> "solved: White mates in 1, key 1.Rh8!" in page, "<svg" in page, "<pre>1.Rh8" in page
    (True, True, True)
    """
    tone = "good" if solution.status == "solved" else "bad" if solution.status == "no solution" else ""
    size = solution.belief_size
    belief = f"Belief: {size} position{'' if size == 1 else 's'}"
    if len(solution.classes) > 1:
        belief += "; White first hears " + ", ".join(f"{label} ({count})" for label, count in solution.classes)
    rules = f", {solution.rules} rules" if solution.rules else ""
    search = f"Search: {solution.nodes:,} nodes in {solution.seconds:.2f} s{rules}"
    text = (f'<p class="{f"ks-status {tone}".strip()}">{_e(status_line(solution))}</p>'
            f'<p class="ks-meta">{_e(belief)}</p><p class="ks-meta">{_e(search)}</p>')
    problem = solution.problem
    if problem is not None:
        heading = f"<div><strong>{_e(problem.name)}</strong> · {_e(problem.stipulation)}</div>"
        figure = f"<div>{problem_svg(problem, SOLUTION_DIAGRAM_SIZE)}{_legend(problem)}</div>"
        body = f'{heading}<div class="ks-top">{figure}<div>{text}{_strategy(solution)}</div></div>'
    else:
        body = text + _strategy(solution)
    return f'<div class="ksolve-nb ksolve-solution">{STYLE}{body}</div>'


def verification_html(verification: Verification) -> str:
    """A verification as HTML: the report's verdict block (the verdict with the
    key or keys, tries with their refutations, duals, the published key;
    ``ksolve.report.html.render_verification``).

    >>> from ksolve.problem import load_problem_text
    >>> from ksolve.verification import verify
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
    ...                             'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> page = verification_html(verify(problem))
    >>> "<strong>Sound</strong> White mates in 1: key" in page, "1.Rh8!" in page
    (True, True)
    """
    from ksolve.report.html import render_verification
    from ksolve.rules import get_rules

    goal = "captures the king" if verification.rules and get_rules(verification.rules).goal == "king-capture" else "mates"
    return (f'<div class="ksolve-nb ksolve-verification">{STYLE}'
            f"{render_verification(verification.as_dict(), goal)}</div>")


__all__ = ["problem_svg", "solution_html", "verification_html", "key_label", "status_line"]
