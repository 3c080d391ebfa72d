"""Soundness of a problem, as composers check it: keys, cooks, short
solutions, tries with their refutations, and duals.

- A **key** is a first attempt (or "Any?") after which White wins within the
  stipulated moves in every first class; more than one key is a **cook**.
- A **short solution** is a key that already wins in fewer moves.
- A **try** is a first attempt that fails; its **refutation** is the first
  class of the referee's answers, or of Black's replies after it, from which
  White no longer wins in time (with the Black moves that lead there and the
  squares the hidden units may then stand on).
- A **dual** is a White turn of the key's strategy where another attempt
  wins in the same class with the same moves.

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> report = verify(problem)
>>> report.verdict, [key.move for key in report.keys], len(report.tries)
('sound', ['h1h8'], 19)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import networkx as nx

from ksolve.analysis import Analysis
from ksolve.belief import BeliefState
from ksolve.compilation import work_clock
from ksolve.problem import Problem
from ksolve.rules.base import FRESH, PROBED, Outcome, RuleSet
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import ASK, Prover, probe_mask, probe_move
from ksolve.search.run import Limits, Progress, SearchAborted
from ksolve.attempts import attempt_label, attempt_text
from ksolve.solution import belief_summary, black_moves, move_label, played_label

SOUND, COOKED, SHORT, NO_SOLUTION, UNKNOWN = "sound", "cooked", "short solution", "no solution", "unknown"
EXIT_CODES = {SOUND: 0, COOKED: 1, SHORT: 1, NO_SOLUTION: 1, UNKNOWN: 3}
NO_WIN, REFUSED, ENDS = "no win", "refused", "ends"
"""How a try fails: a class White cannot win in time, "No" everywhere, or the game ends at once."""
REFUTATION_ORDER = (NO_WIN, REFUSED, ENDS)


@dataclass
class FirstMove:
    """A key (``moves``: the fewest it needs) or a try (``refutation``)."""

    move: str
    label: str
    moves: int | None = None
    refutation: dict[str, Any] | None = None

    @property
    def san(self) -> str:
        """The move as played where it is refuted (``Nf2+``), else its label."""
        return (self.refutation or {}).get("san") or self.label

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move, "label": self.label, "san": self.san}
        if self.moves is not None:
            data["moves"] = self.moves
        if self.refutation is not None:
            data["refutation"] = refutation_text(self.refutation)
            data["refuted_by"] = self.refutation
        return data


@dataclass
class Verification:
    """What ``verify`` found (``ksolve.report`` renders it; ``_repr_html_`` shows it in Jupyter)."""

    verdict: str
    moves: int
    keys: list[FirstMove] = field(default_factory=list)
    tries: list[FirstMove] = field(default_factory=list)
    tries_total: int = 0
    duals: list[dict[str, Any]] = field(default_factory=list)
    duals_checked: bool = False
    published_key: str | None = None
    published_label: str | None = None
    """The published key in SAN on White's board (its UCI if it is no move there)."""
    after_question: list[str] = field(default_factory=list)
    """When the key is "Any?": the strategy's attempts after each answer."""
    belief_size: int = 0
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""
    rules: str = ""
    """The rule set verified under."""
    goal: str = "mate"
    """``"mate"``, or ``"king-capture"`` in Fog of War."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Verification":
        """The verification ``as_dict`` described (a Dask task's value, for the summary table)."""
        def first_move(entry: dict[str, Any]) -> FirstMove:
            return FirstMove(entry["move"], entry["label"], entry.get("moves"), entry.get("refuted_by"))

        return cls(data["verdict"], data["moves"], keys=[first_move(key) for key in data["keys"]],
                   tries=[first_move(attempt) for attempt in data["tries"]], tries_total=data["tries_total"],
                   duals=data["duals"], duals_checked=data["duals_checked"], published_key=data["published_key"],
                   published_label=data["published_label"], after_question=data["after_question"],
                   belief_size=data["belief_size"], nodes=data["nodes"], seconds=data["seconds"],
                   reason=data.get("reason", ""), rules=data.get("rules", ""), goal=data.get("goal", "mate"))

    def _repr_html_(self) -> str:
        from ksolve.report.notebook import verification_html

        return verification_html(self)

    @property
    def published_key_matches(self) -> bool | None:
        if self.published_key is None:
            return None
        return self.published_key in [key.move for key in self.keys] + self.after_question

    @property
    def short(self) -> list[FirstMove]:
        return [key for key in self.keys if key.moves is not None and key.moves < self.moves]

    def line(self) -> str:
        """The one-line verdict, e.g. ``sound: key 1.Rg2! (#8), the published key``."""
        if self.verdict == UNKNOWN:
            return f"not decided: {self.reason}"
        if not self.keys:
            text = f"no solution: no first move {'captures the king' if self.goal == 'king-capture' else 'mates'} in {self.moves}"
        else:
            mark = "xk" if self.goal == "king-capture" else "#"
            keys = ", ".join(f"1.{key.label}! ({mark}{key.moves})" for key in self.keys)
            text = f"{self.verdict}: key{'s' if len(self.keys) > 1 else ''} {keys}"
        if self.published_key is not None:
            if self.published_key_matches:
                text += ", the published key" if len(self.keys) == 1 else f"; the published key 1.{self.published_label} is a key"
            elif self.after_question:
                text += (f"; the published key 1.{self.published_label} differs (after Any? the strategy tries "
                         f"{', '.join(self.after_question)})")
            else:
                text += f"; the published key 1.{self.published_label} is not a key"
        return text

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict, "line": self.line(), "moves": self.moves, "goal": self.goal,
            "keys": [key.as_dict() for key in self.keys],
            "short": [key.as_dict() for key in self.short],
            "tries": [attempt.as_dict() for attempt in self.tries], "tries_total": self.tries_total,
            "after_question": self.after_question, "duals": self.duals, "duals_checked": self.duals_checked,
            "published_key": self.published_key, "published_label": self.published_label,
            "published_key_matches": None if self.verdict == UNKNOWN else self.published_key_matches,
            "belief_size": self.belief_size, "nodes": self.nodes, "seconds": round(self.seconds, 3),
            **({"reason": self.reason} if self.reason else {}),
        }


