"""Check a verification's certificate and draw its verdict independently.

A verdict certificate (``docs/certificate.md``, "Verdict certificates") holds
strategies (each a solution certificate whose first attempt is a key) and
refutations.  The checker checks each part, then concludes from what it has
checked only, with White's first moves enumerated by itself (every move legal
in some initial position; asking "Any?" is not a move, and is a key only as a
strategy's first choice):

- every first move is a key (a checked strategy begins with it) or refuted
  within the stipulated moves (a checked refutation beginning with it, or one
  of every first choice);
- a key's fewest moves are its strategy's, proven by a refutation of one move
  fewer (of every first choice, or beginning with the key);
- the verdict: *no solution* (no key), *short solution* (a key mates in fewer
  moves), *cooked* (two keys or more), else *sound*; it must be the one the
  certificate states.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ksolve.checker import referee
from ksolve.checker.problem import parse_problem_file, read_problem_text
from ksolve.checker.refutation import check_refutation_text
from ksolve.checker.replay import CheckResult, check_strategy_text, same_problem
from ksolve.checker.schema import validate

SOUND, COOKED, SHORT, NO_SOLUTION = "sound", "cooked", "short solution", "no solution"


def check_verdict(problem_path: str | Path, certificate: dict[str, Any]) -> CheckResult:
    """Check every part of the verdict certificate against the problem file at
    ``problem_path`` and the verdict they prove."""
    validate(certificate)
    return check_verdict_text(read_problem_text(problem_path), certificate, str(problem_path))


def check_verdict_text(text: str, certificate: dict[str, Any], name: str = "<problem>") -> CheckResult:
    """``check_verdict`` with the problem given as TOML text."""
    validate(certificate)
    rules, moves = certificate["rules"], certificate["moves"]
    twin = certificate.get("twin", "")
    problem = parse_problem_file(name, text, rules, twin if isinstance(twin, str) else "")
    result = CheckResult(False, len(problem.boards), rules, moves)
    note = same_problem(certificate, problem, text, name)
    if note:
        result.notes.append(note)
    keys: dict[str, int] = {}
    refuted: dict[str | None, int] = {}
    for index, strategy in enumerate(certificate["strategies"]):
        checked = check_strategy_text(text, strategy, name)
        if not _part_holds(result, checked, f"strategy {index + 1}"):
            return result
        key = _first_choice(strategy)
        if key is None:
            result.reason = f"strategy {index + 1} does not begin with the same first choice in every initial class"
            return result
        keys[key] = min(keys.get(key, strategy["moves"]), strategy["moves"])
    for index, refutation in enumerate(certificate["refutations"]):
        checked = check_refutation_text(text, refutation, name)
        if not _part_holds(result, checked, f"refutation {index + 1} ({checked.claim})"):
            return result
        first = refutation.get("first")
        refuted[first] = max(refuted.get(first, 0), refutation["moves"])
    every = refuted.get(None, 0)
    firsts = sorted({move.uci() for board in problem.boards for move in referee.moves(board, rules)})
    open_moves = [uci for uci in firsts if uci not in keys and max(every, refuted.get(uci, 0)) < moves]
    unproven = [key for key, needed in keys.items() if needed > 1 and max(every, refuted.get(key, 0)) < needed - 1]
    goal = "king capture" if rules == "fog-of-war" else "mate"
    if open_moves or unproven or (not keys and every < moves):
        missing = ([f"{len(open_moves)} first move{'s' if len(open_moves) > 1 else ''} neither a key nor refuted "
                    f"({', '.join(open_moves[:5])}{', ...' if len(open_moves) > 5 else ''})"] if open_moves else [])
        missing += [f"no refutation shows that {key} needs {keys[key]} moves" for key in unproven]
        if not keys and every < moves and not open_moves:
            missing.append(f"no refutation shows that there is no {goal} in {moves}")
        result.reason = "every part checks, but " + "; ".join(missing)
        return result
    fewest = min(keys.values(), default=moves)
    verdict = NO_SOLUTION if not keys else SHORT if fewest < moves else COOKED if len(keys) > 1 else SOUND
    if verdict != certificate.get("verdict"):
        result.reason = f"the parts prove {verdict}, and the certificate says {certificate.get('verdict')!r}"
        return result
    if rules != problem.file_rules:
        result.reason = f"the verdict holds under {rules}, but the problem's rule set is {problem.file_rules}"
        return result
    if moves != problem.moves:
        result.reason = f"the verdict is about {moves} moves, but the problem stipulates {problem.moves}"
        return result
    result.verified = True
    result.claim = _claim(verdict, keys, len(firsts), fewest, moves, goal)
    return result


def _part_holds(result: CheckResult, checked: CheckResult, what: str) -> bool:
    """Add one part's counts to ``result``; False (with the reason) if it does not check."""
    result.nodes += checked.nodes
    result.lines += checked.lines
    if checked.verified:
        return True
    result.counterexample = checked.counterexample
    result.reason = f"{what}: {checked.reason or 'not verified'}"
    result.notes.extend(checked.notes)
    return False


def _first_choice(strategy: dict[str, Any]) -> str | None:
    """The strategy's first choice ("any" for "Any?"), if the same in every initial class."""
    nodes = strategy.get("nodes")
    seen = set()
    for _, node in strategy["initial"]:
        node = nodes[node] if nodes is not None else node
        seen.add("any" if "ask" in node else node.get("attempt") if "attempt" in node else None)
    return seen.pop() if len(seen) == 1 and None not in seen else None


def _claim(verdict: str, keys: dict[str, int], firsts: int, fewest: int, moves: int, goal: str) -> str:
    """The verdict in words: ``sound: key h1h8 (mate in 1), 19 other first moves refuted``."""
    if not keys:
        return f"no solution: no {goal} in {moves}"
    shown = ", ".join(f"{key} ({goal} in {needed})" for key, needed in sorted(keys.items()))
    others = firsts - sum(1 for key in keys if key != "any")
    text = f"{verdict}: key{'s' if len(keys) > 1 else ''} {shown}, {others} other first move{'' if others == 1 else 's'} refuted"
    return text + (f", no {goal} in {fewest - 1}" if fewest > 1 else "")

