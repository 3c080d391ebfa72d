"""Referee rule sets as observation models (what White hears), batched over
arrays of positions: the six Kriegspiel rule sets, orthodox (full
information) and Fog of War.

>>> get_rules("berkeley").title
'Berkeley (Russell & Wolfe)'
>>> get_rules("bekreley")
Traceback (most recent call last):
...
ksolve.rules.UnknownRules: unknown rule set 'bekreley'; valid: berkeley, berkeley-any, english, cincinnati, rand, wild16, orthodox, fog-of-war
"""

from __future__ import annotations

RULE_SET_NAMES = ("berkeley", "berkeley-any", "english", "cincinnati", "rand", "wild16", "orthodox",
                  "fog-of-war")


class UnknownRules(ValueError):
    """A rule-set name that ksolve does not know."""


def get_rules(name: str):
    """The rule set called ``name`` (one of ``RULE_SET_NAMES``)."""
    if name not in RULE_SET_NAMES:
        raise UnknownRules(f"unknown rule set {name!r}; valid: {', '.join(RULE_SET_NAMES)}")
    if name == "orthodox":
        from ksolve.rules.orthodox import ORTHODOX

        return ORTHODOX
    if name == "fog-of-war":
        from ksolve.rules.fog import FOG_OF_WAR

        return FOG_OF_WAR
    from ksolve.rules.kriegspiel import KRIEGSPIEL_RULES

    return KRIEGSPIEL_RULES[name]
