"""Ctrl-C: every command ends with one ``ksolve: interrupted:`` line saying what
was established so far, and exit code 130, never click's "Aborted!" (exit 1,
which means "no solution") or a traceback; perft, a long kernel, honours it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

import ksolve.api
from ksolve.cli import main
from ksolve.cli_support import EXIT_INTERRUPTED
from ksolve.search.run import Stats

LONG_PROBLEM = "problems/anderson-37.toml"
"""A #9 whose search runs for minutes: depths 1-5 are refuted within a second or two."""


def ksolve_process(*args: str) -> subprocess.Popen:
    """``ksolve ARGS`` with SIGINT at its default (a shell's background job ignores it)."""
    return subprocess.Popen([sys.executable, "-c", "from ksolve.cli import main; main()", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def interrupt_after_progress(process: subprocess.Popen, deadline: float = 60.0) -> list[str]:
    """Wait for the first progress line on stderr, send SIGINT, and return the
    stderr lines after it."""
    ends = time.monotonic() + deadline
    while time.monotonic() < ends:
        line = process.stderr.readline()
        assert line, "the process ended before reporting progress"
        if line.startswith("ksolve: depth"):
            break
    process.send_signal(signal.SIGINT)
    _, rest = process.communicate(timeout=30)
    return rest.splitlines()


def assert_one_interrupted_line(process: subprocess.Popen, lines: list[str]) -> str:
    assert process.returncode == EXIT_INTERRUPTED
    text = "\n".join(lines)
    assert "Traceback" not in text and "Aborted" not in text
    interrupted = [line for line in lines if line.startswith("ksolve: interrupted")]
    assert len(interrupted) == 1 and lines[-1] == interrupted[0]
    return interrupted[0]


def test_solve_says_the_depths_refuted_and_exits_130() -> None:
    process = ksolve_process("solve", LONG_PROBLEM)
    line = assert_one_interrupted_line(process, interrupt_after_progress(process))
    assert line.startswith("ksolve: interrupted: no mate in ")
    assert " interrupted (" in line and " nodes, " in line


def test_verify_says_where_it_was_and_exits_130() -> None:
    process = ksolve_process("verify", LONG_PROBLEM)
    line = assert_one_interrupted_line(process, interrupt_after_progress(process))
    assert line.startswith(f"ksolve: interrupted: {LONG_PROBLEM}: verifying, depth ")


def test_perft_honours_ctrl_c_and_says_the_partial_count() -> None:
    process = ksolve_process("perft", "--depth", "8")  # hours in one kernel call before
    time.sleep(4)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert time.monotonic() - started < 5
    line = assert_one_interrupted_line(process, err.splitlines())
    assert "leaves counted" in line and "Nodes:" not in out


def test_the_line_names_the_last_depth_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted_solve(problem, *, progress, **options):
        progress(Stats(nodes=12_345), 6)
        raise KeyboardInterrupt

    monkeypatch.setattr(ksolve.api, "solve", interrupted_solve)
    result = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml"])
    assert result.exit_code == EXIT_INTERRUPTED
    assert result.stderr.startswith("ksolve: interrupted: no mate in 5 or fewer; depth 6 interrupted (12,345 nodes, ")


def test_at_most_refutes_nothing_below_the_stipulation(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted_solve(problem, *, progress, **options):
        progress(Stats(nodes=7), 8)
        raise KeyboardInterrupt

    monkeypatch.setattr(ksolve.api, "solve", interrupted_solve)
    result = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml", "--at-most"])
    assert result.exit_code == EXIT_INTERRUPTED
    assert result.stderr.startswith("ksolve: interrupted: depth 8 interrupted (7 nodes, ")


def test_ctrl_c_inside_a_kernel_callback_is_an_interrupt_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """numba's dispatcher reports a ``KeyboardInterrupt`` raised in one of its
    Python callbacks as a ``SystemError`` chained from it (seen with a cold
    kernel cache): that is Ctrl-C too."""
    def interrupted_in_a_kernel(problem, *, progress, **options):
        progress(Stats(nodes=3), 4)
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise SystemError("CPUDispatcher(<function _after_attempt>) returned a result with an exception set") from interrupt

    monkeypatch.setattr(ksolve.api, "solve", interrupted_in_a_kernel)
    result = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml"])
    assert result.exit_code == EXIT_INTERRUPTED
    assert result.stderr.startswith("ksolve: interrupted: no mate in 3 or fewer; depth 4 interrupted (3 nodes, ")


def test_a_system_error_of_its_own_is_not_taken_for_ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(problem, **options):
        raise SystemError("a bug")

    monkeypatch.setattr(ksolve.api, "solve", broken)
    result = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml"])
    assert result.exit_code != EXIT_INTERRUPTED and isinstance(result.exception, SystemError)
