"""The sweep: every placement of a material, by waves of increasing depth.

Wave ``d`` asks, of every placement still open whose full-information bound
allows it, "does White win from total ignorance within ``d`` moves?".  A
placement won at ``d`` gets its row (shortest win ``d``: every shallower wave
refuted it); one lost at any length gets its row ``none``; the others go on
to wave ``d + 1``, until ``max_moves``.  Waves are what makes the placements
share: when wave ``d`` runs, every placement won within ``d - 1`` is known,
and a belief of its placement holding fewer squares is won as fast (the
search's ``start_proven``); the beliefs the searches meet on the way stay in
the workspace of the process that searched them.

A wave is cut into tasks of a few placements (``ksolve.endgame.running``: in this
process, or on a Dask cluster whose workers keep their solver and its table
from task to task); each task is given what the waves before established (the
placements won so far), and its result is appended to a JSON-lines file next
to the table as it ends, so that an interrupted sweep resumes where it
stopped.  Rows are appended to the table file as they are decided.

>>> from ksolve.rules import get_rules
>>> spec = SweepSpec("KQK", "berkeley", max_moves=13)
>>> table = sweep(spec, placements_limit=3)
>>> [row.result for row in table.rows]
['none within 13', 'none within 13', 'none within 13']
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ksolve.endgame import core
from ksolve.endgame.configs import ConfigSpace
from ksolve.endgame.material import parse_material
from ksolve.endgame.model import NO_WIN
from ksolve.endgame.running import TaskResult, run_wave, sweep_cluster
from ksolve.endgame.solver import (
    ANYWHERE,
    DEFAULT_TABLE_BYTES,
    EndgameSolver,
    SearchStopped,
)
from ksolve.endgame.table import EndgameRow, EndgameTable, TableWriter, read_table, write_text

TIME_LIMIT = "the sweep's time limit"
"""What a task stopped by the time limit says (``SearchStopped``)."""
TASKS_PER_WAVE = 64
"""A wave is cut into at most this many tasks (each carries the placements won so far)."""
MIN_TASK = 8
"""Placements per task at least."""


@dataclass(frozen=True)
class SweepSpec:
    """What to compute: a material's table under a rule set, wins up to ``max_moves``."""

    material: str
    rules: str
    max_moves: int = 50
    table_bytes: int = DEFAULT_TABLE_BYTES
    """The transposition table's size in each process."""
    start: str = ANYWHERE
    """Where the black king may start (``solver.STARTS``)."""


@dataclass(frozen=True)
class WaveJob:
    """One task: ``placements`` (numbers) searched to ``moves`` with what is known."""

    spec: SweepSpec
    moves: int
    placements: tuple[int, ...]
    won: bytes = b""
    """Per placement of the material (its local number), the shortest win known (0: none yet)."""
    deadline: float | None = None
    """Wall-clock time (``time.time()``) after which the task stops (a failed task);
    the seconds its process spends compiling kernels meanwhile are not counted."""

    @property
    def key(self) -> str:
        text = json.dumps([self.spec.material, self.spec.rules, self.spec.start, self.moves, list(self.placements)])
        return f"endgame-{self.spec.material}-{self.spec.rules}-d{self.moves}-" + \
            hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class SweepProgress:
    """Where a sweep stands, told as each task ends."""

    depth: int
    decided: int
    placements: int
    open: int
    seconds: float
    nodes: int


@dataclass
class _Open:
    """What is known of a placement not decided yet."""

    refuted: int = 0
    nodes: int = 0
    seconds: float = 0.0


_SOLVERS: dict[tuple[str, str, int], EndgameSolver] = {}
"""The solvers of this process (a Dask worker keeps its own from task to task)."""


def solver_for(spec: SweepSpec, building: Callable[[int, int], None] | None = None,
               should_stop: Callable[[], None] | None = None) -> EndgameSolver:
    """This process's solver of ``spec`` (built on first use, ``building`` hearing of
    the placements tabulated so far, ``should_stop`` ending the build by raising)."""
    from ksolve.rules import get_rules

    key = (spec.material, spec.rules, spec.table_bytes)
    solver = _SOLVERS.get(key)
    if solver is None:
        solver = _SOLVERS[key] = EndgameSolver(parse_material(spec.material), get_rules(spec.rules),
                                               table_bytes=spec.table_bytes, progress=building,
                                               should_stop=should_stop)
    return solver