def new_report(analysis: Analysis) -> Verification:
    """The report ``verify`` fills: nothing decided yet."""
    classes = [first.belief for first in analysis.classes]
    return Verification(UNKNOWN, analysis.moves, published_key=analysis.problem.published_key,
                        published_label=_published_label(classes[0], analysis.problem.published_key),
                        belief_size=len(analysis.belief), rules=analysis.rules.name, goal=analysis.rules.goal)


def first_attempts(analysis: Analysis) -> list[int]:
    """The first choices a verification decides (``_first_attempts``)."""
    return _first_attempts(analysis.rules, [first.belief for first in analysis.classes])


def verify(problem: Problem | Analysis, moves: int | None = None, rules: RuleSet | str | None = None,
           limits: Limits | None = None, tries: int | None = None, duals: bool = True,
           progress: Progress | None = None) -> Verification:
    """Check every first attempt of ``problem`` in this process (``tries``: keep the best k
    tries; ``ksolve.verify`` chooses where it runs: ``ksolve.execution.executors``)."""
    from ksolve.solver import as_analysis

    started = work_clock()  # the verification's time, without compiling kernels
    analysis = as_analysis(problem, rules, moves)
    moves = analysis.moves
    classes = [first.belief for first in analysis.classes]
    report = new_report(analysis)
    firsts = first_attempts(analysis)
    prover = analysis.prover(limits, progress)
    needed: dict[int, int] = {}
    """The fewest moves of each key found so far."""
    within: list[int] = []
    """Keys found to win within the moves whose fewest is not yet known."""
    found: list[FirstMove] = []
    aborted = None
    left = list(firsts) if keys_first(classes, firsts) else None
    """The first attempts not yet found to win or refuted at ``moves``, when the keys come first."""
    try:
        if left is not None:
            _keys_from_the_top(prover, classes[0], left, moves, needed, within)
        else:
            winning_depths(prover, classes, firsts, moves, needed)
        needed = {first: needed[first] for first in firsts if first in needed}  # keys in the attempts' order
        found = [FirstMove(attempt_text(first), attempt_label(classes[0], first), refutation=refute_first(prover, classes, first, moves))
                 for first in firsts if first not in needed]
    except SearchAborted as stop:
        aborted = str(stop)
    conclude(report, analysis, needed, found, aborted, prover.run.depth, tries, lambda: prover,
             (lambda key: duals_of(prover, classes, moves, key)) if duals else None,
              None if left is None else dict.fromkeys(left, moves), [first for first in firsts if first in within])
    report.nodes, report.seconds = prover.stats.nodes, work_clock() - started
    return report


