"""``ksolve endgame``: build, resume or show an endgame table (thin: parse,
call ``ksolve.endgame`` / ``ksolve.read_endgame``, print).  Exit 0 with the
table, 2 on bad input (one ``ksolve: error:`` line, before any long work), 3
when the table stopped incomplete (``--timeout``, a failed task), 130 on Ctrl-C.

    ksolve endgame KQK --rules berkeley -o kqk.tsv     # the table; Ctrl-C, then the same to resume
    ksolve endgame --show kqk.tsv --report kqk.html    # its maximum and heat maps
"""

from __future__ import annotations

import sys
import time

import click

from ksolve.cli_compose import cluster_jobs, jobs_option, scheduler_option
from ksolve.cli_support import (
    EXIT_UNKNOWN,
    Seconds,
    check_writable,
    fail,
    input_errors,
    max_memory_option,
    say_when_compiling,
    say_when_interrupted,
    write_output,
)


@click.command()
@click.argument("material", required=False)
@click.option("--rules", "rules_name", default="berkeley", show_default=True,
              help="The rule set (berkeley, wild16, fog-of-war, ...).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="The table file (tab-separated), appended to as rows are decided; run again to resume.")
@click.option("--max-moves", type=click.IntRange(1, 120), default=50, show_default=True,
              help="The longest win looked for (rows beyond it: 'none within N').")
@click.option("--start", type=click.Choice(["anywhere", "general"]), default="anywhere", show_default=True,
              help="Where the black king may start: any legal square, or in general position "
                   "(not next to a White man no other guards: no man lost at once).")
@click.option("--timeout", type=Seconds(), default=0, show_default=True,
              help="Stop after S seconds, the tables' build and --certify included, keeping the rows "
                   "decided and the certificates written (exit 3; 0: no limit).")
@jobs_option
@scheduler_option
@max_memory_option
@click.option("--show", "show_file", type=click.Path(dir_okay=False),
              help="Print a table file's summary and heat maps (no search).")
@click.option("--report", "report_file", type=click.Path(dir_okay=False),
              help="Write the HTML report (summary, heat maps, the placements reaching the maximum).")
@click.option("--svg", "svg_folder", type=click.Path(file_okay=False),
              help="Write each heat map as an SVG file into this folder.")
@click.option("--certify", "certify_folder", type=click.Path(file_okay=False),
              help="Write the problem file and certificate of every placement reaching the maximum, "
                   "then the refutation of every row 'none', into this folder, and check each with the "
                   "independent checker (--timeout: stop there, exit 3).")
def endgame(material: str | None, rules_name: str, output: str | None, max_moves: int, start: str, timeout: float,
            jobs: int | None, scheduler: str | None, show_file: str | None, report_file: str | None,
            svg_folder: str | None, certify_folder: str | None) -> None:
    """Kriegspiel endgame tables from total ignorance: for every placement of
    White's men (up to symmetry) in MATERIAL (KQK, KRK, KBBK, KBNK, KRRK, KPK, ...),
    the black king on any legal square, White to move, the shortest sure win
    under the rule set.  Progress on stderr; Ctrl-C keeps the rows decided.
    Exit 0 with the whole table, 3 when it stopped incomplete (--timeout)."""
    import ksolve
    from ksolve.cli_support import _MAX_MEMORY

    started = time.monotonic()
    if (material is None) == (show_file is None):
        fail("MATERIAL: give a material to compute (e.g. KQK) or --show FILE, not both" if material
             else "MATERIAL: missing (e.g. KQK), or --show FILE")
    for path, option in ((output, "-o"), (report_file, "--report")):
        if path:
            check_writable(path, option)
    for folder, option in ((svg_folder, "--svg"), (certify_folder, "--certify")):
        if folder:
            check_writable(folder, option, folder=True)
    if show_file is not None:
        with input_errors():
            table = ksolve.read_endgame(show_file)
    else:
        table = _compute(material, rules_name, output, max_moves, start, timeout, jobs, scheduler,
                         click.get_current_context().meta.get(_MAX_MEMORY))
    _print(table)
    deadline = started + timeout if timeout else None
    everything = _write_pictures(table, report_file, svg_folder, certify_folder, deadline)
    if (show_file is None and not table.complete) or not everything:
        sys.exit(EXIT_UNKNOWN)


def _compute(material: str, rules: str, output: str | None, max_moves: int, start: str, timeout: float,
             jobs: int | None, scheduler: str | None, memory: int | None):
    import ksolve

    jobs = cluster_jobs(jobs, scheduler)
    say_when_compiling()
    seen = []
    last = [0.0]

    def progress(state) -> None:
        seen[:] = [state]
        if state.seconds - last[0] < 1.0 and state.open:
            return
        last[0] = state.seconds
        click.echo(f"ksolve: depth {state.depth}: {state.decided:,} of {state.placements:,} placements decided, "
                   f"{state.open:,} open, {state.nodes:,} nodes, {state.seconds:.1f} s", err=True)

    def established() -> str:
        if not seen:
            return "before the first rows"
        state = seen[0]
        kept = f" (kept in {output}; run again to resume)" if output else ""
        return (f"{state.decided:,} of {state.placements:,} placements decided, no win within "
                f"{state.depth - 1} for the {state.open:,} others{kept}")

    built = [0.0]

    def building(done: int, total: int) -> None:
        from ksolve.compilation import work_clock

        now = work_clock()
        if now - built[0] >= 1.0:
            built[0] = now
            click.echo(f"ksolve: building the {material.upper()} tables: {done:,} of {total:,} placements", err=True)

    say_when_interrupted(established)
    with input_errors():
        table = ksolve.endgame(material, rules=rules, output=output, max_moves=max_moves, start=start, jobs=jobs,
                               scheduler=scheduler, seconds=timeout or None, memory=memory, progress=progress,
                               building=building)
    if not table.complete:
        click.echo(f"ksolve: {table.stopped or 'stopped'}: {len(table.rows):,} of {table.placements:,} placements "
                   f"decided" + (f" (kept in {output}; run again to resume)" if output else ""), err=True)
    return table


def _print(table) -> None:
    from ksolve.report.endgame import heat_map_text, heat_maps, summary_text

    click.echo(summary_text(table))
    for heat in heat_maps(table)[:1] if table.rows else []:
        click.echo(f"\nworst shortest win by {heat.title} (x: no sure win with the man there):")
        click.echo(heat_map_text(heat))
        click.echo(f"\nmean shortest win by {heat.title}:")
        click.echo(heat_map_text(heat, mean=True))


def _write_pictures(table, report_file: str | None, svg_folder: str | None, certify_folder: str | None,
                    deadline: float | None = None) -> bool:
    """The report, the heat maps and the certificates asked for; False where the
    certification stopped at ``deadline`` with rows left."""
    from pathlib import Path

    from ksolve.report.endgame import heat_map_svg, heat_maps, report_html, without_svg

    certificates = {}
    everything = True
    if certify_folder:
        from ksolve.endgame import certify_rows

        def told(row) -> None:
            click.echo(f"ksolve: {row.describe()}", err=True)

        wanted = table.reaching_maximum() + [row for row in table.rows if row.never]
        certified = certify_rows(table, wanted, certify_folder, progress=told, deadline=deadline)
        certificates = {row.placement: str(row.certificate) for row in certified if row.certificate is not None}
        verified = sum(row.verified for row in certified)
        maxima = len(table.reaching_maximum())
        click.echo(f"certificates: {verified} of {len(certified)} verified by the checker "
                   f"(the {maxima} maxima, then the rows 'none'; in {certify_folder})")
        if len(certified) < len(wanted):
            everything = False
            click.echo(f"stopped at --timeout: {len(wanted) - len(certified)} rows not certified", err=True)
    if report_file:
        write_output(report_file, report_html(table, certificates), "--report")
    if svg_folder:
        folder = Path(svg_folder)
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{table.material.lower()}-{table.rules}"
        some_lost = any(row.moves is None for row in table.rows)
        for heat in heat_maps(table):
            for mean in (False, True):
                name = f"{stem}-{heat.man.lower()}-{'mean' if mean else 'worst'}.svg"
                write_output(str(folder / name), heat_map_svg(heat, mean), "--svg")
            if some_lost:
                write_output(str(folder / f"{stem}-{heat.man.lower()}-without.svg"), without_svg(heat), "--svg")
    return everything