def past_deadline(deadline: float | None) -> Callable[[], None]:
    """A ``should_stop`` raising ``SearchStopped`` once the wall clock passes ``deadline``
    (``time.time()``; None: never), the seconds this process spends compiling kernels
    from now on not counted."""
    from ksolve.compilation import compile_seconds

    compiled = compile_seconds()

    def stop() -> None:
        if deadline is not None and time.time() - (compile_seconds() - compiled) > deadline:
            raise SearchStopped(TIME_LIMIT)

    return stop


def wave_task(job: WaveJob) -> dict:
    """Search the job's placements to ``job.moves`` (a Dask task: plain values in and out),
    the deadline looked at while this process builds its tables, before each placement
    and between the steps of its search.

    Returns ``{"rows": [[number, result, nodes, seconds], ...]}``, ``result`` being
    ``core.WIN``, ``core.LOSS`` or ``core.LOST``."""
    stop = past_deadline(job.deadline)
    solver = solver_for(job.spec, should_stop=stop)
    solver.use_start(job.spec.start)
    if job.won:
        offset = solver.space.offset(solver.material.white)
        won = np.frombuffer(job.won, dtype=np.uint8)
        solver.remember({offset + int(i): int(won[i]) for i in np.flatnonzero(won)})
    solver.should_stop = stop
    rows = []
    for number in job.placements:
        stop()
        started, nodes = time.perf_counter(), solver.nodes
        result = solver.start_wins(number, job.moves, job.spec.start)
        rows.append([number, result, solver.nodes - nodes, round(time.perf_counter() - started, 4)])
    return {"rows": rows}


