"""A collection of problems on one HTML page: ``ksolve report FOLDER --format html``.

An index lists every problem with its stipulation, verdict and key, each
linking to its section; then each problem follows as its own report renders
it (``ksolve.report.html.problem_section``: diagram, result block, the
strategy tree with its main line open, a tree per key when cooked).  Printed,
each problem starts a page.

>>> from ksolve.problem import load_problem_text
>>> from ksolve.solver import solve
>>> problem = load_problem_text('id = "rook-1"\\ntitle = "Rook"\\nstipulation = "#1"\\nrules = "berkeley"\\n'
...                             '[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> page = render_booklet([BookletEntry(problem, solve(problem))], "Rooks")
>>> '<a href="#rook-1">Rook</a>' in page, 'id="rook-1-solution"' in page, page.count("<article")
(True, True, 1)
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ksolve.report.html import VERDICT_WORDS, page, problem_section

if TYPE_CHECKING:
    from ksolve.problem import Problem
    from ksolve.solver import Solution
    from ksolve.verification import Verification

_e = html.escape

STYLE = """
table.index{border-collapse:collapse;width:100%;font-size:.95em}
table.index th,table.index td{text-align:left;padding:3px 8px;border-bottom:1px solid #e4e4e4;vertical-align:top}
table.index td.verdict-word.good{color:#1b5e20}table.index td.verdict-word.bad{color:#b71c1c}
.index-box{overflow-x:auto}
article.problem{margin-top:2.5em;padding-top:.5em;border-top:3px solid #ccc}
@media (max-width:600px){table.index th,table.index td{padding:3px 4px}}
@media print{.index-box{overflow:visible}article.problem{border-top:none}}
"""
"""The booklet's own rules (the index table, the rule between problems), after the report's."""


@dataclass
class BookletEntry:
    """One problem of the booklet, as solved (and verified) for its report."""

    problem: Problem
    solution: Solution
    verification: Verification | None = None
    key_solutions: Sequence[Solution] = ()
    """The strategies of a cooked problem's other keys (``ksolve.key_solutions``)."""


def anchor(problem: Problem, taken: set[str]) -> str:
    """An id for the problem's section: its ``id`` made safe, unique among ``taken`` (which it joins).

    >>> from types import SimpleNamespace
    >>> taken = set()
    >>> anchor(SimpleNamespace(id="Swart 1034"), taken), anchor(SimpleNamespace(id="swart-1034"), taken)
    ('swart-1034', 'swart-1034-2')
    """
    base = re.sub(r"[^a-z0-9_.-]+", "-", str(problem.id).lower()).strip("-") or "problem"
    name, number = base, 1
    while name in taken:
        number += 1
        name = f"{base}-{number}"
    taken.add(name)
    return name


def verdict(entry: BookletEntry) -> tuple[str, str]:
    """The entry's verdict word and its tone (``good``, ``bad`` or ""): the
    verification's when there is one, else the solve's status."""
    word = entry.verification.verdict if entry.verification is not None else entry.solution.status
    tone = "good" if word in ("sound", "solved") else "" if word == "unknown" else "bad"
    return VERDICT_WORDS.get(word, word.capitalize()), tone


def _keys(entry: BookletEntry) -> list[str]:
    """The key or keys as composers write them (``1.Rg2!``); none when none is known."""
    if entry.verification is not None and entry.verification.keys:
        return [f"1.{key.label}!" for key in entry.verification.keys]
    from ksolve.report.lines import key_label

    label = key_label(entry.solution)
    return [label] if label else []


def render_booklet(entries: Sequence[BookletEntry], title: str = "Kriegspiel problems") -> str:
    """The booklet page: the index, then every problem's section (with the other keys'
    strategies of a cooked problem, ``BookletEntry.key_solutions``)."""
    taken: set[str] = set()
    names = [anchor(entry.problem, taken) for entry in entries]
    rows = []
    for number, (entry, name) in enumerate(zip(entries, names), 1):
        word, tone = verdict(entry)
        keys = ", ".join(f'<span class="move">{_e(key)}</span>' for key in _keys(entry))
        rows.append(f'<tr><td>{number}</td><td><a href="#{_e(name)}">{_e(entry.problem.name)}</a></td>'
                    f"<td>{_e(entry.problem.stipulation)}</td>"
                    f'<td class="verdict-word {tone}">{_e(word)}</td>'
                    f"<td>{keys}</td></tr>")
    index = ('<nav class="index-box"><table class="index"><thead><tr><th>#</th><th>Problem</th><th>Stip.</th>'
             f'<th>Verdict</th><th>Key</th></tr></thead><tbody>{"".join(rows)}</tbody></table></nav>')
    sections = []
    for entry, name in zip(entries, names):
        verified = entry.verification.as_dict() if entry.verification is not None else None
        sections.append(problem_section(entry.problem, entry.solution, verified, anchor=name, level=2,
                                        key_solutions=entry.key_solutions))
    count = f"{len(entries)} problem{'' if len(entries) == 1 else 's'}"
    head = f"<header><h1>{_e(title)}</h1><p class=\"caption\">{count}, solved by ksolve.</p></header>"
    return page(title, head + index + "".join(sections), STYLE)
