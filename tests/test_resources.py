"""Resources: a belief too large for the memory budget fails at once with one
line, enumeration tells its progress, compiling kernels is said and not
counted as search time, and the halfmove clock a belief merges never decides
a move-limit draw."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner
from numba import njit

import ksolve.api
import ksolve.compilation
import ksolve.hidden
from ksolve.analysis import Analysis
from ksolve.cli import main
from ksolve.hidden import enumerate_placements, parse_hidden_unit
from ksolve.problem import ProblemError, load_problem_text
from ksolve.resources import (
    BYTES_PER_POSITION, OverMemoryBudget, Resources, default_memory_budget, parse_memory, physical_memory,
)
from ksolve.search.run import Stats

BARE_KINGS = "8/8/8/8/8/8/8/K6k w - - 0 1"
COMPILING = ("ksolve: compiling kernels", "ksolve: still compiling kernels")  # a fresh process's first run
FOUR_PIECES = ["q:any", "r:any", "b:any", "n:any"]
"""13.3 M positions: some 6 GB to build and search."""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_an_oversized_belief_fails_before_the_work_with_one_line(tmp_path: Path) -> None:
    """In a process of its own, as a user runs it (a test worker may hold more than the budget already)."""
    problem = tmp_path / "huge.toml"
    problem.write_text(f'stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "{BARE_KINGS}"\n'
                       f"hidden = {FOUR_PIECES!r}\n".replace("'", '"'))
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", "from ksolve.cli import main; main()", "solve", str(problem),
                             "--max-memory", "1G"], capture_output=True, text=True, timeout=600)
    assert time.perf_counter() - started < 60  # estimated from a sample, not enumerated (a cold cache compiles)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if not line.startswith(COMPILING)]
    assert len(lines) == 1
    assert lines[0].startswith(f"ksolve: error: {problem}: position.hidden: the belief would need ~13,")
    assert lines[0].endswith("positions (5.4 GB), over the memory budget of 1.0 GB (--max-memory)")


def test_the_belief_command_obeys_the_budget_too() -> None:
    """In a process of its own, as a user runs it: a test process may already hold more than the
    budget, which the command refuses first as a budget it cannot keep."""
    result = subprocess.run([sys.executable, "-c", "from ksolve.cli import main; main()", "belief", "--fen",
                             BARE_KINGS, *(f"--hidden={unit}" for unit in FOUR_PIECES), "--max-memory", "512M"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 2
    assert "over the memory budget of 0.5 GB (--max-memory)" in result.stderr


def test_max_memory_must_be_a_size() -> None:
    result = run("solve", "problems/rotenberg-1976.toml", "--max-memory", "lots")
    assert result.exit_code == 2
    assert result.stderr == "ksolve: error: --max-memory: 'lots' is not a size such as 4G, 512M or 1.5G\n"


@pytest.mark.parametrize("text,size", [("4G", 4 << 30), ("512M", 512 << 20), ("1.5gb", 3 << 29), ("64k", 64 << 10),
                                       ("1000", 1000), ("2 GiB", 2 << 30)])
def test_sizes(text: str, size: int) -> None:
    assert parse_memory(text) == size


def test_the_default_budget_is_half_the_machine() -> None:
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        total = int(meminfo.readline().split()[1]) * 1024
    assert physical_memory() == pytest.approx(total, rel=0.01)
    assert default_memory_budget() == pytest.approx(total / 2, rel=0.01)
    assert Resources().max_positions == default_memory_budget() // BYTES_PER_POSITION


def test_enumeration_reports_its_progress_batch_by_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ksolve.hidden, "PLACEMENTS_PER_CALL", 10_000)
    heard = []
    rows = enumerate_placements(chess.Board(BARE_KINGS), [parse_hidden_unit(u) for u in FOUR_PIECES[:3]],
                                resources=Resources(progress=lambda *counts: heard.append(counts))).rows
    total = 62 * 62 * 62
    assert len(heard) == -(-total // 10_000)
    assert [tried for tried, _, _ in heard] == sorted(tried for tried, _, _ in heard)
    assert heard[-1][:2] == (total, total) and heard[-1][2] >= len(rows) == 226_332


def test_enumeration_stops_as_soon_as_the_budget_is_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even when the sample misjudges the size, the count stops the work."""
    monkeypatch.setattr(ksolve.hidden, "PLACEMENTS_PER_CALL", 10_000)
    monkeypatch.setattr(ksolve.hidden, "_estimated_positions", lambda *args: 0)
    heard = []
    budget = Resources(memory=50_000 * BYTES_PER_POSITION, progress=lambda *counts: heard.append(counts))
    with pytest.raises(OverMemoryBudget, match=r"would need ~2\d\d,\d\d\d positions"):
        enumerate_placements(chess.Board(BARE_KINGS), [parse_hidden_unit(u) for u in FOUR_PIECES[:3]],
                             resources=budget)
    assert len(heard) == 6  # 50,000 positions passed in the sixth batch of 10,000 placements, of 24