def duals_of(prover: Prover, classes: list[BeliefState], moves: int, key: int
              ) -> tuple[list[dict[str, Any]], bool, str | None]:
    """``(duals, all checked, why not)`` of the key's strategy."""
    found: list[dict[str, Any]] = []
    try:
        return found, find_duals(prover, classes, moves, found, key), None
    except SearchAborted as stop:
        return found, False, str(stop)


def conclude(report: Verification, analysis: Analysis, needed: dict[int, int], found: list[FirstMove],
              aborted: str | None, depth: int | None, tries: int | None, question_prover: Callable[[], Prover],
              duals: Callable[[int], tuple[list[dict[str, Any]], bool, str | None]] | None,
              undecided: dict[int, int] | None = None, within: list[int] | None = None) -> None:
    """Fill ``report`` from the keys' fewest moves (``needed``), the tries
    ``found`` and why the search stopped (``aborted``, at ``depth`` when the
    attempts were deepened together; else ``undecided``: the attempts left,
    each with the depth it stopped at, 0 if never begun); if no attempt wins,
    whether asking "Any?" first does (by ``question_prover()``); and
    ``duals(key)`` of a sound problem's key; ``within``: keys found to win
    within the moves whose fewest moves a limit left undecided."""
    classes = [first.belief for first in analysis.classes]
    moves = analysis.moves
    if aborted is not None:
        keys = ", ".join([f"1.{attempt_label(classes[0], first)}! (#{fewest})" for first, fewest in needed.items()]
                         + ([", ".join(f"1.{attempt_label(classes[0], first)}!" for first in within)
                             + f" (within {moves}, fewest moves not decided)"] if within else []))
        if undecided is not None:
            report.reason = "; ".join([aborted] + ([f"keys so far {keys}"] if keys else [])
                                      + ([_undecided_text(classes[0], undecided)] if undecided else []))
        elif keys:
            report.reason = f"{aborted}; keys so far {keys}, depth {depth} not decided"
        else:
            report.reason = f"{aborted}" + (f"; no first move wins in {depth - 1} or fewer, {depth} not decided"
                                            if depth and depth > 1 else "")
        return
    if not needed and analysis.rules.can_ask(FRESH):  # the strategy may have to begin with the question
        prover = question_prover()
        try:
            winning_depths(prover, classes, [ASK], moves, needed)
        except SearchAborted as stop:
            report.reason = f"{stop}; no first move wins in {moves}, asking 'Any?' first not decided"
            return
    for first, fewest in sorted(needed.items(), key=lambda item: item[0] == ASK):  # "Any?" last
        label = "Any?" if first == ASK else attempt_label(classes[0], first)
        report.keys.append(FirstMove("any" if first == ASK else attempt_text(first), label, fewest))
    if ASK in needed:
        report.after_question = _attempts_after_question(prover, classes, needed[ASK])
    report.tries = sorted(found, key=try_rank)
    report.tries_total = len(report.tries)
    if tries is not None:
        report.tries = report.tries[:tries]
    report.verdict = (NO_SOLUTION if not report.keys else SHORT if report.short
                      else COOKED if len(report.keys) > 1 else SOUND)
    if duals is not None and len(report.keys) == 1:
        report.duals, report.duals_checked, reason = duals(next(iter(needed)))
        if reason is not None:
            report.reason = f"duals not all checked: {reason}"


def _undecided_text(belief: BeliefState, undecided: dict[int, int], named: int = 8) -> str:
    """The first attempts a stopped verification left undecided, for its reason.

    >>> from ksolve.board import move_from_uci
    >>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
    >>> _undecided_text(belief, {move_from_uci("h1h7"): 3, move_from_uci("h1g1"): 0, move_from_uci("h1f1"): 0})
    'first moves not decided: 1.Rh7 (depth 3), 1.Rg1, 1.Rf1 (not begun)'
    >>> _undecided_text(belief, {move_from_uci("h1h7"): 3, move_from_uci("h1g1"): 3}, named=1)
    'first moves not decided: 1.Rh7 (depth 3), 1 more begun'
    """
    begun = [f"1.{attempt_label(belief, first)} (depth {depth})" for first, depth in undecided.items() if depth]
    waiting = [f"1.{attempt_label(belief, first)}" for first, depth in undecided.items() if not depth]
    if len(begun) > named:
        begun = begun[:named] + [f"{len(begun) - named} more begun"]
    if len(waiting) > named:
        waiting = waiting[:named] + [f"{len(waiting) - named} more"]
    if waiting:
        waiting[-1] += " (not begun)"
    return "first moves not decided: " + ", ".join(begun + waiting)


