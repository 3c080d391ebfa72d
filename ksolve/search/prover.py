"""The AND-OR prover over belief states.

``wins(B, n)``: can White, with belief ``B`` and ``n`` legal moves left, force
a win (mate; king capture in Fog of War) whatever the position in ``B`` and
whatever Black plays?

- OR over White's attempts (moves legal in at least one member: any other
  attempt is refused everywhere and tells nothing);
- AND over the referee's answers to the attempt: the "No" class keeps the
  same move number (its belief is strictly smaller, so this terminates); a
  class announcing mate is won, one announcing stalemate or a draw is lost;
  every other class is followed by Black's replies, AND over what White
  hears of them, each with ``n - 1`` moves left;
- the last move is decided by one kernel (``leaves.win_now``);
- under a rule set with probes (Modern Kriegspiel), a fresh turn in which
  the positions differ on some square is an OR over the probe sets the rule
  set generates (``RuleSet.probe_sets``, undominated ones only), each an AND
  over the contents seen, the turn going on in state ``PROBED``.

Results are kept in a transposition table keyed by the belief (its digest
and size) and the moves left, storing proofs and disproofs: a proof for
``n`` holds for more moves, a disproof for fewer.

The prover implements the search interface (``ksolve.search.base.Search``);
``winning_move`` reads the proven strategy back from its table.

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> prover = Prover(get_rules("berkeley"))
>>> belief = BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"])
>>> prover.wins(belief, 1), prover.wins(belief, 2)
(False, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import numpy as np

from ksolve.belief import BeliefState
from ksolve.board.batch import move_union
from ksolve.board.layout import COLUMN_BLACK
from ksolve.rules.base import ASK, ASKED, FRESH, MUST_CAPTURE, MUST_TRY, PROBED, Outcome, RuleSet, TooManyProbeSets
from ksolve.search.leaves import win_now
from ksolve.search.lone_king import LOST_AT_ANY_LENGTH, TABLE_BYTES, LoneKingEngine
from ksolve.search.memory import ENTRY_BYTES, MemoryPlan
from ksolve.search.orthodox import OrthodoxTable, fails_in, no_win_within, orthodox_winning_move, viable_attempts
from ksolve.search.run import Limits, Progress, SearchAborted, SearchRun, Stats
from ksolve.search.table import Entry, ResultTable

if TYPE_CHECKING:
    from ksolve.search.base import Search

__all__ = ["ASK", "ASKED", "FRESH", "MUST_CAPTURE", "MUST_TRY", "PROBED", "Entry", "Limits", "Prover",
           "SearchAborted", "Stats", "probe_mask", "probe_move"]

_PROBE_BASE = -4


def probe_move(mask: int) -> int:
    """The strategy's choice of probing the squares of ``mask`` (a bitboard), as a move code.

    >>> probe_mask(probe_move(1 << 48)) == 1 << 48, probe_mask(ASK), probe_mask(12)
    (True, 0, 0)
    """
    return _PROBE_BASE - mask


def probe_mask(move: int) -> int:
    """The squares a probe's move code names (0: the code is no probe)."""
    return _PROBE_BASE - move if move < _PROBE_BASE else 0
ORTHODOX_BUDGET = 20_000
"""Moves one orthodox bound search may make before it gives up (deciding nothing)."""
DEEP_BOUND_POSITIONS = 1
"""Beliefs this small meet the orthodox bound at every depth, not only within
``orthodox_depth``: a single position (after a capture or a check White can
place, say) often has no orthodox win at all in the moves left, which a short
orthodox search shows where the belief search would refute White's every
strategy (the sizes and budgets measured: ``docs/research/search.md``)."""
DEEP_BOUND_BUDGET = 50_000
"""Moves the deepest search of such a bound may make (``no_win_within``: the
shallower depths first, with less, since deepening finds short wins that one
search of all the moves misses within its budget; an undecided bound is not
repeated)."""
UNDECIDED_BOUNDS_KEPT = 100_000
"""Undecided deeper bounds remembered (about 10 MB)."""
FULL_INFORMATION_BUDGET = 2_000_000
"""The budget under full information, where the orthodox search is the whole answer
(about a second of it at most: an undecided attempt is then searched here)."""
UNDECIDED = -2
"""``orthodox_winning_move``'s answer when its budget ran out before a win was found."""
FEW_POSITIONS = 16
"""Beliefs larger than this first try to refute all attempts of their first positions (killers first)."""
VIABILITY_CHUNK = 8
"""Attempts tested for orthodox viability at a time (a proof may come before the rest)."""
BOUND_DEPTHS = {3: 8}
"""Viability depth by the number of men on the board (default 4): with a lone
king against king and piece, orthodox searches are cheap enough to bound
eight moves; with more men deeper bounds cost more than they save."""