def sweep(spec: SweepSpec, output: str | Path | None = None, *, jobs: int | None = None,
          scheduler: str | None = None, seconds: float | None = None,
          progress: Callable[[SweepProgress], None] | None = None, placements_limit: int | None = None,
          building: Callable[[int, int], None] | None = None) -> EndgameTable:
    """The table of ``spec`` (written to ``output`` as rows are decided, resumed from
    it and from its ``.runs.jsonl`` companion if they exist).

    ``jobs``/``scheduler``: run the waves on a Dask cluster (``ksolve.execution``);
    ``seconds``: stop after this long, the tables' build included and the
    kernels' compilation not (the rows decided so far are kept, the table says
    it is incomplete and why: ``stopped``); ``placements_limit``: only the first
    placements (tests); ``building``: hears of the tables' construction
    (placements done, in all) when this process builds them.  ``output`` is
    checked (``_resumed_table``) and its header written before the tables are built."""
    from ksolve.compilation import work_clock
    from ksolve.endgame.running import ResultsFile

    ends = None if not seconds else work_clock() + seconds
    """The time limit on this process's work clock (compilation left out)."""

    def past() -> bool:
        return ends is not None and work_clock() > ends

    def stop() -> None:
        if past():
            raise SearchStopped(TIME_LIMIT)

    def deadline() -> float | None:
        """The time limit as a tasks' ``WaveJob.deadline``."""
        return None if ends is None else time.time() + max(0.0, ends - work_clock())

    timed_out = f"stopped after {seconds:g} s (the time limit)" if seconds else ""
    table = _resumed_table(spec, output)
    writer = TableWriter(output, table)
    try:
        solver = solver_for(spec, building, stop)
    except SearchStopped:
        material = parse_material(spec.material)
        table.placements = ConfigSpace(material).count(material.white)
        table.stopped = f"{timed_out}, building the tables"
        return table
    placements = solver.placements()[:placements_limit]
    table.placements = len(placements)
    names = {p.number: solver.material.describe(p.squares) for p in placements}
    offset = solver.space.offset(solver.material.white)
    runs = ResultsFile(None if output is None else f"{output}.runs.jsonl")
    replaying = bool(runs.finished())
    """With the tasks' results at hand the waves are replayed as they ran (the same
    tasks, answered from the file); without them the table's rows are final and
    their placements are left out."""
    written = {row.placement for row in table.rows}
    opened = {p.number: _Open() for p in placements if replaying or names[p.number] not in written}
    won = np.zeros(solver.space.count(solver.material.white), dtype=np.uint8)
    for row in table.rows:
        if row.moves is not None and not replaying:
            won[solver.placement(row.squares).number - offset] = min(row.moves, 255)
    bounds = {number: solver.lower_bound(number, solver.start_squares(number, spec.start)) for number in opened}

    def decide(number: int, moves: int | None, never: bool, refuted: int) -> None:
        state = opened.pop(number)
        if names[number] not in written:
            writer.append(EndgameRow(names[number], solver.belief_size(number, spec.start), moves, refuted, never,
                                     state.nodes, round(state.seconds, 3)))
            written.add(names[number])

    for number in [n for n, bound in bounds.items() if bound >= NO_WIN]:
        decide(number, None, True, spec.max_moves)
    started = time.perf_counter()
    totals = {"nodes": 0}

    def record(result: TaskResult, depth: int) -> None:
        if result.status != "done":
            return
        for number, outcome, nodes, taken in result.value["rows"]:
            state = opened.get(number)
            if state is None:
                continue
            state.nodes += nodes
            state.seconds += taken
            totals["nodes"] += nodes
            if outcome == core.WIN:
                won[number - offset] = min(depth, 255)
                decide(number, depth, False, depth - 1)
            elif outcome == core.LOST:
                decide(number, None, True, spec.max_moves)
            else:
                state.refuted = depth
        if progress is not None:
            progress(SweepProgress(depth, len(placements) - len(opened), len(placements), len(opened),
                                   time.perf_counter() - started, totals["nodes"]))

    with sweep_cluster(jobs, scheduler) as client:
        for depth in range(1, spec.max_moves + 1):
            if not opened:
                break
            if past():
                table.stopped = timed_out
                break
            wave = sorted(number for number in opened if bounds[number] <= depth)
            for number, state in opened.items():
                if bounds[number] > depth:
                    state.refuted = depth
            if not wave:
                continue
            size = max(MIN_TASK, math.ceil(len(wave) / TASKS_PER_WAVE))
            tasks = [WaveJob(spec, depth, tuple(wave[i:i + size]), won.tobytes(), deadline())
                     for i in range(0, len(wave), size)]
            results = run_wave(client, wave_task, tasks, runs, lambda result, d=depth: record(result, d))
            failed = [result for result in results if result.status != "done"]
            if failed:
                out_of_time = past() or any(TIME_LIMIT in (result.error or "") for result in failed)
                table.stopped = timed_out if seconds and out_of_time else f"stopped: a task failed: {failed[0].error}"
                break
    if not table.stopped:
        for number in list(opened):
            decide(number, None, False, spec.max_moves)
        writer.rewrite_sorted([names[p.number] for p in placements])
    return table


def _resumed_table(spec: SweepSpec, output: str | Path | None) -> EndgameTable:
    """The table so far: the decided rows of ``output`` (rows "none within N" are
    searched again, perhaps deeper: the file is written again without them).
    ``InputError`` when ``output`` holds another table, or one searched deeper
    than ``spec.max_moves`` (its rows would stand under a header they go beyond)."""
    from ksolve.errors import InputError

    table = EndgameTable(spec.material, spec.rules, spec.max_moves, start=spec.start)
    if output is None or not Path(output).exists() or Path(output).stat().st_size == 0:
        return table
    previous = read_table(output)
    if (previous.material, previous.rules, previous.start) != (spec.material, spec.rules, spec.start):
        raise InputError(f"{output}: a table of {previous.describe()}, not of "
                         f"{EndgameTable(spec.material, spec.rules, 0, start=spec.start).describe()}")
    if previous.max_moves > spec.max_moves:
        raise InputError(f"--max-moves: {spec.max_moves} is fewer than the {previous.max_moves} moves {output} was "
                         f"searched to (its rows would not fit a {spec.max_moves}-move table): give "
                         f"--max-moves {previous.max_moves} or more, or another file")
    table.rows = [row for row in previous.rows if row.moves is not None or row.never]
    if len(table.rows) != len(previous.rows) or previous.max_moves != spec.max_moves:
        write_text(Path(output), table.header() + "".join(row.line() + "\n" for row in table.rows))
    return table