def _first_attempts(rules: RuleSet, classes: list[BeliefState]) -> list[int]:
    """Every attempt legal somewhere in the initial belief.

    Asking "Any?" is not a move: it is a key only when no attempt wins
    without it (then the strategy begins with the question).  Under a rule
    set with probes a turn that can learn something begins with a probe
    (never worse than none), so the first choices are the probe sets."""
    probes = {probe_move(mask) for part in classes for mask in rules.probe_sets(part.positions)}
    if probes:
        return sorted(probes, reverse=True)
    return sorted({int(m) for part in classes for m in rules.attempts(part.positions)})


def winning_depths(prover: Prover, classes: list[BeliefState], firsts: list[int], moves: int,
                    needed: dict[int, int]) -> None:
    """Fill ``needed`` with the fewest moves with which each winning first
    attempt wins (what it holds when a limit stops the search is exact).

    Iterative deepening over all first attempts together (each by
    proof-number search): what one depth leaves in the table orders and
    shortens the next.
    """
    search = ProofNumberSearch(prover)
    for depth in range(1, moves + 1):
        prover.run.depth = depth
        for first in firsts:
            if first not in needed and all(search.attempt_wins(part, first, depth) for part in classes):
                needed[first] = depth


def keys_first(classes: list[BeliefState], firsts: list[int]) -> bool:
    """Whether the keys are looked for at the stipulated depth first (one
    first class, moves rather than probes): ``_keys_from_the_top``."""
    return len(classes) == 1 and not any(probe_mask(first) for first in firsts)


def _keys_from_the_top(prover: Prover, belief: BeliefState, left: list[int], moves: int,
                       needed: dict[int, int], within: list[int]) -> None:
    """Every first attempt of ``left`` that wins ``belief`` within ``moves``,
    then each one's fewest moves (into ``needed``; ``within`` holds the keys
    whose fewest is being looked for).  ``left`` ends empty, each attempt
    either a key or refuted; a limit leaves in it those not yet decided.

    The keys first: a proof-number search over the attempts not yet known to
    win (one OR) proves a key where one exists, and the search that finds no
    more refutes every other attempt at ``moves``.  On a long problem that
    is the answer a composer needs first: family-13-walls-d4-e3's three keys
    in 133 s of one process, where deepening every attempt from one move
    found one key in 600 s of two.  Then each key's fewest moves by
    deepening it alone from one move.

    >>> from ksolve.rules import get_rules
    >>> from ksolve.board import move_from_uci
    >>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/6RR w - - 0 1", [])
    >>> prover, needed, within = Prover(get_rules("berkeley")), {}, []
    >>> left = sorted(int(m) for m in belief.candidate_attempts())
    >>> _keys_from_the_top(prover, belief, left, 2, needed, within)
    >>> needed[move_from_uci("h1h8")], needed[move_from_uci("h1h2")], len(needed), within, left
    (1, 2, 21, [], [])
    """
    search = ProofNumberSearch(prover)
    prover.run.depth = moves
    while left:
        key = search.first_wins(belief, moves, left)
        if key is None:
            left.clear()  # every one refuted at ``moves``
            break
        within.append(key)
        left.remove(key)
    for key in list(within):
        needed[key] = _fewest_moves(prover, search, belief, key, moves)
        within.remove(key)


def decide_first(prover: Prover, belief: BeliefState, first: int, moves: int,
                 on_key: Callable[[], None] | None = None) -> tuple[int | None, FirstMove | None]:
    """One first attempt decided at ``moves`` first: ``(fewest moves, None)``
    for a key (``on_key()`` is called as soon as it is known to win, before
    its fewest moves are looked for by deepening on it from one move), ``(None,
    the try)`` for a try, refuted at ``moves`` alone (``ksolve.execution.workers``'s
    workers, one attempt each).

    >>> from ksolve.rules import get_rules
    >>> from ksolve.board import move_from_uci
    >>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/6RR w - - 0 1", [])
    >>> decide_first(Prover(get_rules("berkeley")), belief, move_from_uci("h1h2"), 2)
    (2, None)
    >>> decide_first(Prover(get_rules("berkeley")), belief, move_from_uci("b6a6"), 1)[1].label
    'Ka6'
    """
    search = ProofNumberSearch(prover)
    prover.run.depth = moves
    if not search.attempt_wins(belief, first, moves):
        return None, FirstMove(attempt_text(first), attempt_label(belief, first),
                               refutation=refute_first(prover, [belief], first, moves))
    if on_key is not None:
        on_key()
    return _fewest_moves(prover, search, belief, first, moves), None


