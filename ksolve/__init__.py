"""ksolve: a Kriegspiel problem solver and composer's tool.

The public API (``ksolve.api``, loaded on first use so that ``import ksolve``
stays fast): ``load_problem``, ``load_problem_text``, ``solve``, ``verify``,
``certificate``, ``check``, ``refutation`` (Black's side: no win in n),
``verdict_certificate`` (a whole verification's), ``rule_set``, the endgame tables ``endgame``
and ``read_endgame``, the game functions
``read_game``, ``game_belief``, ``game_problem``, and ``position_belief``,
``referee_answers``, ``perft``; the types ``Problem``, ``Analysis`` (one
session per problem), ``Solution``, ``Verification``, ``Trial`` (a problem
played against the worst-case referee), ``Limits``, ``Resources``,
``InputError``, ``ProblemError``; games played: ``GameSession`` (a game kept by
the referee), ``ComputerPlayer``; the composer's assistants ``mend`` and
``ksolve.compose.compose(ComposeSpec(...))`` (``ksolve.compose`` is its package).

>>> import ksolve
>>> ksolve.load_problem("problems/rotenberg-1976.toml").rules.name
'berkeley'
"""

from __future__ import annotations

from typing import Any

__version__ = "0.2.0"

_API = {name: "ksolve.api" for name in (
    "InputError", "Limits", "PerftResult", "Problem", "ProblemError", "Resources", "certificate", "check",
    "endgame", "game_belief", "game_problem", "key_solutions", "load_problem", "load_problem_text", "perft",
    "position_belief", "read_endgame", "read_game", "referee_answers", "rule_set", "solve", "verify")}
_API.update(Analysis="ksolve.analysis", Solution="ksolve.solver", Verification="ksolve.verification",
            Trial="ksolve.trial", GameSession="ksolve.play.session", ComputerPlayer="ksolve.play.computer",
            ComposeSpec="ksolve.compose.compose", mend="ksolve.compose.mend", refutation="ksolve.refutations",
            verdict_certificate="ksolve.verdict_certificates")
"""Each public name and the module that defines it (imported on first use)."""
__all__ = list(_API)


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'ksolve' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_API))
