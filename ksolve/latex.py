"""Problems as LaTeX diagrams for print, in the conventions of ``diagram.sty``
(the ``chess-problem-diagrams`` package of TeX Live, Debian's ``texlive-games``).

A problem becomes one ``diagram`` environment: the author ("Family, Given"), the
source and year, the visible men in ``\\pieces`` (the package's German letters:
K D T L S B, ``w`` White and ``s`` Black), the stipulation, the rule set as the
condition, the hidden units in the remark and, where a unit may stand on at most
:data:`MARKED_SQUARES` squares, marked on them: a ``?`` when one unit is hidden, else
each unit's letter (``K``, ``P``...).  The solution (the published key and text) is
collected by ``\\solution`` and printed in magazine layout after the diagrams by
``\\putsol``.  ``C+`` is printed only when the caller says the whole verdict's
certificate was checked (``certified=True``); without a word on it, no mark.
``ksolve.execution.typeset`` runs pdflatex on the document.

>>> import ksolve
>>> text = ('id = "m1"\\nstipulation = "#1"\\nrules = "berkeley"\\n'
...         '[position]\\nfen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"\\nhidden = ["p:h7,h6"]\\n')
>>> print(diagram(ksolve.load_problem_text(text, "m1.toml")), end="")
\\begin{diagram}
\\pieces{wKg6, wTa1, sKh8}
\\fieldtext{{?}h6, {?}h7}
\\stipulation{\\#1}
\\condition{Kriegspiel: Berkeley (Russell \\& Wolfe)}
\\remark{Hidden: black pawn on h6 or h7}
\\end{diagram}
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import chess

from ksolve.hidden import HiddenUnit
from ksolve.problem import Problem
from ksolve.yacpdb import family_given

MARKED_SQUARES = 16
"""A hidden unit's squares are marked on the diagram when there are at most this many."""
_GERMAN = {chess.KING: "K", chess.QUEEN: "D", chess.ROOK: "T", chess.BISHOP: "L", chess.KNIGHT: "S", chess.PAWN: "B"}
_SPECIALS = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "^": r"\^{}",
             "_": r"\_", "%": r"\%", "~": r"\textasciitilde{}",
             "<": r"\textless{}", ">": r"\textgreater{}"}
_PREAMBLE = r"""\documentclass[a4paper]{article}
\usepackage[utf8]{inputenc}
\usepackage{diagram}
\setboolean{showcomputer}{%s}
"""


def escape(text: str) -> str:
    """``text`` with LaTeX's special characters quoted.

    >>> escape("K+R & #30 at 100%")
    'K+R \\\\& \\\\#30 at 100\\\\%'
    """
    return "".join(_SPECIALS.get(character, character) for character in text)


def diagram(problem: Problem, certified: bool | None = None, remark: str = "") -> str:
    """The ``diagram`` environment of ``problem`` (see the module docstring);
    ``certified``: ``True`` prints ``C+``, ``False`` ``C-``, ``None`` leaves it to the
    document's ``showcomputer`` switch; ``remark``: more words under the diagram."""
    lines = [r"\begin{diagram}"]
    authors = family_given(problem.author)
    if authors:
        lines.append(rf"\author{{{escape('; '.join(authors))}}}")
    source = _source_name(problem.origin, problem.year)
    if source:
        lines.append(rf"\source{{{escape(source)}}}")
    if problem.year:
        lines.append(rf"\year{{{problem.year}}}")
    if problem.award:
        lines.append(rf"\award{{{escape(problem.award)}}}")
    visible, varying = _visible_men(problem)
    lines.append(rf"\pieces{{{', '.join(visible)}}}")
    marks = _marks(problem.hidden, varying)
    if marks:
        lines.append(rf"\fieldtext{{{', '.join(marks)}}}")
    lines.append(rf"\stipulation{{{escape(problem.stipulation)}}}")
    lines.append(rf"\condition{{{escape(_condition(problem))}}}")
    if problem.twins:
        lines.append(rf"\twins{{{escape(' '.join(_twin_words(twin, problem) for twin in problem.twins))}}}")
    remarks = [_hidden_words(problem.hidden, varying)] + [condition.text() for condition in problem.conditions]
    if problem.twin_note:
        remarks.append(problem.twin_note)
    remarks.append(remark)
    remarks = [text for text in remarks if text]
    if remarks:
        lines.append(rf"\remark{{{escape('. '.join(remarks))}}}")
    if certified is not None:
        lines.append(r"\Co+" if certified else r"\Co-")
    solution = solution_text(problem)
    if solution:
        lines.append(rf"\solution{{{escape(solution)}}}")
    lines.append(r"\end{diagram}")
    return "\n".join(lines) + "\n"


def solution_text(problem: Problem) -> str:
    """The solution as a magazine prints it: the key with ``!``, then the published text
    (the text alone where it begins with the first move itself).

    >>> import ksolve
    >>> solution_text(ksolve.load_problem("problems/rotenberg-1976.toml"))[:40]
    '1.Rg2! Rook only lands on light squares '
    """
    text = " ".join(problem.published_solution.split())
    key = ""
    if problem.published_key and not text.startswith("1."):
        board = chess.Board(problem.fen or problem.positions[0])
        try:
            key = f"1.{board.san(chess.Move.from_uci(problem.published_key))}!"
        except (ValueError, AssertionError):
            key = f"1.{problem.published_key}!"
    return " ".join(part for part in (key, text) if part)