@dataclass
class Decided:
    """What deciding some first attempts found (``decide_firsts``): each key's fewest
    moves, the tries, and where a limit stopped the search."""

    needed: dict[int, int] = field(default_factory=dict)
    tries: list[FirstMove] = field(default_factory=list)
    aborted: str | None = None
    """Why the search stopped before deciding them all (None: all decided)."""
    depth: int = 0
    """The depth searched last (the stipulated one when decided from the top)."""
    within: bool = False
    """Decided from the top: the attempt wins within the moves, its fewest moves not decided."""


def decide_firsts(prover: Prover, classes: list[BeliefState], firsts: list[int], moves: int,
                  from_the_top: bool, on_key: Callable[[], None] | None = None) -> Decided:
    """``firsts`` decided by ``prover`` as one worker of a shared verification
    decides its share: ``from_the_top`` (one first class, one attempt): by
    ``decide_first`` (``on_key`` as there); else by deepening them together
    from one move (``winning_depths``), then refuting the tries.  A limit is
    caught: ``aborted`` says it, and what was decided before it is kept.

    >>> from ksolve.rules import get_rules
    >>> from ksolve.board import move_from_uci
    >>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/6RR w - - 0 1", [])
    >>> decided = decide_firsts(Prover(get_rules("berkeley")), [belief], [move_from_uci("h1h8")], 2, True)
    >>> decided.needed == {move_from_uci("h1h8"): 1}, decided.tries, decided.aborted
    (True, [], None)
    """
    decided = Decided()
    wins = [False]

    def key_found() -> None:
        wins[0] = True
        if on_key is not None:
            on_key()

    try:
        if from_the_top:
            (first,) = firsts
            decided.depth = moves
            fewest, attempt = decide_first(prover, classes[0], first, moves, key_found)
            if fewest is not None:
                decided.needed[first] = fewest
            decided.tries = [] if attempt is None else [attempt]
        else:
            winning_depths(prover, classes, firsts, moves, decided.needed)
            decided.tries = [FirstMove(attempt_text(first), attempt_label(classes[0], first),
                                       refutation=refute_first(prover, classes, first, moves))
                             for first in firsts if first not in decided.needed]
    except SearchAborted as stop:
        decided.aborted = str(stop)
        decided.within = wins[0] and not decided.needed
        if not from_the_top:
            decided.depth = prover.run.depth
    return decided


def _fewest_moves(prover: Prover, search: ProofNumberSearch, belief: BeliefState, key: int, moves: int) -> int:
    """The fewest moves with which ``key``, known to win within ``moves``, wins:
    deepening on it alone from one move."""
    return next((depth for depth in range(1, moves) if _key_wins(prover, search, belief, key, depth)), moves)


def _key_wins(prover: Prover, search: ProofNumberSearch, belief: BeliefState, key: int, depth: int) -> bool:
    prover.run.depth = depth
    return search.attempt_wins(belief, key, depth)


def _attempts_after_question(prover: Prover, classes: list[BeliefState], moves: int) -> list[str]:
    """The attempts the proven strategy makes in its first turn after "Any?"
    (each answer, then each "No" to an attempt)."""
    attempts: set[str] = set()
    pending = [(answered, state) for part in classes for state, answered in prover.any_classes(part) if len(answered)]
    while pending:
        belief, state = pending.pop()
        if not prover.wins(belief, moves, state):
            continue
        entry = prover.entry(belief, state)
        if entry is None or entry.move < 0:
            continue
        attempts.add(attempt_text(entry.move))
        for key, part in belief.attempt(prover.rules, entry.move):
            if prover.rules.outcome(key) is Outcome.REFUSED and len(part) < len(belief):
                pending.append((part, prover.rules.state_after_refusal(state)))
    return sorted(attempts)


