"""Bounded memory: the result tables' replacement policy, the memory plan and
guard, and the search's answers within a budget (the same as without one)."""

from __future__ import annotations

import numpy as np
import pytest

import ksolve
import ksolve.resources
from ksolve.problem import load_problem
from ksolve.rules import get_rules
from ksolve.search import memory
from ksolve.search.memory import BudgetTooSmall, MemoryGuard, MemoryPlan
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import Prover, SearchAborted
from ksolve.search.table import ResultTable, WorkCache
from test_solver_vs_bruteforce import certify_solved, generate_problems

TINY = MemoryPlan(budget=None, orthodox_slots=1 << 16, table_entries=6, expansion_bytes=8_000)
"""Tables so small that every search of a few hundred nodes sheds entries."""


def test_a_full_cache_keeps_the_entries_that_cost_most_work() -> None:
    cache = WorkCache(capacity=8)
    for index in range(8):
        cache.put(index, str(index), work=index * 10)
    cache.put("new", "x", work=1)
    assert sorted(key for key in cache.items if key != "new") == [4, 5, 6, 7]
    assert cache.get("new") == "x" and cache.get(0) is None and cache.dropped == 4


def test_shedding_an_empty_or_uniform_table() -> None:
    assert not WorkCache().shed()
    cache = WorkCache()
    for index in range(4):
        cache.put(index, index, work=1)
    assert cache.shed() and len(cache) == 0  # the cheapest are all alike: all go


def test_the_plan_fits_the_budget() -> None:
    plan = MemoryPlan.for_budget(300 << 20, in_use=150 << 20)
    free = 150 << 20
    assert plan.orthodox_slots * memory.ORTHODOX_SLOT_BYTES <= free * memory.ORTHODOX_SHARE
    assert plan.table_entries * memory.ENTRY_BYTES + plan.expansion_bytes <= free * 0.6
    with pytest.raises(BudgetTooSmall, match="^memory budget: 100 MB is less than ksolve needs"):
        MemoryPlan.for_budget(100 << 20, in_use=120 << 20)


def test_the_guard_sheds_before_it_gives_up() -> None:
    table = ResultTable()
    for index in range(10):
        table.white.put((index, 1, 0), None, work=index)
    guard = MemoryGuard(budget=100, read=lambda: 200)
    guard.add(table.shed)
    reasons = [guard.check() for _ in range(6)]
    assert reasons[0] is None and guard.shed_count >= 1
    assert reasons[-1] == "memory budget 0 MB reached"
    assert MemoryGuard(budget=None, read=lambda: 1 << 40).check() is None


PROBLEMS = {"dfs": 100, "pn": 60}
"""The proof-number search re-searches more when its numbers are dropped."""


@pytest.mark.parametrize("search", ["dfs", "pn"])
def test_tiny_tables_give_the_same_verdicts(search: str) -> None:
    """Random problems (as in the brute-force test) with tables of six entries:
    entries are dropped all the time, and every verdict stays."""
    dropped = 0
    for problem, belief in generate_problems()[:PROBLEMS[search]]:
        rules = get_rules(problem.rules)
        expected = Prover(rules).wins(belief, problem.moves)
        bounded = Prover(rules, memory=TINY)
        searcher = bounded if search == "dfs" else ProofNumberSearch(bounded, exact_moves=1)
        assert searcher.wins(belief, problem.moves) == expected, problem.fen
        dropped += bounded.table.dropped + (searcher.numbers.dropped if search == "pn" else 0)
    assert dropped > 30


def test_strategies_read_from_tiny_tables_are_certified(tmp_path, monkeypatch) -> None:
    """A strategy whose proofs were partly dropped is searched again where
    needed while it is read back, and the checker accepts it."""
    monkeypatch.setattr(MemoryPlan, "unbounded", classmethod(lambda cls: TINY))
    checked = certify_solved(tmp_path, [problem for problem, _ in generate_problems()[:120]])
    assert checked >= 20


@pytest.mark.slow
def test_rotenberg_within_a_small_budget_keeps_its_answer(monkeypatch) -> None:
    """Rotenberg 1976 with a quarter of the table entries and expanded beliefs
    it fills unbounded (2,940 proofs, 13,772 proof numbers, 27 MB of beliefs)
    and a 32nd of the orthodox table: the same mate in 8 by 1.Rg2."""
    problem = load_problem("problems/rotenberg-1976.toml")
    monkeypatch.setattr(MemoryPlan, "unbounded", classmethod(
        lambda cls: MemoryPlan(None, 1 << 18, table_entries=4_200, expansion_bytes=7_000_000)))
    result = ksolve.solve(problem, at_most=True)
    assert result.status == "solved" and result.moves == 8 and result.key == "a2g2"


