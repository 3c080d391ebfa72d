"""Limits hold whatever the belief size: ``--timeout T`` ends a solve within
T + 2 s of the search's start, and progress is said at least every 2 s while
it searches, even while one step (a kernel call over a multi-million-position
belief) runs for seconds; what a step would hold is checked before it starts."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ksolve.resources import physical_memory

EIGHT_PAWNS = ('stipulation = "#3"\nrules = "berkeley"\n[position]\nfen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"\n'
               'hidden = [' + ", ".join(f'"p:{file}-file"' for file in "abcdefgh") + ']\n')
"""Bare kings and eight hidden black pawns, one a file: 1,679,616 positions, each
search step over them some seconds (and about 3 GB: Black's ~16 replies to each)."""
PROGRESS = re.compile(r"ksolve: depth \d+, [\d,]+ nodes, ([\d.]+) s$")


def timed_run(args: list[str], cwd: Path, deadline: float = 180.0) -> tuple[int, str, list[tuple[float, str]], float]:
    """``ksolve ARGS``: exit code, stdout, each stderr line with when it came, and when the process ended."""
    process = subprocess.Popen([sys.executable, "-m", "ksolve.cli", *args], cwd=cwd, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: list[tuple[float, str]] = []

    def read() -> None:
        for line in process.stderr:
            lines.append((time.monotonic(), line.rstrip("\n")))

    reader = threading.Thread(target=read)
    reader.start()
    out = process.stdout.read()
    process.wait(deadline)
    ended = time.monotonic()
    reader.join()
    return process.returncode, out, lines, ended


@pytest.mark.slow
@pytest.mark.skipif((physical_memory() or 0) < 12 << 30, reason="the search's steps over 1.7M positions hold ~3 GB")
def test_timeout_holds_on_a_multi_million_position_belief(tmp_path: Path) -> None:
    (tmp_path / "pawns.toml").write_text(EIGHT_PAWNS)
    code, out, lines, ended = timed_run(["solve", "pawns.toml", "--timeout", "10", "--jobs", "1"], tmp_path)
    assert code == 3, (out, lines)
    assert "1,679,616 positions" in out and "Not decided: time limit 10 s reached" in out
    assert not any("Traceback" in line for _, line in lines)
    progress = [(when, float(match[1])) for when, line in lines if (match := PROGRESS.match(line))]
    assert progress, lines
    started = min(when - seconds for when, seconds in progress)  # the search's start, by its own clock
    assert ended - started <= 10 + 2, (ended - started, lines)
    compiling = [when for when, line in lines if "compiling" in line]
    moments = [started] + [when for when, _ in progress] + [started + 10]  # while it searches
    for before, after in zip(moments, moments[1:]):
        if not any(before <= when <= after for when in compiling):  # a first run's compilation stops the clock
            assert after - before <= 2.0, (before - started, after - started, lines)


@pytest.mark.slow
def test_a_step_the_budget_cannot_hold_is_refused_before_the_search(tmp_path: Path) -> None:
    """The belief fits 2 GB (three rows a position), one search step over it
    (each position's children and Black's replies to them) does not."""
    (tmp_path / "pawns.toml").write_text(EIGHT_PAWNS)
    code, out, lines, _ = timed_run(["solve", "pawns.toml", "--max-memory", "2G"], tmp_path)
    assert code == 2 and out == ""
    errors = [line for _, line in lines if line.startswith("ksolve: error:")]
    assert len(errors) == 1 and lines[-1][1] == errors[0]
    assert re.fullmatch(r"ksolve: error: --max-memory: 2\.0 GB is less than the search needs: one step over the "
                        r"1,679,616 positions of the belief holds ~[\d.]+ GB at once \(an attempt's children and "
                        r"Black's ~1\d replies to each\), and the process holds [\d.]+ [GM]B before searching",
                        errors[0]), errors[0]
    assert not any(PROGRESS.match(line) for _, line in lines)  # before the search's first node