def try_rank(attempt: FirstMove) -> tuple[int, int, str]:
    """Closest tries first: those refuted only later in the play (a class
    White cannot win in time), smallest refuting class first, then those
    refused everywhere, then those that end the game at once.

    >>> [try_rank(FirstMove("a", "Ra1", refutation={"kind": kind, "size": 3})) for kind in (ENDS, NO_WIN)]
    [(2, 3, 'Ra1'), (0, 3, 'Ra1')]
    """
    refutation = attempt.refutation or {}
    return REFUTATION_ORDER.index(refutation.get("kind", NO_WIN)), refutation.get("size", 0), attempt.label


def _published_label(belief: BeliefState, published: str | None) -> str | None:
    """The published key in SAN on White's own board ("Any?" for the question)."""
    from ksolve.board import move_from_uci

    if published is None or published == "any":
        return None if published is None else "Any?"
    try:
        return move_label(belief, move_from_uci(published))
    except ValueError:
        return published


# --- refutations -----------------------------------------------------------------
def refute_first(prover: Prover, classes: list[BeliefState], first: int, moves: int) -> dict[str, Any]:
    search = ProofNumberSearch(prover)
    for part in classes:
        if not search.attempt_wins(part, first, moves):
            if first == ASK:
                return _refute_ask(search, part, moves)
            if probe_mask(first):
                return _refute_probe(search, part, probe_mask(first), moves)
            return refute(prover, part, first, moves, search=search)
    raise ValueError("the attempt wins: nothing to refute")


def _refute_ask(search: ProofNumberSearch, belief: BeliefState, moves: int) -> dict[str, Any]:
    prover = search.prover
    for state, part in prover.any_classes(belief):
        if len(part) and not search.wins(part, moves, state):
            return refutation_of(prover.rules.any_answer_words(state), None, part, NO_WIN, f"no win in {moves}")
    raise ValueError("asking wins: nothing to refute")


def _refute_probe(search: ProofNumberSearch, belief: BeliefState, mask: int, moves: int) -> dict[str, Any]:
    prover = search.prover
    for key, part in prover.probe_classes(belief, mask):
        if not search.wins(part, moves, PROBED):
            return refutation_of(prover.rules.describe_probe(key, mask), None, part, NO_WIN, f"no win in {moves}")
    raise ValueError("the probe wins: nothing to refute")


def refute(prover: Prover, belief: BeliefState, move: int, moves: int, state: int = FRESH,
           search: ProofNumberSearch | None = None) -> dict[str, Any]:
    """The first answer class (or Black reply class after it) that defeats ``move``.

    A dict: ``answer`` (the referee's words), ``san`` (the attempt as played
    there, e.g. ``Nf2+``), ``reply`` (what White hears of Black's reply, or
    None), ``black_moves`` (Black moves into that class, SAN), ``size``,
    ``hidden`` (the hidden units' squares there), ``kind`` (``NO_WIN``,
    ``REFUSED`` or ``ENDS``) and ``reason``.  The classes are taken in the
    referee's order (replies largest first), so the refutation is the same
    whatever the table holds (one process or several, any memory budget);
    the table only makes deciding them cheap.  Classes are decided by the
    proof-number search over the prover's tables: a class before the lost
    one may be won, and on a long problem the depth-first prover takes
    minutes to prove what the proof-number search proves in seconds
    (``search``: one over ``prover`` already made).
    """
    rules = prover.rules
    search = search or ProofNumberSearch(prover)
    after = rules.state_after_refusal(state)
    label = move_label(belief, move)
    classes = [(key, rules.outcome(key), part) for key, part in belief.attempt(rules, move)]
    for key, outcome, part in classes:
        if outcome is Outcome.REFUSED and len(part) == len(belief) and after == state:
            return refutation_of("No", None, part, REFUSED, "refused in every position")
        played = played_label(rules, label, key)
        if outcome is Outcome.ENDED:
            return refutation_of(rules.describe(key), played, part, ENDS, "the game ends without a win")
        if outcome is Outcome.GOES_ON and moves == 1:
            return refutation_of(rules.describe(key), played, part, NO_WIN, f"no {_goal(rules)} with this move")
    for key, outcome, part in classes:
        if outcome is Outcome.REFUSED:
            if not search.wins(part, moves, after):
                return refutation_of("No", None, part, NO_WIN, f"no {_goal(rules)} in {moves} after the refusal")
            continue
        if outcome is not Outcome.GOES_ON:
            continue
        played = played_label(rules, label, key)
        for reply_key, reply_part in sorted(part.replies(rules), key=lambda kc: -len(kc[1])):
            if rules.outcome(reply_key) is not Outcome.GOES_ON:
                return refutation_of(rules.describe(key), played, reply_part, NO_WIN,
                                     "Black's reply ends the game", rules.describe(reply_key),
                                     black_moves(part, reply_part))
            if not search.wins(reply_part, moves - 1):
                return refutation_of(rules.describe(key), played, reply_part, NO_WIN,
                                     f"no {_goal(rules)} in {moves - 1}", rules.describe(reply_key),
                                     black_moves(part, reply_part))
    raise ValueError("the attempt wins: nothing to refute")