_SIGNATURE_WEIGHTS = np.random.default_rng(2026).integers(1, 2**63, size=6, dtype=np.uint64) | np.uint64(1)


def _black_signatures(positions: np.ndarray) -> np.ndarray:
    """A number per position that depends only on where Black's men stand."""
    return (positions[:, COLUMN_BLACK:COLUMN_BLACK + 6] * _SIGNATURE_WEIGHTS).sum(axis=1, dtype=np.uint64)


def _engine_bytes(memory: MemoryPlan) -> int:
    """The metaposition engine's table within the memory plan: a tenth of the
    result tables' share, at most ``TABLE_BYTES``."""
    if memory.table_entries is None:
        return TABLE_BYTES
    return max(1 << 20, min(TABLE_BYTES, memory.table_entries * ENTRY_BYTES // 10))


def _unsplit(keys: np.ndarray) -> bool:
    """Whether every row of ``keys`` is the same (a probe tells these positions nothing apart)."""
    return bool((keys == keys[0]).all())


class Prover:
    """Depth-bounded AND-OR search with a transposition table (the depth-first search)."""

    def __init__(self, rules: RuleSet, limits: Limits | None = None, progress: Progress | None = None,
                 run: SearchRun | None = None, memory: MemoryPlan | None = None) -> None:
        self.rules = rules
        self.run = run or SearchRun(limits, progress)
        limits = self.run.limits
        self.memory = memory or (MemoryPlan.unbounded() if limits.memory is None
                                 else MemoryPlan.for_budget(limits.memory, workers=limits.workers))
        """What the tables may hold (``result_entries`` here, ``number_entries``
        for proof numbers); by default planned from the run's memory limit."""
        self.table = ResultTable(self.memory.result_entries)
        self.lone_king = LoneKingEngine(rules, _engine_bytes(self.memory))
        """The metaposition engine, deciding the turns against a lone king (``engine_result``)."""
        self.run.guard.add(self.table.shed)
        self.history: dict[int, int] = {}
        self._spec = rules.spec
        self.orthodox_depth = 3
        self.viable_depth = 4
        self.orthodox = OrthodoxTable(self.memory.orthodox_slots)
        self.orthodox_budget = ORTHODOX_BUDGET
        self.killer_positions: dict[int, int] = {}
        self.reuse = True
        """Whether proofs and disproofs of beliefs containing one another are reused (``subsume``)."""
        self.deep_bound_positions = DEEP_BOUND_POSITIONS if rules.bounds_hold else 0
        """Beliefs of at most this many positions meet the orthodox bound at any depth
        (0: never; stated conditions on Black's play void the bounds)."""
        self._undecided_bounds: set[tuple[int, int]] = set()
        """(belief digest, moves) whose deeper bound ran out of budget (forgotten past
        ``UNDECIDED_BOUNDS_KEPT``)."""
        self.exact_orthodox = False
        """Whether an orthodox win of a one-position belief is a proof (full information:
        ``trust_full_information``)."""

    @property
    def stats(self) -> Stats:
        """The run's counters."""
        return self.run.stats

    def fresh(self) -> Prover:
        """A prover like this one (rule set, run, memory plan, bounds) with empty
        tables, history and killers: what it finds depends on the problem alone,
        not on what this one searched before or on tables shared with workers.

        >>> from ksolve.rules import get_rules
        >>> prover = Prover(get_rules("berkeley"))
        >>> prover.viable_depth = 2
        >>> twin = prover.fresh()
        >>> twin.viable_depth, twin.table is prover.table, twin.run is prover.run
        (2, False, True)
        """
        twin = Prover(self.rules, run=self.run, memory=self.memory)
        for setting in ("orthodox_depth", "viable_depth", "orthodox_budget", "reuse", "deep_bound_positions",
                        "exact_orthodox"):
            setattr(twin, setting, getattr(self, setting))
        return twin

    def fit_bounds(self, belief: BeliefState) -> None:
        """Choose how deep the full-information bounds reach from the material
        (``BOUND_DEPTHS``): the orthodox bound one move less than viability."""
        if not len(belief):
            return
        first = belief.positions[0]
        occupied = int(np.bitwise_or.reduce(np.concatenate([first[:6], first[COLUMN_BLACK:COLUMN_BLACK + 6]])))
        men = bin(occupied).count("1")
        self.viable_depth = BOUND_DEPTHS.get(men, 4)
        self.orthodox_depth = self.viable_depth - 1

    def trust_full_information(self, moves: int) -> None:
        """Under full information the orthodox search is exact: let the bounds
        reach all ``moves``, with a larger budget, and decide a one-position
        belief by the orthodox search's winning move (its replies are searched
        again only when a strategy is read back)."""
        self.viable_depth = self.orthodox_depth = moves
        self.orthodox_budget = FULL_INFORMATION_BUDGET
        self.exact_orthodox = True

    def entry(self, belief: BeliefState, state: int = FRESH) -> Entry | None:
        """The table's entry for a White-to-move belief, if any."""
        return self.table.entry(belief, state)

    # --- the search ----------------------------------------------------------
    def wins(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool:
        """Whether White wins from ``belief`` within ``moves`` legal moves.

        ``state`` is the turn's "Any?" state (``FRESH``, ``ASKED``,
        ``MUST_CAPTURE``, ``MUST_TRY``); rule sets without the question stay ``FRESH``.
        """
        if moves <= 0 or len(belief) == 0:
            return moves > 0
        self.run.tick()
        stats = self.run.stats
        entry = self.table.entry(belief, state)
        if entry is None:
            entry = Entry()
        elif entry.proven <= moves or entry.disproven >= moves:
            stats.table_hits += 1
            return entry.proven <= moves
        reused = self.engine_result(belief, moves, state)
        if reused is None:
            reused = self.reused_result(belief, moves, state)
        if reused is None:
            reused = self.deep_bound_result(belief, moves, state)
        if reused is not None:
            return reused
        started = stats.nodes
        won = self._decide(belief, moves, state, entry)
        self.table.store(belief, state, entry, stats.nodes - started + 1)
        return won

    def engine_result(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool | None:
        """Whether White wins, when the metaposition engine decides the turn (White's
        men against a lone king: ``ksolve.search.lone_king``), written to the table
        with the strategy's first attempt; None otherwise."""
        engine = self.lone_king
        turn = engine.turn(belief, moves, state) if engine is not None else None
        if turn is None:
            return None
        decision = engine.decide(turn, moves, self.run)
        entry = self.table.entry(belief, state) or Entry()
        if decision.won:
            if entry.proven > moves:
                entry.proven, entry.move = moves, decision.move
        else:
            entry.disproven = max(entry.disproven, LOST_AT_ANY_LENGTH if decision.forever else moves)
        self.table.store(belief, state, entry, 1)
        return decision.won

    def reused_result(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool | None:
        """False when a belief this one contains is disproven within ``moves``
        (``subsume``), written to the table as this belief's own disproof; None
        otherwise.  Proofs of containing beliefs are not reused: a subset then
        inherits the larger belief's longer strategy, and the solution's side
        branches (and the duals counted against them) get slower; on Rotenberg
        1976 13 minor duals instead of 6, for 6% fewer nodes and more time."""
        if not self.reuse:
            return None
        found = self.table.contained(belief, state, moves)
        if found is None or found.proven <= moves:
            return None
        self.run.stats.table_hits += 1
        entry = self.table.entry(belief, state) or Entry()
        entry.disproven = max(entry.disproven, found.disproven)
        self.table.store(belief, state, entry, 1)
        return False

    def deep_bound_result(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool | None:
        """False when a belief of at most ``deep_bound_positions`` positions holds
        one without an orthodox win in ``moves`` (beyond ``orthodox_depth``, where
        ``_decide`` checks every belief), written to the table; None otherwise."""
        if len(belief) > self.deep_bound_positions or moves <= self.orthodox_depth:
            return None
        asked = (belief.key, moves)
        if asked in self._undecided_bounds:
            return None
        if not any(no_win_within(position, moves, self._spec, *self.orthodox.arrays, DEEP_BOUND_BUDGET)
                   for position in belief.positions):
            if len(self._undecided_bounds) >= UNDECIDED_BOUNDS_KEPT:
                self._undecided_bounds.clear()
            self._undecided_bounds.add(asked)
            return None
        self.run.stats.bound_cuts += 1
        entry = self.table.entry(belief, state) or Entry()
        entry.disproven = max(entry.disproven, moves)
        self.table.store(belief, state, entry, 1)
        return False

    def _decide(self, belief: BeliefState, moves: int, state: int, entry: Entry) -> bool:
        """``wins`` past the table: search, and write the result into ``entry``."""
        if state == FRESH and self.rules.probes:
            if moves <= self.orthodox_depth and not self._orthodox_bound_holds(belief, moves):
                self.run.stats.bound_cuts += 1  # full information is the most a probe can give
                entry.disproven = max(entry.disproven, moves)
                return False
            probes = self.probe_sets(belief, state)
            if probes:
                return self._decide_probe(belief, moves, probes, entry)
        stats = self.run.stats
        can_ask = self.rules.can_ask(state)
        if moves == 1 and state in (FRESH, ASKED, PROBED):
            stats.leaf_calls += 1
            won, attempts, left = win_now(belief.positions, self._spec)
            if won:
                entry.proven, entry.move = 1, int(attempts[0])
                return True
            move = self._ask_last(belief, state, attempts, left)
            if move is not None:
                entry.proven, entry.move = 1, move
                return True
            entry.disproven = 1
            return False
        if self._exact(belief, moves, state):
            move = int(orthodox_winning_move(belief.positions[0], moves, self._spec, *self.orthodox.arrays,
                                    self.orthodox_budget))
            if move != UNDECIDED:
                stats.bound_cuts += 1
                if move >= 0:
                    entry.proven, entry.move = moves, move
                    return True
                entry.disproven = max(entry.disproven, moves)
                return False
        if moves <= self.orthodox_depth and not self._orthodox_bound_holds(belief, moves):
            stats.bound_cuts += 1
            entry.disproven = max(entry.disproven, moves)
            return False
        killers_first = None
        if moves <= self.viable_depth and len(belief) > FEW_POSITIONS and state in (FRESH, PROBED) and not can_ask:
            killers_first = self._killers_first(belief)
            if self._few_refute(killers_first, moves):
                entry.disproven = max(entry.disproven, moves)
                return False
        for move in self._viable_in_order(belief, moves, state, killers_first):
            if self.attempt_wins(belief, int(move), moves, state):
                entry.proven, entry.move = moves, int(move)
                self.history[int(move)] = self.history.get(int(move), 0) + moves * moves
                return True
        if can_ask and self.ask_wins(belief, moves):
            entry.proven, entry.move = moves, ASK
            return True
        entry.disproven = max(entry.disproven, moves)
        return False

    def _ask_last(self, belief: BeliefState, state: int, attempts: np.ndarray, left: np.ndarray) -> int | None:
        """The last move won by asking "Any?": asked at once (``ASK``), or after
        the safe ``attempts`` are refused (the first of them; the "No" leads to
        the same choice on a smaller belief), where the rule set lets a turn
        ask after refusals (``RuleSet.state_after_refusal``, ``can_ask``); None
        if neither wins.  ``left`` masks the positions in which every safe
        attempt is refused: asking there is the best a safe attempt can lead to
        (a strategy for a belief is one for each of its subsets)."""
        rules = self.rules
        if rules.can_ask(state) and self.ask_wins(belief, 1):
            return ASK
        if not len(attempts) or not rules.can_ask(rules.state_after_refusal(state)):
            return None
        if self.ask_wins(BeliefState(belief.positions[left]), 1):
            return int(attempts[0])
        return None

    def _decide_probe(self, belief: BeliefState, moves: int, probes: list[int], entry: Entry) -> bool:
        """A fresh turn with probes: some probe set whose every answer wins (probing
        is never worse than not probing, so the turn only probes).

        A class found lost refutes every later probe set that does not split
        it: that set's answer holding the class is a larger belief, lost too."""
        lost: list[BeliefState] = []
        for mask in probes:
            if any(_unsplit(self.rules.probe_answers(part.positions, mask)) for part in lost):
                self.run.stats.pruned_attempts += 1
                continue
            loser = self._probe_loser(belief, mask, moves)
            if loser is None:
                entry.proven, entry.move = moves, probe_move(mask)
                return True
            lost.append(loser)
        entry.disproven = max(entry.disproven, moves)
        return False

    def probe_sets(self, belief: BeliefState, state: int = FRESH) -> list[int]:
        """The probes worth making in a turn in ``state`` (``RuleSet.probe_sets``);
        ``SearchAborted`` when there are more than an exact search tries."""
        if not self.rules.probes:
            return []
        try:
            return self.rules.probe_sets(belief.positions, state)
        except TooManyProbeSets as error:
            raise SearchAborted(str(error)) from None

    def probe_classes(self, belief: BeliefState, mask: int) -> list[tuple[np.ndarray, BeliefState]]:
        """The answers to a probe of ``mask``: (key, belief), largest first."""
        classes = belief.split(self.rules.probe_answers(belief.positions, mask))
        return sorted(classes, key=lambda item: -len(item[1]))

    def probe_wins(self, belief: BeliefState, mask: int, moves: int) -> bool:
        """Whether probing the squares of ``mask`` wins within ``moves`` whatever they show."""
        return self._probe_loser(belief, mask, moves) is None

    def _probe_loser(self, belief: BeliefState, mask: int, moves: int) -> BeliefState | None:
        """The first answer to a probe of ``mask`` that White cannot win, or None."""
        return next((part for _, part in self.probe_classes(belief, mask) if not self.wins(part, moves, PROBED)),
                    None)

    def ask_wins(self, belief: BeliefState, moves: int) -> bool:
        """Whether asking "Any?" now wins within ``moves`` whatever the answer."""
        for answer, part in self.any_classes(belief):
            if len(part) and not self.wins(part, moves, answer):
                return False
        return True

    def any_classes(self, belief: BeliefState) -> list[tuple[int, BeliefState]]:
        """The answers to "Any?" as (next turn state, belief): yes first, then no."""
        return [(state, BeliefState(belief.positions[mask]))
                for state, mask in self.rules.any_split(belief.positions)]

    def _exact(self, belief: BeliefState, moves: int, state: int) -> bool:
        """Whether the orthodox search decides this turn by itself: full
        information, one position, within the bounds' reach."""
        return self.exact_orthodox and len(belief) == 1 and state == FRESH and moves <= self.viable_depth

    def _orthodox_bound_holds(self, belief: BeliefState, moves: int) -> bool:
        """Whether every member has an orthodox win in ``moves``."""
        return fails_in(belief.positions, moves, self._spec, *self.orthodox.arrays, self.orthodox_budget) < 0

    def candidates(self, belief: BeliefState, state: int = FRESH) -> np.ndarray:
        """The attempts worth trying in a turn in ``state`` (``RuleSet.attempts``)."""
        return self.rules.attempts(belief.positions, state)

    def ordered(self, moves: np.ndarray) -> list[int]:
        """``moves`` best first: by how often and how deep each has won before."""
        history = self.history
        return sorted((int(m) for m in moves), key=lambda m: -history.get(m, 0))

    def _few_refute(self, killers_first: tuple[np.ndarray, list[int]], moves: int) -> bool:
        """Whether the first few positions (killers first) are lost by themselves:
        every attempt legal in one of them is refuted by the viability test among
        them.  A belief holding a lost subset is lost (a strategy for the belief
        is one for the subset)."""
        positions, signatures = killers_first
        few = positions[:FEW_POSITIONS]
        candidates = move_union(few, self._spec.fog)
        refuted_by = viable_attempts(few, candidates, moves, self._spec, *self.orthodox.arrays,
                                     *self.orthodox.move_arrays, self.orthodox_budget)
        if np.any(refuted_by < 0):
            return False
        killers = self.killer_positions
        for index in refuted_by.tolist():
            h = signatures[index]
            killers[h] = killers.get(h, 0) + 1
        self.run.stats.pruned_attempts += len(refuted_by)
        return True

    def _viable_in_order(self, belief: BeliefState, moves: int, state: int,
                         killers_first: tuple[np.ndarray, list[int]] | None = None) -> Iterator[int]:
        """The candidates, best first by history; within the orthodox horizon only
        those that are an orthodox winning first move wherever legal, tested a
        few at a time so that a proof found early spares testing the rest."""
        ordered = self.ordered(self.candidates(belief, state))
        if moves > self.viable_depth:
            yield from ordered
            return
        positions, signatures = killers_first or (None, None)
        for start in range(0, len(ordered), VIABILITY_CHUNK):
            chunk = np.array(sorted(ordered[start:start + VIABILITY_CHUNK]), dtype=np.int64)
            if positions is None:
                positions, signatures = self._killers_first(belief)
            refuted_by = viable_attempts(positions, chunk, moves, self._spec, *self.orthodox.arrays,
                                         *self.orthodox.move_arrays, self.orthodox_budget)
            killers = self.killer_positions
            for index in refuted_by[refuted_by >= 0].tolist():
                h = signatures[index]
                killers[h] = killers.get(h, 0) + 1
            self.run.stats.pruned_attempts += int(np.count_nonzero(refuted_by >= 0))
            viable = set(chunk[refuted_by < 0].tolist())
            yield from (m for m in ordered[start:start + VIABILITY_CHUNK] if m in viable)

    def _killers_first(self, belief: BeliefState) -> tuple[np.ndarray, list[int]]:
        """The belief's positions, first those whose black men stood where they
        refuted attempts most often (White's men differ from belief to belief,
        the hidden units' squares recur), with their black-men signatures."""
        signatures = _black_signatures(belief.positions).tolist()
        killers = self.killer_positions
        order = np.argsort(np.array([-killers.get(h, 0) for h in signatures]), kind="stable")
        return belief.positions[order], [signatures[i] for i in order.tolist()]

    def attempt_wins(self, belief: BeliefState, move: int, moves: int, state: int = FRESH) -> bool:
        """Whether trying ``move`` first (``ASK``: asking "Any?") wins within ``moves`` whatever the answer."""
        if move == ASK:
            return self.rules.can_ask(state) and self.ask_wins(belief, moves)
        if probe_mask(move):
            mask = probe_mask(move)
            return state == FRESH and bin(mask).count("1") <= self.rules.probes and self.probe_wins(belief, mask, moves)
        outcome = self.attempt_outcome(belief, move, moves, state)
        if outcome is None:
            return False
        going_on, refused, after_refusal = outcome
        return (all(self.black_wins_not(part, moves - 1) for part in going_on)
                and all(self.wins(part, moves, after_refusal) for part in refused))

    def attempt_outcome(self, belief: BeliefState, move: int, moves: int, state: int = FRESH
                        ) -> tuple[list[BeliefState], list[BeliefState], int] | None:
        """What is left to win after trying ``move``: ``(going_on, refused,
        state after "No")``, the classes in which Black replies (largest first)
        and the "No" classes (one, or several where a refusal tells more, as
        in orthodox chess); None if an answer already loses (a draw, or no
        move left to mate with)."""
        refused = []
        going_on = []
        for key, part in belief.attempt(self.rules, move):
            outcome = self.rules.outcome(key)
            if outcome is Outcome.REFUSED:
                refused.append(part)
            elif outcome is Outcome.ENDED or (outcome is Outcome.GOES_ON and moves == 1):
                return None
            elif outcome is Outcome.GOES_ON:
                going_on.append(part)
        going_on.sort(key=len, reverse=True)
        after_refusal = self.rules.state_after_refusal(state)
        if len(refused) == 1 and len(refused[0]) == len(belief) and after_refusal == state:
            return None  # refused everywhere: nothing learnt, nothing changed
        return going_on, refused, after_refusal

    def next_turns(self, belief: BeliefState, move: int, moves: int, state: int = FRESH
                   ) -> tuple[list[BeliefState], list[BeliefState], int] | None:
        """The turns White may face after trying ``move``: ``(replied, refused,
        state after "No")``, the classes of Black's replies after each answer
        in which the game goes on (``moves - 1`` left; answers largest first,
        each one's reply classes largest first) and the "No" classes (the same
        turn goes on); None where ``attempt_outcome`` or ``reply_classes`` says
        an answer or a reply loses (``BeliefState.after_attempt``: the same
        classes in the same order, in two kernel calls)."""
        split = belief.after_attempt(self.rules, move, last=moves == 1)
        if split is None:
            return None
        replied, refused = split
        after_refusal = self.rules.state_after_refusal(state)
        if len(refused) == 1 and len(refused[0]) == len(belief) and after_refusal == state:
            return None  # refused everywhere: nothing learnt, nothing changed
        return replied, refused, after_refusal

    def reply_classes(self, belief: BeliefState) -> list[BeliefState] | None:
        """Black's replies grouped by what White hears, largest first; None if
        one of them ends the game (White has not won)."""
        classes = []
        for reply_key, part in belief.replies(self.rules):
            if self.rules.outcome(reply_key) is not Outcome.GOES_ON:
                return None
            classes.append(part)
        classes.sort(key=len, reverse=True)
        return classes

    def black_wins_not(self, belief: BeliefState, moves: int) -> bool:
        """Whether White wins within ``moves`` after every Black reply in ``belief``."""
        known = self.table.after_move_result(belief, moves)
        if known is not None:
            self.run.stats.table_hits += 1
            return known
        started = self.run.stats.nodes
        classes = self.reply_classes(belief)
        result = classes is not None and all(self.wins(part, moves) for part in classes)
        self.table.store_after_move(belief, moves, result, self.run.stats.nodes - started + 1)
        return result

    def solve(self, belief: BeliefState, max_moves: int, min_moves: int = 1) -> int | None:
        """The fewest moves (``min_moves`` .. ``max_moves``) with which White wins, or None.

        Iterative deepening: each depth reuses the table of the shallower ones.
        """
        for moves in range(min_moves, max_moves + 1):
            self.run.depth = moves
            if self.wins(belief, moves):
                return moves
        return None

    # --- reading the strategy back -------------------------------------------
    def winning_move(self, belief: BeliefState, moves: int, state: int = FRESH, search: Search | None = None
                     ) -> tuple[int, int]:
        """The proven strategy's choice in a won turn: ``(choice, moves it needs)``,
        the choice an attempt, ``ASK`` or a probe (``probe_move``).

        Searches first, with ``search`` (default: this depth-first prover), if
        the table does not hold the proof (a memory budget dropped it; a search
        that returned True leaves it there).  Raises ``ValueError`` if White
        cannot win ``belief`` within ``moves``.
        """
        entry = self.table.entry(belief, state)
        if entry is None or entry.proven > moves:
            if not (search or self).wins(belief, moves, state):
                raise ValueError("no winning strategy within the given moves")
            entry = self.table.entry(belief, state)
        if entry is None or entry.proven > moves:  # ``search`` knew the proof, the table had dropped it
            self.wins(belief, moves, state)
            entry = self.table.entry(belief, state)
        if (entry.proven == 1 and entry.move != ASK and not probe_mask(entry.move)
                and state in (FRESH, ASKED, PROBED)):
            _, attempts, _ = win_now(belief.positions, self._spec)
            return (entry.move if entry.move in {int(a) for a in attempts} else int(attempts[0])), 1
        return entry.move, entry.proven
