"""The strategy tree of a proof, as a ``networkx.DiGraph``.

Nodes are White's turns (``kind="white"``: a belief with White to move and
the moves left), Black's turns (``kind="black"``: a belief after White's
move) and wins (``kind="win"``).  Edges carry what happens: White's attempt
(``kind="attempt"``, ``move`` in UCI, ``label`` in SAN on White's own
board), the referee's answer to it (``kind="answer"``: ``label`` "No" or
the announcement; ``san``: the move as played there, e.g. ``Kxf2#``), and
what White hears of Black's reply (``kind="reply"``; ``san``: Black's move
when White can tell it, e.g. ``Bxf2``).  Under Modern Kriegspiel a White
turn may begin with a probe (``kind="probe"`` edge to a ``kind="probe"``
node, ``squares`` in words, ``label`` ``probe a7,b7``), whose answers
(``kind="answer"``, ``label`` ``a7 empty, b7 black pawn``, ``contents``:
square -> python-chess symbol or None) lead to the turn going on.

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> rules = get_rules("berkeley")
>>> prover = Prover(rules)
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> prover.wins(belief, 1)
True
>>> tree = strategy_tree(prover, belief, 1)
>>> [tree.edges[e]["label"] for e in tree.edges], tree.edges[1, 2]["san"]
(['Rh8', 'Checkmate'], 'Rh8#')
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

import chess
import networkx as nx
import numpy as np

from ksolve.belief import BeliefState
from ksolve.board import move_to_uci, position_to_board
from ksolve.board.convert import board_fen_of
from ksolve.board.layout import COLUMN_BLACK
from ksolve.rules.base import FRESH, PROBED, Outcome, RuleSet
from ksolve.rules.notation import attempt_san, own_board, played_san
from ksolve.search.base import Search
from ksolve.attempts import move_label, probe_text as probe_label
from ksolve.search.prover import ASK, Prover, probe_mask

T = TypeVar("T")

MAX_LISTED_SQUARES = 8
"""Hidden units' squares are listed on a node when they are at most this many."""
MAX_REPLY_PARENTS = 200
"""Positions looked at for the Black moves that lead into a reply class."""


def played_label(rules: RuleSet, label: str, key: np.ndarray) -> str:
    """The attempt ``label`` as played in the answer class ``key``: ``Kxf2#``, ``Nf2+``."""
    capture, check = rules.move_marks(key)
    mate = rules.outcome(key) is Outcome.WON and rules.goal == "mate"
    return played_san(label, capture, check, mate)


def black_moves(before: BeliefState, after: BeliefState) -> list[str]:
    """Black's moves (SAN) from members of ``before`` into members of ``after``
    (the first ``MAX_REPLY_PARENTS`` members of ``before`` are looked at)."""
    targets = {position_to_board(row).board_fen() for row in after.positions}
    found: set[str] = set()
    for row in before.positions[:MAX_REPLY_PARENTS]:
        board = position_to_board(row)
        for move in board.legal_moves:
            san = board.san(move)
            board.push(move)
            if board.board_fen() in targets:
                found.add(san)
            board.pop()
    return sorted(found)


def belief_summary(belief: BeliefState, types: tuple[int, ...] = ()) -> dict:
    """Size, what White knows for sure (``known``: a board FEN of White's men
    and of the black men standing on the same square in every member) and
    the squares Black's other men may stand on: ``hidden`` lists them per
    piece name when few (else their count), ``squares`` always lists them all.
    ``types``: black piece types listed even where every member agrees (the
    problem's hidden units, so that ``[1]`` still names their square).

    >>> belief_summary(BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", []))
    {'size': 1, 'known': 'k7/8/1K6/8/8/8/8/7R'}
    >>> belief_summary(BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", ["b:d4"]), (chess.BISHOP,))["hidden"]
    {'bishop': ['d4']}
    """
    summary: dict = {"size": len(belief)}
    if len(belief):
        summary["known"] = _known_men(belief)
    squares, listed = {}, {}
    varying = {piece.piece_type: mask for piece, mask in belief.hidden_squares()}
    for piece_type in sorted(set(varying) | set(types)):
        mask = varying.get(piece_type) if piece_type in varying else (
            belief.squares_of(chess.BLACK, piece_type) if len(belief) else 0)
        if not mask:
            continue
        names = [chess.square_name(s) for s in chess.scan_forward(mask)]
        name = chess.piece_name(piece_type)
        squares[name] = names
        listed[name] = names if len(names) <= MAX_LISTED_SQUARES else len(names)
    if squares:
        summary["hidden"] = listed
        summary["squares"] = squares
    return summary


