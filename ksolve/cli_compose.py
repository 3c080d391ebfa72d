"""The command line of the runs on Dask and of the composer's searches:
``--jobs``/``--scheduler`` (shared by ``verify FOLDER``, ``generate``,
``compose`` and ``mend``), what ``verify`` and ``generate`` do with them, and
the ``compose`` and ``mend`` commands.  Thin: the work is in ``ksolve.execution``
and ``ksolve.compose``.

>>> jobs_option(lambda **kw: kw).__click_params__[0].name
'jobs'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ksolve.cli_support import JOBS, Seconds, fail, input_errors, max_memory_option

if TYPE_CHECKING:
    from ksolve.execution.options import RunOptions
    from ksolve.problem import Problem
    from ksolve.execution.results import TaskResult
    from ksolve.verification import Verification

jobs_option = click.option(
    "--jobs", type=JOBS, is_flag=False, flag_value=0, default=None,
    help="Run the tasks on a local Dask cluster of N worker processes (--jobs alone: one per core).")
def _read_scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--scheduler`` read at once (an address such as tcp://127.0.0.1:8786), before any work."""
    if value is not None:
        from ksolve.execution.cluster import scheduler_address

        with input_errors():
            scheduler_address(value)
    return value


scheduler_option = click.option(
    "--scheduler", metavar="ADDRESS", callback=_read_scheduler,
    help="Run the tasks on an existing Dask cluster (started with `dask scheduler` and `dask worker`), "
         "e.g. tcp://127.0.0.1:8786.")


def task_printer(what: str, results: object = None):
    """A run's progress line per ended task on stderr: ``ksolve: [3/46] NAME: WHAT``;
    Ctrl-C then says how many tasks ended (and where their results are kept)."""
    from ksolve.cli_support import say_when_interrupted

    counts = [0, 0]
    kept = f"; their results are in {results}, which a re-run resumes" if results else ""
    say_when_interrupted(lambda: f"{counts[0]} of {counts[1] or '?'} tasks ended{kept}")

    def progress(ended: int, total: int, result: "TaskResult") -> None:
        counts[:] = ended, total
        state = what_of(result) if result.status == "done" else f"failed: {result.error}"
        click.echo(f"ksolve: [{ended}/{total}] {state}", err=True)

    def what_of(result: "TaskResult") -> str:
        return what.format(**result.value) if isinstance(result.value, dict) else what

    return progress


def cluster_jobs(jobs: int | None, scheduler: str | None) -> int | None:
    """``--jobs`` of a run on Dask, as ``execution.cluster.optional_cluster`` takes it:
    kept to the machine's cores (``capped``; None with ``--scheduler``, whose cluster
    has its own workers) and, when a cluster runs, Ctrl-C ending the process right
    after its line (``exit_at_once_on_ctrl_c``)."""
    from ksolve.cli_support import capped, exit_at_once_on_ctrl_c, say_when_interrupted

    jobs = None if scheduler else capped(jobs)
    if jobs is not None or scheduler:
        exit_at_once_on_ctrl_c()
        say_when_interrupted(lambda: f"before the first task ({'reaching ' + scheduler if scheduler else 'starting'}"
                                     f"{'' if scheduler else ' the local worker processes'})")
    return jobs


def local_or_remote_cluster(jobs: int | None, scheduler: str | None, memory_limit: int | str = "auto"):
    """``execution.cluster.optional_cluster`` for the command, ``--jobs`` read by ``cluster_jobs``."""
    from ksolve.execution.cluster import optional_cluster

    return optional_cluster(cluster_jobs(jobs, scheduler), scheduler, memory_limit)


def _memory_limit() -> int | str:
    from ksolve.cli_support import resources

    memory = resources().memory
    return memory if memory is not None else "auto"


def verify_on_cluster(problems: list["Problem"], options: "RunOptions", jobs: int | None, scheduler: str | None,
                      results: str | None) -> list[tuple["Problem", "Verification"]]:
    """``ksolve verify FOLDER --jobs N``: the folder's verifications as Dask tasks."""
    from dataclasses import replace

    from ksolve.execution.collection import verify_all
    from ksolve.execution.processes import hard_limit

    memory = _memory_limit()
    options = replace(options, memory=memory if isinstance(memory, int) else None)
    with input_errors(), local_or_remote_cluster(jobs, scheduler, memory) as client:
        return verify_all(problems, options, client=client, results=results,
                          hard_timeout=hard_limit(options.seconds, searches=2),
                          progress=task_printer("{problem}: {verdict}", results))


