"""The ``ksolve`` command line: thin click commands that parse, call the
library and print.  Heavy modules (numba kernels) are imported inside the
commands so that ``ksolve --help`` starts fast.

Exit codes: 0 success, 2 bad input (one ``ksolve: error:`` line on stderr),
130 interrupted (Ctrl-C: one ``ksolve: interrupted:`` line saying what was
established so far, e.g. ``no mate in 5 or fewer; depth 6 interrupted``).
"""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from ksolve.cli_support import (DEFAULT_TIMEOUT, EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_UNKNOWN, JOBS, Group, Seconds,
                                 capped, check_writable, fail, input_errors, machine_cores, max_memory_option,
                                 progress_printer, resources, say_when_compiling, say_when_interrupted,
                                 search_limits, solve_jobs, write_output)
from ksolve import __version__, cli_compose, cli_endgame, cli_yacpdb
from ksolve.cli_compose import jobs_option, scheduler_option


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="ksolve")
def main() -> None:
    """ksolve: a Kriegspiel problem solver and composer's tool."""


@main.command()
@click.option("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
              show_default=True, help="The position to count from.")
@click.option("--depth", type=click.IntRange(0, 12), required=True, help="Plies to count.")
@click.option("--divide", is_flag=True, help="Print the count below each root move.")
@click.option("--fog", is_flag=True, help="Fog-of-War moves (king capture, no check rules).")
@click.option("--bulk", is_flag=True, help="Count the last ply without making its moves.")
def perft(fen: str, depth: int, divide: bool, fog: bool, bulk: bool) -> None:
    """Count the leaf nodes of the move tree (the engine self-test).  Ctrl-C
    stops the count and says the leaves counted so far (exit 130)."""
    import ksolve
    from ksolve.compilation import work_clock

    say_when_compiling()
    start = work_clock()
    counted = [0]
    say_when_interrupted(lambda: f"{counted[0]:,} leaves counted in {work_clock() - start:.1f} s "
                                 "(the count is not complete)")
    with input_errors():
        result = ksolve.perft(fen, depth, fog=fog, bulk=bulk, divide=divide,
                              progress=lambda leaves: counted.__setitem__(0, leaves))
    for move, count in result.divided:
        click.echo(f"{move}: {count}")
    if result.divided:
        click.echo("")
    elapsed = work_clock() - start
    click.echo(f"Nodes: {result.total}")
    click.echo(f"Time: {elapsed:.3f} s ({result.total / max(elapsed, 1e-9):,.0f} nodes/s)", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--moves", type=click.IntRange(1, 60), help="Prove mate in at most N (default: the stipulation).")
@click.option("--ply", type=click.IntRange(1, 119), help="For a game (.pgn): mate within D plies.")
@click.option("--max-positions", type=click.IntRange(min=1), default=2_000_000, show_default=True,
              help="For a game (.pgn): the largest belief to estimate.")
@click.option("--rules", "rules_name", help="Solve under this rule set instead of the file's.")
@click.option("--timeout", type=Seconds(), default=DEFAULT_TIMEOUT, show_default=True,
              help="Give up after S seconds (status unknown; 0: no limit).")
@click.option("--max-nodes", type=click.IntRange(min=1), help="Give up after N search nodes (status unknown).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--certificate", "certificate_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the proven strategy as a certificate for `ksolve check`.")
@click.option("--certificate-format", type=click.Choice(["tree", "dag"]), default="tree", show_default=True,
              help="The certificate's format: the strategy tree (version 1), or each distinct turn written "
                   "once (version 2, a DAG: much smaller where a strategy meets the same turns on many lines).")
@click.option("--search", type=click.Choice(["pn", "dfs"]), default="pn", show_default=True,
              help="Proof-number search, or the depth-first prover alone (same results).")
@click.option("--at-most", is_flag=True,
              help="Prove mate in at most N without looking for a shorter mate (much faster on long problems).")
@click.option("--full", is_flag=True, help="Print the whole strategy tree, every answer and reply class.")
@click.option("--twin", "twin_name", metavar="NAME", help="Solve this twin ([[twin]] name) of the problem file.")
@click.option("--jobs", type=JOBS, default=None,
              help="Worker processes sharing White's first attempts (a belief with one first class; 0: one "
                   "per core).  Default: one per core for the shortest mate, one process with --at-most "
                   "(the workers would race, each holding a whole search) or --search dfs.")
@max_memory_option
def solve(file: str, moves: int | None, ply: int | None, max_positions: int, rules_name: str | None,
          timeout: float, max_nodes: int | None, as_json: bool, certificate_path: str | None,
          certificate_format: str, search: str, at_most: bool, full: bool, twin_name: str | None,
          jobs: int | None) -> None:
    """Prove that White wins whatever the hidden units and whatever Black plays,
    and print the strategy (exit 0), or that he cannot (exit 1); 3: unknown;
    130: interrupted (Ctrl-C), with what was established so far.
    FILE is a problem file (.toml) or a Kriegspiel game (.pgn, with --ply or
    --moves): the problem at the end of its history, from White's belief.

    \b
    Example:
      ksolve solve problems/rotenberg-1976.toml
      ksolve solve examples/game.pgn --ply 5
    """
    import ksolve

    jobs = solve_jobs(jobs, at_most, search)
    if certificate_path and file.endswith(".pgn"):
        fail("--certificate: certificates are checked against a problem file (.toml), not a game")
    if certificate_path:
        check_writable(certificate_path, "--certificate")
    with input_errors():
        problem = ksolve.load_problem(file, ply=ply, moves=moves, max_positions=max_positions,
                                      resources=resources())
        problem = _twin(problem, twin_name)
        if file.endswith(".pgn"):
            moves = None  # the stipulation came from --ply/--moves
        rules = ksolve.rule_set(rules_name) if rules_name else None
        result = ksolve.solve(problem, rules=rules, moves=moves, at_most=at_most,
                              limits=search_limits(timeout, max_nodes),
                              progress=progress_printer(None if at_most else problem.goal),
                              search=search, jobs=jobs)
    if certificate_path and result.status == "solved" and result.tree is None:
        click.echo(f"ksolve: no certificate written to {certificate_path}: {result.reason}", err=True)
    elif certificate_path and result.status == "solved":
        _write_certificate(problem, result, certificate_path, dag=certificate_format == "dag")
    if as_json:
        import json

        from ksolve.report.json import result_json

        click.echo(json.dumps(result_json(result, problem), indent=1))
    else:
        from ksolve.report.text import render_solution_text

        click.echo(render_solution_text(problem, result, full=full))
        click.echo(f"{result.nodes:,} nodes, {result.seconds:.2f} s", err=True)
    sys.exit(_exit_code(result.status))


def _twin(problem, name: str | None):
    """The twin called ``name`` (None: the problem as printed, saying on stderr
    which twins the file has)."""
    if name is None:
        if problem.twins:
            names = ", ".join(twin.twin for twin in problem.twins)
            click.echo(f"ksolve: {problem.source} has twins {names}: --twin NAME solves one", err=True)
        return problem
    for twin in problem.twins:
        if twin.twin == name:
            return twin
    names = ", ".join(twin.twin for twin in problem.twins) or "none"
    fail(f"--twin: {problem.source} has no twin {name!r} (its twins: {names})")


def _exit_code(status: str) -> int:
    return {"solved": EXIT_SOLVED, "no solution": EXIT_NO_SOLUTION}.get(status, EXIT_UNKNOWN)


def _write_certificate(problem, result, path: str, dag: bool = False) -> None:
    import json

    import ksolve

    write_output(path, json.dumps(ksolve.certificate(problem, result, dag=dag), separators=(",", ":")),
                 "--certificate")
    click.echo(f"ksolve: certificate written to {path}", err=True)


@main.command()
@click.argument("path", type=click.Path())
@click.option("--moves", type=click.IntRange(1, 60), help="Check mate in N (default: the stipulation).")
@click.option("--tries", "max_tries", type=click.IntRange(min=0), help="List only the best K tries.")
@click.option("--no-duals", is_flag=True, help="Skip the search for duals.")
@click.option("--rules", "rules_name", help="Verify under this rule set instead of the file's.")
@click.option("--timeout", type=Seconds(), default=DEFAULT_TIMEOUT, show_default=True,
              help="Give up after S seconds per problem (status unknown; 0: no limit).")
@click.option("--json", "as_json", is_flag=True, help="Print the verification as JSON.")
@jobs_option
@scheduler_option
@click.option("--results", "results_path", type=click.Path(dir_okay=False, writable=True),
              help="With --jobs/--scheduler: append each problem's result to this JSON-lines file as it "
                   "ends; a re-run with the same file skips the problems done.")
@click.option("--certificate", "certificate_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the whole verdict as a certificate for `ksolve check`: each key's strategy, each "
                   "other first move's refutation, no shorter mate (one problem file).")
@max_memory_option
def verify(path: str, moves: int | None, max_tries: int | None, no_duals: bool, rules_name: str | None,
           timeout: float, as_json: bool, jobs: int | None, scheduler: str | None, results_path: str | None,
           certificate_path: str | None) -> None:
    """Check a problem's soundness: keys, cooks, short solutions, tries with
    their refutations, duals.  PATH is a problem file or a folder of them
    (then a summary table).  Exit 0 sound, 1 cooked / short / no solution,
    3 unknown, 130 interrupted (Ctrl-C).  --jobs N: a folder's problems
    verified at once on a local Dask cluster of N workers (--scheduler: an
    existing cluster); one problem's first attempts shared by N worker
    processes (the same answers, sooner on several cores; by default one
    per core, --jobs 1: one process), or with --scheduler by the workers
    of an existing Dask cluster, one task per first attempt.

    \b
    Example:
      ksolve verify problems/rotenberg-1976.toml --tries 5 --jobs 2
      ksolve verify problems/ --jobs 2 --results verify.jsonl
      ksolve verify problems/rotenberg-1976.toml --scheduler tcp://10.0.0.5:8786
      ksolve verify problems/foster-1996.toml --certificate foster-verdict.json
    """
    from pathlib import Path

    import ksolve
    from ksolve.verification import EXIT_CODES

    if not Path(path).exists():
        fail(f"{path}: no such file or folder")
    if results_path:
        check_writable(results_path, "--results")
    if certificate_path:
        if Path(path).is_dir():
            fail("--certificate: the certificate of one problem file's verdict (not a folder)")
        check_writable(certificate_path, "--certificate")
    files = sorted(Path(path).glob("*.toml")) if Path(path).is_dir() else [Path(path)]
    if not files:
        fail(f"{path}: no problem files (*.toml) in this folder")
    rules = load_rules(rules_name) if rules_name else None
    with input_errors():  # every file read before the first is verified
        problems = [member for file in files  # each twin verified on its own
                    for member in ksolve.load_problem(str(file), resources=resources()).with_twins()]
    if (jobs is not None or scheduler) and Path(path).is_dir():
        from ksolve.cli_compose import verify_on_cluster

        from ksolve.execution.options import RunOptions

        with input_errors():
            options = RunOptions(rules_name, moves, seconds=timeout or None, tries=max_tries, duals=not no_duals)
        reports = verify_on_cluster(problems, options, jobs, scheduler, results_path)
    elif results_path:
        fail("--results: for a folder of problems (one problem's result is printed)")
    elif scheduler:
        from ksolve.cli_compose import verify_first_moves_on_cluster

        reports = verify_first_moves_on_cluster(problems, rules_name, moves, timeout, max_tries, not no_duals,
                                                scheduler)
    else:
        processes = capped(jobs) or machine_cores()  # by default one per core
        reports = []
        for problem in problems:
            with input_errors():
                report = ksolve.verify(problem, rules=rules, moves=moves, limits=search_limits(timeout),
                                       tries=max_tries, duals=not no_duals, jobs=processes,
                                       progress=progress_printer(subject=f"{problem.source}: verifying, "))
            reports.append((problem, report))
    if as_json:
        import json

        data = [{"problem": problem.source, "id": problem.id, **report.as_dict()} for problem, report in reports]
        click.echo(json.dumps(data[0] if len(data) == 1 and not Path(path).is_dir() else data, indent=1))
    elif len(reports) == 1 and not Path(path).is_dir():
        from ksolve.report.text import render_verification_text

        problem, report = reports[0]
        click.echo(f"{problem.name}: {problem.stipulation}, rules {report.rules}")
        click.echo(render_verification_text(report.as_dict()))
        click.echo(f"{report.nodes:,} nodes, {report.seconds:.1f} s", err=True)
    else:
        from ksolve.report.text import render_verification_table

        click.echo(render_verification_table(reports))
    if certificate_path:
        _write_verdict_certificate(*reports[0], certificate_path, timeout)
    worst = max(EXIT_CODES[report.verdict] for _, report in reports)
    sys.exit(worst)


def _write_verdict_certificate(problem, report, path: str, timeout: float) -> None:
    """Write the certificate of ``report``'s verdict, within what is left of ``timeout``
    (a line of progress a second at most)."""
    import json
    import time

    from ksolve.verdict_certificates import verdict_certificate
    from ksolve.verification import UNKNOWN

    if report.verdict == UNKNOWN:
        click.echo(f"ksolve: no certificate written to {path}: the verdict is not decided", err=True)
        return
    left = max(0.001, timeout - report.seconds) if timeout else 0
    shown = [0.0]
    started = time.monotonic()

    def progress(what: str, index: int, parts: int) -> None:
        if time.monotonic() - shown[0] >= 1.0:
            shown[0] = time.monotonic()
            click.echo(f"ksolve: certificate: part {index} of {parts}, {what} "
                       f"({shown[0] - started:.0f} s)", err=True)

    written = verdict_certificate(problem, report, limits=search_limits(left), progress=progress)
    write_output(path, json.dumps(written.data, separators=(",", ":")), "--certificate")
    for part in written.left_out:
        click.echo(f"ksolve: the certificate leaves out {part}", err=True)
    strategies, refutations = len(written.data["strategies"]), len(written.data["refutations"])
    click.echo(f"ksolve: certificate written to {path} ({strategies} strateg{'y' if strategies == 1 else 'ies'}, "
               f"{refutations} refutation{'' if refutations == 1 else 's'})", err=True)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("certificate_file", type=click.Path(dir_okay=False))
def check(file: str, certificate_file: str) -> None:
    """Replay a certificate against every initial position of FILE and every
    Black reply, with python-chess and an independent referee: prints
    "verified" (exit 0) or the first counterexample (exit 1).

    \b
    Example:
      ksolve solve problems/rotenberg-1976.toml --certificate rotenberg.json
      ksolve check problems/rotenberg-1976.toml rotenberg.json
    """
    import ksolve
    from ksolve.checker import CertificateError, ProblemFileError

    try:
        result = ksolve.check(file, certificate_file)
    except (CertificateError, ProblemFileError) as error:  # each names its file
        fail(str(error))
    click.echo(result.format())
    sys.exit(EXIT_SOLVED if result.verified else EXIT_NO_SOLUTION)


REPORT_FORMATS = ("text", "json", "html", "dot", "graphml")
"""The formats of ``ksolve report`` (``ksolve.report.REPORT_FORMATS``, repeated here so that
``ksolve --help`` imports nothing of the library)."""


@main.command()
@click.argument("file", type=click.Path())
@click.option("--format", "output_format", type=click.Choice(REPORT_FORMATS), default="text", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the report here (default: standard output).")
@click.option("--moves", type=click.IntRange(1, 60), help="Mate in N (default: the stipulation).")
@click.option("--ply", type=click.IntRange(1, 119), help="For a game (.pgn): mate within D plies.")
@click.option("--rules", "rules_name", help="Solve under this rule set instead of the file's.")
@click.option("--timeout", type=Seconds(), default=DEFAULT_TIMEOUT, show_default=True,
              help="Give up after S seconds, each of solve and verify, per problem (status unknown; 0: no limit).")
@click.option("--no-verify", is_flag=True, help="Leave out the verification (tries, cooks, duals).")
@click.option("--tries", "max_tries", type=click.IntRange(min=0), help="List only the best K tries.")
@max_memory_option
def report(file: str, output_format: str, output: str | None, moves: int | None, ply: int | None,
           rules_name: str | None,
           timeout: float, no_verify: bool, max_tries: int | None) -> None:
    """Solve FILE and write its solution tree as text (composers' conventions,
    with the tries), JSON, one self-contained HTML page with diagrams, or a
    graph (DOT, GraphML).  FILE may be a folder of problem files (*.toml):
    with --format html, one booklet page (an index with the verdicts, then
    every problem).  Exit codes as for ``solve`` (a folder: the worst).

    \b
    Example:
      ksolve report problems/rotenberg-1976.toml --format html -o rotenberg.html
      ksolve report problems/ --format html --timeout 60 -o booklet.html
    """
    from pathlib import Path

    import ksolve
    from ksolve.report import VERIFIED_FORMATS, render_report

    if output:
        check_writable(output, "-o")
    if Path(file).is_dir():
        _report_booklet(file, output_format, output, moves, rules_name, timeout, no_verify, max_tries)
    with input_errors():
        problem = ksolve.load_problem(file, ply=ply, moves=moves, resources=resources())
        if file.endswith(".pgn"):
            moves = None
        rules = ksolve.rule_set(rules_name) if rules_name else None
        session = ksolve.Analysis(problem, rules, moves)
    result = ksolve.solve(session, limits=search_limits(timeout), progress=progress_printer(problem.goal))
    verification = None
    if not no_verify and output_format in VERIFIED_FORMATS and result.status != "unknown":
        verification = ksolve.verify(session, limits=search_limits(timeout), tries=max_tries,
                                     progress=progress_printer(subject=f"{result.status}; then verifying, "))
    others = ksolve.key_solutions(session, result, verification, search_limits(timeout)) \
        if output_format == "html" else []
    try:
        text = render_report(output_format, problem, result, verification, others)
    except ValueError as error:
        fail(str(error))
    if output:
        write_output(output, text)
        click.echo(f"ksolve: {output_format} report written to {output}", err=True)
    else:
        click.echo(text, nl=not text.endswith("\n"))
    sys.exit(_exit_code(result.status))


def _report_booklet(folder: str, output_format: str, output: str | None, moves: int | None,
                    rules_name: str | None, timeout: float, no_verify: bool, max_tries: int | None) -> NoReturn:
    """``ksolve report FOLDER --format html``: every problem file of the folder solved and
    verified (each within ``timeout`` seconds), on one booklet page."""
    from pathlib import Path

    import ksolve
    from ksolve.report.booklet import BookletEntry, render_booklet

    if output_format != "html":
        fail(f"{folder}: a folder makes one HTML booklet: use --format html (not {output_format})")
    files = sorted(Path(folder).glob("*.toml"))
    if not files:
        fail(f"{folder}: no problem files (*.toml) in this folder")
    entries = []
    for number, path in enumerate(files, 1):
        with input_errors():
            problem = ksolve.load_problem(str(path), moves=moves, resources=resources())
            session = ksolve.Analysis(problem, ksolve.rule_set(rules_name) if rules_name else None, moves)
        result = ksolve.solve(session, limits=search_limits(timeout), progress=progress_printer(problem.goal))
        verification = None
        if not no_verify and result.status != "unknown":
            verification = ksolve.verify(session, limits=search_limits(timeout), tries=max_tries,
                                         progress=progress_printer(subject=f"{result.status}; then verifying, "))
        entries.append(BookletEntry(problem, result, verification,
                                    ksolve.key_solutions(session, result, verification, search_limits(timeout))))
        verdict = verification.verdict if verification is not None else result.status
        click.echo(f"ksolve: [{number}/{len(files)}] {path.name}: {verdict}", err=True)
    text = render_booklet(entries, Path(folder).resolve().name)
    if output:
        write_output(output, text)
        click.echo(f"ksolve: html booklet of {len(entries)} problems written to {output}", err=True)
    else:
        click.echo(text)
    sys.exit(max(_exit_code(entry.solution.status) for entry in entries))


def load_rules(name: str):
    """The rule set called ``name``, or a one-line error naming the valid ones."""
    import ksolve

    with input_errors():
        return ksolve.rule_set(name)


@main.command()
@click.option("--rules", "rules_name", default="berkeley", show_default=True, help="Referee rule set.")
@click.option("--fen", required=True, help="The true position.")
@click.argument("attempts", nargs=-1)
def referee(rules_name: str, fen: str, attempts: tuple[str, ...]) -> None:
    """Print the referee's answer to each attempt (UCI, or "any" for Any?),
    the side to move making them in turn.

    \b
    Example:
      ksolve referee --rules wild16 --fen "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1" e4e5 e4d5
    """
    import ksolve

    rules = load_rules(rules_name)
    if not attempts:
        fail("ATTEMPTS: missing (the attempts to answer, e.g. e2e4)")
    with input_errors():
        answers = ksolve.referee_answers(rules, fen, list(attempts))
    for side, token, words in answers:
        click.echo(f"{side} {token}: {words}")


@main.command()
@click.option("--rules", "rules_name", default="berkeley", show_default=True, help="Referee rule set.")
@click.option("--fen", help="The visible position (hidden units left out).")
@click.option("--hidden", "hidden", multiple=True,
              help="A hidden unit PIECES:SQUARES, e.g. b:dark, k:e2,e5, p?:a-file, q|r|b|n:e1.")
@click.option("--max-positions", type=click.IntRange(min=1), default=2_000_000, show_default=True,
              help="For a game: the largest belief to estimate.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="For a game: write an SVG heatmap of Black's possible squares.")
@click.option("--positions", "position_set", type=click.Choice(["reachable", "all"]), default="reachable",
              show_default=True, help="With --fen: the positions some game reaches, or every legal one.")
@max_memory_option
@click.argument("events", nargs=-1)
def belief(rules_name: str, fen: str | None, hidden: tuple[str, ...], max_positions: int, output: str | None,
           position_set: str, events: tuple[str, ...]) -> None:
    """Print the size of White's belief and where Black's men may stand: at
    the end of a Kriegspiel game (``ksolve belief GAME.pgn``: White's belief
    estimated from his filtered history, a text heatmap per black man type),
    or from a visible position after a sequence of events: White's attempts
    as UCI:ANSWER (e.g. a2g2:No, d3f2:"Capture at f2") and Black's replies as
    black:ANSWER.  The answer may be left out when only one is possible.

    \b
    Example:
      ksolve belief examples/game.pgn -o heatmap.svg
      ksolve belief --fen "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1" --hidden b:dark a2g2:No
    """
    import ksolve
    from ksolve.events import apply_event
    from ksolve.report.text import hidden_squares_text

    if fen is None:
        if len(events) != 1 or not events[0].endswith(".pgn"):
            fail("give a game (GAME.pgn) or a position (--fen) with its events")
        if output and not output.lower().endswith(".svg"):
            fail(f"-o: {output}: the heatmap is written as SVG (name the file .svg); PNG is not supported")
        if output:
            check_writable(output, "-o")
        _game_belief(events[0], max_positions, output)
        return
    if output:
        fail("-o: the heatmap is for a game's belief (GAME.pgn)")
    rules = load_rules(rules_name)
    with input_errors():
        state = ksolve.position_belief(fen, list(hidden), rules, resources(), reachable=position_set == "reachable")
        beliefs = [state]
        for number, event in enumerate(events, 1):
            beliefs.append(apply_event(beliefs[-1], rules, event, number))
    click.echo(f"Belief: {len(state)} positions ({rules.name})")
    if state.left_out.total:
        click.echo(f"Left out: {state.left_out.describe()}")
    for event, after in zip(events, beliefs[1:]):
        click.echo(f"after {event}: {len(after)} positions")
    squares = hidden_squares_text(beliefs[-1])
    if squares:
        click.echo(squares)


@main.command(name="filter")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--side", type=click.Choice(["white", "black"]), default="white", show_default=True,
              help="Whose view to keep.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Default: standard output.")
def filter_command(file: str, side: str, output: str | None) -> None:
    """Write a Kriegspiel game (PGN) as one side heard it: the other side's
    moves become ``??`` with what was heard of them (refusal counts).

    \b
    Example:
      ksolve filter examples/game.pgn -o game-white.pgn
    """
    import ksolve
    from ksolve.games.model import filter_game
    from ksolve.games.pgn import write_game

    if output:
        check_writable(output, "-o")
    with input_errors():
        text = write_game(filter_game(ksolve.read_game(file), side == "white"))
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
    else:
        write_output(output, text)


def _game_belief(file: str, max_positions: int, output: str | None) -> None:
    """White's belief at the end of a game, as text heatmaps (and an SVG one)."""
    import ksolve
    from ksolve.report.heatmap import heatmap_svg, heatmap_text, square_counts

    with input_errors():
        game = ksolve.read_game(file)
        state = ksolve.game_belief(game, max_positions, source=file)
    click.echo(f"{file}: {len(state):,} position{'s' if len(state) != 1 else ''} ({game.rules}), "
               f"{state.side_to_move} to move")
    counts = square_counts(state)
    for name, grid in counts.items():
        click.echo(f"\nblack {name}:")
        click.echo(heatmap_text(grid, len(state)))
    if output:
        write_output(output, heatmap_svg(counts, len(state)))
        click.echo(f"ksolve: heatmap written to {output}", err=True)


@main.command()
@click.option("--rules", "rules_name", default="berkeley", show_default=True, help="Referee rule set.")
@click.option("--games", type=click.IntRange(min=1), required=True, help="Games to play.")
@click.option("--ply", type=click.IntRange(1, 15), required=True, help="Mate within D plies.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the games and starts.")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder for mate/, near-miss/ and stats.csv.")
@click.option("--start", type=click.Choice(["endgame", "initial"]), default="endgame", show_default=True,
              help="Random endgame positions, or the standard start.")
@click.option("--seconds", type=Seconds(0.01), default=2.0, show_default=True,
              help="Time limit of one proof.")
@click.option("--max-positions", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="A game's belief larger than this ends its examination.")
@jobs_option
@scheduler_option
def generate(rules_name: str, games: int, ply: int, seed: int, out_dir: str, start: str, seconds: float,
             max_positions: int, jobs: int | None, scheduler: str | None) -> None:
    """Play seeded games between a greedy White and a random Black, estimate
    White's belief at each of his turns and write the instances where he
    forces mate within D plies ("mate") or nearly does ("near-miss") as
    filtered PGN, with a CSV of statistics.  Each game is seeded by the seed
    and its number: the same set in one process and with --jobs/--scheduler
    (the games then tasks on a Dask cluster, and -o's results.jsonl lets a
    re-run skip the games done).

    \b
    Example:
      ksolve generate --rules berkeley --games 100 --ply 3 --seed 1 -o bench3
      ksolve generate --games 1000 --ply 3 --jobs 2 -o bench3
    """
    from pathlib import Path

    from ksolve.games.generate import RESULTS_NAME, endgame_starts, generate as generate_games

    rules = load_rules(rules_name)
    if not rules.kriegspiel_games:
        fail(f"--rules: games are Kriegspiel games; use one of the six Kriegspiel rule sets, not {rules.name}")
    check_writable(out_dir, "-o", folder=True)
    fens = endgame_starts(games, seed) if start == "endgame" else None
    from ksolve.cli_compose import game_printer, local_or_remote_cluster

    on_cluster = jobs is not None or scheduler
    try:
        with input_errors(), local_or_remote_cluster(jobs, scheduler) as client:
            rows = generate_games(rules.name, games, ply, seed, out_dir, fens=fens, seconds=seconds,
                                  max_positions=max_positions, client=client,
                                  results=Path(out_dir) / RESULTS_NAME if on_cluster else None,
                                  progress=game_printer())
    except OSError as error:
        fail(f"-o: {error.filename}: {error.strerror}")
    click.echo(f"{len(rows)} turns examined: {sum(row['result'] == 'mate' for row in rows)} mate, "
               f"{sum(row['result'] == 'near-miss' for row in rows)} near-miss instances written to {out_dir}")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default: this machine only; any other asks for the token).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--problems", "problems_dir", type=click.Path(exists=True, file_okay=False),
              help="The Library's folder of problem files (read and written there only).")
