"""The strategy tree (``ksolve.solution``) as HTML, its main line open.

The **main line** reads down the page without indentation: at each White
turn the strategy's move (with a small diagram of what White knows), then
the referee's answer and Black's reply that last longest (in White moves
played; a move played before a refusal, ties broken by the largest belief),
then the next turn.  Every other answer or reply is a ``<details>`` branch
under the step it leaves, closed, and read the same way when opened; a
branch that ends in mate at once starts open, so the mates show.

>>> from ksolve.problem import load_problem_text
>>> from ksolve.solver import solve
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
...                             'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> page = TreeHtml(solve(problem).tree).render()
>>> page.count('class="turn main"'), page.count("<details"), 'class="leaf win"' in page
(1, 0, True)
"""

from __future__ import annotations

import html

import chess
import networkx as nx

from ksolve.report import diagram
from ksolve.rules import get_rules

PALETTE = ("#1e88e5", "#e53935", "#43a047", "#8e24aa", "#fb8c00", "#00acc1", "#6d4c41", "#c0ca33")
"""Hidden units' colours, in the order of the problem's units."""
MAX_DIAGRAMS = 1000
"""White turns beyond this many get no small diagram (each is about 1.6 KB: the page stays a few MB)."""
MINI_SIZE = 150
"""A White turn's diagram, in pixels (the page's CSS shrinks it on narrow screens)."""

_e = html.escape


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


def _mask(names: list[str]) -> int:
    """The bitboard of square names."""
    return sum(1 << chess.parse_square(name) for name in names)


def announcement_class(label: str) -> str:
    """A CSS class for an announcement: no, mate, capture, check or silent.

    >>> announcement_class("No"), announcement_class("Capture at f2, checkmate"), announcement_class("Silent")
    ('no', 'mate', 'silent')
    """
    lower = label.lower()
    if label == "No":
        return "no"
    if "checkmate" in lower:
        return "mate"
    if "capture" in lower:
        return "capture"
    return "check" if "check" in lower else "silent"


def belief_note(data: dict) -> str:
    """``[27]`` or ``[3: bishop b2 d2 f2]`` with a tooltip saying what the count is.

    >>> belief_note({"size": 3, "hidden": {"bishop": ["b2", "d2"], "pawn": 12}})
    '<span class="note" title="3 positions White cannot tell apart">[3: bishop b2 d2]</span>'
    """
    size = data.get("size", "?")
    hidden = data.get("hidden") or {}
    listed = "; ".join(f"{name} {' '.join(squares)}" for name, squares in hidden.items() if isinstance(squares, list))
    title = f"{size} position{'' if size == 1 else 's'} White cannot tell apart"
    return f'<span class="note" title="{_e(title)}">[{_e(str(size))}{_e(": " + listed) if listed else ""}]</span>'


def lengths(tree: nx.DiGraph) -> dict[int, int]:
    """Each node's length: the White moves played (refusals not counted) on the
    longest path down from it to a mate."""
    length: dict[int, int] = {}
    for node in nx.dfs_postorder_nodes(tree, 0) if tree.number_of_nodes() else ():
        length[node] = max((length[child] + _played(tree, node, child) for child in tree.successors(node)), default=0)
    return length


def _played(tree: nx.DiGraph, parent: int, child: int) -> bool:
    """Whether the edge is White's move played (an answer that is no refusal: the game goes on or is won)."""
    return tree.edges[parent, child]["kind"] == "answer" and tree.nodes[child]["kind"] in ("black", "win")