def _known_men(belief: BeliefState) -> str:
    """The board FEN of White's men and the black men common to every member."""
    common = np.bitwise_and.reduce(belief.positions[:, COLUMN_BLACK:COLUMN_BLACK + 6], axis=0)
    return board_fen_of([*belief.positions[0, :COLUMN_BLACK].tolist(), *common.tolist()])


def strategy_tree(prover: Prover, belief: BeliefState, moves: int,
                  beliefs: dict[int, tuple[BeliefState, int]] | None = None, first: int | None = None,
                  search: Search | None = None) -> nx.DiGraph:
    """The winning strategy the prover found for ``belief`` within ``moves``,
    read from its table (``Prover.winning_move``).

    Every branch is expanded: every "No", every announcement, every class of
    Black's replies.  ``first``: the strategy's first attempt (one of the keys
    of a cooked problem; ``ASK`` for "Any?") instead of the one the prover
    chose.  Raises ``ValueError`` if the prover cannot win there (with ``first``).
    ``beliefs``, if given, receives each White node's (belief, "Any?" state).
    ``search`` (default: the depth-first prover) decides what the table does
    not hold: ``first``, and turns whose proof a memory budget dropped.
    """
    search = search or prover
    if first is not None and not search.attempt_wins(belief, first, moves):
        raise ValueError("this first attempt does not win within the given moves")
    types = tuple(sorted(piece.piece_type for piece, _ in belief.hidden_squares()))
    tree = nx.DiGraph(moves=moves, rules=prover.rules.name, beliefs=beliefs, hidden_types=types, search=search,
                      memo={})
    _white_node(tree, prover, belief, moves, number=1, chosen=None if first is None else (first, moves))
    del tree.graph["beliefs"], tree.graph["search"], tree.graph["memo"]
    return tree


def _memo(tree: nx.DiGraph, key: tuple, compute: Callable[[], T]) -> T:
    """What ``compute()`` gives for ``key``, computed once per tree: a strategy meets
    the same belief on many branches (K+R against a hidden king: 56,000 White turns
    over 2,400 beliefs), and its answers, replies and words are the same each time."""
    memo = tree.graph["memo"]
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def _identity(belief: BeliefState) -> tuple[int, int]:
    """A belief's identity in the memo, as in the result table: its digest and size."""
    return belief.key, len(belief)


def _add_node(tree: nx.DiGraph, **attributes) -> int:
    node = tree.number_of_nodes()
    tree.add_node(node, **attributes)
    return node


