"""``ksolve export`` and ``ksolve import``: problems to and from YACPDB entries and Olive
collections, out to Popeye's input and LaTeX diagrams (thin: read, call ``ksolve.yacpdb``
or ``ksolve.latex``, write).  Exit 0, or 2 on bad input (one
``ksolve: error:`` line naming the file, the entry and the field, before anything is written).

    ksolve export problems/foster-1996.toml --to yacpdb -o foster.yaml
    ksolve export problems --to olive -o kriegspiel.olv
    ksolve export problems --to latex -o booklet.pdf
    ksolve import kriegspiel.olv -o imported
"""

from __future__ import annotations

from pathlib import Path

import click

from ksolve.cli_support import check_writable, fail, input_errors, write_output


@click.command(name="export")
@click.argument("path", type=click.Path())
@click.option("--to", "target", type=click.Choice(["yacpdb", "olive", "popeye", "latex"]), required=True,
              help="yacpdb: one problem file as a YACPDB entry; olive: a folder's (or one file's) problems as an "
                   "Olive collection, one YAML document each; popeye: orthodox problems as Popeye's input; "
                   "latex: diagrams for print (diagram.sty), the solutions after them; -o NAME.pdf typesets it.")
@click.option("-o", "output", type=click.Path(dir_okay=False, writable=True), help="Write here (default: stdout).")
def export(path: str, target: str, output: str | None) -> None:
    """Write problem files as YACPDB entries (YAML): the diagram, stipulation, authors,
    source and solution in their fields, the rule set and the hidden units in comments,
    and the whole problem in one comment, so that `ksolve import` reads it back.  Or, for
    orthodox problems (Popeye sees every man), as Popeye's input.  Or as a LaTeX
    booklet of diagrams (the chess-problem-diagrams package), typeset to PDF when -o
    names a .pdf file and pdflatex is installed.

    \b
    Example:
      ksolve export problems/foster-1996.toml --to yacpdb -o foster.yaml
      ksolve export problems --to olive -o kriegspiel.olv
      ksolve export benchmarks/orthodox --to popeye -o orthodox.inp
      ksolve export problems --to latex -o booklet.pdf
    """
    import ksolve
    from ksolve.errors import read_text
    from ksolve.yacpdb import entries_text, popeye_collection, popeye_input, problem_entry

    folder = Path(path)
    if not folder.exists():
        fail(f"{path}: no such file or folder")
    if folder.is_dir() and target == "yacpdb":
        fail(f"{path}: a folder makes an Olive collection (--to olive); a YACPDB entry holds one problem")
    if output:
        check_writable(output, "-o")
    if output and output.lower().endswith(".pdf") and target != "latex":
        fail(f"-o {output}: a PDF is written by --to latex only")
    files = sorted(folder.rglob("*.toml")) if folder.is_dir() else [folder]
    if not files:
        fail(f"{path}: no problem files (*.toml) in this folder")
    if target == "latex":
        _export_latex(files, output)
        return
    entries = []
    for file in files:
        with input_errors():
            ksolve.load_problem(str(file))  # a file ksolve reads, each error one line
            entries.append(popeye_input(read_text(file), str(file)) if target == "popeye"
                           else problem_entry(read_text(file), str(file)))
    text = popeye_collection(entries) if target == "popeye" else entries_text(entries)
    if output:
        write_output(output, text)
        what = "problem" if target == "popeye" else "entry"
        click.echo(f"ksolve: {len(entries)} {what if len(entries) == 1 else what.replace('y', 'ie') + 's'} written "
                   f"to {output}", err=True)
    else:
        click.echo(text, nl=False)


def _export_latex(files: list[Path], output: str | None) -> None:
    """The problems as one LaTeX document (or its PDF, for ``-o NAME.pdf``)."""
    import ksolve
    from ksolve.execution.typeset import LatexError, compile_pdf, tex_available
    from ksolve.latex import diagram, document

    pdf = output is not None and output.lower().endswith(".pdf")
    if pdf and not tex_available():
        fail(f"-o {output}: a PDF needs pdflatex and diagram.sty (Debian: apt-get install texlive-latex-base "
             "texlive-games texlive-pstricks texlive-fonts-recommended); write NAME.tex instead")
    diagrams = []
    for file in files:
        with input_errors():
            diagrams.append(diagram(ksolve.load_problem(str(file))))
    text = document(diagrams)
    if output is None:
        click.echo(text, nl=False)
        return
    if pdf:
        try:
            compile_pdf(text, Path(output))
        except LatexError as error:
            fail(f"-o {output}: {error}")
        except OSError as error:
            fail(f"-o {output}: {error.strerror or error}")
    else:
        write_output(output, text)
    click.echo(f"ksolve: {len(diagrams)} diagram{'' if len(diagrams) == 1 else 's'} written to {output}", err=True)


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "output", type=click.Path(file_okay=False), help="Write each problem here as ID.toml "
              "(default: one problem's file on stdout).")
def import_command(file: str, output: str | None) -> None:
    """Read a YACPDB entry or an Olive collection (YAML) as problem files: those `ksolve
    export` wrote come back as they were; other entries are read as orthodox mates in N
    (White to move; fairy pieces and other stipulations are refused).

    \b
    Example:
      ksolve import kriegspiel.olv -o imported
    """
    import ksolve
    from ksolve.errors import NotText, read_text
    from ksolve.yacpdb import problem_from_entry, read_entries

    try:
        text = read_text(file)
    except OSError as error:
        fail(f"{file}: {error.strerror or error}")
    except NotText as error:
        fail(f"{file}: {error}")
    with input_errors():
        entries = read_entries(text, file)
        problems = []
        for number, entry in enumerate(entries, 1):
            where = f"{file}: entry {number}" if len(entries) > 1 else file
            identifier, toml = problem_from_entry(entry, where)
            ksolve.load_problem_text(toml, f"{where} ({identifier})")  # each error one line
            problems.append((identifier, toml))
    if output is None:
        if len(problems) > 1:
            fail(f"{file}: {len(problems)} entries: give -o FOLDER to write one problem file each")
        click.echo(problems[0][1], nl=False)
        return
    check_writable(output, "-o", folder=True)
    names = [identifier for identifier, _ in problems]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        fail(f"{file}: two entries have the id {repeated[0]!r}: one file each needs ids of their own")
    Path(output).mkdir(parents=True, exist_ok=True)
    for identifier, toml in problems:
        write_output(str(Path(output) / f"{identifier}.toml"), toml)
    click.echo(f"ksolve: {len(problems)} problem file{'' if len(problems) == 1 else 's'} written to {output}",
               err=True)
