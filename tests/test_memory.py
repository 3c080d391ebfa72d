"""Bounded memory: the result tables' replacement policy, the memory plan and
guard, and the search's answers within a budget (the same as without one)."""

from __future__ import annotations

import pytest

import ksolve
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
    with pytest.raises(BudgetTooSmall, match="--max-memory: 100 MB is less than ksolve needs"):
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
    sizes = iter([100 << 20])  # the plan sees 100 MB in use; then the process is "huge"
    monkeypatch.setattr(memory, "resident_bytes", lambda: next(sizes, 64 << 30))
    result = ksolve.solve(problem, limits=ksolve.Limits(memory=1 << 30))
    assert result.status == "unknown"
    assert "memory budget 1,024 MB reached" in result.reason


@pytest.mark.parametrize("jobs, needs", [("1", "ksolve needs to search: it holds"),
                                         ("2", "2 worker processes need to search: each holds")])
def test_a_budget_below_the_process_size_is_one_line(jobs: str, needs: str) -> None:
    """The budget named is the one asked for, also when workers share it."""
    from click.testing import CliRunner

    from ksolve.cli import main

    out = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml", "--max-memory", "20M", "--jobs", jobs])
    assert out.exit_code == 2, out.output
    assert out.output.count("ksolve: error:") == 1 and "Traceback" not in out.output
    assert f"--max-memory: 20 MB is less than {needs}" in out.output


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
