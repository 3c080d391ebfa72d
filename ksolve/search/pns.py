"""Depth-first proof-number search (df-pn, Nagai 2002) over belief states.

The depth-first prover (``prover.Prover.wins``) tries White's attempts one
after another and must refute each wrong one completely before the next:
with no ordering knowledge that is almost all of its work (K+Q against a
king hidden in a 3x3 corner mates in 9 with a strategy of 40 White turns,
which it finds after 466,000 nodes with its bounds at 4 moves; this search
after 1,300).
Proof-number search instead always works on the part of the tree that is
cheapest to settle: every node carries a *proof number* (how many leaves
must still be proven to prove it) and a *disproof number*; an OR node
(White to move) proves as soon as one attempt proves, an AND node (an
attempt: every answer, every class of Black's replies) disproves as soon
as one child disproves.  Thresholds make it depth-first (Nagai's MID), so
memory holds only the table.

Nodes are depth-bounded: a White node is (belief, moves left, "Any?"
state), so the search proves "mate within ``moves``", not the shortest mate.
White nodes with few moves left are settled exactly by the depth-first
prover (its orthodox bounds and viability filter are strongest there), and
every result is written to the prover's table, so ``strategy_tree`` reads
the strategy from it as after a depth-first proof.  Under a rule set with
probes a fresh White turn's children are its probes (``Prover.probe_sets``),
each an AND over the contents seen, as in the depth-first prover.

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> prover = Prover(get_rules("berkeley"))
>>> belief = BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"])
>>> ProofNumberSearch(prover).wins(belief, 2)
False
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable

from ksolve.belief import BeliefState
from ksolve.rules.base import FRESH
from ksolve.rules.base import PROBED
from ksolve.search.prover import ASK, Prover, probe_mask, probe_move
from ksolve.search.table import Entry, WorkCache

INFINITE = 1 << 40
EXPANSIONS_KEPT = 20_000
"""Expanded attempts whose children are kept (least recently used dropped)."""
EXPANSION_BYTES = 16 << 20
"""The most bytes of kept expansions whatever the budget: kept expansions save
little search, and without a cap a long search's memory grows with them
(``docs/research/memory-and-cores.md``)."""
CHILD_BYTES = 200
"""What a kept child costs besides its belief's rows (the node, its key, the list slot)."""


def white_key(digest: int, size: int, moves: int, state: int) -> int:
    """A White node's key in the search's own tables: its belief's digest and
    size, the moves left and the turn's state packed into one integer (exact:
    no two nodes share one).  An int keeps an entry small and hashes at once,
    where a tuple is hashed element by element at every lookup.

    >>> white_key(2**63 + 5, 30, 2, FRESH) != white_key(2**63 + 5, 30, 3, FRESH), white_key(1, 30, 2, FRESH) & 1
    (True, 0)
    """
    return ((((size << 64) | digest) << _MOVES_BITS | moves) << _STATE_BITS | state) << 1


def attempt_key(white: int, move: int) -> int:
    """An attempt's key: its White node's with the move (zigzag-coded, so
    that "Any?" and probe codes, which are negative, stay apart) on top.

    >>> attempt_key(0, 3) != attempt_key(0, -3), attempt_key(0, 3) & 1
    (True, 1)
    """
    code = move << 1 if move >= 0 else (-move << 1) - 1
    return (code << _ATTEMPT_SHIFT) | white | 1


_MOVES_BITS, _STATE_BITS = 16, 8
_ATTEMPT_SHIFT = 1 + _STATE_BITS + _MOVES_BITS + 64 + 32
"""Above a White key's bits (beliefs hold fewer than 2**32 positions)."""


class WhiteNode:
    """White to move: OR over attempts (and the "Any?" question)."""

    __slots__ = ("belief", "moves", "state", "key")

    def __init__(self, belief: BeliefState, moves: int, state: int = FRESH) -> None:
        self.belief, self.moves, self.state = belief, moves, state
        self.key = white_key(belief.key, len(belief), moves, state)


class AttemptNode:
    """White tries ``move`` (or asks "Any?": ``ASK``; or probes: ``probe_move``):
    AND over every answer and every class of Black's replies."""

    __slots__ = ("parent", "move", "key")

    def __init__(self, parent: WhiteNode, move: int) -> None:
        self.parent, self.move = parent, move
        self.key = attempt_key(parent.key, move)


class ChoiceNode:
    """White chooses among given attempts only (a worker's share of the
    first ones): OR over them; never written to the result table, which
    holds whole turns."""

    __slots__ = ("children", "key")

    def __init__(self, belief: BeliefState, moves: int, attempts: list[int]) -> None:
        parent = WhiteNode(belief, moves)
        self.children = [AttemptNode(parent, move) for move in attempts]
        self.key = ("C", belief.key, len(belief), moves, tuple(attempts))


