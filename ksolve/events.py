"""A belief followed through a sequence of events as ``ksolve belief`` takes
them: White's attempts as ``UCI:ANSWER`` (e.g. ``a2g2:No``, ``d3f2:Capture at
f2``) and Black's replies as ``black:ANSWER``; the answer may be left out
when only one is possible.

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> belief = BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"])
>>> len(apply_event(belief, get_rules("berkeley"), "a2g2:No"))
3
>>> apply_event(belief, get_rules("berkeley"), "a2g2:Yes")
Traceback (most recent call last):
...
ksolve.errors.InputError: event 'a2g2:Yes': no answer 'Yes'; possible: a2g2:'Silent'; a2g2:'No'
>>> apply_event(belief, get_rules("berkeley"), "f1f3")
Traceback (most recent call last):
...
ksolve.errors.InputError: event 'f1f3': f1f3 is not a move of White's men on his own board
"""

from __future__ import annotations

from ksolve.belief import BeliefState
from ksolve.errors import InputError
from ksolve.rules.base import RuleSet


def apply_event(belief: BeliefState, rules: RuleSet, event: str, number: int | None = None) -> BeliefState:
    """The belief after one ``UCI:ANSWER`` or ``black:ANSWER`` event (``number``:
    its place in the sequence, for messages); ``InputError`` if it cannot happen."""
    from ksolve.board import move_from_uci

    name = f"event {number} {event!r}" if number is not None else f"event {event!r}"
    action, _, wanted = event.partition(":")
    mover = belief.side_to_move
    if action.lower() == "black":
        if mover != "Black":
            raise InputError(f"{name}: it is {mover}'s turn, not Black's (give his attempt as UCI:ANSWER)")
        classes = belief.replies(rules)
    else:
        if mover != "White":
            raise InputError(f"{name}: it is {mover}'s turn (give his reply as black:ANSWER)")
        try:
            move = move_from_uci(action)
        except ValueError as error:
            raise InputError(f"{name}: {error}") from None
        _check_attempt(belief, action, name)
        classes = belief.attempt(rules, move)
    answers = [(rules.describe(key), part) for key, part in classes]
    if not wanted and len(answers) == 1:
        return answers[0][1]
    matching = [part for words, part in answers if _normal(words) == _normal(wanted)]
    if not matching:
        possible = "; ".join(f"{action}:{words!r}" for words, _ in answers) or "none (no legal move)"
        raise InputError(f"{name}: {'no' if wanted else 'which'} answer"
                         f"{' ' + repr(wanted) if wanted else ''}; possible: {possible}")
    return matching[0]


def _check_attempt(belief: BeliefState, uci: str, name: str) -> None:
    """``InputError`` unless ``uci`` is a move of White's men on his own board
    (the opponent's men left out; they are the same in every position of a belief)."""
    from ksolve.board import position_to_board
    from ksolve.rules.notation import attempt_san, own_board

    try:
        attempt_san(own_board(position_to_board(belief.positions[0])), uci)
    except ValueError:
        raise InputError(f"{name}: {uci} is not a move of White's men on his own board") from None


def _normal(words: str) -> str:
    return "".join(c for c in words.lower() if c.isalnum())