def _goal(rules: RuleSet) -> str:
    """"mate" or "king capture": the goal in words."""
    return rules.goal.replace("-", " ")


def refutation_of(answer: str, san: str | None, part: BeliefState, kind: str, reason: str,
                  reply: str | None = None, black: list[str] | None = None) -> dict[str, Any]:
    """A refutation as ``refute`` gives it (``refutation_text`` words it): the referee's
    ``answer`` to the attempt played as ``san`` (None: refused, or "Any?"), the class
    ``part`` White is left with (its size and the hidden units' squares there), ``kind``
    (``NO_WIN``, ``REFUSED`` or ``ENDS``), the ``reason`` in words and, when Black's reply
    defeats the attempt, what White hears of it (``reply``) and the Black moves that lead
    into ``part`` (``black``, SAN).  The Try-it referee (``ksolve.trial``) builds its
    refutations with it too.

    >>> from ksolve.problem import load_problem_text
    >>> text = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
    >>> belief = load_problem_text(text).belief()
    >>> refutation = refutation_of("Silent", "Rh2", belief, NO_WIN, "no mate with this move")
    >>> refutation["size"], refutation["kind"], refutation_text(refutation)
    (1, 'no win', 'silent!')
    """
    summary = belief_summary(part)
    return {"answer": answer, "san": san, "reply": reply, "black_moves": black or [], "size": summary["size"],
            "hidden": summary.get("hidden", {}), "kind": kind, "reason": reason}


MAX_NAMED_REPLIES = 3
"""A refutation names Black's moves when at most this many lead into its class."""
MAX_LISTED_REPLIES = 6
"""Otherwise it lists this many of them."""


def refutation_text(refutation: dict[str, Any]) -> str:
    """What defeats a try, as composers write it after ``1.Nf2+?``:
    Black's move with "!" (``Bxf2! (no mate in 7)``), or the referee's
    answer when that is what defeats it.

    >>> refutation_text({"answer": "Knight check", "reply": "Capture at f2", "black_moves": ["Bxf2"],
    ...                  "size": 1, "hidden": {}, "kind": NO_WIN, "reason": "no mate in 7"})
    'Bxf2! (no mate in 7)'
    >>> refutation_text({"answer": "Silent", "reply": "Silent", "black_moves": ["Ba1", "Ba3", "Ba5", "Ba7"],
    ...                  "size": 30, "hidden": {"bishop": 30}, "kind": NO_WIN, "reason": "no mate in 7"})
    'a silent move! (any of 4: Ba1 Ba3 Ba5 Ba7; no mate in 7)'
    >>> refutation_text({"answer": "No", "reply": None, "black_moves": [], "size": 3,
    ...                  "hidden": {"bishop": ["b2", "d2", "f2"]}, "kind": NO_WIN, "reason": "no mate in 2 after the refusal"})
    'No! (B b2/d2/f2; no mate in 2 after the refusal)'
    """
    from ksolve.solution import hidden_note

    where = hidden_note(refutation).strip(" ()")
    reason = f" ({where + '; ' if where else ''}{refutation['reason']})"
    if refutation["reply"] is None:
        if refutation["answer"] == "No":
            return f"No!{reason}"
        return f"{refutation['answer'].lower()}!" + (f" ({where})" if where else "")
    black = refutation["black_moves"]
    if 0 < len(black) <= MAX_NAMED_REPLIES:
        return "/".join(black) + "!" + reason
    words = "a silent move" if refutation["reply"].startswith("Silent") else refutation["reply"]
    shown = " ".join(black[:MAX_LISTED_REPLIES]) + (" ..." if len(black) > MAX_LISTED_REPLIES else "")
    listed = f"any of {len(black)}: {shown}; " if black else ""
    return f"{words}!{reason[:2]}{listed}{reason[2:]}"


