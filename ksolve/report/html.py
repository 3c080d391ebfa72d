"""The solution as one self-contained HTML page.

Inline CSS and SVG, no scripts, no external resources: the problem's header,
a diagram of the visible position with the possible squares of each hidden
unit dotted in its colour (and a legend), the verdict of a verification
when given, the result line, and the strategy tree as nested ``<details>`` branches in
composers' conventions (the key with "!", "No" branches, one branch per
announcement class, "#"), each White turn with a small diagram of what White
knows there.

>>> from ksolve.problem import load_problem_text
>>> from ksolve.solver import solve
>>> problem = load_problem_text('title = "Rook <mate>"\\nstipulation = "#1"\\nrules = "berkeley"\\n'
...                             '[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> page = render_html(problem, solve(problem))
>>> "Rook &lt;mate&gt;" in page, "1.Rh1-h8!" in page, "<script" in page
(True, True, False)
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import chess
import networkx as nx

from ksolve.report import diagram
from ksolve.report.text import belief_note, entry_text, move_text, search_line

PALETTE = ("#1e88e5", "#e53935", "#43a047", "#8e24aa", "#fb8c00", "#00acc1", "#6d4c41", "#c0ca33")
"""Hidden units' colours, in the order of the problem's units."""
MAX_DIAGRAMS = 1000
"""White turns beyond this many get no small diagram (each is about 1.6 KB: the page stays a few MB)."""

_e = html.escape


@dataclass(frozen=True)
class UnitMark:
    """A hidden unit as the diagram marks it."""

    label: str
    """E.g. ``black bishop: 30 dark squares``."""
    mask: int
    """The squares it may stand on."""
    color: str
    names: tuple[str, ...]
    """Its possible piece names (``bishop``; ``queen``, ``rook``...)."""


def squares_phrase(mask: int) -> str:
    """The squares of a bitboard, listed when few, else counted.

    >>> squares_phrase(chess.BB_DARK_SQUARES & ~chess.BB_F6 & ~chess.BB_H2), squares_phrase(chess.BB_E2 | chess.BB_A6)
    ('30 dark squares', 'a6 e2')
    """
    count = chess.popcount(mask)
    if count <= 8:
        return " ".join(sorted(chess.square_name(s) for s in chess.scan_forward(mask)))
    shade = "dark " if not mask & chess.BB_LIGHT_SQUARES else "light " if not mask & chess.BB_DARK_SQUARES else ""
    return f"{count} {shade}squares"


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def hidden_marks(problem) -> list[UnitMark]:
    """The hidden units of a problem with the squares they may really stand
    on (the unit's squares, not occupied, where the initial belief has them)."""
    try:
        belief = problem.belief()
        found = list(belief.hidden_squares())
    except Exception:  # a report still renders without the belief's squares
        belief, found = None, []
    marks = []
    if problem.fen:
        occupied = chess.BaseBoard(problem.fen.split()[0]).occupied
        for index, unit in enumerate(problem.hidden):
            mask = unit.squares & ~occupied
            seen = 0
            for piece, squares in found:
                if piece.color == unit.color and piece.piece_type in unit.pieces:
                    seen |= squares
            mask = mask & seen or mask
            names = tuple(chess.piece_name(p) for p in unit.pieces)
            who = f"{'perhaps a ' if unit.optional else ''}{'white' if unit.color else 'black'} {_or(list(names))}"
            marks.append(UnitMark(f"{who}: {squares_phrase(mask)}", mask,
                                  PALETTE[index % len(PALETTE)], names))
    else:  # an explicit list of positions: one mark per black man type that varies
        known = visible_board(problem).occupied if belief is not None else 0
        for index, (piece, squares) in enumerate(found):
            squares = squares & ~known or squares
            name = chess.piece_name(piece.piece_type)
            marks.append(UnitMark(f"black {name}: {squares_phrase(squares)}", squares,
                                  PALETTE[index % len(PALETTE)], (name,)))
    return marks


def visible_board(problem) -> chess.BaseBoard:
    if problem.fen:
        return chess.BaseBoard(problem.fen.split()[0])
    from ksolve.solution import belief_summary
    return chess.BaseBoard(belief_summary(problem.belief()).get("known", "8/8/8/8/8/8/8/8"))


STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin:1.2em 0 .4em;border-bottom:1px solid #ddd}
.top{display:flex;gap:28px;flex-wrap:wrap;align-items:flex-start}.top>div{flex:1;min-width:280px}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 14px;margin:0}
dl.meta dt{color:#666}dl.meta dd{margin:0}
.legend{list-style:none;padding:0;margin:.6em 0}.legend li{margin:2px 0}
.sw{display:inline-block;width:.8em;height:.8em;border-radius:50%;border:1px solid #555;vertical-align:-1px;margin-right:6px}
.verdict{padding:8px 12px;border-radius:6px;background:#eee;margin:.5em 0}
.verdict.good{background:#e3f4e1;border:1px solid #7cb879}.verdict.bad{background:#fbe4e2;border:1px solid #d9817a}
.result{font-family:ui-monospace,Menlo,Consolas,monospace;background:#f6f6f6;padding:6px 10px;border-radius:4px}
.tree details{margin:2px 0 2px 6px;padding-left:12px;border-left:2px solid #d8d8d8}
.tree summary{cursor:pointer;padding:1px 0}.tree summary:hover{background:#f2f6fb}
.turn{display:flex;gap:12px;align-items:center;margin:6px 0}
.turn svg{flex:none;border:1px solid #999}
.caption{color:#555;font-size:.9em}
.move{font-weight:600;font-size:1.1em}.move.key{color:#0b5394}
.ann.no{color:#b71c1c;font-weight:600}.ann.capture{color:#6a1b9a}.ann.check{color:#e65100}
.note{color:#777;font-size:.9em}.num{color:#444}
.leaf{margin:2px 0 2px 20px}.leaf.win{color:#1b5e20;font-weight:600}
.black>.caption{margin:2px 0 2px 6px}
ul.plain{margin:.3em 0;padding-left:1.3em}
pre.published{white-space:pre-wrap;background:#fafafa;padding:6px;border:1px solid #eee}
"""


def render_html(problem, result, verification: dict | None = None, *, open_depth: int = 1,
                max_diagrams: int = MAX_DIAGRAMS) -> str:
    """The whole page.  ``problem`` from ``load_problem``, ``result`` from
    ``solve``, ``verification`` a dict (verdict, keys, tries, duals,
    published key; whatever is present is shown).  Branches nested fewer than
    ``open_depth`` deep start open."""
    marks = hidden_marks(problem)
    title = problem.name
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)} — ksolve report</title><style>{STYLE}</style></head><body>",
             diagram.page_defs(), _header(problem, marks)]
    if verification:
        parts.append(render_verification(verification))
    parts.append(_result_line(result))
    parts.append('<section class="tree"><h2>Solution tree</h2>')
    if result.tree is not None and result.tree.number_of_nodes():
        colors = {name: mark.color for mark in reversed(marks) for name in mark.names}
        parts.append('<p class="caption">Click a branch to open it. Each White turn shows what White '
                     "knows: his men, the black men he is sure of, and (dotted) the squares the hidden "
                     "units may stand on, with the number of positions he cannot tell apart.</p>")
        turns = sum(1 for _, kind in result.tree.nodes(data="kind") if kind == "white")
        if turns > max_diagrams:
            parts.append(f'<p class="caption">{turns} White turns: the first {max_diagrams} (in page order) '
                         "have a diagram, the others their belief in words.</p>")
        parts.append(_TreeHtml(result.tree, colors, open_depth, max_diagrams).render())
    else:
        parts.append(f"<p>No strategy tree ({_e(str(result.status))}).</p>")
    parts.append("</section><footer class=\"caption\"><p>Made by ksolve.</p></footer></body></html>")
    return "\n".join(parts)


def _header(problem, marks: list[UnitMark]) -> str:
    rows = [("Author", problem.author), ("Source", problem.origin), ("Year", problem.year),
            ("Award", problem.award), ("Stipulation", problem.stipulation),
            ("Rules", f"{problem.rules.title} ({problem.rules.name})"), ("File", problem.source)]
    meta = "".join(f"<dt>{_e(name)}</dt><dd>{_e(str(value))}</dd>" for name, value in rows if value not in (None, ""))
    dotted = diagram.square_marks([(mark.mask, mark.color) for mark in marks])
    legend = "".join(f'<li><span class="sw" style="background:{mark.color}"></span>{_e(mark.label)}</li>'
                     for mark in marks)
    board = diagram.board(visible_board(problem), dotted, size=360,
                          title=f"{problem.name}: the visible position" + (", hidden units marked" if marks else ""))
    extra = ""
    if problem.published_solution or problem.published_key:
        key = f"<p>Published key: <code>{_e(problem.published_key)}</code></p>" if problem.published_key else ""
        text = f'<pre class="published">{_e(problem.published_solution)}</pre>' if problem.published_solution else ""
        extra += f"<details><summary>Published solution</summary>{key}{text}</details>"
    if problem.notes:
        extra += f'<details><summary>Notes</summary><pre class="published">{_e(problem.notes)}</pre></details>'
    hidden = (f'<h2>Hidden units</h2><ul class="legend">{legend}</ul>' if marks
              else "<p>No hidden units: White sees every man.</p>")
    return (f'<header><h1>{_e(problem.name)}</h1></header><div class="top"><figure style="margin:0">{board}'
            f'<figcaption class="caption">White to play. {_e(problem.stipulation)}</figcaption></figure>'
            f'<div><dl class="meta">{meta}</dl>{hidden}{extra}</div></div>')


def _result_line(result) -> str:
    fields = [("status", result.status), ("moves", result.moves), ("key", result.key),
              ("belief", result.belief_size), ("nodes", result.nodes), ("seconds", f"{result.seconds:.2f}")]
    text = " · ".join(f"{name}: {value}" for name, value in fields if value is not None)
    reason = f" ({result.reason})" if getattr(result, "reason", "") else ""
    return f'<h2>Result</h2><p class="result">{_e(text + reason)}</p>'


def render_verification(verification: dict) -> str:
    """The verdict block: verdict (and its one-line summary), keys ("!"),
    short solutions, tries ("?" but refutation), duals, the published key's
    agreement, the search's figures; absent fields are left out.

    >>> block = render_verification({"verdict": "sound", "keys": [{"label": "Ra2-g2", "moves": 8}],
    ...                              "tries": [{"label": "Nd3-f2", "refutation": "Bxf2 <stalemate>"}]})
    >>> "1.Ra2-g2!" in block, "1.Nd3-f2?" in block, " but Bxf2 &lt;stalemate&gt;" in block
    (True, True, True)
    """
    verdict = str(verification.get("verdict") or "")
    tone = "good" if verdict.lower() == "sound" else "bad" if verdict and verdict.lower() != "unknown" else ""
    parts = ["<section><h2>Verification</h2>"]
    if verdict or verification.get("line"):
        line = verification.get("line")
        parts.append(f'<p class="verdict {tone}"><strong>Verdict: {_e(verdict or "?")}</strong>'
                     f'{" — " + _e(str(line)) if line and line != verdict else ""}</p>')
    keys = verification.get("keys") or []
    if keys:
        items = []
        for key in keys:
            moves = key.get("moves") if isinstance(key, dict) else None
            items.append(f"<li><span class=\"move key\">{_e(move_text(key, '!'))}</span>"
                         f"{_e(f' (mate in {moves})') if moves else ''}</li>")
        parts.append(f"<p>{'Key' if len(keys) == 1 else 'Keys'}:</p><ul class=\"plain\">{''.join(items)}</ul>")
    short = verification.get("short") or []
    if short:
        parts.append(f"<p>Short solutions: {_e(', '.join(move_text(key, '') for key in short))}</p>")
    tries = verification.get("tries") or []
    total = verification.get("tries_total")
    if tries:
        items = []
        for attempt in tries:
            refutation = attempt.get("refutation") if isinstance(attempt, dict) else None
            items.append(f"<li><span class=\"move\">{_e(move_text(attempt, '?'))}</span>"
                         f"{_e(f' but {refutation}') if refutation else ''}</li>")
        count = f"{len(tries)} of {total}" if isinstance(total, int) and total > len(tries) else str(len(tries))
        parts.append(f"<details{' open' if len(tries) <= 12 else ''}><summary>Tries ({count})</summary>"
                     f"<ul class=\"plain\">{''.join(items)}</ul></details>")
    duals = verification.get("duals")
    if duals is not None:
        listed = "".join(f"<li>{_e(entry_text(dual))}</li>" for dual in duals)
        unchecked = not duals and verification.get("duals_checked") is False
        if listed:
            parts.append(f"<details{' open' if len(duals) <= 5 else ''}><summary>Duals ({len(duals)})</summary>"
                         f'<ul class="plain">{listed}</ul></details>')
        else:
            parts.append(f"<p>Duals: {'not checked' if unchecked else 'none'}</p>")
    if verification.get("published_key"):
        agrees = verification.get("published_key_matches")
        word = "" if agrees is None else " — matches" if agrees else " — does not match"
        parts.append(f"<p>Published key <code>{_e(str(verification['published_key']))}</code>{_e(word)}</p>")
    if search_line(verification):
        parts.append(f'<p class="caption">Search: {_e(search_line(verification))}</p>')
    parts.append("</section>")
    return "".join(parts)


def _mask(names: list[str]) -> int:
    """The bitboard of square names."""
    return sum(1 << chess.parse_square(name) for name in names)


def _announcement_class(label: str) -> str:
    """A CSS class for an announcement: no, mate, capture, check or silent."""
    lower = label.lower()
    if label == "No":
        return "no"
    if "checkmate" in lower:
        return "mate"
    if "capture" in lower:
        return "capture"
    return "check" if "check" in lower else "silent"


class _TreeHtml:
    """Nested ``<details>`` of a strategy tree (see ``ksolve.solution``)."""

    def __init__(self, tree: nx.DiGraph, colors: dict[str, str], open_depth: int, max_diagrams: int) -> None:
        self.tree, self.colors = tree, colors
        self.open_depth, self.diagrams_left = open_depth, max_diagrams

    def render(self) -> str:
        root = self.tree.nodes[0]
        if root["kind"] != "start":
            return self._white(0, 0, key=True)
        branches = []  # several first classes (what White hears before moving): one strategy each
        for _, child, info in self.tree.out_edges(0, data=True):
            summary = f'<span class="ann">{_e(info["label"])}</span> {self._note(child)}'
            branches.append(self._branch(summary, self._white(child, 1, key=True), 0))
        return "".join(branches)

    def _note(self, node: int) -> str:
        return f'<span class="note">{_e(belief_note(self.tree.nodes[node]))}</span>'

    def _branch(self, summary: str, body: str, depth: int, classes: str = "") -> str:
        opened = " open" if depth < self.open_depth else ""
        return f'<details class="{classes}"{opened}><summary>{summary}</summary>{body}</details>'

    def _figure(self, node: int) -> str:
        data = self.tree.nodes[node]
        squares = data.get("squares") or {}
        hidden = "; ".join(f"{name}: {squares_phrase(_mask(names))}" for name, names in squares.items())
        size, left = data.get("size", "?"), data.get("moves_left")
        words = f"{size} position{'' if size == 1 else 's'}" + (f", mate within {left}" if left else "")
        swatches = "".join(f'<br><span class="sw" style="background:{self.colors.get(name, PALETTE[0])}"></span>'
                           f"{_e(name)}: {_e(squares_phrase(_mask(names)))}" for name, names in squares.items())
        caption = f'<div class="caption">{_e(words)}{swatches}</div>'
        if self.diagrams_left <= 0:
            return caption
        self.diagrams_left -= 1
        groups = [(_mask(names), self.colors.get(name, PALETTE[0])) for name, names in squares.items()]
        board = chess.BaseBoard(data["known"]) if "known" in data else chess.BaseBoard.empty()
        svg = diagram.mini_board(board, diagram.square_marks(groups), size=150,
                                 title=f"What White knows: {words}" + (f" ({hidden})" if hidden else ""))
        return svg + caption

    def _white(self, node: int, depth: int, key: bool = False) -> str:
        number = self.tree.nodes[node]["number"]
        parts = []
        for _, attempt, edge in self.tree.out_edges(node, data=True):
            move = f"{number}.{edge['label']}{'!' if key else ''}"
            parts.append(f'<div class="turn">{self._figure(node)}'
                         f'<span class="move{" key" if key else ""}">{_e(move)}</span></div>')
            for _, child, answer in self.tree.out_edges(attempt, data=True):
                label = answer["label"]
                kind = self.tree.nodes[child]["kind"]
                if kind == "win":
                    parts.append(f'<div class="leaf win">{_e(label)} #</div>')
                    continue
                summary = f'<span class="ann {_announcement_class(label)}">{_e(label)}</span> {self._note(child)}'
                body = self._white(child, depth + 1) if kind == "white" else self._black(child, depth + 1)
                parts.append(self._branch(summary, body, depth, f"answer {_announcement_class(label)}"))
        return f'<div class="white">{"".join(parts)}</div>'

    def _black(self, node: int, depth: int) -> str:
        number = self.tree.nodes[node]["number"]
        parts = []
        for _, child, reply in self.tree.out_edges(node, data=True):
            label = reply["label"]
            summary = (f'<span class="num">{number}...</span> '
                       f'<span class="ann {_announcement_class(label)}">{_e(label)}</span> {self._note(child)}')
            parts.append(self._branch(summary, self._white(child, depth + 1), depth, "reply"))
        return f'<div class="black">{"".join(parts)}</div>'