class TreeHtml:
    """One strategy tree as HTML; ``diagrams_left`` counts down as White turns get a diagram."""

    def __init__(self, tree: nx.DiGraph, colors: dict[str, str] | None = None, open_depth: int = 0,
                 max_diagrams: int = MAX_DIAGRAMS) -> None:
        """``colors``: each hidden piece name's colour; side branches nested fewer than
        ``open_depth`` deep start open (mates at once always do)."""
        self.tree, self.colors = tree, colors or {}
        self.open_depth, self.diagrams_left = open_depth, max_diagrams
        self.length = lengths(tree)
        self._rules = get_rules(tree.graph["rules"]) if "rules" in tree.graph else None
        self._goal_word = "capture" if self._rules is not None and self._rules.goal == "king-capture" else "mate"

    def render(self) -> str:
        if not self.tree.number_of_nodes():
            return ""
        keys = set(self.tree.successors(0)) if self.tree.nodes[0]["kind"] == "start" else {0}
        return f'<div class="line main">{"".join(self._line(0, 0, keys))}</div>'

    def _main(self, node: int) -> int | None:
        """The child the line goes on with: a move played rather than a refusal, then the one
        that lasts longest, then the largest belief; None if every child is a mate."""
        tree = self.tree
        children = [child for child in tree.successors(node) if tree.nodes[child]["kind"] != "win"]
        return max(children, default=None, key=lambda child: (
            _played(tree, node, child) or tree.edges[node, child]["kind"] != "answer",
            self.length[child], tree.nodes[child].get("size", 0)))

    def _line(self, start: int, depth: int, keys: set[int]) -> list[str]:
        """From ``start`` down its main line: White turns and steps flat, side branches
        collapsed (``keys``: the White turns whose move is a key, marked "!")."""
        parts: list[str] = []
        main, node = depth == 0, start
        while node is not None:
            data = self.tree.nodes[node]
            if data["kind"] == "white":  # the strategy's one move (or "Any?")
                _, step, edge = next(iter(self.tree.out_edges(node, data=True)))
                if node not in keys and self._mates_at_once(node):  # one line, no diagram
                    parts.append(self._mates(node, step, edge["label"]))
                    break
                parts.append(self._turn(node, edge["label"], node in keys, main))
                node = self._branches(step, "", depth, keys, parts, main)
            elif data["kind"] == "black":
                node = self._branches(node, f"{data['number']}...", depth, keys, parts, main)
            else:  # a start node: one strategy per first class
                node = self._branches(node, "", depth, keys, parts, main)
        return parts

    def _branches(self, node: int, number: str, depth: int, keys: set[int], parts: list[str],
                  main: bool) -> int | None:
        """The steps out of ``node`` (answers, replies, first classes): mates, then the side
        branches, then the step the line goes on with (returned)."""
        following = self._main(node)
        for _, child, edge in self.tree.out_edges(node, data=True):
            if child != following and self.tree.nodes[child]["kind"] == "win":
                parts.append(f'<div class="leaf win">{self._win(child, edge)}</div>')
        for _, child, edge in self.tree.out_edges(node, data=True):
            if child == following or self.tree.nodes[child]["kind"] == "win":
                continue
            opened = depth < self.open_depth or self._mates_at_once(child)
            body = "".join(self._line(child, depth + 1, keys))
            parts.append(f'<details class="branch"{" open" if opened else ""}><summary>'
                         f'{self._step(child, edge, number)}</summary>{body}</details>')
        if following is not None:
            edge = self.tree.edges[node, following]
            parts.append(f'<div class="step{" main" if main else ""}">{self._step(following, edge, number)}</div>')
        return following

    def _mates_at_once(self, node: int) -> bool:
        """Whether ``node`` is a White turn whose move mates whatever the answer."""
        if self.tree.nodes[node]["kind"] != "white":
            return False
        return all(self.tree.nodes[leaf]["kind"] == "win"
                   for step in self.tree.successors(node) for leaf in self.tree.successors(step))

    def _step(self, child: int, edge: dict, number: str) -> str:
        label = str(edge["label"])
        head = f'<span class="num">{_e(number)}</span>' if number else ""
        if edge.get("san") and edge["kind"] == "reply":  # Black's move, when White can tell it
            head = f'<span class="move">{head}{_e(edge["san"])}</span>'
        return (f'{head}{" " if head else ""}<span class="ann {announcement_class(label)}">{_e(label)}</span> '
                f'{belief_note(self.tree.nodes[child])}')

    def _win(self, child: int, edge: dict) -> str:
        """A mate: the move as played (``8.Kxf2#``) when the tree names it, and the referee's words."""
        label = str(edge["label"])
        words = f'<span class="ann mate">{_e(label)}</span>'
        if edge.get("san"):
            return f'<span class="move">{self.tree.nodes[child].get("number", "")}.{_e(edge["san"])}</span> ({words})'
        return f'{words}{"" if label.endswith("#") else " #"}'

    def _mates(self, node: int, step: int, label: str) -> str:
        """A White turn that mates whatever the answer, on one line: ``2.Nf2# (Checkmate)``."""
        wins = [(child, edge) for _, child, edge in self.tree.out_edges(step, data=True)]
        named = all(edge.get("san") for _, edge in wins)
        move = "" if named else f'<span class="move">{self.tree.nodes[node]["number"]}.{_e(label)}</span>: '
        return f'<div class="leaf win">{move}{" · ".join(self._win(child, edge) for child, edge in wins)}</div>'

    def _turn(self, node: int, label: str, key: bool, main: bool) -> str:
        move = f"{self.tree.nodes[node]['number']}.{label}{'!' if key else ''}"
        return (f'<div class="turn{" main" if main else ""}">{self._diagram(node)}<div class="said">'
                f'<span class="move{" key" if key else ""}">{_e(move)}</span>{self._caption(node)}</div></div>')

    def _caption(self, node: int) -> str:
        data = self.tree.nodes[node]
        size, left = data.get("size", "?"), data.get("moves_left")
        words = f"{size} position{'' if size == 1 else 's'}" + (f", {self._goal_word} within {left}" if left else "")
        swatches = "".join(f'<br><span class="sw" style="background:{self._color(name)}"></span>'
                           f"{_e(name)}: {_e(squares_phrase(_mask(names)))}"
                           for name, names in (data.get("squares") or {}).items())
        return f'<div class="caption">{_e(words)}{swatches}</div>'

    def _color(self, name: str) -> str:
        return self.colors.get(name, PALETTE[0])

    def _diagram(self, node: int) -> str:
        if self.diagrams_left <= 0:
            return ""
        self.diagrams_left -= 1
        data = self.tree.nodes[node]
        squares = data.get("squares") or {}
        hidden = "; ".join(f"{name}: {squares_phrase(_mask(names))}" for name, names in squares.items())
        groups = [(_mask(names), self._color(name)) for name, names in squares.items()]
        board = chess.BaseBoard(data["known"]) if "known" in data else chess.BaseBoard.empty()
        title = f"What White knows: {data.get('size', '?')} positions" + (f" ({hidden})" if hidden else "")
        fog = self._fog(node)
        if fog:
            title += "; the fog (squares he does not see) greyed"
        return diagram.mini_board(board, diagram.square_marks(groups), size=MINI_SIZE, title=title, fog=fog)

    def _fog(self, node: int) -> int:
        """The squares White does not see at ``node`` (0 under a referee that shows no squares):
        the complement of the view the observation that led there showed him."""
        for _, _, edge in self.tree.in_edges(node, data=True):
            if edge.get("key") is not None and self._rules is not None:
                seen = self._rules.view_squares(edge["key"])
                return 0 if seen is None else ~seen & chess.BB_ALL
        return 0
