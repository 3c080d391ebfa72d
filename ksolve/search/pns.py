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
the strategy from it as after a depth-first proof.

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

from ksolve.belief import BeliefState
from ksolve.rules.base import FRESH
from ksolve.search.prover import ASK, Prover

INFINITE = 1 << 40
EXPANSIONS_KEPT = 20_000
"""Expanded attempts whose children are kept (least recently used dropped)."""


class WhiteNode:
    """White to move: OR over attempts (and the "Any?" question)."""

    __slots__ = ("belief", "moves", "state", "key")

    def __init__(self, belief: BeliefState, moves: int, state: int = FRESH) -> None:
        self.belief, self.moves, self.state = belief, moves, state
        self.key = ("W", belief.key, len(belief), moves, state)


class AttemptNode:
    """White tries ``move`` (or asks "Any?": ``ASK``): AND over every answer
    and every class of Black's replies."""

    __slots__ = ("parent", "move", "key")

    def __init__(self, parent: WhiteNode, move: int) -> None:
        self.parent, self.move = parent, move
        self.key = ("A", *parent.key[1:], move)


class ProofNumberSearch:
    """df-pn on top of a ``Prover`` (its rules, result table and search run)."""

    def __init__(self, prover: Prover, exact_moves: int | None = None) -> None:
        self.prover = prover
        self.table = prover.table
        self.run = prover.run
        self.exact_moves = prover.viable_depth if exact_moves is None else exact_moves
        """White nodes with this many moves left or fewer are decided by the
        depth-first prover (where its viability filter works)."""
        self.numbers: dict[tuple, tuple[int, int]] = {}
        self.expansions: OrderedDict[tuple, list] = OrderedDict()

    def wins(self, belief: BeliefState, moves: int, state: int = FRESH) -> bool:
        """Whether White wins ``belief`` within ``moves`` (same answer as the
        depth-first prover; the proof's attempts are in the prover's table)."""
        root = WhiteNode(belief, moves, state)
        self._search(root, INFINITE, INFINITE)
        proof, _ = self._numbers(root)
        return proof == 0

    def attempt_wins(self, belief: BeliefState, move: int, moves: int, state: int = FRESH) -> bool:
        """Whether trying ``move`` first (``ASK``: asking "Any?") wins within ``moves``."""
        root = AttemptNode(WhiteNode(belief, moves, state), move)
        self._search(root, INFINITE, INFINITE)
        proof, _ = self._numbers(root)
        return proof == 0

    # --- the MID procedure -------------------------------------------------
    def _search(self, node, proof_threshold: int, disproof_threshold: int) -> None:
        self.run.tick()
        children = self._children(node)
        if children is None:  # decided on expansion
            return
        is_or = isinstance(node, WhiteNode)
        asks = is_or and children[-1].move == ASK
        while True:
            numbers = [self._numbers(child) for child in children]
            if asks and any(p < INFINITE for p, _ in numbers[:-1]):
                # "Any?" only once every attempt has failed, as in the depth-first
                # prover: a strategy asks the question only when it must.
                numbers[-1] = (INFINITE, numbers[-1][1])
            proof, disproof = _combine(numbers, is_or)
            self._store(node, proof, disproof, children, numbers)
            if proof >= proof_threshold or disproof >= disproof_threshold:
                return
            best, second = _best_two(numbers, is_or)
            child_proof, child_disproof = numbers[best]
            if is_or:
                next_proof = min(proof_threshold, second + 1)
                next_disproof = min(INFINITE, disproof_threshold - disproof + child_disproof)
            else:
                next_disproof = min(disproof_threshold, second + 1)
                next_proof = min(INFINITE, proof_threshold - proof + child_proof)
            self._search(children[best], next_proof, next_disproof)

    # --- numbers and the prover's table -----------------------------------
    def _numbers(self, node) -> tuple[int, int]:
        known = self.numbers.get(node.key)
        if known is not None:
            return known
        if isinstance(node, WhiteNode):
            entry = self.table.entry(node.belief, node.state)
            if entry is not None and entry.proven <= node.moves:
                return 0, INFINITE
            if entry is not None and entry.disproven >= node.moves:
                return INFINITE, 0
        if isinstance(node, WhiteNode):
            return len(node.belief), 1  # the more positions, the harder to prove
        return 1, 1

    def _store(self, node, proof: int, disproof: int, children: list, numbers: list) -> None:
        self.numbers[node.key] = (proof, disproof)
        if not isinstance(node, WhiteNode) or (proof and disproof):
            return
        entry = self.table.slot(node.belief, node.state)
        if proof == 0:
            winner = next(child for child, (p, _) in zip(children, numbers) if p == 0)
            if entry.proven > node.moves:
                entry.proven, entry.move = node.moves, winner.move
        else:
            entry.disproven = max(entry.disproven, node.moves)

    # --- expansion --------------------------------------------------------
    def _children(self, node) -> list | None:
        """The node's children, or None when it is decided at once (its numbers stored)."""
        if isinstance(node, WhiteNode):
            return self._white_children(node)
        cached = self.expansions.get(node.key)
        if cached is not None:
            self.expansions.move_to_end(node.key)
            return cached
        children = self._attempt_children(node)
        if children is None:
            self.numbers[node.key] = (INFINITE, 0)
            return None
        if not children:
            self.numbers[node.key] = (0, INFINITE)
            return None
        self.expansions[node.key] = children
        if len(self.expansions) > EXPANSIONS_KEPT:
            self.expansions.popitem(last=False)
        return children

    def _white_children(self, node: WhiteNode) -> list | None:
        prover = self.prover
        known = self._numbers(node)
        if 0 in known:
            self.numbers[node.key] = known
            return None
        if node.moves <= self.exact_moves:
            won = prover.wins(node.belief, node.moves, node.state)
            self.numbers[node.key] = (0, INFINITE) if won else (INFINITE, 0)
            return None
        children = [AttemptNode(node, move) for move in prover.ordered(prover.candidates(node.belief, node.state))]
        if prover.rules.can_ask(node.state):
            children.append(AttemptNode(node, ASK))
        if not children:
            self.numbers[node.key] = (INFINITE, 0)
            return None
        return children

    def _attempt_children(self, node: AttemptNode) -> list[WhiteNode] | None:
        """The White nodes the attempt leads to ([] : won at once; None: lost)."""
        prover, parent = self.prover, node.parent
        if node.move == ASK:
            return [WhiteNode(part, parent.moves, answer) for answer, part in prover.any_classes(parent.belief)
                    if len(part)]
        outcome = prover.attempt_outcome(parent.belief, node.move, parent.moves, parent.state)
        if outcome is None:
            return None
        going_on, refused, after_refusal = outcome
        children = []
        for part in going_on:
            classes = prover.reply_classes(part)
            if classes is None:
                return None
            children.extend(WhiteNode(reply_class, parent.moves - 1) for reply_class in classes)
        children.extend(WhiteNode(part, parent.moves, after_refusal) for part in refused)
        return children


def _combine(numbers: list[tuple[int, int]], is_or: bool) -> tuple[int, int]:
    """OR: proof = min, disproof = sum; AND: proof = sum, disproof = min."""
    proofs = [p for p, _ in numbers]
    disproofs = [d for _, d in numbers]
    if is_or:
        return min(proofs), min(INFINITE, sum(disproofs))
    return min(INFINITE, sum(proofs)), min(disproofs)


def _best_two(numbers: list[tuple[int, int]], is_or: bool) -> tuple[int, int]:
    """The child to search (OR: least proof number; AND: least disproof
    number) and the second least value."""
    values = [p if is_or else d for p, d in numbers]
    best = min(range(len(values)), key=values.__getitem__)
    second = min((v for i, v in enumerate(values) if i != best), default=INFINITE)
    return best, second
