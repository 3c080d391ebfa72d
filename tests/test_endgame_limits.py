"""``ksolve endgame``, ``serve`` and ``play`` under the limits and checks of every
other command (issue 52): bad input is one ``ksolve: error:`` line and exit 2
before any long work (the endgame's tables are not built: ``solver_for`` is
never called), ``--jobs`` is kept to the cores, and ``--timeout`` stops the
table honestly (exit 3, the rows decided kept), while its tables are built as
well as during a wave.  Every case is a row of ``docs/guide/errors.md``, run here."""

from __future__ import annotations

import os
import re
import shlex
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksolve.cli import main
from ksolve.endgame import sweep as sweep_module
from ksolve.endgame.sweep import SweepSpec
from ksolve.endgame.table import read_table
from test_errors import ERRORS, error_rows, matches, one_error_line

HEADER = ("# ksolve endgame table\n# material\t{material}\n# rules\tberkeley\n# max-moves\t{moves}\n"
          "placement\tbelief\tshortest\tnodes\tseconds\n")


def table_file(material: str, moves: int, rows: str) -> str:
    """A table file (``# material``, ``# max-moves``) with these rows (tab-separated)."""
    return HEADER.format(material=material, moves=moves) + rows


CASES = [
    # (id, {file name: text}, command, the one line)
    ("an endgame table on something that is not a Dask scheduler", {},
     "endgame KQK --scheduler tcp://127.0.0.1:PORT",
     "--scheduler: tcp://127.0.0.1:PORT is not a Dask scheduler: what listens there closed the connection"),
    ("an endgame table to a full disk", {}, "endgame KQK --max-moves 1 -o /dev/full",
     "/dev/full: cannot write: No space left on device"),
    ("a table shown whose rows are of another material",
     {"krk.tsv": table_file("KRK", 60, "Ka1 Qh1\t40\t16\t5\t0.1\n")}, "endgame --show krk.tsv",
     "krk.tsv: line 6: 'Ka1 Qh1' is not a placement of KRK (the header's '# material KRK', line 2)"),
    ("a table shown whose row goes beyond its max-moves",
     {"kqk.tsv": table_file("KQK", 60, "Ka1 Qh1\t40\t99\t5\t0.1\n")}, "endgame --show kqk.tsv",
     "kqk.tsv: line 6: Ka1 Qh1: a shortest win of 99 moves is beyond the header's '# max-moves 60' (line 4)"),
    ("a table resumed with fewer moves than it was searched to",
     {"kqk.tsv": table_file("KQK", 60, "Ka1 Qe3\t34\t18\t5\t0.1\n")}, "endgame KQK --max-moves 10 -o kqk.tsv",
     "--max-moves: 10 is fewer than the 60 moves kqk.tsv was searched to (its rows would not fit a 10-move "
     "table): give --max-moves 60 or more, or another file"),
    ("an empty address for the workbench", {}, 'serve --host ""',
     "--host: '' is not an address to listen on (127.0.0.1: this machine only; 0.0.0.0: every interface)"),
    ("an empty start position", {}, 'play --fen ""',
     "--fen: an empty FEN is no position (leave it out for the standard start)"),
]
RESULTS = {
    # id: (command, the line on stderr, exit code)
    "--jobs above the cores for an endgame table": (
        "endgame KQK --jobs 1000 --max-moves 1 --timeout 30",
        "ksolve: warning: --jobs 1000: this machine has CORES cores; CORES worker processes", 0),
    "an endgame table stopped while its tables are built": (
        "endgame KBBK --timeout 2",
        "ksolve: stopped after 2 s (the time limit), building the tables: 0 of 15,722 placements decided", 3),
    "an endgame table stopped during a wave": (
        "endgame KQK --max-moves 30 --timeout 3 -o kqk.tsv",
        "ksolve: stopped after 3 s (the time limit): N of 518 placements decided (kept in kqk.tsv; run again to "
        "resume)", 3),
}
COMPILING = ("ksolve: compiling kernels", "ksolve: still compiling kernels")


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def fresh_solvers() -> Iterator[None]:
    """No solver of an earlier test: each table here is built (and searched) afresh."""
    sweep_module._SOLVERS.clear()
    yield
    sweep_module._SOLVERS.clear()


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[SweepSpec]:
    """The specs whose tables the sweep asked for (``solver_for``), recorded."""
    asked: list[SweepSpec] = []
    real = sweep_module.solver_for

    def recorded(spec: SweepSpec, *args, **kwargs):
        asked.append(spec)
        return real(spec, *args, **kwargs)

    monkeypatch.setattr(sweep_module, "solver_for", recorded)
    return asked


