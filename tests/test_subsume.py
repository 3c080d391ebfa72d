"""Proofs and disproofs reused between beliefs that contain one another (``search.subsume``)."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from ksolve.belief import BeliefState
from ksolve.rules import get_rules
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import Prover
from ksolve.search.subsume import PER_GROUP, SET_LIMIT, Hashes, Subsumption
from ksolve.search.table import Entry
from test_solver_vs_bruteforce import generate_problems

ROTENBERG = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"


@pytest.fixture(scope="module")
def rotenberg() -> BeliefState:
    return BeliefState.from_hidden(ROTENBERG, ["b:dark"])


def test_a_proof_covers_subsets_and_a_disproof_supersets_only(rotenberg: BeliefState) -> None:
    index = Subsumption()
    half, rest = BeliefState(rotenberg.positions[:15]), BeliefState(rotenberg.positions[15:])
    index.note(half, 0, Entry(proven=5, move=7))
    assert index.lookup(BeliefState(rotenberg.positions[:3]), 0, 5).move == 7
    assert index.lookup(BeliefState(rotenberg.positions[:3]), 0, 6).proven == 5  # more moves: still won
    assert index.lookup(BeliefState(rotenberg.positions[:3]), 0, 4) is None  # fewer: not known
    assert index.lookup(rotenberg, 0, 5) is None  # a superset of a proven belief is not proven
    assert index.lookup(rest, 0, 5) is None
    assert index.lookup(BeliefState(rotenberg.positions[:3]), 1, 5) is None  # another "Any?" state
    index.note(BeliefState(rotenberg.positions[20:22]), 0, Entry(disproven=6))
    assert index.lookup(rest, 0, 6).disproven == 6
    assert index.lookup(rest, 0, 5).disproven == 6  # fewer moves: lost too
    assert index.lookup(rest, 0, 7) is None
    assert index.lookup(BeliefState(rotenberg.positions[10:21]), 0, 6) is None  # one lost position of two
    assert index.hits == 4


def test_later_results_of_an_indexed_entry_show(rotenberg: BeliefState) -> None:
    index = Subsumption()
    entry = Entry(disproven=2)
    index.note(rotenberg, 0, entry)
    assert index.lookup(BeliefState(rotenberg.positions[:4]), 0, 9) is None
    entry.proven, entry.move = 9, 11  # the table's entry is shared: the proof found later is reused
    assert index.lookup(BeliefState(rotenberg.positions[:4]), 0, 9).move == 11


def test_the_index_stays_within_its_bounds(rotenberg: BeliefState) -> None:
    index = Subsumption(capacity=40)
    for start in range(len(rotenberg) - 1):
        index.note(BeliefState(rotenberg.positions[start:start + 2]), 0, Entry(disproven=1))
    assert len(index) == PER_GROUP  # one group: its most recent beliefs
    for state in range(1, 6):
        for start in range(20):
            index.note(BeliefState(rotenberg.positions[start:start + 1]), state, Entry(disproven=1))
    assert len(index) <= 40 + PER_GROUP and index.shed()


def rotenberg_frames(count: int, seed: int = 13) -> list[BeliefState]:
    """Rotenberg's frame (Kf1 against Kh1 and Ph2, a bishop hidden on the dark
    squares) with White's rook, knight and bishop on random squares: beliefs
    of about thirty positions, where "No" answers and move orders give beliefs
    that contain one another."""
    rng = random.Random(seed)
    beliefs = []
    while len(beliefs) < count:
        board = chess.Board("8/8/8/8/8/8/7p/5K1k w - - 0 1")
        for piece in (chess.ROOK, chess.KNIGHT, chess.BISHOP):
            board.set_piece_at(rng.choice([s for s in chess.SQUARES if not board.piece_at(s)]),
                               chess.Piece(piece, chess.WHITE))
        if board.is_valid() and not board.is_check():
            beliefs.append(BeliefState.from_hidden(board.fen(), ["b:dark"]))
    return beliefs


@pytest.mark.parametrize("search", ["dfs", "pn"])
def test_reuse_never_changes_a_verdict(search: str) -> None:
    """Random Rotenberg-like problems and the brute-force test's random
    problems: the same verdicts with reuse as without, and reuse answers
    lookups (many in the proof-number search, where the depth-first prover's
    orthodox bounds do not decide first)."""
    berkeley = get_rules("berkeley")
    cases = [(belief, berkeley, moves) for belief in rotenberg_frames(8) for moves in (4, 5)]
    cases += [(belief, get_rules(problem.rules), problem.moves) for problem, belief in generate_problems()[:60]]
    hits = 0
    for belief, rules, moves in cases:
        verdicts = []
        for reuse in (False, True):
            prover = Prover(rules)
            prover.reuse = reuse
            prover.deep_bound_positions = 0  # reuse alone (the deeper bound answers some lookups first)
            searcher = prover if search == "dfs" else ProofNumberSearch(prover, exact_moves=2)
            verdicts.append(searcher.wins(belief, moves))
            hits += prover.table.subsumption.hits if reuse else 0
        assert verdicts[0] == verdicts[1], belief.positions[0]
    assert hits > (200 if search == "pn" else 0)


@pytest.mark.slow
def test_reuse_in_rotenberg_keeps_the_key_and_saves_nodes(rotenberg: BeliefState) -> None:
    nodes = []
    for reuse in (False, True):
        prover = Prover(get_rules("berkeley"))
        prover.reuse = reuse
        search = ProofNumberSearch(prover)
        assert search.wins(rotenberg, 8) and not search.wins(rotenberg, 7)
        assert prover.winning_move(rotenberg, 8)[0] == prover.entry(rotenberg).move
        nodes.append(prover.stats.nodes)
        if reuse:
            assert prover.table.subsumption.hits > 100
    assert nodes[1] < nodes[0]


def _belief_of(hashes: np.ndarray) -> BeliefState:
    """A belief of positions alike but for their hashes (one group of the index)."""
    from ksolve.board.layout import COLUMN_HASH, POSITION_WIDTH

    rows = np.zeros((len(hashes), POSITION_WIDTH), dtype=np.uint64)
    rows[:, COLUMN_HASH] = np.sort(hashes)
    return BeliefState(rows)


@pytest.mark.parametrize("size", [3, SET_LIMIT, SET_LIMIT + 1, 5_000, 200_000])
def test_containment_agrees_with_python_sets(size: int) -> None:
    """``Hashes.within`` (sets while small, sorted search with a sample first
    when large) against Python's set inclusion, on subsets, supersets, one
    position changed and unrelated beliefs, small and large mixed."""
    rng = np.random.default_rng(size)
    pool = np.unique(rng.integers(1, 2**63, size=3 * size + 10, dtype=np.uint64))
    whole = pool[:size]
    cases = [whole[: max(1, size // 2)], whole[1:], np.append(whole, pool[-1]), whole[rng.permutation(size)[:3]],
             np.append(whole[:-1], pool[-2]), pool[size:2 * size], pool[:1]]
    indexed = Hashes.of(np.sort(whole))
    for other in cases:
        other = Hashes.of(np.sort(np.unique(other)))
        assert other.within(indexed) == (set(other.array.tolist()) <= set(whole.tolist()))
        assert indexed.within(other) == (set(whole.tolist()) <= set(other.array.tolist()))


def test_a_million_positions_are_indexed_and_found() -> None:
    """What took minutes with bit masks built position by position
    (``benchmarks/bench_subsume.py`` times it): a proof of a belief of a
    million positions covers a subset, its disproof a superset."""
    rng = np.random.default_rng(7)
    pool = np.unique(rng.integers(1, 2**63, size=2_000_010, dtype=np.uint64))
    whole = pool[:1_000_000]
    index = Subsumption()
    index.note(_belief_of(whole), 0, Entry(proven=3, disproven=2, move=9))
    assert index.lookup(_belief_of(whole[:-1]), 0, 3).move == 9
    assert index.lookup(_belief_of(np.append(whole, pool[-1])), 0, 2).disproven == 2
    assert index.lookup(_belief_of(pool[1_000_000:2_000_000]), 0, 2) is None
    assert index.lookup(_belief_of(np.append(whole[1:], pool[-1])), 0, 3) is None  # one position not covered