def document(diagrams: Iterable[str], title: str = "", certified_marks: bool = False) -> str:
    """A whole LaTeX document: the diagrams two by two, then their solutions
    (``certified_marks``: print C+/C- beside each diagram)."""
    parts = [_PREAMBLE % ("true" if certified_marks else "false"), r"\begin{document}"]
    if title:
        parts.append(rf"\section*{{{escape(title)}}}")
    for index, text in enumerate(diagrams):
        parts.append(text.rstrip("\n") + ("\n\\par\\medskip" if index % 2 else "\n\\hfill"))
    parts.append(r"\section*{Solutions}")
    parts.append(r"\putsol")
    parts.append(r"\end{document}")
    return "\n".join(parts) + "\n"


def _source_name(origin: str, year: int | None) -> str:
    """The source as a diagram's heading gives it: without the chain of who quoted it
    (``; via ...``), remarks in parentheses and the year (``\\year`` prints it).

    >>> _source_name("The Problemist 1976 (per Wikipedia); via Ciancarini", 1976)
    'The Problemist'
    """
    name = re.sub(r"\s*\([^)]*\)", "", origin.split("; via ")[0]).strip()
    if year is not None:
        name = re.sub(rf"[\s,]*\b{year}\b$", "", name).strip()
    return name


def _condition(problem: Problem) -> str:
    kind = "Fog of War" if problem.rules.fog else "Kriegspiel"
    return kind if problem.rules.fog else f"{kind}: {problem.rules.title}"


def _twin_words(twin: Problem, problem: Problem) -> str:
    """``b) the rook one file to the left``: what a twin changes, as the file says it."""
    if twin.twin_note:
        change = twin.twin_note
    elif twin.stipulation != problem.stipulation:
        change = twin.stipulation
    else:
        change = "another position"
    return f"{twin.twin}) {change}"


def _visible_men(problem: Problem) -> tuple[list[str], int]:
    """The men on every initial position in ``\\pieces``'s notation, and the squares
    whose men differ between the positions (a problem given as a list of positions)."""
    boards = [chess.Board(fen) for fen in ([problem.fen] if problem.fen else problem.positions)]
    varying = 0
    men: list[tuple[bool, int, int]] = []
    for square in chess.SQUARES:
        pieces = {board.piece_at(square) for board in boards}
        if len(pieces) > 1:
            varying |= chess.BB_SQUARES[square]
        elif None not in pieces:
            piece = pieces.pop()
            men.append((not piece.color, -piece.piece_type, square))
    names = [f"{'s' if black else 'w'}{_GERMAN[-kind]}{chess.square_name(square)}" for black, kind, square in sorted(men)]
    return names, varying


def _marks(units: list[HiddenUnit], varying: int) -> list[str]:
    """``\\fieldtext`` entries for the squares of the units with few squares."""
    letters: dict[int, list[str]] = {}
    marked = [unit for unit in units if chess.popcount(unit.squares) <= MARKED_SQUARES]
    for unit in marked:
        letter = "?" if len(units) == 1 else "/".join(chess.piece_symbol(piece).upper() for piece in unit.pieces)
        for square in chess.scan_forward(unit.squares):
            if letter not in letters.setdefault(square, []):
                letters[square].append(letter)
    if not units and chess.popcount(varying) <= MARKED_SQUARES:
        for square in chess.scan_forward(varying):
            letters[square] = ["?"]
    return [f"{{{','.join(marks)}}}{chess.square_name(square)}" for square, marks in sorted(letters.items())]


def _hidden_words(units: list[HiddenUnit], varying: int) -> str:
    """The hidden units in words; more than three, each on one square, as their number."""
    if not units:
        return f"Hidden: the men on {chess.popcount(varying)} squares vary" if varying else ""
    if len(units) > 3 and all(chess.popcount(unit.squares) == 1 for unit in units):
        colours = {"white" if unit.color else "black" for unit in units}
        return f"Hidden: {len(units)} {' and '.join(sorted(colours))} men, on the squares marked"
    return "Hidden: " + "; ".join(unit_words(unit) for unit in units)


def unit_words(unit: HiddenUnit) -> str:
    """``b:dark`` -> ``black bishop on a dark square``."""
    names = " or ".join(chess.piece_name(piece) for piece in unit.pieces)
    where = unit.spec.partition(":")[2].strip().lower() if ":" in unit.spec else ""
    named = {"dark": "a dark square", "light": "a light square", "any": "any square"}
    if where in named:
        place = named[where]
    elif re.fullmatch(r"[a-h]-file", where):
        place = f"the {where}"
    elif re.fullmatch(r"rank-[1-8]", where):
        place = f"rank {where[-1]}"
    else:
        squares = [chess.square_name(square) for square in chess.scan_forward(unit.squares)]
        place = squares[0] if len(squares) == 1 else ", ".join(squares[:-1]) + " or " + squares[-1]
    optional = "perhaps a " if unit.optional else ""
    return f"{optional}{'white' if unit.color else 'black'} {names} on {place}"