@click.option("--open", "open_browser", is_flag=True, help="Open the workbench in the web browser.")
@click.option("--jobs", "max_running", type=click.IntRange(min=1),
              help="Solve and verify jobs run at once (default: the number of cores); 8 more may wait.")
@click.option("--token", is_flag=False, flag_value="", default=None, envvar="KSOLVE_TOKEN", metavar="[TOKEN]",
              help="Every request needs this token (16 or more characters; --token alone: a random one). "
                   "Always on off loopback (a random one unless given); also read from KSOLVE_TOKEN.")
@click.option("--no-token", is_flag=True, help="No token (loopback only: the default there).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer to this host name (a reverse proxy's); repeatable.")
def serve(host: str, port: int, problems_dir: str | None, open_browser: bool, max_running: int | None,
          token: str | None, no_token: bool, allow_hosts: tuple[str, ...]) -> None:
    """Start the composer's workbench, a web app on this machine: compose a
    problem on a board, verify it with live progress, try it against the
    worst-case referee, browse the problems folder.  It answers its own pages
    only (other sites' requests are refused), and off loopback every request
    needs the token of the address it prints.  Ctrl-C stops it.

    \b
    Examples:
      ksolve serve --problems problems --open
      ksolve serve --host 0.0.0.0 --problems problems     # prints http://...:8000/?token=...
      ksolve serve --allow-host ksolve.example.org --token  # behind a reverse proxy
    """
    import os
    from pathlib import Path

    from ksolve.web.server import access_for, serve as serve_workbench

    with input_errors():
        access = access_for(host, token, no_token, allow_hosts)
        serve_workbench(host, port, Path(problems_dir) if problems_dir else None, max_running or os.cpu_count() or 1,
                        open_browser, lambda line: click.echo(line, err=True), access)


main.add_command(cli_compose.compose)
main.add_command(cli_compose.mend)
main.add_command(cli_endgame.endgame)
main.add_command(cli_yacpdb.export)
main.add_command(cli_yacpdb.import_command)

from ksolve.cli_play import play as play_command  # noqa: E402
main.add_command(play_command)


if __name__ == "__main__":
    main()