class NumberCache(WorkCache):
    """Proof and disproof numbers by node key, each kept as one ``(proof,
    disproof, work)`` row (one tuple a node, where a plain ``WorkCache`` holds a
    pair inside a pair); it sheds as a ``WorkCache`` does, the work being a
    row's last element.

    >>> cache = NumberCache(capacity=2)
    >>> cache.put(1, (3, 1), work=5); cache.put(2, (0, INFINITE), work=1); cache.put(3, (1, 1), work=9)
    >>> sorted(cache.items), cache.items[3], cache.work(2)
    ([1, 3], (1, 1, 9), 0)
    """

    def put(self, key: int | tuple, numbers: tuple[int, int], work: int) -> None:
        """Keep a node's ``numbers`` with its ``work``, shedding first if full."""
        if self.capacity is not None and len(self.items) >= self.capacity and key not in self.items:
            self.shed()
        self.items[key] = (numbers[0], numbers[1], work)


class ProofNumberSearch:
    """df-pn on top of a ``Prover`` (its rules, result table and search run)."""

    def __init__(self, prover: Prover, exact_moves: int | None = None) -> None:
        self.prover = prover
        self.table = prover.table
        self.run = prover.run
        self.exact_moves = prover.viable_depth if exact_moves is None else exact_moves
        """White nodes with this many moves left or fewer are decided by the
        depth-first prover (where its viability filter works)."""
        self.numbers = NumberCache(prover.memory.number_entries)
        """Proof and disproof numbers of the nodes searched, with the nodes each took."""
        self.expansions: OrderedDict[tuple, tuple[list, int]] = OrderedDict()
        """Children of expanded attempts, with their bytes (least recently used dropped)."""
        self.expansion_bytes = 0
        planned = prover.memory.expansion_bytes
        self.max_expansion_bytes = EXPANSION_BYTES if planned is None else min(planned, EXPANSION_BYTES)
        self.run.guard.add(self._shed)
        self.epsilon = EPSILON
        """The 1 + epsilon trick's share (a worker racing others tries another one)."""
        self.still_wanted: Callable[[], None] | None = None
        """Called at every node when worker processes race on one proof
        (``ksolve.execution.workers``): raises once another worker has decided it."""

    def wins(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool:
        """Whether White wins ``belief`` within ``moves`` (same answer as the
        depth-first prover; the proof's attempts are in the prover's table)."""
        proof, _ = self._search(WhiteNode(belief, moves, state), INFINITE, INFINITE)
        return proof == 0

    def attempt_wins(self, belief: BeliefState, move: int, moves: int, state: int = FRESH) -> bool:
        """Whether trying ``move`` first (``ASK``: asking "Any?") wins within ``moves``."""
        proof, _ = self._search(AttemptNode(WhiteNode(belief, moves, state), move), INFINITE, INFINITE)
        return proof == 0

    def first_wins(self, belief: BeliefState, moves: int, attempts: list[int]) -> int | None:
        """One of ``attempts`` that wins within ``moves`` (the first, in their
        order, of those the search proved), searched as one OR over them; None
        if none does."""
        choice = ChoiceNode(belief, moves, attempts)
        proof, _ = self._search(choice, INFINITE, INFINITE)
        if proof != 0:
            return None
        proven = [child.move for child in choice.children if self._numbers(child)[0] == 0]
        return proven[0] if proven else next(m for m in attempts if self.attempt_wins(belief, m, moves))

    # --- the MID procedure -------------------------------------------------
    def _search(self, node, proof_threshold: int, disproof_threshold: int) -> tuple[int, int]:
        """Search below ``node`` until its numbers reach a threshold; its numbers then.

        The numbers each child search returns are kept for the rest of this
        loop, so that a table too small to hold them (a memory budget) slows
        the search but never makes it search the same child again for nothing."""
        self.run.tick()
        if self.still_wanted is not None:
            self.still_wanted()
        stats = self.run.stats
        started = stats.nodes - self.numbers.work(node.key)
        children = self._children(node)
        if isinstance(children, tuple):  # decided on expansion
            return children
        is_or = isinstance(node, (WhiteNode, ChoiceNode))
        asks = is_or and children[-1].move == ASK
        returned: list[tuple[int, int] | None] = [None] * len(children)
        if is_or:  # an attempt's numbers, unless kept, are those it last returned, else its initial ones
            returned = [self._numbers(child) for child in children]
        while True:
            # read inline, the search's hottest lookup (a shed replaces the dict); a kept
            # row is (proof, disproof, work), of which only the first two are read
            kept = self.numbers.items
            if is_or:
                numbers = [row if (row := kept.get(child.key)) is not None else known
                           for child, known in zip(children, returned)]
            else:  # a White node's may come from the table, which other searches fill
                numbers = [row if (row := kept.get(child.key)) is not None else self._numbers(child, known)
                           for child, known in zip(children, returned)]
            if asks and any(pair[0] < INFINITE for pair in numbers[:-1]):
                # "Any?" only once every attempt has failed, as in the depth-first
                # prover: a strategy asks the question only when it must.
                numbers[-1] = (INFINITE, numbers[-1][1])
            proof, disproof, best, second = _summary(numbers, is_or)
            self._store(node, proof, disproof, children, numbers, stats.nodes - started)
            if proof >= proof_threshold or disproof >= disproof_threshold:
                return proof, disproof
            child_proof, child_disproof = numbers[best][0], numbers[best][1]
            if is_or:
                next_proof = min(proof_threshold, _widened(second, self.epsilon))
                next_disproof = min(INFINITE, disproof_threshold - disproof + child_disproof)
            else:
                next_disproof = min(disproof_threshold, _widened(second, self.epsilon))
                next_proof = min(INFINITE, proof_threshold - proof + child_proof)
            returned[best] = self._search(children[best], next_proof, next_disproof)

    # --- numbers and the prover's table -----------------------------------
    def _numbers(self, node, searched: tuple[int, int] | None = None) -> tuple[int, int]:
        """The node's numbers: from the tables, else those its last search
        returned (``searched``), else the initial guess."""
        known = self.numbers.items.get(node.key)
        if known is not None:
            return known[0], known[1]
        if isinstance(node, WhiteNode):
            entry = self.table.entry(node.belief, node.state)
            if entry is not None and entry.proven <= node.moves:
                return 0, INFINITE
            if entry is not None and entry.disproven >= node.moves:
                return INFINITE, 0
        if searched is not None:
            return searched
        if isinstance(node, WhiteNode):
            return len(node.belief), 1  # the more positions, the harder to prove
        if isinstance(node, AttemptNode):
            # An attempt must win every position its turn holds: as hard as the turn,
            # so the first attempt expanded no longer looks dearer than all the others
            # (with 1 here every attempt of a turn was expanded before any was searched).
            return len(node.parent.belief), 1
        return 1, 1

    def _store(self, node, proof: int, disproof: int, children: list, numbers: list, work: int) -> None:
        self.numbers.put(node.key, (proof, disproof), work)
        if not isinstance(node, WhiteNode) or (proof and disproof):
            return
        entry = self.table.entry(node.belief, node.state) or Entry()
        if proof == 0:
            winner = next(child for child, pair in zip(children, numbers) if pair[0] == 0)
            if entry.proven > node.moves:
                entry.proven, entry.move = node.moves, winner.move
        else:
            entry.disproven = max(entry.disproven, node.moves)
        self.table.store(node.belief, node.state, entry, work)

    def _decided(self, node, won: bool) -> tuple[int, int]:
        """Keep and return the numbers of a node decided without searching below it."""
        numbers = (0, INFINITE) if won else (INFINITE, 0)
        self.numbers.put(node.key, numbers, 1)
        return numbers

    # --- expansion --------------------------------------------------------
    def _children(self, node) -> list | tuple[int, int]:
        """The node's children, or its numbers when it is decided at once."""
        if isinstance(node, WhiteNode):
            return self._white_children(node)
        if isinstance(node, ChoiceNode):
            return node.children
        cached = self.expansions.get(node.key)
        if cached is not None:
            self.expansions.move_to_end(node.key)
            return cached[0]
        children = self._attempt_children(node)
        if children is None:
            return self._decided(node, False)
        if not children:
            return self._decided(node, True)
        self._keep_expansion(node.key, children)
        return children

    def _keep_expansion(self, key: tuple, children: list) -> None:
        """Keep an attempt's children, dropping the least recently used past
        ``EXPANSIONS_KEPT`` or the memory plan's bytes."""
        size = sum(child.belief.positions.nbytes + CHILD_BYTES for child in children)
        self.expansions[key] = (children, size)
        self.expansion_bytes += size
        limit = self.max_expansion_bytes
        while len(self.expansions) > EXPANSIONS_KEPT or (limit is not None and self.expansion_bytes > limit
                                                         and len(self.expansions) > 1):
            _, (_, dropped) = self.expansions.popitem(last=False)
            self.expansion_bytes -= dropped

    def _shed(self) -> bool:
        """Under memory pressure: drop the cheapest proof numbers and half the expansions."""
        dropped = self.numbers.shed()
        for _ in range(len(self.expansions) // 2):
            _, (_, size) = self.expansions.popitem(last=False)
            self.expansion_bytes -= size
            dropped = True
        return dropped

    def _white_children(self, node: WhiteNode) -> list | tuple[int, int]:
        prover = self.prover
        entry = self.table.entry(node.belief, node.state)  # first: it may know more than the numbers kept
        if entry is not None and (entry.proven <= node.moves or entry.disproven >= node.moves):
            return self._decided(node, entry.proven <= node.moves)
        known = self._numbers(node)
        if 0 in known:
            return known
        reused = prover.engine_result(node.belief, node.moves, node.state)
        if reused is not None:
            return self._decided(node, reused)
        if node.moves <= self.exact_moves:
            return self._decided(node, prover.wins(node.belief, node.moves, node.state))
        reused = prover.reused_result(node.belief, node.moves, node.state)
        if reused is None:
            reused = prover.deep_bound_result(node.belief, node.moves, node.state)
        if reused is not None:
            return self._decided(node, reused)
        probes = prover.probe_sets(node.belief, node.state)
        if probes:  # probing is never worse than not probing: a fresh turn only probes
            return [AttemptNode(node, probe_move(mask)) for mask in probes]
        children = [AttemptNode(node, move) for move in prover.ordered(prover.candidates(node.belief, node.state))]
        if prover.rules.can_ask(node.state):
            children.append(AttemptNode(node, ASK))
        if not children:
            return self._decided(node, False)
        return children

    def _attempt_children(self, node: AttemptNode) -> list[WhiteNode] | None:
        """The White nodes the attempt leads to ([] : won at once; None: lost),
        smallest belief first.

        Every child starts with disproof number 1, so the order decides which
        one the search expands first: a small belief (one position after a
        capture White can place, a few after a check) is often decided on
        expansion, by the orthodox bounds, and when it refutes the attempt the
        large classes are never searched.  The depth-first prover's order,
        largest first (``Prover.next_turns``), suits it, which must settle one
        child completely before the next (both orders measured:
        ``docs/research/long-problems.md``)."""
        prover, parent = self.prover, node.parent
        if node.move == ASK:
            return [WhiteNode(part, parent.moves, answer) for answer, part in prover.any_classes(parent.belief)
                    if len(part)]
        if probe_mask(node.move):
            mask = probe_mask(node.move)
            if parent.state != FRESH or bin(mask).count("1") > prover.rules.probes:
                return None  # as the depth-first prover: no probe here, or too many squares
            return [WhiteNode(part, parent.moves, PROBED) for _, part in prover.probe_classes(parent.belief, mask)]
        turns = prover.next_turns(parent.belief, node.move, parent.moves, parent.state)
        if turns is None:
            return None
        replied, refused, after_refusal = turns
        children = ([WhiteNode(part, parent.moves - 1) for part in replied]
                    + [WhiteNode(part, parent.moves, after_refusal) for part in refused])
        children.sort(key=lambda child: len(child.belief))
        return children


def _summary(numbers: list[tuple[int, ...]], is_or: bool) -> tuple[int, int, int, int]:
    """A node's numbers from its children's, with the child to search and the
    second least value, in one pass: ``(proof, disproof, best, second)``.

    OR: proof = min, disproof = sum, best = the least proof number; AND: proof
    = sum, disproof = min, best = the least disproof number (the first of equal
    ones); sums stop at ``INFINITE``.

    >>> _summary([(3, 1), (2, 5), (2, 1)], True), _summary([(3, 1), (2, 5), (2, 1)], False)
    ((2, 7, 1, 2), (7, 1, 0, 1))
    """
    least = second = INFINITE
    best = total = 0
    for index, pair in enumerate(numbers):  # a pair, or a kept (proof, disproof, work)
        proof, disproof = pair[0], pair[1]
        value, other = (proof, disproof) if is_or else (disproof, proof)
        total += other
        if value < least:
            least, second, best = value, least, index
        elif value < second:
            second = value
    total = min(INFINITE, total)
    return (least, total, best, second) if is_or else (total, least, best, second)


EPSILON = 0.25
"""The 1 + epsilon trick (Pawlewicz and Lew 2007): a child is searched until its
number passes the second best sibling's by this share, not by one, so the
search switches between siblings less often and re-expands less."""


def _widened(second: int, epsilon: float = EPSILON) -> int:
    """The threshold past ``second``, the second best sibling's number, for the best child.

    >>> _widened(8), _widened(8, 0.5), _widened(INFINITE) == INFINITE
    (11, 13, True)
    """
    return int(second * (1 + epsilon)) + 1 if second < INFINITE else INFINITE
