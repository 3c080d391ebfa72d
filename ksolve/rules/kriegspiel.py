"""The six Kriegspiel rule sets, table-driven over one set of numba kernels.

What each referee tells (DOMAIN.md section 3; details checked against the
``kriegspiel`` package, see ``docs/notes/kriegspiel-reference.md``):

============  ======================  ==========================  =====================
rule set      capture                 pawn-try information        other
============  ======================  ==========================  =====================
berkeley      square                  none                        bare-kings draw
berkeley-any  square                  "Any?" (Try / No)           bare-kings draw
english       square (e.p.: arrival   "Any?" (Yes / No)
              square, "en passant")
cincinnati    square + pawn/piece     whether one exists
rand          square + pawn/piece     source squares              promotion announced
wild16        square + pawn/piece     number of tries
============  ======================  ==========================  =====================

Pawn-try information is public: it is announced with every move, about the
player now to move (as on ICC, whose help lists "n pawn tries" among the
public announcements), so White also hears Black's.

Wild 16 speaks as the Internet Chess Club does (its help file "Kriegspiel"):
"Illegal move" to the mover alone, "Pawn at d4 captured", "Piece at g7
captured", "Rank check", "File check", "Long-diagonal check",
"Short-diagonal check", "Knight check", and "n pawn tries" when there are
some; the other rule sets in the classic referee's words ("No", "Capture at
d4", "check on the file").

>>> import numpy as np
>>> from ksolve.board import position_from_fen, move_from_uci
>>> rules = RULE_SETS["wild16"]
>>> out = rules.attempt(position_from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")[None, :], move_from_uci("e1d1"))
>>> rules.describe(out.keys[0]), RULE_SETS["cincinnati"].describe(out.keys[0])
('1 pawn try', 'Silent, pawn capture possible')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import chess
import numpy as np

from ksolve.rules import codes
from ksolve.rules.base import Outcomes, RuleSet
from ksolve.rules.kernels import (
    FLAG_COUNT, FLAG_CAPTURE_KIND, FLAG_EN_PASSANT_SQUARE, FLAG_INSUFFICIENT, FLAG_MOVE_LIMIT,
    FLAG_PAWN_INFO, FLAG_PROMOTION, INSUFFICIENT_BARE, INSUFFICIENT_DEAD, PAWN_INFO_COUNT,
    PAWN_INFO_EXISTS, PAWN_INFO_NONE, PAWN_INFO_SQUARES, any_answers, attempt_and_replies, attempt_outcomes,
    reply_outcomes, turn_infos,
)

_PAWN_INFO_WORDS = {PAWN_INFO_NONE: "none", PAWN_INFO_COUNT: "count", PAWN_INFO_EXISTS: "exists",
                    PAWN_INFO_SQUARES: "squares"}


@dataclass(frozen=True, repr=False)
class KriegspielRules(RuleSet):
    """One referee rule set: a row of the table above."""

    name: str
    title: str
    capture_kind: bool = False
    en_passant_at_arrival: bool = False
    promotion_announced: bool = False
    pawn_info: int = PAWN_INFO_NONE
    insufficient: int = INSUFFICIENT_DEAD
    move_limit: int = 2000
    any_question: bool = False
    any_obliges_until_capture: bool = False
    """After "Yes"/"Try" to Any?: pawn captures must be tried until one is
    legal (Berkeley+Any), rather than at least one (English)."""
    refusal_count_heard: bool = True
    """Whether a player hears the number of the opponent's refused attempts
    (not in Wild 16, where "Illegal" goes to the mover only)."""
    opponent_any_heard: bool = False
    """Whether a player hears the opponent's "Any?" and its answer (English)."""
    any_no_counts_pawn_captures: bool = False
    """Berkeley+Any: a "No" to Any? adds the number of possible pawn captures
    to the refused-attempt count the opponent hears."""
    impossible_answer: str = "impossible"
    """The word for an attempt impossible on the mover's own board: "impossible",
    "nonsense" (Cincinnati, RAND's "Hell no") or "illegal" (indistinguishable from "No")."""
    stalemate_wins: bool = False
    """RAND: the side that gives stalemate wins (still not a mate for the solver)."""
    kriegspiel_games: bool = True
    wording: str = codes.REFEREE
    """Whose words ``describe`` speaks: the classic referee's or the ICC's (Wild 16)."""

    @property
    def refusal_words(self) -> str:
        """"No", or ICC's "Illegal move" where the opponent hears nothing of it (Wild 16)."""
        return "No" if self.refusal_count_heard else "Illegal move"

    @cached_property
    def flags(self) -> np.ndarray:
        """The kernels' flag vector for this rule set (built once: it is on the hot path)."""
        flags = np.zeros(FLAG_COUNT, dtype=np.int64)
        flags[FLAG_CAPTURE_KIND] = self.capture_kind
        flags[FLAG_EN_PASSANT_SQUARE] = self.en_passant_at_arrival
        flags[FLAG_PROMOTION] = self.promotion_announced
        flags[FLAG_PAWN_INFO] = self.pawn_info
        flags[FLAG_INSUFFICIENT] = self.insufficient
        flags[FLAG_MOVE_LIMIT] = self.move_limit
        return flags

    def attempt(self, positions: np.ndarray, move: int) -> Outcomes:
        move_codes, extras, children = attempt_outcomes(positions, move, self.flags)
        return Outcomes(_keys(move_codes, extras), children)

    def replies(self, positions: np.ndarray) -> Outcomes:
        children, parents, reply_codes, extras = reply_outcomes(positions, self.flags)
        return Outcomes(_keys(reply_codes, extras), children, parents)

    def attempt_and_replies(self, positions: np.ndarray, move: int, replies: bool = True
                            ) -> tuple[Outcomes, Outcomes | None]:
        keys, children, reply_keys, reply_children, parents = attempt_and_replies(positions, move, self.flags,
                                                                                  replies)
        return Outcomes(keys, children), (Outcomes(reply_keys, reply_children, parents) if replies else None)

    def turn_info(self, positions: np.ndarray) -> np.ndarray:
        info_codes, extras = turn_infos(positions, self.flags)
        return _keys(info_codes, extras)

    def any_answers(self, positions: np.ndarray) -> np.ndarray:
        if not self.any_question:
            return super().any_answers(positions)
        return any_answers(positions)

    def refused_attempt_counts(self, positions: np.ndarray) -> np.ndarray:
        """Per position, what the opponent's refusal counts can reveal of it
        (``ksolve.rules.counts.attempt_counts`` under this rule set's pawn tries)."""
        from ksolve.rules.counts import attempt_counts

        return attempt_counts(positions, self.pawn_info)

    def describe(self, key: np.ndarray) -> str:
        text = codes.describe(int(key[0]), int(key[1]), _PAWN_INFO_WORDS[self.pawn_info], self.wording)
        if self.stalemate_wins and codes.end_of(int(key[0])) == codes.END_STALEMATE:
            text += " (the stalemating side wins)"
        return text

    def observation_json(self, key: np.ndarray) -> dict[str, Any]:
        code = int(key[0])
        result = codes.announcement_json(code, self.capture_kind)
        if code & codes.PAWN_INFO:
            result["pawn_tries"] = self._pawn_tries_json(code, int(key[1]))
        return result

    def _pawn_tries_json(self, code: int, extra: int) -> Any:
        if self.pawn_info == PAWN_INFO_COUNT:
            return codes.pawn_try_count(code)
        if self.pawn_info == PAWN_INFO_EXISTS:
            return bool(codes.pawn_try_count(code))
        if self.pawn_info == PAWN_INFO_SQUARES:
            return [chess.square_name(s) for s in chess.scan_forward(extra)]
        raise ValueError(f"the {self.name} rule set announces no pawn tries")


