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
    if action.lower() == "black":
        classes = belief.replies(rules)
    else:
        try:
            move = move_from_uci(action)
        except ValueError as error:
            raise InputError(f"{name}: {error}") from None
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


def _normal(words: str) -> str:
    return "".join(c for c in words.lower() if c.isalnum())
