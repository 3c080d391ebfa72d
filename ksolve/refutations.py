"""Refutation certificates: Black's side of a problem White cannot win in time.

``refutation(problem, moves)`` writes, for the independent checker
(``ksolve.checker.refutation``, format in ``docs/certificate.md``), one initial
class White cannot win within ``moves`` and, at each White turn of it, for
every choice White has (every attempt legal somewhere, "Any?" where it may be
asked), one answer of the referee or one Black reply after it from which White
still cannot win: what "no shorter mate", "no solution" and a try's
refutation (``first``: the try's first attempt) claim.  The classes are
decided by the proof-number search over the prover's tables.

A refutation branches over all of White's choices at every turn, so it grows
as the number of attempts to the power of the moves: the writer stops past
``max_nodes`` (``RefutationTooLarge``) instead of running out of memory.

>>> from ksolve.problem import load_problem_text
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/8/1K6/8/8/8/7R w - - 0 1"\\n')
>>> certificate = refutation(problem, 1, dag=False)
>>> certificate["format"], len(certificate["initial"][1]["attempts"])
('ksolve-refutation', 22)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ksolve import __version__
from ksolve.analysis import Analysis
from ksolve.belief import BeliefState
from ksolve.board import move_from_uci, move_to_uci
from ksolve.board.convert import position_to_board
from ksolve.board.layout import COLUMN_WHITE
from ksolve.certificates import DagWriter, observation, problem_identity
from ksolve.checker.schema import LOST, REFUTATION_DAG_VERSION, REFUTATION_FORMAT, REFUTATION_VERSION
from ksolve.rules.base import ASKED, FRESH, Outcome, RuleSet
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import ASK, Prover
from ksolve.search.run import Limits

MAX_NODES = 200_000
"""The most nodes a refutation is written with (each checked by the checker)."""
MAX_DOMINANCE_SCAN = 64
"""Refuted turns of the same men, moves and state a new turn is compared with (the latest)."""


class RefutationTooLarge(ValueError):
    """A refutation that would have more than its ``max_nodes``."""


class NothingToRefute(ValueError):
    """White wins: there is no refutation to write."""


def refutation(problem, moves: int | None = None, first: str | None = None, limits: Limits | None = None,
               max_nodes: int = MAX_NODES, dag: bool = True) -> dict[str, Any]:
    """The refutation certificate of "White does not win within ``moves``" (default: the
    stipulation's), beginning with ``first`` (a UCI attempt or ``"any"``) if given; a DAG
    (version 2) or with ``dag=False`` a tree (version 1).

    ``NothingToRefute`` where White wins, ``RefutationTooLarge`` past ``max_nodes``,
    ``SearchAborted`` past ``limits``."""
    analysis = Analysis(problem, moves=moves)
    return Refuter(analysis, limits, max_nodes).certificate(analysis.moves, first, dag)


class Decider(Protocol):
    """What decides a refutation's classes: whether White wins a turn within some moves."""

    def wins(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool:
        """Whether White wins ``belief`` within ``moves``, his turn in ``state``."""

    def attempt_wins(self, belief: BeliefState, move: int, moves: int, state: int = FRESH) -> bool:
        """Whether trying ``move`` first (``ASK``: asking "Any?") wins within ``moves``."""


class Refuter:
    """Refutations of one problem's claims, their classes decided by one search (whose
    tables each refutation reuses): by default the proof-number search over the
    prover's tables, or ``decider`` (the endgame tables, ``ksolve.endgame.certify``)."""

    def __init__(self, analysis: Analysis, limits: Limits | None = None, max_nodes: int = MAX_NODES,
                 dominance: bool = True, decider: Decider | None = None) -> None:
        self.analysis = analysis
        self.dominance = dominance
        """Whether a DAG refutes a turn by a refuted turn among its positions (off: the reference of
        ``benchmarks/bench_dominance.py``)."""
        self.rules = analysis.rules
        if self.rules.probes:
            raise ValueError(f"refutations under {self.rules.name} are not written (a probe may name too many "
                             "sets of squares for the checker to enumerate)")
        self.search = decider if decider is not None else ProofNumberSearch(Prover(self.rules, limits))
        self.max_nodes = max_nodes

    def certificate(self, moves: int, first: str | None = None, dag: bool = True) -> dict[str, Any]:
        """The refutation of "White wins within ``moves``" (beginning with ``first``): a DAG
        (version 2, each distinct node once), or with ``dag=False`` a tree (version 1)."""
        rules, search = self.rules, self.search
        code = None if first is None else ASK if first == "any" else move_from_uci(first)
        for part in self.analysis.classes:
            won = search.wins(part.belief, moves) if code is None else search.attempt_wins(part.belief, code, moves)
            if not won:
                nodes = DagWriter(_with_references) if dag else None
                root = _Writer(search, rules, self.max_nodes, nodes, self.dominance).white(part.belief, moves, FRESH,
                                                                                            code)
                header = {"format": REFUTATION_FORMAT, "version": REFUTATION_DAG_VERSION if dag else REFUTATION_VERSION,
                          "producer": f"ksolve {__version__}", **problem_identity(self.analysis.problem),
                          "rules": rules.name, "goal": rules.goal, "moves": moves,
                          "positions": sum(len(part.belief) for part in self.analysis.classes)}
                if first is not None:
                    header["first"] = first
                if nodes is None:
                    return {**header, "initial": [observation(rules, part.key), root]}
                ordered = nodes.ordered([[observation(rules, part.key), root]])
                return {**header, "initial": ordered["initial"][0], "nodes": ordered["nodes"]}
        what = "" if first is None else f" beginning with {first}"
        raise NothingToRefute(f"White wins within {moves}{what}: there is no refutation")


class _Writer:
    """The refutation's nodes, decided by ``search`` and counted against ``max_nodes``.

    A turn met again (the same positions, moves left and turn state) is written once:
    in a tree its subtree is repeated (and counted again: the checker replays it again),
    in a DAG (``dag``) it is one node referred to by number.  In a DAG a turn whose
    positions include those of a turn already refuted with the same moves left and turn
    state is refuted by it (dominance: what White cannot win knowing more, he cannot win
    knowing less): the node ``keep``s those positions and answers as that turn does."""

    def __init__(self, search: Decider, rules: RuleSet, max_nodes: int, dag: DagWriter | None = None,
                 dominance: bool = True) -> None:
        self.search = search
        self.dominance = dominance and dag is not None
        self.rules = rules
        self.max_nodes = max_nodes
        self.dag = dag
        self.nodes = 0
        self.done: dict[tuple, tuple[Any, int]] = {}
        """(belief, moves, state, first) -> the node written and its tree's size."""
        self.refuted: dict[tuple, list[_Refuted]] = {}
        """(White's men, moves, state) -> the White turns refuted there (the dominance index)."""

    def count(self, nodes: int = 1) -> None:
        self.nodes += nodes
        if self.nodes > self.max_nodes:
            raise RefutationTooLarge(f"the refutation has more than {self.max_nodes:,} nodes")

    def written(self, node: dict[str, Any]) -> Any:
        """The node itself (a tree), or its number (a DAG)."""
        return node if self.dag is None else self.dag.intern(node)

    def white(self, belief: BeliefState, moves: int, state: int, first: int | None = None) -> Any:
        """White's turn, lost within ``moves``: an answer to each of his choices."""
        key = ("white", belief.key, len(belief), moves, state, first)
        if key in self.done:
            value, size = self.done[key]
            self.count(0 if self.dag is not None else size)
            return value
        if self.dominance and first is None:
            dominated = self.dominated(belief, moves, state)
            if dominated is not None:
                self.count()
                value = self.written(dominated)
                self.done[key] = (value, 1)
                return value
        before = self.nodes
        self.count()
        rules = self.rules
        node: dict[str, Any] = {}
        if first is None:
            choices = [int(move) for move in rules.attempts(belief.positions, state)]
        else:
            choices = [] if first == ASK else [first]
        attempts = []
        for move in choices:
            entry = self.attempt(belief, move, moves, state, forced=first is not None)
            if entry is not None:
                attempts.append(entry)
        if attempts:
            node["attempts"] = attempts
        if rules.can_ask(state) and first in (None, ASK):
            for answer_state, mask in rules.any_split(belief.positions):
                part = BeliefState(belief.positions[mask])
                if len(part) and not self.search.wins(part, moves, answer_state):
                    node["any"] = ["no" if answer_state == ASKED else "yes", self.white(part, moves, answer_state)]
                    break
            else:
                raise AssertionError("a lost turn where asking \"Any?\" wins")
        value = self.written(node)
        self.done[key] = (value, self.nodes - before)
        if self.dominance and first is None:
            self.refuted.setdefault(_men_key(belief, moves, state), []).append(
                _Refuted(frozenset(belief.hashes.tolist()), belief, node))
        return value

    def dominated(self, belief: BeliefState, moves: int, state: int) -> dict[str, Any] | None:
        """A node refuting ``belief`` by a refuted turn among its positions (None: none known):
        that turn's answers, with ``keep`` naming its positions."""
        candidates = self.refuted.get(_men_key(belief, moves, state))
        if not candidates:
            return None
        hashes = frozenset(belief.hashes.tolist())
        for refuted in reversed(candidates[-MAX_DOMINANCE_SCAN:]):
            if len(refuted.hashes) < len(hashes) and refuted.hashes <= hashes:
                return {"keep": refuted.epds(self.rules.fog), **refuted.node}
        return None

    def attempt(self, belief: BeliefState, move: int, moves: int, state: int, forced: bool) -> list | None:
        """``[UCI, answer, node]`` for one of White's attempts (None for one refused in
        every position that changes nothing: no choice of White's, unless ``forced``)."""
        rules, search = self.rules, self.search
        uci = move_to_uci(move)
        after = rules.state_after_refusal(state)
        classes = [(key, rules.outcome(key), part) for key, part in belief.attempt(rules, move)]
        for key, outcome, part in classes:
            if outcome is Outcome.REFUSED and len(part) == len(belief) and after == state and not forced:
                return None
            if outcome is Outcome.ENDED or (outcome is Outcome.GOES_ON and moves == 1):
                return [uci, observation(rules, key), LOST]
        for key, outcome, part in classes:
            if outcome is Outcome.REFUSED and not search.wins(part, moves, after):
                return [uci, "No", self.white(part, moves, after)]
        for key, outcome, part in classes:
            if outcome is not Outcome.GOES_ON:
                continue
            reply = self.black(part, moves - 1)
            if reply is not None:
                return [uci, observation(rules, key), reply]
        raise AssertionError(f"a lost turn where {uci} wins")

    def black(self, belief: BeliefState, moves: int) -> Any:
        """Black's reply class after which White cannot win within ``moves`` (None: none)."""
        rules = self.rules
        replies = sorted(belief.replies(rules), key=lambda kc: -len(kc[1]))
        for key, part in replies:
            if rules.outcome(key) is not Outcome.GOES_ON:
                self.count()
                return self.written({"reply": [observation(rules, key), LOST]})
        known = [(self.known_lost(part, moves, FRESH), key, part) for key, part in replies]
        for lost, key, part in sorted(known, key=lambda entry: not entry[0]):  # stable: largest first within each
            if lost or not self.search.wins(part, moves):
                self.count()
                return self.written({"reply": [observation(rules, key), self.white(part, moves, FRESH)]})
        return None

    def known_lost(self, belief: BeliefState, moves: int, state: int) -> bool:
        """Whether White's turn at ``belief`` is refuted already (written, or dominated by a
        turn written): choosing it makes the refutation share that node."""
        if ("white", belief.key, len(belief), moves, state, None) in self.done:
            return True
        return self.dominance and self.dominated(belief, moves, state) is not None


@dataclass
class _Refuted:
    """A White turn refuted: its positions' hashes, its belief and its node's answers."""

    hashes: frozenset[int]
    belief: BeliefState
    node: dict[str, Any]
    _epds: list[str] | None = None

    def epds(self, fog: bool) -> list[str]:
        """The positions as the checker names them (python-chess's EPD), sorted."""
        if self._epds is None:
            en_passant = "xfen" if fog else "legal"
            self._epds = sorted({position_to_board(row).epd(en_passant=en_passant) for row in self.belief.positions})
        return self._epds


def _men_key(belief: BeliefState, moves: int, state: int) -> tuple:
    """What turns that may dominate each other share: White's men, the moves left, the turn state."""
    return (*belief.positions[0, COLUMN_WHITE:COLUMN_WHITE + 6].tolist(), moves, state)


def _with_references(node: dict[str, Any], index: Callable[[Any], Any]) -> dict[str, Any]:
    """A refutation node with each reference to another node mapped by ``index``."""
    out = dict(node)
    if "attempts" in out:
        out["attempts"] = [[uci, answer, index(child)] for uci, answer, child in out["attempts"]]
    if "any" in out:
        out["any"] = [out["any"][0], index(out["any"][1])]
    if "reply" in out:
        out["reply"] = [out["reply"][0], index(out["reply"][1])]
    return out
