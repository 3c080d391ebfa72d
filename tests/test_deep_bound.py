"""The deeper orthodox bound (``Prover.deep_bound_result``): a one-position
belief with no orthodox win in the moves left is lost, at any depth.

Checked against the brute force on the random problems (with the ordinary
bounds cut to one move, so that the deeper one decides from two moves up),
and against the search without it on random Rotenberg-like frames, where the
proof-number search reaches one-position beliefs beyond the ordinary bounds.
"""

from __future__ import annotations

import pytest

from bruteforce import BruteForce
from ksolve.rules import get_rules
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import Prover
from test_solver_vs_bruteforce import _reference_belief, generate_problems
from test_subsume import rotenberg_frames


@pytest.mark.slow
@pytest.mark.parametrize("search", ["dfs", "pn"])
def test_deep_bound_agrees_with_bruteforce(search: str) -> None:
    cuts = 0
    for problem, belief in generate_problems()[:80]:
        fewest = BruteForce(problem.rules).solve(_reference_belief(problem, belief), problem.moves)
        prover = Prover(get_rules(problem.rules))
        prover.orthodox_depth, prover.viable_depth = 1, 1
        searcher = prover if search == "dfs" else ProofNumberSearch(prover, exact_moves=1)
        assert searcher.wins(belief, problem.moves) == (fewest is not None), str(problem)
        cuts += prover.stats.bound_cuts
    assert cuts > 0


def test_deep_bound_never_changes_a_verdict_and_cuts_nodes() -> None:
    berkeley = get_rules("berkeley")
    nodes = {0: 0, 1: 0}
    for belief in rotenberg_frames(8):
        for moves in (4, 5):
            verdicts = []
            for positions in (0, 1):
                prover = Prover(berkeley)
                prover.deep_bound_positions = positions
                verdicts.append(ProofNumberSearch(prover, exact_moves=2).wins(belief, moves))
                nodes[positions] += prover.stats.nodes
            assert verdicts[0] == verdicts[1], belief.positions[0]
    assert nodes[1] < nodes[0]
