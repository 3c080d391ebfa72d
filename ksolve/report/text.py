"""The strategy tree as text, in problem composers' conventions.

The key carries "!", each attempt is numbered with White's move number, the
referee's answers and what White hears of Black's replies are indented
under it with the size of the belief (and the hidden units' squares when
few), down to "#".

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> from ksolve.solution import strategy_tree
>>> prover = Prover(get_rules("berkeley"))
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> _ = prover.wins(belief, 1)
>>> print(render_text(strategy_tree(prover, belief, 1)))
1.Rh1-h8!
  Checkmate #
"""

from __future__ import annotations

import networkx as nx

INDENT = "  "


def belief_note(data: dict) -> str:
    """``[27]`` or ``[3: bishop b2 d2 f2]`` for a node's belief."""
    hidden = data.get("hidden") or {}
    listed = [f"{name} {' '.join(squares)}" for name, squares in hidden.items() if isinstance(squares, list)]
    return f"[{data['size']}{': ' + '; '.join(listed) if listed else ''}]"


def render_text(tree: nx.DiGraph) -> str:
    """The whole tree as indented lines."""
    lines: list[str] = []
    if tree.nodes[0]["kind"] == "start":  # several first announcements: one strategy each
        for _, child, info in tree.out_edges(0, data=True):
            lines.append(f"{info['label']} {belief_note(tree.nodes[child])}")
            _white(tree, child, 1, lines, key=True)
    else:
        _white(tree, 0, 0, lines, key=True)
    return "\n".join(lines)


def _white(tree: nx.DiGraph, node: int, depth: int, lines: list[str], key: bool = False) -> None:
    for _, attempt, edge in tree.out_edges(node, data=True):
        number = tree.nodes[node]["number"]
        lines.append(f"{INDENT * depth}{number}.{edge['label']}{'!' if key else ''}")
        for _, child, answer in tree.out_edges(attempt, data=True):
            kind = tree.nodes[child]["kind"]
            if kind == "win":
                lines.append(f"{INDENT * (depth + 1)}{answer['label']} #")
                continue
            lines.append(f"{INDENT * (depth + 1)}{answer['label']} {belief_note(tree.nodes[child])}")
            if kind == "white":
                _white(tree, child, depth + 2, lines)
            else:
                _black(tree, child, depth + 2, lines)


def _black(tree: nx.DiGraph, node: int, depth: int, lines: list[str]) -> None:
    number = tree.nodes[node]["number"]
    for _, child, reply in tree.out_edges(node, data=True):
        lines.append(f"{INDENT * depth}{number}... {reply['label']} {belief_note(tree.nodes[child])}")
        _white(tree, child, depth + 1, lines)
