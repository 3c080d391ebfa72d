"""The certified collection's pages, written when the site builds (a Sphinx extension).

From ``docs/collection/verdicts.json`` (``python docs/make_collection.py`` measures it) and
the problem files, it writes into ``docs/collection/generated/`` (not kept in git): one
page per problem (the diagram, source, rule set, hidden units, the verdict with its keys,
tries and their refutations, duals, the certificate's fate and the checker's line, the
published solution and the notes with their errata), the table of them all, the problem
files themselves, and the whole collection as one Olive/YACPDB file and as one LaTeX
booklet.  ``C+`` marks a problem only where the checker verified its whole verdict's
certificate, no part left out.

>>> rows = load_rows()
>>> row = next(row for row in rows if row["id"] == "foster-1996")
>>> certified(row), row["verification"]["verdict"]
(True, 'sound')
"""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COLLECTION = ROOT / "docs" / "collection"
VERDICTS = COLLECTION / "verdicts.json"
OLIVE = "ksolve-collection.olv"
BOOKLET = "ksolve-collection.tex"


def load_rows(path: Path = VERDICTS) -> list[dict[str, Any]]:
    """The collection's rows, one per problem file, in the file's order."""
    return json.loads(path.read_text(encoding="utf-8"))["problems"]


def certified(row: dict[str, Any]) -> bool:
    """Whether the checker verified the row's whole verdict (the C+ mark)."""
    certificate = row["certificate"]
    return certificate["result"] == "verified" and certificate.get("checker", "").startswith("verified:")


def status(row: dict[str, Any]) -> str:
    """The certificate's fate in a few words: ``C+``, or why not."""
    certificate = row["certificate"]
    if certified(row):
        return "C+"
    if certificate["result"] == "parts left out":
        return f"not certified: {len(certificate['left_out'])} part(s) left out"
    return certificate["result"].replace("not written: ", "not certified: ")


def write_pages(target: Path, rows: list[dict[str, Any]], root: Path = ROOT) -> list[Path]:
    """Write the collection into ``target`` (emptied first), the problem files read
    from ``root`` (the repository); the pages written."""
    import ksolve
    from ksolve.latex import diagram, document
    from ksolve.report.notebook import problem_svg
    from ksolve.yacpdb import entries_text, problem_entry

    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    written: list[Path] = []
    entries, diagrams = [], []
    for row in rows:
        source = root / row["file"]
        text = source.read_text(encoding="utf-8")
        problem = ksolve.load_problem(source)
        shutil.copyfile(source, target / f"{row['id']}.toml")
        entry = problem_entry(text, row["file"])
        entry["comments"][-1:-1] = [f"ksolve verdict: {row['verification']['line']}", status(row)]
        entries.append(entry)
        diagrams.append(diagram(problem, certified=certified(row)))
        page = target / f"{row['id']}.md"
        page.write_text(problem_page(row, problem, problem_svg(problem, size=320)), encoding="utf-8")
        written.append(page)
    (target / OLIVE).write_text(entries_text(entries), encoding="utf-8")
    (target / BOOKLET).write_text(document(diagrams, "ksolve's certified collection", certified_marks=True),
                                  encoding="utf-8")
    table = target / "table.md"
    table.write_text(table_text(rows), encoding="utf-8")
    return written


def table_text(rows: list[dict[str, Any]]) -> str:
    """The Markdown table of every problem, verdict and certificate (included by ``collection/index.md``)."""
    lines = ["| problem | stipulation | rules | verdict | certificate |", "|---|---|---|---|---|"]
    for row in rows:
        verification = row["verification"]
        mark = "**C+**" if certified(row) else status(row)
        lines.append(f"| [{row['id']}](generated/{row['id']}.md) | {_stipulation(verification)} | {row['rules']} "
                     f"| {verification['verdict']} | {mark} |")
    count = sum(certified(row) for row in rows)
    lines.append("")
    lines.append(f"{count} of {len(rows)} problems are C+.")
    return "\n".join(lines) + "\n"