def _white_node(tree: nx.DiGraph, prover: Prover, belief: BeliefState, moves: int, number: int,
                state: int = FRESH, chosen: tuple[int, int] | None = None) -> int:
    rules = prover.rules
    prover.run.look()
    move, needed = chosen or _memo(tree, ("move", *_identity(belief), moves, state),
                                   lambda: prover.winning_move(belief, moves, state, tree.graph["search"]))
    node = _add_node(tree, kind="white", number=number, moves_left=needed, **_summary(tree, belief))
    if tree.graph["beliefs"] is not None:
        tree.graph["beliefs"][node] = (belief, state)
    if move == ASK:
        question = _add_node(tree, kind="ask", number=number)
        tree.add_edge(node, question, kind="ask", label="Any?")
        for answer_state, part in prover.any_classes(belief):
            if len(part):
                child = _white_node(tree, prover, part, needed, number, answer_state)
                tree.add_edge(question, child, kind="answer", label=rules.any_answer_words(answer_state))
        return node
    if probe_mask(move):
        _probe_node(tree, prover, node, belief, probe_mask(move), needed, number)
        return node
    label = _memo(tree, ("label", *_identity(belief), move), lambda: move_label(belief, move))
    black = _add_node(tree, kind="attempt", number=number, move=move_to_uci(move))
    tree.add_edge(node, black, kind="attempt", move=move_to_uci(move), label=label)
    for outcome, part, edge in _memo(tree, ("attempt", *_identity(belief), move),
                                     lambda: _answers(rules, belief, move, label)):
        if outcome is Outcome.REFUSED:
            child = _white_node(tree, prover, part, needed, number, rules.state_after_refusal(state))
        elif outcome is Outcome.WON:
            child = _add_node(tree, kind="win", number=number, **_summary(tree, part))
        else:
            child = _black_node(tree, prover, part, needed - 1, number)
        tree.add_edge(black, child, **edge)
    return node


def _answers(rules: RuleSet, belief: BeliefState, move: int, label: str) -> list[tuple[Outcome, BeliefState, dict]]:
    """The referee's answers to ``move``: each one's outcome, class and edge attributes."""
    answers = []
    for key, part in belief.attempt(rules, move):
        outcome = rules.outcome(key)
        san = None if outcome is Outcome.REFUSED else played_label(rules, label, key)
        answers.append((outcome, part, {"kind": "answer", "label": rules.describe(key), "san": san,
                                        "key": [int(k) for k in np.asarray(key)]}))
    return answers


def _probe_node(tree: nx.DiGraph, prover: Prover, node: int, belief: BeliefState, mask: int, moves: int,
                number: int) -> None:
    rules = prover.rules
    probe = _add_node(tree, kind="probe", number=number)
    squares = [chess.square_name(square) for square in chess.scan_forward(mask)]
    tree.add_edge(node, probe, kind="probe", label=probe_label(mask), squares=squares)
    for key, part in prover.probe_classes(belief, mask):
        child = _white_node(tree, prover, part, moves, number, PROBED)
        tree.add_edge(probe, child, kind="answer", label=rules.describe_probe(key, mask),
                      contents=rules.probe_json(key, mask))


def _black_node(tree: nx.DiGraph, prover: Prover, belief: BeliefState, moves: int, number: int) -> int:
    rules = prover.rules
    node = _add_node(tree, kind="black", number=number, moves_left=moves, **_summary(tree, belief))
    for part, edge in _memo(tree, ("replies", *_identity(belief)), lambda: _replies(rules, belief)):
        child = _white_node(tree, prover, part, moves, number + 1)
        tree.add_edge(node, child, **edge)
    return node


def _replies(rules: RuleSet, belief: BeliefState) -> list[tuple[BeliefState, dict]]:
    """Black's replies grouped by what White hears, largest first: each class and its edge attributes."""
    return [(part, {"kind": "reply", "label": rules.describe(key), "san": _black_san(rules, key, belief, part),
                    "key": [int(k) for k in np.asarray(key)]})
            for key, part in sorted(belief.replies(rules), key=lambda kc: -len(kc[1]))]


def _summary(tree: nx.DiGraph, belief: BeliefState) -> dict:
    return _memo(tree, ("summary", *_identity(belief)), lambda: belief_summary(belief, tree.graph["hidden_types"]))


def _black_san(rules: RuleSet, key: np.ndarray, before: BeliefState, after: BeliefState) -> str | None:
    """Black's reply as White can name it: a capture or a check by one kind of
    move (``Bxf2``); None for a silent reply or when several moves lead there."""
    if not any(rules.move_marks(key)):
        return None
    moves = set(black_moves(before, after))
    return moves.pop() if len(moves) == 1 else None