def test_a_search_over_its_budget_is_unknown_not_killed(monkeypatch) -> None:
    """When the process stays over the budget whatever the tables drop, the
    search stops with "unknown" and says why."""
    problem = load_problem("problems/rotenberg-1976.toml")
    sizes = iter([100 << 20] * 2)  # the check before the search and the plan see 100 MB; then it is "huge"
    monkeypatch.setattr(memory, "resident_bytes", lambda: next(sizes, 64 << 30))
    result = ksolve.solve(problem, limits=ksolve.Limits(memory=1 << 30))
    assert result.status == "unknown"
    assert "memory budget 1,024 MB reached" in result.reason


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_budget_below_the_process_size_is_one_line(jobs: str) -> None:
    """Refused as the option is read, before the problem: the budget named as asked."""
    from click.testing import CliRunner

    from ksolve.cli import main

    out = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml", "--max-memory", "20M", "--jobs", jobs])
    assert out.exit_code == 2, out.output
    assert out.output.count("ksolve: error:") == 1 and "Traceback" not in out.output
    assert "--max-memory: 20M is less than ksolve holds before doing anything (" in out.output


def test_a_search_step_over_the_budget_is_refused_before_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """One step of a search holds an attempt's children and Black's replies to
    each at once: a belief whose step the budget cannot hold is refused before
    the search begins, naming the default when no --max-memory was given."""
    from click.testing import CliRunner

    import ksolve.resources
    from ksolve.cli import main
    from ksolve.search.memory import resident_bytes

    monkeypatch.setattr(ksolve.resources, "default_memory_budget", lambda: resident_bytes() + (8 << 20))
    out = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml", "--jobs", "1"])
    assert out.exit_code == 2, out.output
    line = out.stderr.strip().splitlines()[-1]
    assert line.startswith("ksolve: error: --max-memory (not given: by default half of the memory): ")
    assert "is less than the search needs: one step over the 30 positions of the belief holds ~" in line


def test_workers_are_as_many_as_the_budget_holds() -> None:
    from ksolve.search.memory import fitting_processes

    empty = np.zeros((0, 18), dtype=np.uint64)
    assert fitting_processes(empty, False, 4 << 30, 4, in_use=100 << 20) == 4
    assert fitting_processes(empty, False, 300 << 20, 4, in_use=100 << 20) == 1
    with pytest.raises(BudgetTooSmall, match="^memory budget: "):
        fitting_processes(empty, False, 110 << 20, 2, in_use=100 << 20)


def test_a_step_is_estimated_from_black_replies() -> None:
    """Bare kings and a hidden queen: each position's attempt leaves Black ~20 replies."""
    from ksolve.belief import BeliefState
    from ksolve.resources import ROW_BYTES
    from ksolve.search.memory import step_bytes

    belief = BeliefState.from_hidden("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ["q:any"])
    size, replies = step_bytes(belief.positions)
    assert 15 < replies < 30 and size == int(len(belief) * (1 + replies) * ROW_BYTES)


def test_prover_over_budget_raises_search_aborted() -> None:
    problem = load_problem("problems/rotenberg-1976.toml")
    prover = Prover(problem.rules, ksolve.Limits(memory=64 << 30))
    prover.run.guard.read = lambda: 128 << 30
    with pytest.raises(SearchAborted, match="memory budget"):
        prover.solve(problem.belief(), 8)


def test_a_strategy_read_back_past_the_budget_stays_solved(monkeypatch, tmp_path) -> None:
    """Reading the strategy back searches again where the tables dropped
    entries; past the budget then, the problem stays solved without its
    tree, says why, and ``--certificate`` says that none was written (no traceback)."""
    from click.testing import CliRunner

    from ksolve import solver
    from ksolve.cli import main

    reading: list[bool] = []
    monkeypatch.setattr(memory, "resident_bytes", lambda: (64 << 30) if reading else (100 << 20))
    read_tree = solver._tree

    def reading_over_budget(*args, **kwargs):
        reading.append(True)
        return read_tree(*args, **kwargs)

    monkeypatch.setattr(solver, "_tree", reading_over_budget)
    result = ksolve.solve(load_problem("problems/rotenberg-1976.toml"), at_most=True,
                          limits=ksolve.Limits(memory=1 << 30))
    assert (result.status, result.moves, result.tree) == ("solved", 8, None)
    assert result.reason.startswith("the strategy was not read back: memory budget 1,024 MB reached")
    reading.clear()
    monkeypatch.setattr(ksolve.resources, "resident_bytes", lambda: 100 << 20)  # the budget's check before the work
    certificate = tmp_path / "c.json"
    out = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml", "--at-most", "--max-memory", "1G",
                                    "--certificate", str(certificate)])
    assert out.exit_code == 0 and "Traceback" not in out.output, out.output
    assert "White mates in at most 8" in out.output and "The strategy is not shown" in out.output
    assert f"ksolve: no certificate written to {certificate}" in out.output and not certificate.exists()


def test_a_workers_memory_stop_names_the_budget_asked_for() -> None:
    from ksolve.search.run import Limits, SearchRun

    run = SearchRun(Limits(memory=200 << 20).share(2))
    run.guard.read = lambda: 300 << 20
    assert run.guard.check() == "memory budget 200 MB (a worker's share: 100 MB) reached"
    alone = SearchRun(Limits(memory=200 << 20))
    alone.guard.read = lambda: 300 << 20
    assert alone.guard.check() == "memory budget 200 MB reached"
