"""The strategy tree of a proof, as a ``networkx.DiGraph``.

Nodes are White's turns (``kind="white"``: a belief with White to move and
the moves left), Black's turns (``kind="black"``: a belief after White's
move) and wins (``kind="win"``).  Edges carry what happens: White's attempt
(``kind="attempt"``, ``move`` in UCI), the referee's answer to it
(``kind="answer"``: "No", or the announcement), and what White hears of
Black's reply (``kind="reply"``).

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> rules = get_rules("berkeley")
>>> prover = Prover(rules)
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> prover.wins(belief, 1)
True
>>> tree = strategy_tree(prover, belief, 1)
>>> [tree.edges[e]["label"] for e in tree.edges]
['Rh1-h8', 'Checkmate']
"""

from __future__ import annotations

import chess
import networkx as nx
import numpy as np

from ksolve.belief import BeliefState
from ksolve.board import move_to_uci, position_to_board
from ksolve.board.layout import COLUMN_BLACK, decode_move
from ksolve.rules.base import FRESH, Outcome
from ksolve.search.prover import ASK, Prover

MAX_LISTED_SQUARES = 8
"""Hidden units' squares are listed on a node when they are at most this many."""


def move_label(belief: BeliefState, move: int) -> str:
    """White's move in long algebraic notation from White's own board, e.g. ``Ra2-g2``."""
    from_square, to_square, promotion = decode_move(int(move))
    board = position_to_board(belief.positions[0])
    piece = board.piece_at(from_square)
    letter = "" if piece is None or piece.piece_type == chess.PAWN else piece.symbol().upper()
    text = f"{letter}{chess.square_name(from_square)}-{chess.square_name(to_square)}"
    if promotion:
        text += "=" + chess.piece_symbol(promotion + 1).upper()
    return text


def belief_summary(belief: BeliefState) -> dict:
    """Size, what White knows for sure (``known``: a board FEN of White's men
    and of the black men standing on the same square in every member) and
    the squares Black's other men may stand on: ``hidden`` lists them per
    piece name when few (else their count), ``squares`` always lists them all.

    >>> belief_summary(BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", []))
    {'size': 1, 'known': 'k7/8/1K6/8/8/8/8/7R'}
    """
    summary: dict = {"size": len(belief)}
    if len(belief):
        summary["known"] = _known_men(belief)
    squares, listed = {}, {}
    for piece, mask in belief.hidden_squares():
        names = [chess.square_name(s) for s in chess.scan_forward(mask)]
        name = chess.piece_name(piece.piece_type)
        squares[name] = names
        listed[name] = names if len(names) <= MAX_LISTED_SQUARES else len(names)
    if squares:
        summary["hidden"] = listed
        summary["squares"] = squares
    return summary


def _known_men(belief: BeliefState) -> str:
    """The board FEN of White's men and the black men common to every member."""
    common = np.bitwise_and.reduce(belief.positions[:, COLUMN_BLACK:COLUMN_BLACK + 6], axis=0)
    board = position_to_board(belief.positions[0])
    known = chess.Board(None)
    for square, piece in board.piece_map().items():
        if piece.color == chess.WHITE or int(common[piece.piece_type - 1]) >> square & 1:
            known.set_piece_at(square, piece)
    return known.board_fen()


def strategy_tree(prover: Prover, belief: BeliefState, moves: int,
                  beliefs: dict[int, tuple[BeliefState, int]] | None = None, first: int | None = None) -> nx.DiGraph:
    """The winning strategy the prover found for ``belief`` within ``moves``,
    read from its table (``Prover.winning_move``).

    Every branch is expanded: every "No", every announcement, every class of
    Black's replies.  ``first``: the strategy's first attempt (one of the keys
    of a cooked problem; ``ASK`` for "Any?") instead of the one the prover
    chose.  Raises ``ValueError`` if the prover cannot win there (with ``first``).
    ``beliefs``, if given, receives each White node's (belief, "Any?" state).
    """
    if first is not None and not prover.attempt_wins(belief, first, moves):
        raise ValueError("this first attempt does not win within the given moves")
    tree = nx.DiGraph(moves=moves, rules=prover.rules.name, beliefs=beliefs)
    _white_node(tree, prover, belief, moves, number=1, chosen=None if first is None else (first, moves))
    del tree.graph["beliefs"]
    return tree


def _add_node(tree: nx.DiGraph, **attributes) -> int:
    node = tree.number_of_nodes()
    tree.add_node(node, **attributes)
    return node


def _white_node(tree: nx.DiGraph, prover: Prover, belief: BeliefState, moves: int, number: int,
                state: int = FRESH, chosen: tuple[int, int] | None = None) -> int:
    rules = prover.rules
    move, needed = chosen or prover.winning_move(belief, moves, state)
    node = _add_node(tree, kind="white", number=number, moves_left=needed, **belief_summary(belief))
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
    black = _add_node(tree, kind="attempt", number=number, move=move_to_uci(move))
    tree.add_edge(node, black, kind="attempt", move=move_to_uci(move), label=move_label(belief, move))
    for key, part in belief.attempt(rules, move):
        outcome = rules.outcome(key)
        if outcome is Outcome.REFUSED:
            child = _white_node(tree, prover, part, needed, number, rules.state_after_refusal(state))
        elif outcome is Outcome.WON:
            child = _add_node(tree, kind="win", number=number, **belief_summary(part))
        else:
            child = _black_node(tree, prover, part, needed - 1, number)
        tree.add_edge(black, child, kind="answer", label=rules.describe(key), key=[int(k) for k in np.asarray(key)])
    return node


def _black_node(tree: nx.DiGraph, prover: Prover, belief: BeliefState, moves: int, number: int) -> int:
    node = _add_node(tree, kind="black", number=number, moves_left=moves, **belief_summary(belief))
    for key, part in sorted(belief.replies(prover.rules), key=lambda kc: -len(kc[1])):
        child = _white_node(tree, prover, part, moves, number + 1)
        tree.add_edge(node, child, kind="reply", label=prover.rules.describe(key),
                      key=[int(k) for k in np.asarray(key)])
    return node


def key_move(tree: nx.DiGraph) -> str | None:
    """The UCI of the strategy's first attempt ("any" when it first asks "Any?")."""
    for _, _, data in tree.out_edges(0, data=True):
        if data["kind"] == "attempt":
            return data["move"]
        if data["kind"] == "ask":
            return "any"
    return None
