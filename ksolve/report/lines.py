"""A strategy tree read as problemists print a solution: a main line and
its variations.

The main line follows, at each White turn, the strategy's move and after it
the answer and the Black reply that last longest (ties: the larger belief).
Every other answer or reply opens a variation, written under the line it
leaves with what White heard there: ``1.Rg2 No (B b2/d2/f2): 1.Nf2#`` or
``1...Bxf6 2.Nf2#``.  Black's silent moves are not written (White does not
see them); answers on which the same move mates at once are left out (the
full tree has them).

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> from ksolve.solution import strategy_tree
>>> prover = Prover(get_rules("berkeley"))
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> _ = prover.wins(belief, 1)
>>> print(main_line(strategy_tree(prover, belief, 1)).text())
1.Rh8#!
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import networkx as nx

from ksolve.solution import TreeWalk, black_token, hidden_note, path_text  # noqa: F401 (the notation, read here)

INDENT = "  "


@dataclass
class Line:
    """A line of play: ``opening`` (what White heard where it leaves its
    parent line, "" for the main line), its moves, its variations."""

    opening: str = ""
    moves: list[str] = field(default_factory=list)
    variations: list[Line] = field(default_factory=list)

    def head(self) -> str:
        """This line alone, e.g. ``1...Bxf6 2.Nf2#``."""
        return " ".join(filter(None, [self.opening, *self.moves]))

    def text(self, depth: int = 0) -> str:
        """This line and its variations, one per text line, indented by depth.
        Variations that repeat one another a move later are written once with
        the moves where they recur: ``1...Bxf6 2.Nf2# (the same at moves 2, 3)``."""
        lines = [INDENT * depth + self.head()]
        shapes: dict[str, list[int]] = {}
        for line in self.variations:
            if not line.variations:
                shapes.setdefault(_shape(line.head()), []).append(_first_number(line.head()))
        written: set[str] = set()
        for line in self.variations:
            shape = _shape(line.head())
            if line.variations or len(shapes[shape]) == 1:
                lines.append(line.text(depth + 1))
            elif shape not in written:
                written.add(shape)
                again = ", ".join(str(number) for number in shapes[shape][1:])
                lines.append(f"{INDENT * (depth + 1)}{line.head()} (the same at move{'s' if ',' in again else ''} {again})")
        return "\n".join(lines)

    def count(self) -> int:
        """Lines in all: this one and every variation below it."""
        return 1 + sum(line.count() for line in self.variations)


_NUMBER = re.compile(r"\b(\d+)(?=\.)")


def _first_number(text: str) -> int:
    match = _NUMBER.search(text)
    return int(match.group(1)) if match else 0


def _shape(text: str) -> str:
    """``text`` with its move numbers counted from its first: ``1...Bxf6 2.Nf2#`` and
    ``3...Bxf6 4.Nf2#`` have one shape."""
    first = _first_number(text)
    return _NUMBER.sub(lambda match: f"+{int(match.group(1)) - first}", text)


def main_line(tree: nx.DiGraph) -> Line:
    """The solution as a main line with its variations (several first
    announcements: one variation each, under an empty main line)."""
    return TreeReader(tree).main_line()


class TreeReader:
    """Writes a strategy tree as lines (its navigation: ``solution.TreeWalk``);
    ``owner`` maps each White node to the line it is written in."""

    def __init__(self, tree: nx.DiGraph) -> None:
        self.tree = tree
        walk = TreeWalk(tree)
        self.length, self._order = walk.length, walk.order
        self.owner: dict[int, Line] = {}

    def main_line(self) -> Line:
        """The solution's main line with its variations."""
        tree = self.tree
        line = Line()
        if tree.nodes[0]["kind"] == "start":
            for _, child, data in tree.out_edges(0, data=True):
                variation = Line(f"{data['label']}{hidden_note(tree.nodes[child])}:")
                self.white(child, variation, key=True)
                line.variations.append(variation)
        else:
            self.white(0, line, key=True)
        return line

    def white(self, node: int, line: Line, key: bool = False) -> None:
        tree = self.tree
        self.owner[node] = line
        number = tree.nodes[node]["number"]
        (_, step, edge), = tree.out_edges(node, data=True)
        mark = "!" if key else ""
        if edge["kind"] == "ask":
            (main, data), *others = self._order(step)
            for child, other in others:
                variation = Line(f"{number}.Any? {other['label']}{hidden_note(tree.nodes[child])}:")
                self.white(child, variation)
                line.variations.append(variation)
            line.moves.append(f"{number}.Any?{mark} {data['label']}")
            self.white(main, line)
            return
        if edge["kind"] == "probe":  # Modern Kriegspiel: "1.probe a7,b7: a7 empty, b7 black pawn"
            (main, data), *others = self._order(step)
            for child, other in others:
                variation = Line(f"{number}.{edge['label']}: {other['label']}{hidden_note(tree.nodes[child])}:")
                self.white(child, variation)
                line.variations.append(variation)
            line.moves.append(f"{number}.{edge['label']}{mark}: {data['label']}")
            self.white(main, line)
            return
        (main, data), *others = self._order(step)
        for child, other in others:
            if other["san"] is None:
                variation = Line(f"{number}.{edge['label']} {other['label']}{hidden_note(tree.nodes[child])}:")
                self.white(child, variation)
                line.variations.append(variation)
            elif tree.nodes[child]["kind"] != "win":
                variation = Line(moves=[f"{number}.{other['san']}"])
                self.black(child, variation)
                line.variations.append(variation)
        if data["san"] is None:  # refused in every class the strategy meets
            line.moves.append(f"{number}.{edge['label']}{mark} {data['label']}{hidden_note(tree.nodes[main])}")
            self.white(main, line)
            return
        line.moves.append(f"{number}.{data['san']}{mark}")
        if tree.nodes[main]["kind"] == "black":
            self.black(main, line)

    def black(self, node: int, line: Line) -> None:
        tree = self.tree
        number = tree.nodes[node]["number"]
        (main, data), *others = self._order(node)
        for child, other in others:
            variation = Line(f"{number}...{black_token(other)}")
            self.white(child, variation)
            line.variations.append(variation)
        token = black_token(data)
        if token != "(silent)":
            line.moves.append(token if line.moves else f"{number}...{token}")
        self.white(main, line)


def key_label(solution: "Solution") -> str | None:
    """The key as composers write it (``1.Rh8!``): the label of the strategy
    tree's first attempt (its root's, or the one matching ``key`` below a
    ``start`` node), else the UCI move; None without a key.

    >>> from ksolve.problem import load_problem_text
    >>> from ksolve.solver import solve
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
    ...                             'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> solution = solve(problem)
    >>> key_label(solution)
    '1.Rh8!'
    >>> solution.tree = None
    >>> key_label(solution)
    '1.h1h8!'
    """
    if not solution.key:
        return None
    tree = solution.tree
    if tree is not None and tree.number_of_nodes():
        roots = [0] if tree.nodes[0].get("kind") != "start" else [child for _, child in tree.out_edges(0)]
        for root in roots:
            for _, _, edge in tree.out_edges(root, data=True):
                if edge.get("kind") in ("attempt", "ask") and (
                        edge.get("move", "any") == solution.key or len(roots) == 1):
                    return f"{tree.nodes[root].get('number', 1)}.{edge['label']}!"
    return "Any?" if solution.key == "any" else f"1.{solution.key}!"
