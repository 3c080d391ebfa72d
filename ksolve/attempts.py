"""White's first choices as the search writes them and as people read them:
one codec.

The search writes a choice as an int (``Attempt``): a move code (0 or more,
``ksolve.board``), ``ASK`` (-2) for asking "Any?", or a probe set of Modern
Kriegspiel (``ksolve.search.prover.probe_move``, below -4).  Files, JSON and
the command line write it as text (``attempt_text``): UCI (``h1h8``), ``any``,
or ``probe f1,g2``; reports as a label (``attempt_label``): SAN on White's own
board (``Rh8``), ``Any?``, or the probe's squares.

>>> from ksolve.belief import BeliefState
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> [attempt_text(attempt_from_text(text)) for text in ("h1h8", "any", "probe f1,g2")]
['h1h8', 'any', 'probe f1,g2']
>>> attempt_label(belief, attempt_from_text("h1h8")), attempt_label(belief, ASK)
('Rh8', 'Any?')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ksolve.rules.base import ASK
from ksolve.search.prover import probe_mask, probe_move

if TYPE_CHECKING:
    from ksolve.belief import BeliefState

Attempt = int
"""A choice of White's turn as the search writes it (see the module)."""
ANY_TEXT, PROBE_PREFIX = "any", "probe "


def attempt_text(attempt: Attempt) -> str:
    """The choice as files and the command line write it: UCI, ``any`` or ``probe f1,g2``."""
    from ksolve.board import move_to_uci

    if probe_mask(attempt):
        return probe_text(probe_mask(attempt))
    return ANY_TEXT if attempt == ASK else move_to_uci(attempt)


def attempt_from_text(text: str) -> Attempt:
    """The choice ``attempt_text`` wrote (``ValueError`` for text that is none)."""
    import chess

    from ksolve.board import move_from_uci

    if text.startswith(PROBE_PREFIX):
        return probe_move(sum(1 << chess.parse_square(square) for square in text[len(PROBE_PREFIX):].split(",")))
    return ASK if text == ANY_TEXT else move_from_uci(text)


def attempt_label(belief: "BeliefState", attempt: Attempt) -> str:
    """The choice as reports show it: SAN on White's own board (``belief``'s first
    position), ``Any?`` or the probe's squares."""
    if probe_mask(attempt):
        return probe_text(probe_mask(attempt))
    return "Any?" if attempt == ASK else move_label(belief, attempt)


def move_label(belief: "BeliefState", move: int) -> str:
    """White's move in SAN on White's own board (before the referee's answer), e.g. ``Rg2``."""
    from ksolve.board import move_to_uci, position_to_board
    from ksolve.rules.notation import attempt_san, own_board

    board = position_to_board(belief.positions[0])
    return attempt_san(own_board(board), move_to_uci(int(move)))


def probe_text(mask: int) -> str:
    """A probe set in words: ``probe a7,b7`` (squares in board order).

    >>> probe_text((1 << 48) | (1 << 49))
    'probe a7,b7'
    """
    import chess

    return PROBE_PREFIX + ",".join(chess.square_name(square) for square in chess.scan_forward(mask))