def _keys(move_codes: np.ndarray, extras: np.ndarray) -> np.ndarray:
    """The observation keys: one row (code, extra) per child.

    >>> _keys(np.array([3, 4]), np.array([0, 9])).tolist()
    [[3, 0], [4, 9]]
    """
    keys = np.empty((move_codes.shape[0], 2), dtype=np.uint64)
    keys[:, 0] = move_codes
    keys[:, 1] = extras
    return keys


RULE_SETS = {
    rules.name: rules
    for rules in (
        KriegspielRules("berkeley", "Berkeley (Russell & Wolfe)", insufficient=INSUFFICIENT_BARE),
        KriegspielRules("berkeley-any", "Berkeley with Any?", insufficient=INSUFFICIENT_BARE,
                        any_question=True, any_obliges_until_capture=True, any_no_counts_pawn_captures=True),
        KriegspielRules("english", "English (Gambit Club 1933)", en_passant_at_arrival=True,
                        any_question=True, impossible_answer="illegal", opponent_any_heard=True),
        KriegspielRules("cincinnati", "Cincinnati (1977)", capture_kind=True,
                        pawn_info=PAWN_INFO_EXISTS, impossible_answer="nonsense"),
        KriegspielRules("rand", "RAND (1950)", capture_kind=True, promotion_announced=True,
                        pawn_info=PAWN_INFO_SQUARES, impossible_answer="nonsense", stalemate_wins=True),
        KriegspielRules("wild16", "ICC Wild 16", capture_kind=True, pawn_info=PAWN_INFO_COUNT,
                        impossible_answer="illegal", refusal_count_heard=False, wording=codes.ICC),
    )
}