def verify_first_moves_on_cluster(problems: list["Problem"], rules: str | None, moves: int | None, timeout: float,
                                  tries: int | None, duals: bool, scheduler: str
                                  ) -> list[tuple["Problem", "Verification"]]:
    """``ksolve verify PROBLEM --scheduler ADDRESS``: each problem (a twin on its own) verified
    with its first attempts as tasks of the cluster (``execution.first_moves``)."""
    from ksolve.cli_support import progress_printer, search_limits
    from ksolve.execution.first_moves import verify_on_dask

    reports = []
    with input_errors(), local_or_remote_cluster(None, scheduler) as client:
        for problem in problems:
            spread = verify_on_dask(problem, client, rules, moves, search_limits(timeout), tries, duals,
                                    progress_printer(subject=f"{problem.source}: verifying, "))
            reports.append((problem, spread.report))
    return reports


def game_printer():
    """A ``generate`` run's progress line per ended game on stderr: the turns examined and the instances found."""
    def progress(ended: int, total: int, result: "TaskResult") -> None:
        if result.status != "done":
            click.echo(f"ksolve: [{ended}/{total}] {result.key}: failed: {result.error}", err=True)
            return
        rows = result.value["rows"]
        found = ", ".join(f"ply {row['ply']} {row['result']}" for row in rows if row["result"] in ("mate", "near-miss"))
        click.echo(f"ksolve: [{ended}/{total}] game {rows[0]['game'] if rows else '?'}: {len(rows)} turns examined"
                   f"{'; ' + found if found else ''}", err=True)

    return progress


MEND_KINDS = ("stipulation", "narrow", "remove", "add", "move")
"""The kinds of change ``ksolve mend`` tries (``ksolve.compose.mend.ALL_KINDS``, repeated for a light --help)."""


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--key", help="The key to keep, as UCI (default: the file's published key).")
@click.option("--kinds", default=",".join(MEND_KINDS), show_default=True,
              help="The changes to try, comma-separated.")
@click.option("--timeout", type=Seconds(), default=30.0, show_default=True,
              help="Each search's limit in a candidate's checks, in seconds (0: none).")
@click.option("--max-fixes", type=click.IntRange(min=1), default=20, show_default=True, help="List at most K fixes.")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False),
              help="Write each fix as a problem file here, with the run's results file (a re-run resumes it).")
@jobs_option
@scheduler_option
@max_memory_option
def mend(file: str, key: str | None, kinds: str, timeout: float, max_fixes: int, out_dir: str | None,
         jobs: int | None, scheduler: str | None) -> None:
    """Search small changes of a cooked or unsound problem (add a pawn or a
    piece, remove or move one man, narrow a hidden unit's squares, change the
    stipulation by one) that make it sound with its author's key, and list the
    fixes, each verified and its certificate checked, smallest first.  Exit 0
    when a fix is found, 1 when none is.

    \b
    Example:
      ksolve mend problems/anderson-27.toml --jobs 2 -o mended
    """
    import sys
    from pathlib import Path

    import ksolve
    from ksolve.cli_support import check_writable, resources
    from ksolve.compose.mend import mend as mend_problem, mended_text

    chosen = tuple(kind.strip() for kind in kinds.split(",") if kind.strip())
    unknown = [kind for kind in chosen if kind not in MEND_KINDS]
    if unknown or not chosen:
        fail(f"--kinds: unknown kind {unknown[0]!r} (use {', '.join(MEND_KINDS)})" if unknown else
             f"--kinds: give at least one of {', '.join(MEND_KINDS)}")
    if out_dir:
        check_writable(out_dir, "-o", folder=True)
    with input_errors():
        problem = ksolve.load_problem(file, resources=resources())
        if key is not None and not _is_uci(key):
            fail(f"--key: {key!r} is not a UCI move such as 'a2g2'")
        if key is None and problem.published_key is None:
            fail(f"{problem.source}: published.key: no key to keep (give --key)")
        results = Path(out_dir) / f"{problem.id}-mend.jsonl" if out_dir else None
        with local_or_remote_cluster(jobs, scheduler) as client:
            report = mend_problem(problem, key, chosen, timeout or None, max_fixes, client, results,
                                  task_printer("{label}: {stage}: {reason}", results))
    click.echo(report.summary())
    for number, fix in enumerate(report.fixes, 1):
        click.echo(f"{number:>3}. {fix.edit.describe():<24} {fix.line}; certificate "
                   f"{'checked' if fix.certified else 'NOT checked'}")
        if out_dir:
            path = Path(out_dir) / f"{problem.id}-mend{number}.toml"
            path.write_text(mended_text(problem, report, fix, number), encoding="utf-8")
    if out_dir and report.fixes:
        click.echo(f"ksolve: {len(report.fixes)} fixes written to {out_dir}", err=True)
    sys.exit(0 if report.fixes else 1)


