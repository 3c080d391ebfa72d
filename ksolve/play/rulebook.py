"""What a rule set's referee says in a game, in its own words: the lines the
Play page and ``ksolve play`` show before a game, each produced by the rule
set itself (``describe``, ``refusal_words``...) so that they never differ
from what the referee will say.

>>> book = rulebook("wild16")
>>> book.title, [line.words for line in book.lines[:3]]
('ICC Wild 16', ['Illegal move', 'Pawn at e4 captured', 'Piece at e4 captured'])
>>> [line.words for line in rulebook("berkeley").lines[:2]]
['No', 'Capture at e4']
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ksolve.play.session import PLAYABLE, fog_words
from ksolve.rules import codes, get_rules
from ksolve.rules.base import ASKED, MUST_CAPTURE
from ksolve.rules.kernels import PAWN_INFO_COUNT, PAWN_INFO_EXISTS, PAWN_INFO_NONE

E4 = codes.capture_code(28)
"""A capture on e4, the example square."""
_CHECKS = ((codes.CHECK_RANK, "a check along the rank"), (codes.CHECK_FILE, "a check along the file"),
           (codes.CHECK_LONG, "a check on the king's longer diagonal"),
           (codes.CHECK_SHORT, "a check on the king's shorter diagonal"), (codes.CHECK_KNIGHT, "a knight's check"))


@dataclass(frozen=True)
class Line:
    """One thing the referee says: the words, and when he says them."""

    words: str
    when: str


@dataclass(frozen=True)
class Rulebook:
    """A rule set's words in a game."""

    name: str
    title: str
    source: str
    """Whose words these are."""
    lines: tuple[Line, ...]

    def as_dict(self) -> dict:
        return {"name": self.name, "title": self.title, "source": self.source,
                "lines": [{"words": line.words, "when": line.when} for line in self.lines]}


def rulebook(name: str) -> Rulebook:
    """The words of the playable rule set ``name`` (``ValueError`` for another)."""
    if name not in PLAYABLE:
        raise ValueError(f"{name} is not played here; played here: {', '.join(PLAYABLE)}")
    rules = get_rules(name)
    if rules.fog:
        return Rulebook(name, rules.title, "No referee: your men's sight shows what you know; the game tells you "
                        "only what your moves did and what you lost.", _fog_lines())
    source = ("The Internet Chess Club's words (its help file \"Kriegspiel\", wild 16)." if rules.wording == codes.ICC
              else "The classic referee's words, as in the problem literature.")
    return Rulebook(name, rules.title, source, _kriegspiel_lines(rules))


def _fog_lines() -> tuple[Line, ...]:
    return (Line(fog_words(0, True), "to the mover, after his move (the other side hears \"White moved\")"),
            Line(fog_words(E4, True), "to the mover, when his move took a man"),
            Line(f"White {fog_words(E4, False)}", "to the side that lost a man (the square is marked if he no "
                                                  "longer sees it)"),
            Line(fog_words(codes.END_KING_CAPTURED << codes.END_SHIFT, True), "the game is won: there is no check "
                 "and no mate, the king is taken"))


def _kriegspiel_lines(rules) -> tuple[Line, ...]:
    def describe(code: int, extra: int = 0) -> str:
        return rules.describe(np.array([code, extra], dtype=np.uint64))

    heard = "both players hear it" if rules.refusal_count_heard else "to the mover alone"
    lines = [Line(rules.refusal_words, f"an attempt that is illegal in the true position ({heard}; try again)")]
    if rules.capture_kind:
        lines += [Line(describe(E4 | codes.CAPTURED_PAWN), "a pawn was taken (the square is said)"),
                  Line(describe(E4), "a piece was taken (the square is said)")]
    else:
        lines.append(Line(describe(E4), "a man was taken (the square is said, not what was taken)"))
    lines += [Line(describe(bit), when) for bit, when in _CHECKS]
    lines.append(Line(describe(codes.END_CHECKMATE << codes.END_SHIFT), "the game is won"))
    if rules.promotion_announced:
        lines.append(Line(describe(codes.PROMOTION), "a pawn promoted (not to what, nor where)"))
    if rules.pawn_info != PAWN_INFO_NONE:
        two = codes.PAWN_INFO | 2 << codes.PAWN_TRIES_SHIFT
        told = {PAWN_INFO_COUNT: "the number of pawn captures the side now to move can make",
                PAWN_INFO_EXISTS: "whether the side now to move can capture with a pawn"}.get(
            rules.pawn_info, "the squares of the pawns of the side now to move that can capture")
        lines.append(Line(describe(two, 1 << 12 | 1 << 13), f"after a move, to both: {told}"))
        lines.append(Line(describe(codes.PAWN_INFO), "a move with nothing more to say"))
    else:
        lines.append(Line(describe(0), "a move with nothing more to say"))
    if rules.any_question:
        yes, no = rules.any_answer_words(MUST_CAPTURE), rules.any_answer_words(ASKED)
        lines.append(Line(f"Any? {yes} / {no}", "asked before an attempt: whether a pawn capture exists "
                                                   f"(after \"{yes}\" pawn captures must be tried)"))
    if rules.impossible_answer != "illegal":
        lines.append(Line(rules.impossible_answer.capitalize(), "an attempt that is no move on the mover's own board"))
    return tuple(lines)
