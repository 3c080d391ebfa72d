"""The solution as one self-contained HTML page.

Inline CSS and SVG, no scripts, no external resources: the problem's header,
a diagram of the visible position with the possible squares of each hidden
unit dotted in its colour (and a legend), one result block (the verdict, the
key or keys, tries, duals, the belief's size and the search's figures), and
the strategy tree with its main line open (``ksolve.report.tree_html``);
for a cooked problem, one tree per key.  The page reads at 400 px (moves never
break, diagrams shrink) and prints with every branch expanded.

>>> from ksolve.problem import load_problem_text
>>> from ksolve.solver import solve
>>> problem = load_problem_text('title = "Rook <mate>"\\nstipulation = "#1"\\nrules = "berkeley"\\n'
...                             '[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> page = render_html(problem, solve(problem))
>>> "Rook &lt;mate&gt;" in page, "<script" in page, page.count('class="verdict')
(True, False, 1)
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import chess

from ksolve import __version__
from ksolve.report import diagram
from ksolve.report.text import dual_text, move_text, stated_lines, try_lines
from ksolve.report.position import UnitMark, hidden_marks, initial_fog, visible_board
from ksolve.report.tree_html import MAX_DIAGRAMS, TreeHtml

if TYPE_CHECKING:
    from ksolve.problem import Problem
    from ksolve.solver import Solution

_e = html.escape


STYLE = """
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin:1.2em 0 .4em;border-bottom:1px solid #ddd}
h3,h4{font-size:1.05em;margin:1em 0 .3em}article h2+.top{margin-top:.4em}
a{color:#0b5394}
.top{display:flex;gap:28px;flex-wrap:wrap;align-items:flex-start}.top>div{flex:1;min-width:260px}
.top figure{margin:0;max-width:100%}.top figure svg{max-width:100%;height:auto}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 14px;margin:0}
dl.meta dt{color:#666}dl.meta dd{margin:0;overflow-wrap:anywhere}
.legend{list-style:none;padding:0;margin:.6em 0}.legend li{margin:2px 0}
.sw{display:inline-block;width:.7em;height:.7em;border-radius:50%;border:1px solid #555;vertical-align:-1px;margin-right:6px}
.verdict{padding:8px 12px;border-radius:6px;background:#eee;margin:.5em 0}
.verdict.good{background:#e3f4e1;border:1px solid #7cb879}.verdict.bad{background:#fbe4e2;border:1px solid #d9817a}
.verdict strong{margin-right:.3em}
.facts{color:#555;font-size:.9em;margin:.4em 0}
.caption,.hint{color:#555;font-size:.9em}
.move{white-space:nowrap;font-weight:600}.move.key{color:#0b5394}
ul.plain{margin:.3em 0;padding-left:1.3em}ul.plain .move{font-weight:normal}ul.tries li>.move:first-child{font-weight:600}
pre.published{white-space:pre-wrap;background:#fafafa;padding:6px;border:1px solid #eee}
.tree{overflow-x:auto;padding-bottom:4px}
.turn{display:flex;gap:12px;align-items:flex-start;margin:12px 0 4px}
.turn svg{flex:none;width:150px;height:150px;border:1px solid #999}
.turn .move{font-size:1.1em}.said{min-width:0}
.step,.leaf,details.branch{margin:2px 0 2px 14px}
.step.main{font-weight:600}.step.main .note{font-weight:normal}
details.branch{padding-left:10px;border-left:2px solid #d8d8d8}
details.branch>summary{cursor:pointer;padding:1px 0}details.branch>summary:hover{background:#f2f6fb}
details.branch>.turn{margin-top:6px}
.leaf.win{color:#1b5e20;font-weight:600}
.ann.no{color:#b71c1c;font-weight:600}.ann.capture{color:#6a1b9a}.ann.check{color:#e65100}.ann.mate{color:#1b5e20}
.note{color:#777;font-size:.9em}.num{color:#444}
@media (max-width:600px){
body{margin:12px auto;padding:0 10px;font-size:14px}
.top{gap:12px}.turn{gap:8px}.turn svg{width:100px;height:100px}
.step,.leaf,details.branch{margin-left:4px}details.branch{padding-left:6px}
}
@media print{
body{max-width:none;margin:0;padding:0;font-size:10pt}
details::details-content,details:not([open])::details-content{content-visibility:visible;display:block}
summary{list-style:none;cursor:auto}summary::-webkit-details-marker{display:none}
.hint{display:none}.tree{overflow:visible}a{color:inherit;text-decoration:none}
.turn,.leaf,summary{break-inside:avoid}.turn,summary,h2,h3{break-after:avoid}
.problem{break-before:page}.problem:first-of-type{break-before:auto}
}
"""
"""The page's CSS: moves never break, the tree shrinks its indents and diagrams under
600 px (and scrolls inside its box rather than being clipped), print expands every branch."""

VERDICT_WORDS = {"sound": "Sound", "cooked": "Cooked", "short solution": "Short solution",
                 "no solution": "No solution", "unknown": "Not decided", "solved": "Solved"}
"""The verdict's (or, without a verification, the solve status's) word at the head of the result."""


def render_html(problem: Problem, result: Solution, verification: dict | None = None, *,
                key_solutions: Sequence[Solution] = (), open_depth: int = 0,
                max_diagrams: int = MAX_DIAGRAMS) -> str:
    """The whole page.  ``problem`` from ``load_problem``, ``result`` from
    ``solve``, ``verification`` a dict (verdict, keys, tries, duals,
    published key; whatever is present is shown), ``key_solutions`` the
    solutions of a cooked problem's other keys (``ksolve.report.key_solutions``),
    each drawn as its own tree.  Side branches nested fewer than ``open_depth``
    deep start open (the main line and the mates at once always are)."""
    body = problem_section(problem, result, verification, key_solutions=key_solutions,
                           open_depth=open_depth, max_diagrams=max_diagrams)
    return page(f"{problem.name} — ksolve report", body)


def page(title: str, body: str, style: str = "") -> str:
    """An HTML document: ``title``, the report's style (and ``style`` after it), the
    shared piece drawings, ``body``."""
    return "\n".join(["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      f"<title>{_e(title)}</title><style>{STYLE}{style}</style></head><body>", diagram.page_defs(),
                      body, f'<footer class="caption"><p>Made by ksolve {__version__}.</p></footer></body></html>'])


def problem_section(problem: Problem, result: Solution, verification: dict | None = None, *,
                    key_solutions: Sequence[Solution] = (), anchor: str = "", level: int = 1,
                    open_depth: int = 0, max_diagrams: int = MAX_DIAGRAMS) -> str:
    """One problem: its header and diagram, the result block and its trees, in an
    ``<article>`` with the id ``anchor`` (``problem`` by default) and the trees'
    ids ``solution``, ``key-2``... after it, its title a heading of ``level``
    and its parts one below (several problems share a booklet)."""
    marks = hidden_marks(problem)
    prefix, sub = f"{anchor}-" if anchor else "", f"h{level + 1}"
    trees = [(result, f"{prefix}solution")] if result.tree is not None and result.tree.number_of_nodes() else []
    trees += [(other, f"{prefix}key-{number}") for number, other in enumerate(key_solutions, 2)
              if other.tree is not None]
    anchors = {other.key: name for other, name in trees if other.key} if len(trees) > 1 else {}
    parts = [f'<article class="problem" id="{_e(anchor or "problem")}">', _header(problem, marks, level),
             result_block(problem, result, verification, anchors, sub)]
    colors = {name: mark.color for mark in reversed(marks) for name in mark.names}
    left = max_diagrams
    for index, (solution, name) in enumerate(trees):
        title = "Solution" if len(trees) == 1 else f"Solution after {_key_label(solution)}"
        parts.append(f'<section class="tree" id="{_e(name)}"><{sub}>{_e(title)}</{sub}>')
        if index == 0:
            parts.append(_hint(solution, max_diagrams))
        renderer = TreeHtml(solution.tree, colors, open_depth, left)
        parts.append(renderer.render() + "</section>")
        left = renderer.diagrams_left
    if not trees:
        parts.append(f'<section class="tree"><{sub}>Solution</{sub}><p>No strategy tree '
                     f"({_e(str(result.status))}).</p></section>")
    return "".join(parts) + "</article>"


def _hint(solution: Solution, max_diagrams: int) -> str:
    turns = sum(1 for _, kind in solution.tree.nodes(data="kind") if kind == "white")
    budget = (f" {turns} White turns: the first {max_diagrams} (in page order) have a diagram."
              if turns > max_diagrams else "")
    return ('<p class="hint">The main line reads down the page; ▸ opens the other answers and replies. '
            "Each White turn shows what White knows: his men, the black men he is sure of and, dotted, "
            "the squares the hidden units may stand on; [n] counts the positions White cannot tell "
            f"apart.{budget}</p>")


def _key_label(solution: Solution) -> str:
    from ksolve.report.lines import key_label

    return key_label(solution) or str(solution.key)


def _header(problem: Problem, marks: list[UnitMark], level: int) -> str:
    rows = [("Author", problem.author), ("Source", problem.origin), ("Year", problem.year),
            ("Award", problem.award), ("Stipulation", problem.stipulation),
            ("Rules", f"{problem.rules.title} ({problem.rules.name})"), ("File", problem.source)]
    rows += [(line.split(": ", 1)[0], line.split(": ", 1)[1]) if ": " in line else (line, "")
             for line in stated_lines(problem)]
    meta = "".join(f"<dt>{_e(name)}</dt><dd>{_e(str(value))}</dd>" for name, value in rows if value not in (None, ""))
    dotted = diagram.square_marks([(mark.mask, mark.color) for mark in marks])
    legend = "".join(f'<li><span class="sw" style="background:{mark.color}"></span>{_e(mark.label)}</li>'
                     for mark in marks)
    fog = initial_fog(problem)
    board = diagram.board(visible_board(problem), dotted, size=360, fog=fog,
                          title=f"{problem.name}: the visible position" + (", hidden units marked" if marks else "")
                          + (", the fog greyed" if fog else ""))
    if fog:
        legend += (f'<li><span class="sw" style="background:{diagram.FOG};border-radius:0"></span>'
                   f"the fog: {bin(fog).count('1')} squares White does not see</li>")
    extra = ""
    if problem.published_solution or problem.published_key:
        key = f"<p>Published key: <code>{_e(problem.published_key)}</code></p>" if problem.published_key else ""
        text = f'<pre class="published">{_e(problem.published_solution)}</pre>' if problem.published_solution else ""
        extra += f"<details><summary>Published solution</summary>{key}{text}</details>"
    if problem.notes:
        extra += f'<details><summary>Notes</summary><pre class="published">{_e(problem.notes)}</pre></details>'
    hidden = (f'<h{level + 2}>Hidden units</h{level + 2}><ul class="legend">{legend}</ul>' if legend
              else "<p>No hidden units: White sees every man.</p>")
    return (f"<header><h{level}>{_e(problem.name)}</h{level}></header><div class=\"top\"><figure>{board}"
            f'<figcaption class="caption">White to play. {_e(problem.stipulation)}</figcaption></figure>'
            f'<div><dl class="meta">{meta}</dl>{hidden}{extra}</div></div>')


def result_block(problem: Problem, result: Solution, verification: dict | None = None,
                 anchors: dict[str, str] | None = None, heading: str = "h2") -> str:
    """The one result block: the verification's verdict block (``render_verification``),
    or without one the solve's verdict, then one line of figures (belief, rules,
    the search's nodes and seconds, solve and verification together)."""
    if verification:
        body = render_verification(verification, _goal(problem), anchors)
    else:
        body = _solve_verdict(problem, result)
    nodes, seconds = result.nodes, result.seconds
    if verification:
        nodes += verification.get("nodes") or 0
        seconds += verification.get("seconds") or 0.0
    facts = [f"Belief {result.belief_size:,} position{'' if result.belief_size == 1 else 's'}"]
    if len(result.classes) > 1:
        facts.append("White first hears " + ", ".join(f"{label} ({count})" for label, count in result.classes))
    facts += [f"rules {result.rules or problem.rules.name}", f"searched {nodes:,} nodes in {seconds:.1f} s"]
    if not verification:
        facts.append("not verified: cooks, tries and duals not looked for")
    return (f'<section class="result"><{heading}>Result</{heading}>{body}'
            f'<p class="facts">{_e(" · ".join(facts))}</p></section>')


def _goal(problem: Problem) -> str:
    return "mates" if problem.goal == "mate" else "captures the king"


def _solve_verdict(problem: Problem, result: Solution) -> str:
    """The verdict of a solve alone: solved (the key, the moves), no solution, or not decided."""
    from ksolve.report.lines import key_label

    status = str(result.status)
    if status == "solved":
        within = "in" if result.shortest else "within"
        label = key_label(result)
        key = (f"; key <span class=\"move key\">{_e(label)}</span>" if label else
               "; the first move depends on what White hears first")
        published = ""
        if problem.published_key and result.key:
            agrees = "agrees" if problem.published_key == result.key else "differs"
            published = f" (published key <code>{_e(problem.published_key)}</code> {agrees})"
        return _verdict("good", "solved", f"White {_goal(problem)} {within} {result.moves}{key}{published}.")
    if status == "no solution":
        return _verdict("bad", status, _e(f"White cannot force a win in {result.max_moves} or fewer moves."))
    return _verdict("", "unknown", _e(result.reason or "the search stopped") + ".")


def _verdict(tone: str, verdict: str, sentence_html: str) -> str:
    word = VERDICT_WORDS.get(verdict, verdict.capitalize())
    return f'<p class="{f"verdict {tone}".strip()}"><strong>{_e(word)}</strong> {sentence_html}</p>'


def render_verification(verification: dict, goal: str = "mates", anchors: dict[str, str] | None = None) -> str:
    """The verdict block of a verification: the verdict with its key(s) ("!",
    each linked to its tree when ``anchors`` maps its UCI move to an id), short
    solutions, tries ("?" but refutation), duals, the published key's agreement;
    absent fields are left out.

    >>> block = render_verification({"verdict": "sound", "moves": 8, "keys": [{"san": "Rg2", "moves": 8}],
    ...                              "tries": [{"san": "Nf2+", "refutation": "Bxf2! <no mate in 7>"}]})
    >>> "<strong>Sound</strong> White mates in 8: key" in block, '"move">1.Nf2+?</span> Bxf2! &lt;no mate' in block
    (True, True)
    """
    verdict = str(verification.get("verdict") or "")
    tone = "good" if verdict == "sound" else "" if verdict in ("", "unknown") else "bad"
    keys = verification.get("keys") or []
    moves = verification.get("moves")
    listed = ", ".join(_key_item(key, anchors or {}, moves) for key in keys)
    if verdict == "unknown":
        sentence = _e(str(verification.get("reason") or "the search stopped"))
        sentence += f"; keys so far: {listed}" if keys else "."
    elif not keys:
        sentence = _e(f"No first move {goal} in {moves}." if moves else "No key.")
    elif verdict == "sound" and moves:
        sentence = f"White {_e(goal)} in {_e(str(moves))}: key {listed}"
    else:
        sentence = f"{'Key' if len(keys) == 1 else f'{len(keys)} keys'}: {listed}"
    parts = [_verdict(tone, verdict, sentence)] if verdict or keys else []
    short = verification.get("short") or []
    if short:
        parts.append(f"<p>Short solutions: {_e(', '.join(move_text(key, '') for key in short))}</p>")
    tries = verification.get("tries") or []
    total = verification.get("tries_total")
    if tries:
        lines = try_lines(tries)
        items = "".join(f"<li>{_moves_unbroken(line)}</li>" for line in lines)
        count = f"{len(tries)} of {total}" if isinstance(total, int) and total > len(tries) else str(len(tries))
        parts.append(f"<details{' open' if len(lines) <= 12 else ''}><summary>Tries, the closest first ({count})"
                     f'</summary><ul class="plain tries">{items}</ul></details>')
    duals = verification.get("duals")
    if duals and verdict != "unknown":
        main = sum(1 for dual in duals if dual.get("main_line"))
        items = "".join(f"<li>{'main line' if dual.get('main_line') else 'minor'}: {_moves_unbroken(dual_text(dual, verification.get('goal') or 'mate'))}"
                        "</li>" for dual in duals)
        parts.append(f"<details{' open' if main else ''}><summary>Duals ({main} in the main line, "
                     f'{len(duals) - main} minor)</summary><ul class="plain duals">{items}</ul></details>')
    elif duals is not None and verdict != "unknown":
        parts.append(f"<p>Duals: {'none' if verification.get('duals_checked') else 'not checked'}</p>")
    if verification.get("published_key"):
        agrees = verification.get("published_key_matches")
        word = " — not decided" if agrees is None else " — a key" if agrees else " — not a key"
        key = move_text({"label": verification.get("published_label") or verification["published_key"]}, "")
        parts.append(f'<p>Published key <span class="move">{_e(key)}</span>{_e(word)}</p>')
    return "".join(parts)


_MOVE = re.compile(r"(?<![^\s(])(\d+\.(?:\.\.)?[^\s,;:()]+)")


def _moves_unbroken(text: str) -> str:
    """``text`` escaped, each numbered move (``1.Nf2+?``, ``4...Bxf2``) kept on one line.

    >>> _moves_unbroken("1.Nf2+? Bxf2! (after 1.Rg2 2...Kh1)")
    '<span class="move">1.Nf2+?</span> Bxf2! (after <span class="move">1.Rg2</span> <span class="move">2...Kh1</span>)'
    """
    return _MOVE.sub(r'<span class="move">\1</span>', _e(text))


def _key_item(key: object, anchors: dict[str, str], moves: int | None) -> str:
    """A key as ``1.Ra2-g2!`` (linked to its tree when it has one), with its moves when not ``moves``."""
    text = f'<span class="move key">{_e(move_text(key, "!"))}</span>'
    if isinstance(key, dict):
        if key.get("move") in anchors:
            text = f'<a href="#{_e(anchors[key["move"]])}">{text}</a>'
        if key.get("moves") and key.get("moves") != moves:
            text += f" (mate in {_e(str(key['moves']))})"
    return text