# --- duals -----------------------------------------------------------------------
@dataclass
class DualQuestion:
    """One White turn of the key's strategy (after the key) and the other
    attempts that might mate there as fast as the strategy's move does (the
    moves its own line needs, at worst): each is decided by itself, so a
    verification's workers can share them (``ksolve.execution.workers``)."""

    belief: BeliefState
    state: int
    needed: int
    chosen: int
    attempts: list[int]
    move_number: int
    after: str
    main_line: bool

    def entry(self, others: list[int]) -> dict[str, Any]:
        """The dual as reports list it: ``others`` also mate (SAN)."""
        return {"move_number": self.move_number, "moves_left": self.needed,
                "played": move_label(self.belief, self.chosen), "also": [attempt_label(self.belief, m) for m in others],
                "after": self.after, "main_line": self.main_line}


def dual_questions(prover: Prover, classes: list[BeliefState], moves: int, key: int | None = None,
                   still_wanted: Callable[[], None] | None = None) -> list[DualQuestion]:
    """The questions of a proven strategy beginning with ``key`` (default the
    prover's choice): one a White turn after the key.  ``still_wanted`` (the
    search's hook, ``ProofNumberSearch.still_wanted``) lets a worker reading a
    strategy back before its key is known to win be stopped.

    The strategy is proved again and read back by a fresh prover
    (``Prover.fresh``), so that it, and the duals counted against it, depend on
    the problem alone: not on what ``prover`` searched before, nor on how many
    workers shared its table (the one process and the workers count the same
    duals)."""
    from ksolve.solution import TreeWalk, path_text, strategy_tree

    fresh = prover.fresh()
    search = ProofNumberSearch(fresh)
    search.still_wanted = still_wanted
    questions = []
    for part in classes:
        beliefs: dict[int, tuple[BeliefState, int]] = {}
        tree = strategy_tree(fresh, part, moves, beliefs, first=key, search=search)
        walk = TreeWalk(tree)
        main = walk.main_line_nodes()
        for node, (belief, state) in beliefs.items():
            chosen = _chosen_attempt(tree, node)
            if node == 0 or chosen is None:
                continue
            questions.append(DualQuestion(belief, state, walk.length(node), chosen,
                                          [int(m) for m in fresh.candidates(belief, state) if int(m) != chosen],
                                          tree.nodes[node]["number"], path_text(tree, node),
                                          node in main))
    return questions


def dual_answer(search: ProofNumberSearch, question: DualQuestion) -> list[int]:
    """The question's attempts that mate as fast as the strategy's move (proof-number
    search, as the keys were: the depth-first prover alone is far slower at depth)."""
    return [m for m in question.attempts if dual_mates(search, question, m)]


def dual_mates(search: ProofNumberSearch, question: DualQuestion, attempt: int) -> bool:
    """Whether ``attempt`` (one of the question's) mates as fast as the strategy's move."""
    return search.attempt_wins(question.belief, attempt, question.needed, question.state)


def sorted_duals(duals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The main line's duals first, then by move number."""
    return sorted(duals, key=lambda dual: (not dual["main_line"], dual["move_number"]))


def dual_entries(questions: list[DualQuestion], answers: list[list[int] | None]) -> list[dict[str, Any]]:
    """The duals the answers show (``answers[i]``: the attempts that also mate
    at ``questions[i]``, None if it was not answered), main line first."""
    return sorted_duals([question.entry(others) for question, others in zip(questions, answers) if others])


def find_duals(prover: Prover, classes: list[BeliefState], moves: int, found: list[dict[str, Any]],
               key: int | None = None) -> bool:
    """Append to ``found`` the duals of the proven strategy (beginning with
    ``key``, default the prover's choice), as composers count them: a White
    turn (after the key) where another attempt forces mate as fast as the
    strategy's move does there, in SAN, marked ``main_line`` when the turn is
    on the solution's main line (``DualQuestion``).  True when all were
    checked (``SearchAborted`` otherwise)."""
    questions = dual_questions(prover, classes, moves, key)
    search = ProofNumberSearch(prover)
    for question in questions:
        others = dual_answer(search, question)
        if others:
            found.append(question.entry(others))
    found[:] = sorted_duals(found)
    return True


def _chosen_attempt(tree: nx.DiGraph, node: int) -> int | None:
    from ksolve.board import move_from_uci

    for _, _, edge in tree.out_edges(node, data=True):
        if edge["kind"] == "attempt":
            return move_from_uci(edge["move"])
    return None