def test_the_cli_prints_enumeration_progress_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ksolve.hidden, "PLACEMENTS_PER_CALL", 20_000)
    clock = iter(range(1000))
    monkeypatch.setattr(ksolve.compilation, "work_clock", lambda: 0.6 * next(clock))  # 0.6 s a batch
    result = run("belief", "--fen", BARE_KINGS, *(f"--hidden={unit}" for unit in FOUR_PIECES[:3]))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("ksolve: belief:")]
    assert 4 <= len(lines) <= 7  # 12 batches, 7.2 s: a line a second at most
    assert lines[0].startswith("ksolve: belief: 40,000 of 238,328 placements tried (17%), ")
    assert lines[0].endswith(" placements/s")
    assert "Belief: 226332 positions" in result.stdout


def test_compiling_is_said_once_and_left_out_of_the_search_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def compiling_perft(*args, **options):
        stats = Stats()
        before = time.perf_counter()
        njit(lambda x: x * 2)(21)  # a lambda is never in numba's cache: compiled now
        assert stats.seconds < 0.5 * (time.perf_counter() - before)
        njit(lambda x: x * 3)(21)
        return ksolve.api.PerftResult(1, [])

    monkeypatch.setattr(ksolve.api, "perft", compiling_perft)
    result = run("perft", "--depth", "1")
    assert result.exit_code == 0, result.output
    assert result.stderr.count("ksolve: compiling kernels (first run only)...\n") == 1
    assert result.stderr.index("compiling") < result.stderr.index("Time:")


def test_nothing_is_said_when_the_kernels_are_cached() -> None:
    run("perft", "--depth", "2")
    result = run("perft", "--depth", "2")
    assert result.exit_code == 0
    assert "compiling" not in result.stderr


FOG = 'stipulation = "xk{moves}"\nrules = "{rules}"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - {clock} 60"\n' \
      'hidden = ["p?:h-file"]\n'


def test_a_reachable_move_limit_draw_is_refused() -> None:
    """A belief merges positions that differ only in the halfmove clock: with
    Fog of War's 50-move draw within reach of the search that could decide
    wrongly, so the problem is refused, naming the clock."""
    problem = load_problem_text(FOG.format(moves=3, rules="fog-of-war", clock=95), "fog.toml")
    with pytest.raises(ProblemError, match=r"^fog.toml: position: the 50-move draw is within reach \(halfmove "
                                           r"clock 95, 3 moves, the draw at 100\).*below 94 in the FEN$"):
        Analysis(problem)


@pytest.mark.parametrize("moves,rules,clock", [(2, "fog-of-war", 95), (3, "fog-of-war", 93), (3, "berkeley", 95)])
def test_a_move_limit_out_of_reach_is_no_concern(moves: int, rules: str, clock: int) -> None:
    text = FOG.format(moves=moves, rules=rules, clock=clock).replace("xk", "xk" if rules == "fog-of-war" else "#")
    analysis = Analysis(load_problem_text(text))
    assert analysis.belief.halfmove_clock == clock
