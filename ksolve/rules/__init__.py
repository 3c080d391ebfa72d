"""Referee rule sets as observation models (what White hears), batched over
arrays of positions: the six Kriegspiel rule sets, orthodox (full
information), Fog of War and Modern Kriegspiel (Berkeley with probes).

``REGISTRY`` is the one table of the names: each maps to the module that
defines the rule set (imported on first use, since the kernels load numba).

>>> get_rules("berkeley").title
'Berkeley (Russell & Wolfe)'
>>> get_rules("bekreley")
Traceback (most recent call last):
...
ksolve.rules.UnknownRules: unknown rule set 'bekreley'; valid: berkeley, berkeley-any, english, cincinnati, rand, wild16, orthodox, fog-of-war, modern
>>> kriegspiel_rule_set_names()
('berkeley', 'berkeley-any', 'english', 'cincinnati', 'rand', 'wild16')
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ksolve.rules.base import RuleSet

REGISTRY: dict[str, str] = {
    "berkeley": "ksolve.rules.kriegspiel",
    "berkeley-any": "ksolve.rules.kriegspiel",
    "english": "ksolve.rules.kriegspiel",
    "cincinnati": "ksolve.rules.kriegspiel",
    "rand": "ksolve.rules.kriegspiel",
    "wild16": "ksolve.rules.kriegspiel",
    "orthodox": "ksolve.rules.orthodox",
    "fog-of-war": "ksolve.rules.fog",
    "modern": "ksolve.rules.modern",
}
"""Every rule set's name and the module whose ``RULE_SETS`` holds it."""

RULE_SET_NAMES = tuple(REGISTRY)


class UnknownRules(ValueError):
    """A rule-set name that ksolve does not know."""


def get_rules(name: str) -> "RuleSet":
    """The rule set called ``name`` (one of ``RULE_SET_NAMES``)."""
    module = REGISTRY.get(name)
    if module is None:
        raise UnknownRules(f"unknown rule set {name!r}; valid: {', '.join(RULE_SET_NAMES)}")
    return importlib.import_module(module).RULE_SETS[name]


def kriegspiel_rule_set_names() -> tuple[str, ...]:
    """The rule sets whose games are Kriegspiel games (a referee, Kriegspiel PGN)."""
    return tuple(name for name, module in REGISTRY.items() if module == "ksolve.rules.kriegspiel")