def run(command: str) -> tuple[int, str, list[str]]:
    """``ksolve COMMAND`` in this process: exit code, stdout, stderr's lines (compilation notes left out)."""
    result = CliRunner().invoke(main, shlex.split(command))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, [line for line in result.stderr.splitlines()
                                             if not line.startswith(COMPILING)]


FIXED = [case for case in CASES if "PORT" not in case[2]]


@pytest.mark.parametrize("files,command,line", [case[1:] for case in FIXED], ids=[case[0] for case in FIXED])
def test_bad_input_is_one_line_before_any_table_is_built(workdir: Path, builds: list[SweepSpec],
                                                         files: dict[str, str], command: str, line: str) -> None:
    if "/dev/full" in command and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    for name, text in files.items():
        (workdir / name).write_text(text, encoding="utf-8")
    printed = one_error_line(command)
    assert matches(printed, line), printed
    assert builds == []


def test_a_scheduler_that_is_not_one_is_refused_before_the_tables_are_built(workdir: Path,
                                                                            builds: list[SweepSpec]) -> None:
    """Something listens and closes each connection (no Dask scheduler's greeting)."""
    _, _, command, line = next(case for case in CASES if "PORT" in case[2])
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def refuse() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            connection.close()

    threading.Thread(target=refuse, daemon=True).start()
    try:
        printed = one_error_line(command.replace("PORT", str(port)))
    finally:
        server.close()
    assert printed == f"ksolve: error: {line}".replace("PORT", str(port))
    assert builds == []


def test_jobs_over_the_cores_is_one_warning_and_the_cores(workdir: Path) -> None:
    command, line, code = RESULTS["--jobs above the cores for an endgame table"]
    cores = os.cpu_count() or 1
    exit_code, out, lines = run(command)
    assert exit_code == code, lines
    warnings = [printed for printed in lines if printed.startswith("ksolve: warning:")]
    expected = line.replace("CORES", str(cores))
    assert warnings == [expected if cores > 1 else expected.replace("cores", "core").replace("processes", "process")]
    assert "KQK under berkeley: 518 placements tabled of 518" in out


def test_the_timeout_stops_the_build_of_the_tables(workdir: Path, fresh_solvers: None) -> None:
    """KBBK's tables take about a minute to build: the limit stops them within a second or two."""
    from ksolve.compilation import work_clock

    command, line, code = RESULTS["an endgame table stopped while its tables are built"]
    started = work_clock()
    exit_code, out, lines = run(command)
    assert work_clock() - started < 2 + 5, lines
    assert exit_code == code and lines[-1] == line, lines
    assert "KBBK under berkeley: 0 placements tabled of 15722 (incomplete)" in out


def test_the_timeout_stops_a_wave_and_keeps_the_rows_decided(workdir: Path, fresh_solvers: None) -> None:
    """KQK's tables built beforehand, the whole table to 30 moves (about 20 s) stopped
    during its waves: the rows decided are in the file, which a rerun resumes."""
    from ksolve.compilation import work_clock

    sweep_module.solver_for(SweepSpec("KQK", "berkeley"))
    command, line, code = RESULTS["an endgame table stopped during a wave"]
    started = work_clock()
    exit_code, out, lines = run(command)
    assert work_clock() - started < 3 + 5, lines
    assert exit_code == code, lines
    pattern = re.escape(line).replace("N", r"([\d,]+)")
    stopped = [match for printed in lines if (match := re.fullmatch(pattern, printed))]
    assert len(stopped) == 1, lines
    decided = int(stopped[0][1].replace(",", ""))
    kept = read_table(workdir / "kqk.tsv")
    assert len(kept.rows) == decided < 518 and not kept.complete
    assert f"KQK under berkeley: {decided} placements tabled of 518 (incomplete)" in out


def test_every_case_is_a_row_of_the_errors_guide() -> None:
    rows = {name: (command, line) for name, command, line in error_rows()}
    for name, _, command, line in CASES:
        assert rows.get(name) == (command, line), name
    for name, (command, line, code) in RESULTS.items():
        row = f"| {name} | `ksolve {command}`"
        assert row in ERRORS, name
        shown = ERRORS.split(row, 1)[1].split("\n", 1)[0]
        assert f"`{line}`" in shown and f"(exit {code})" in shown, name
