"""Ctrl-C: every command ends with one ``ksolve: interrupted:`` line saying what
was established so far, and exit code 130, never click's "Aborted!" (exit 1,
which means "no solution") or a traceback; perft, a long kernel, honours it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

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
    """Wait for the first progress line past depth 2 on stderr (the parent of the
    workers says depth 1 while they load), send SIGINT, and return the stderr
    lines after it."""
    ends = time.monotonic() + deadline
    while time.monotonic() < ends:
        line = process.stderr.readline()
        assert line, "the process ended before reporting progress"
        if line.startswith("ksolve: depth") and not line.startswith(("ksolve: depth 1,", "ksolve: depth 2,")):
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


def group_gone(group: int) -> bool:
    import os

    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return True
    return False


def ctrl_c_to_the_group(args: list[str], cwd, first: str = "ksolve: [", deadline: float = 120.0):
    """``ksolve ARGS`` in a process group of its own, as a terminal runs it; once
    it says ``first`` (a task ended: the workers are at work), SIGINT to the whole
    group, as Ctrl-C sends it.  Returns the seconds to exit, the stderr lines
    after the signal, and whether the group was gone 5 s later."""
    import os

    process = subprocess.Popen([sys.executable, "-m", "ksolve.cli", *args], cwd=cwd, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    ends = time.monotonic() + deadline
    while time.monotonic() < ends:
        line = process.stderr.readline()
        assert line, f"ksolve {' '.join(args)} ended before {first!r}"
        if line.startswith(first):
            break
    sent = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, rest = process.communicate(timeout=30)
    finally:
        seconds = time.monotonic() - sent
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    time.sleep(5)
    gone = group_gone(process.pid)
    if not gone:
        os.killpg(process.pid, signal.SIGKILL)
    return process.returncode, seconds, [line for line in rest.splitlines() if not line.startswith("ksolve: [")], gone


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["compose", "--material", "KR v K", "--hidden", "p?:a-file", "--moves", "3", "--count", "50", "-o", "composed"],
    ["mend", "PROBLEMS/anderson-27.toml", "-o", "mended"],
    ["verify", "PROBLEMS"],
    ["generate", "--games", "500", "--ply", "3", "-o", "generated"],
], ids=["compose", "mend", "verify DIR", "generate"])
def test_ctrl_c_with_local_workers_is_one_line_and_leaves_no_process(command: list[str], tmp_path) -> None:
    """The worker processes ignore Ctrl-C (no traceback of theirs) and are killed
    by the command, which says what was established and exits at once."""
    problems = str(Path(__file__).resolve().parent.parent / "problems")
    args = [problems if word == "PROBLEMS" else word.replace("PROBLEMS", problems) for word in command]
    code, seconds, lines, gone = ctrl_c_to_the_group([*args, "--jobs", "2"], tmp_path)
    assert code == EXIT_INTERRUPTED and seconds < 2.0, (code, seconds, lines)
    assert not any("Traceback" in line or "Error" in line or "Warning" in line for line in lines), lines
    assert len(lines) == 1 and lines[0].startswith("ksolve: interrupted: "), lines
    assert gone, "a process of the command was left behind"


@pytest.mark.slow
def test_ctrl_c_with_a_scheduler_is_one_line(tmp_path) -> None:
    """A cluster ksolve did not start is left running; the command stops at once."""
    import logging

    from distributed import LocalCluster

    problems = str(Path(__file__).resolve().parent.parent / "problems")
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=":0",
                      silence_logs=logging.CRITICAL) as cluster:
        code, seconds, lines, gone = ctrl_c_to_the_group(["verify", problems, "--scheduler",
                                                          cluster.scheduler_address], tmp_path)
        assert len(cluster.scheduler_info["workers"]) == 1  # still running
    assert code == EXIT_INTERRUPTED and seconds < 2.0, (code, seconds, lines)
    assert len(lines) == 1 and lines[0].startswith("ksolve: interrupted: "), lines
    assert gone