def problem_page(row: dict[str, Any], problem: Any, svg: str) -> str:
    """One problem's page (Markdown, the diagram as inline SVG)."""
    from ksolve.latex import unit_words

    verification, certificate = row["verification"], row["certificate"]
    title = problem.title or row["id"]
    lines = [f"# {title}", "", f'<div class="ks-collection-diagram">{svg}</div>', ""]
    facts = [("author", problem.author), ("source", problem.origin), ("year", str(problem.year or "")),
             ("stipulation", problem.stipulation), ("rules", f"{problem.rules.name}: {problem.rules.title}"),
             ("hidden", "; ".join(unit_words(unit) for unit in problem.hidden)),
             ("positions", f"{verification['belief_size']:,}"), ("file", f"{{download}}`{row['id']}.toml`")]
    lines += ["| | |", "|---|---|"] + [f"| {name} | {_cell(value) if name != 'file' else value} |"
                                       for name, value in facts if value] + [""]
    lines += ["## Verdict", "", f"**{_markdown(verification['line'])}**", "",
              f"{'**C+**: ' if certified(row) else ''}{_markdown(_certificate_words(certificate))}", ""]
    if verification["keys"]:
        lines += ["Keys:", ""] + [f"- 1.{_markdown(key['label'])}! ({_stipulation(verification, key.get('moves'))})"
                                  for key in verification["keys"]] + [""]
    tries = verification["tries"]
    if tries:
        lines += [f"## Tries ({len(tries)} of {verification['tries_total']} other first moves)", "",
                  "| try | refutation |", "|---|---|"]
        lines += [f"| 1.{_cell(attempt['san'])}? | {_cell(attempt.get('refutation', ''))} |" for attempt in tries]
        lines.append("")
    if verification["duals_checked"]:
        lines += ["## Duals", ""]
        if verification["duals"]:
            lines += [f"- after {_markdown(dual['after'] or 'the key')}: {_markdown(dual['played'])} and "
                      f"{_markdown(', '.join(dual['also']))} at move {dual['move_number']}"
                      f"{' (main line)' if dual.get('main_line') else ''}" for dual in verification["duals"]]
        else:
            lines.append("None: at every White turn of the solution one move alone wins in time.")
        lines.append("")
    if problem.published_solution:
        lines += ["## Published solution", "", _markdown(" ".join(problem.published_solution.split())), ""]
    if problem.notes:
        lines += ["## Notes and errata", "", _markdown(" ".join(problem.notes.split())), ""]
    lines += ["## Check it yourself", "", "```sh",
              f"ksolve verify {row['file']} --certificate {row['id']}.json",
              f"ksolve check {row['file']} {row['id']}.json", "```", ""]
    if "sha256" in certificate:
        lines += [f"The certificate written so is {certificate['bytes']:,} bytes, SHA-256 "
                  f"`{certificate['sha256']}` (its JSON with sorted keys and no spaces).", ""]
    return "\n".join(lines)


def _certificate_words(certificate: dict[str, Any]) -> str:
    if certificate["result"] == "verified":
        return f"the checker: {certificate['checker']}"
    if certificate["result"] == "parts left out":
        return "Not certified: the certificate leaves out " + "; ".join(certificate["left_out"]) + "."
    if certificate["result"] == "not verified":
        return f"Not certified: the checker says {certificate['checker']}"
    return certificate["result"].replace("not written: ", "Not certified: ") + "."


def _stipulation(verification: dict[str, Any], moves: int | None = None) -> str:
    return ("xk" if verification["goal"] == "king-capture" else "#") + str(moves or verification["moves"])


def _markdown(text: str) -> str:
    """Text safe in a Markdown paragraph (no HTML, no emphasis by accident)."""
    escaped = html.escape(text, quote=False)
    for character in "\\*_`[]|#":
        escaped = escaped.replace(character, "\\" + character)
    return escaped


def _cell(text: str) -> str:
    return _markdown(text).replace("\n", " ")


def generate(app: Any) -> None:
    """``builder-inited``: write the collection into the source folder's ``collection/generated``
    (the problem files are read from the folder beside the docs, ``problems/``)."""
    source = Path(app.srcdir) / "collection"
    write_pages(source / "generated", load_rows(source / "verdicts.json"), Path(app.srcdir).resolve().parent)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