def key_move(tree: nx.DiGraph) -> str | None:
    """The UCI of the strategy's first attempt ("any" when it first asks "Any?";
    ``probe a7,b7`` when it first probes)."""
    for _, _, data in tree.out_edges(0, data=True):
        if data["kind"] == "attempt":
            return data["move"]
        if data["kind"] == "ask":
            return "any"
        if data["kind"] == "probe":
            return data["label"]
    return None


# --- navigation and notation of a strategy tree ------------------------------------
class TreeWalk:
    """How a strategy tree is walked: each node's length (White moves to the win, at
    worst, memoised) and its children in the order a solution lists them; the main
    line follows the first child at every turn (``main_line_nodes``)."""

    def __init__(self, tree: nx.DiGraph) -> None:
        self.tree = tree
        self.length = lru_cache(maxsize=None)(self._length)

    def _length(self, node: int) -> int:
        """White moves to the win from ``node``, at worst."""
        tree, kind = self.tree, self.tree.nodes[node]["kind"]
        if kind == "win":
            return 0
        lengths = []
        for _, child, data in tree.out_edges(node, data=True):
            played = data["kind"] == "answer" and data.get("san") is not None
            lengths.append(self.length(child) + (1 if played else 0))
        return max(lengths, default=0)

    def order(self, node: int) -> list[tuple[int, dict]]:
        """The children of ``node``, longest (then largest) first; moves played before refusals."""
        tree = self.tree
        return sorted(((child, data) for _, child, data in tree.out_edges(node, data=True)),
                      key=lambda cd: (cd[1].get("kind") == "answer" and cd[1].get("san") is None,
                                      -self.length(cd[0]), -tree.nodes[cd[0]].get("size", 0)))

    def main_line_nodes(self) -> set[int]:
        """The White turns of the solution's main line (none when several first
        announcements each open a variation)."""
        tree, nodes, node = self.tree, set(), 0
        if tree.nodes[0]["kind"] == "start":
            return nodes
        while tree.nodes[node]["kind"] == "white":
            nodes.add(node)
            (_, step, edge), = tree.out_edges(node, data=True)
            node, data = self.order(step)[0]
            if edge["kind"] in ("ask", "probe") or data["san"] is None:
                continue
            if tree.nodes[node]["kind"] != "black":
                break
            node = self.order(node)[0][0]
        return nodes


def hidden_note(node: dict) -> str:
    """`` (B b2/d2/f2)``: where the hidden units may stand, when few squares."""
    listed = [f"{chess.piece_symbol(chess.PIECE_NAMES.index(name)).upper()} {'/'.join(squares)}"
              for name, squares in (node.get("hidden") or {}).items() if isinstance(squares, list)]
    return f" ({'; '.join(listed)})" if listed else ""


def black_token(data: dict) -> str:
    """Black's reply as White hears it: its SAN when White can tell it, else the referee's words."""
    if data.get("san"):
        return data["san"]
    return "(silent)" if data["label"].startswith("Silent") else f"({data['label']})"


def path_text(tree: nx.DiGraph, node: int) -> str:
    """The play from the root to ``node`` as White knows it: ``1.Rg2 2.Rg8 No``."""
    tokens: list[str] = []
    path = nx.shortest_path(tree, 0, node)
    attempt = ""
    for parent, child in zip(path, path[1:]):
        data = tree.edges[parent, child]
        number = tree.nodes[parent].get("number", 1)
        if data["kind"] == "attempt":
            attempt = data["label"]
        elif data["kind"] == "ask":
            tokens.append(f"{number}.Any?")
        elif data["kind"] == "probe":
            tokens.append(f"{number}.{data['label']}:")
        elif data["kind"] == "answer" and tree.nodes[parent]["kind"] in ("ask", "probe"):
            tokens.append(data["label"])
        elif data["kind"] == "answer":
            tokens.append(f"{number}.{attempt} {data['label']}" if data.get("san") is None else f"{number}.{data['san']}")
        elif data["kind"] == "reply" and black_token(data) != "(silent)":
            tokens.append(black_token(data))
        elif data["kind"] != "reply":  # several first announcements
            tokens.append(f"{data['label']}:")
    return " ".join(tokens)