def _is_uci(text: str) -> bool:
    import re

    return re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", text) is not None


@click.command()
@click.option("--material", required=True, help="White's men v Black's visible men, e.g. 'KRBN+P v KP'.")
@click.option("--hidden", "hidden", multiple=True, help="A hidden unit PIECES:SQUARES (e.g. b:dark); repeatable.")
@click.option("--moves", type=click.IntRange(1, 12), required=True, help="Mate in N.")
@click.option("--rules", "rules_name", default="berkeley", show_default=True, help="Referee rule set.")
@click.option("--count", type=click.IntRange(min=1), default=5, show_default=True, help="Problems to find.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the candidates.")
@click.option("--timeout", type=Seconds(), default=30.0, show_default=True,
              help="Each search's limit in a candidate's checks, in seconds (0: none).")
@click.option("--max-candidates", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Give up after this many candidates.")
@click.option("--batch", type=click.IntRange(min=1), default=64, show_default=True, help="Candidates per round.")
@click.option("--max-belief", type=click.IntRange(min=1), default=5000, show_default=True,
              help="Skip candidates whose initial belief is larger.")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder for the problem files, booklet.html and the resumable results file.")
@jobs_option
@scheduler_option
@max_memory_option
def compose(material: str, hidden: tuple[str, ...], moves: int, rules_name: str, count: int, seed: int,
            timeout: float, max_candidates: int, batch: int, max_belief: int, out_dir: str, jobs: int | None,
            scheduler: str | None) -> None:
    """Search for new sound problems of the given material: random legal
    placements and one-man moves of near misses, filtered cheaply (belief
    size, a mate in N, none shorter), then verified (unique key, no short
    solution) and certified; the best ranked first (quiet key, key refused in
    some positions, "No" branches, tries refuted in different ways, few men:
    the terms are printed).  Writes one problem file each and a booklet.
    Exit 0 when COUNT were found, 1 when fewer.

    \b
    Example:
      ksolve compose --material "KR v K" --hidden "p?:a-file" --moves 2 --count 3 -o composed
    """
    import sys
    from pathlib import Path

    import ksolve
    from ksolve.cli_support import check_writable, memory_budget
    from ksolve.compose.compose import ComposeSpec, compose as compose_problems, parse_material, write_problems

    check_writable(out_dir, "-o", folder=True)
    with input_errors():
        rules = ksolve.rule_set(rules_name)
        if rules.goal != "mate":
            fail(f"--rules: compose writes mate problems (#N); {rules.name} is won by capturing the king")
        spec = ComposeSpec(parse_material(material), hidden, moves, rules.name, count, seed, timeout or None,
                           max_belief, batch, max_candidates, memory_budget())
        ksolve.position_belief("4k3/8/8/8/8/8/8/4K3 w - - 0 1", list(hidden), rules)  # the hidden units read
        with local_or_remote_cluster(jobs, scheduler) as client:
            report = compose_problems(spec, client, Path(out_dir) / "results.jsonl",
                                      task_printer("{label}: {stage}: {reason}", Path(out_dir) / "results.jsonl"))
    click.echo(report.summary())
    paths = write_problems(report, spec, out_dir)
    for path, problem in zip(paths, report.problems):
        verification, ranking = problem.check["verification"], problem.check["ranking"]
        click.echo(f"{path}: {verification['line']}; score {ranking['score']:+g} ({ranking['terms']})")
    click.echo(f"ksolve: {len(paths)} problems and booklet.html written to {out_dir}", err=True)
    sys.exit(0 if len(paths) >= count else 1)
