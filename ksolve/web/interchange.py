"""The workbench's import and export: a problem file to a YACPDB entry, Popeye's input or
a LaTeX diagram, and a YACPDB entry or Olive collection to problem files, as ``ksolve
export`` and ``ksolve import`` write them (``ksolve.yacpdb``, ``ksolve.latex``); what
a format cannot say is one line (``ApiError`` 422).

>>> text = 'id = "m1"\\nstipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> exported = export_problem(text, "yacpdb")
>>> exported.filename, exported.text.splitlines()[1]
('m1.yaml', 'algebraic:')
>>> [problem.id for problem in import_entries(exported.text)]
['m1']
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

from ksolve.errors import InputError
from ksolve.web.errors import ApiError

EXPORTS = {"yacpdb": ".yaml", "olive": ".olv", "popeye": ".inp", "latex": ".tex"}
"""What a problem exports to, with its file's suffix."""
MAX_ENTRIES = 500
"""Entries of one imported collection."""


@dataclass(frozen=True)
class Exported:
    """A problem written in another format: the file's name and its text."""

    to: str
    filename: str
    text: str


@dataclass(frozen=True)
class Imported:
    """One entry read back: the problem's id and its TOML."""

    id: str
    problem: str


def export_problem(text: str, to: str) -> Exported:
    """The problem file ``text`` as ``to`` (one of :data:`EXPORTS`)."""
    import ksolve
    from ksolve.latex import diagram, document
    from ksolve.yacpdb import entries_text, popeye_input, problem_entry

    if to not in EXPORTS:
        raise ApiError(422, f"to: {to!r} is not one of {', '.join(EXPORTS)}")
    try:
        problem = ksolve.load_problem_text(text, "<problem>")
        if to == "latex":
            written = document([diagram(problem)])
        elif to == "popeye":
            written = popeye_input(text, "<problem>")
        else:
            written = entries_text([problem_entry(text, "<problem>")])
    except InputError as error:
        raise ApiError(422, str(error)) from None
    return Exported(to, f"{problem.id or 'problem'}{EXPORTS[to]}", written)


def import_entries(text: str) -> list[Imported]:
    """The problems of a YACPDB entry or an Olive collection (YAML without aliases)."""
    import ksolve
    from ksolve.yacpdb import problem_from_entry, read_entries

    try:
        if any(isinstance(event, yaml.AliasEvent) for event in yaml.parse(text, Loader=yaml.SafeLoader)):
            raise ApiError(422, "text: YAML aliases (*name) are not read: write each entry out")
    except yaml.YAMLError:
        pass  # read_entries says where the YAML is wrong, in its line
    try:
        entries = read_entries(text, "<import>")
        if len(entries) > MAX_ENTRIES:
            raise ApiError(422, f"text: {len(entries):,} entries, over {MAX_ENTRIES} in one import")
        problems = []
        for number, entry in enumerate(entries, 1):
            where = f"entry {number}" if len(entries) > 1 else "<import>"
            identifier, toml = problem_from_entry(entry, where)
            ksolve.load_problem_text(toml, f"{where} ({identifier})")
            problems.append(Imported(identifier, toml))
    except InputError as error:
        raise ApiError(422, str(error)) from None
    except RecursionError:
        raise ApiError(422, "text: YAML nested too deeply") from None
    return problems
