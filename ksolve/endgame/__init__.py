"""Kriegspiel endgame tables from total ignorance: for every placement of
White's men (up to the board's symmetries) against a lone black king that may
stand on any legal square, White to move, the shortest sure win under a rule
set (mate; king capture in Fog of War).

- ``material.py``: ``KQK``, ``KRK``, ``KBBK``, ``KBNK``, ``KRRK`` ...;
- ``symmetry.py``, ``configs.py``: the eight symmetries, canonical placements;
- ``model.py``: the metaposition game as tables, built from the rule set's kernels;
- ``core.py``: the compiled AND-OR search sharing one table across placements;
- ``solver.py``: one material under one rule set (tables and workspace);
- ``sweep.py``, ``running.py``: the table by waves of depth, in process or on Dask;
- ``table.py``: the table file (one row per placement), resumable;
- ``certify.py``: a row's problem file and certificate for ``ksolve check``.

``build_table`` and ``read_endgame_table`` are what ``ksolve.endgame`` and
``ksolve endgame`` call; ``certify_rows`` writes and checks certificates.

The API's function ``ksolve.endgame(...)`` and this package share their name:
once the package is imported Python makes ``ksolve.endgame`` the package, so
the package itself is callable and calling it is calling the API's function.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ksolve.endgame.table import EndgameRow, EndgameTable, read_table
from ksolve.errors import InputError

__all__ = ["CertifiedRow", "EndgameRow", "EndgameTable", "build_table", "certify_rows", "read_endgame_table"]

MAX_MOVES = 120
"""The longest win a sweep may look for."""


def build_table(material: str, rules: str = "berkeley", *, output: str | Path | None = None,
                max_moves: int = 50, start: str = "anywhere", jobs: int | None = None,
                scheduler: str | None = None, seconds: float | None = None, memory: int | None = None,
                progress: Callable | None = None, building: Callable[[int, int], None] | None = None
                ) -> EndgameTable:
    """The table of ``material`` under ``rules`` (see ``ksolve.endgame.sweep.sweep``);
    bad input raises ``InputError`` naming it, before any long work (a ``scheduler``
    is reached first: ``execution.cluster.check_scheduler``)."""
    from ksolve.endgame.material import MaterialError, parse_material
    from ksolve.endgame.solver import DEFAULT_TABLE_BYTES, STARTS
    from ksolve.endgame.sweep import SweepSpec, sweep
    from ksolve.rules import UnknownRules, get_rules

    try:
        parsed = parse_material(material)
    except MaterialError as error:
        raise InputError(f"MATERIAL: {error}") from None
    try:
        rule_set = get_rules(rules)
    except UnknownRules as error:
        raise InputError(f"--rules: {error}") from None
    if rule_set.probes:
        raise InputError(f"--rules: {rules} has probes; the tables take rule sets without them")
    if not 1 <= max_moves <= MAX_MOVES:
        raise InputError(f"--max-moves: {max_moves} is not in 1 to {MAX_MOVES}")
    if 2 * max_moves > rule_set.move_limit:
        # the tables leave the move clock out: a win is sure only if it comes before the draw
        raise InputError(f"--max-moves: {rules} draws after {rule_set.move_limit // 2} moves without a capture "
                         f"or pawn move; at most {rule_set.move_limit // 2}")
    if start not in STARTS:
        raise InputError(f"--start: {start!r} is not one of {', '.join(STARTS)}")
    if output is not None and Path(output).exists() and Path(output).stat().st_size:
        previous = read_table(output)
        wanted = EndgameTable(parsed.name, rule_set.name, max_moves, start=start)
        if (previous.material, previous.rules, previous.start) != (wanted.material, wanted.rules, wanted.start):
            raise InputError(f"{output}: a table of {previous.describe()}, not of {wanted.describe()}")
    if scheduler:
        from ksolve.execution.cluster import check_scheduler

        check_scheduler(scheduler)
    table_bytes = DEFAULT_TABLE_BYTES if memory is None else max(1 << 20, memory // 2)
    spec = SweepSpec(parsed.name, rule_set.name, max_moves, table_bytes, start)
    return sweep(spec, output, jobs=jobs, scheduler=scheduler, seconds=seconds, progress=progress,
                 building=building)


def read_endgame_table(path: str | Path) -> EndgameTable:
    """A table file written by ``build_table`` (complete or not); ``InputError`` naming
    the file, the line and the reason otherwise."""
    return read_table(path)


@dataclass(frozen=True)
class CertifiedRow:
    """A row's problem file and certificate (a strategy for a win, a refutation for a
    row ``none``), and what ``ksolve check`` said."""

    placement: str
    problem: Path
    certificate: Path | None
    """None where none was written (a refutation past its size limit)."""
    verified: bool
    message: str
    bytes: int = 0
    write_seconds: float = 0.0
    check_seconds: float = 0.0

    def describe(self) -> str:
        """``Kc3 Re5: 2.3 MB written in 19.9 s, checked in 31.0 s: verified: ...``."""
        from ksolve.resources import format_bytes

        if self.certificate is None:
            return f"{self.placement}: {self.message}"
        return (f"{self.placement}: {format_bytes(self.bytes)} written in {self.write_seconds:.1f} s, "
                f"checked in {self.check_seconds:.1f} s: {self.message}")


def certify_rows(table: EndgameTable, rows: list[EndgameRow], folder: str | Path, check: bool = True,
                 progress: Callable[[CertifiedRow], None] | None = None,
                 deadline: float | None = None) -> list[CertifiedRow]:
    """Write each row's problem file (``ID.toml``) and certificate (``ID.cert.json``)
    into ``folder`` and, with ``check``, replay the certificate with the independent
    checker: a won row's strategy, a row ``none``'s refutation (within the table's
    ``max-moves``, or short of the rule set's move-limit draw; the checker says "at any
    length" where every line of it ends the game).  Rows ``none within N`` have nothing
    to certify and are passed over; so are the rows left when ``time.monotonic()``
    passes ``deadline``."""
    import json
    import time

    from ksolve.endgame.certify import certified_row, problem_id, refuted_row
    from ksolve.endgame.sweep import SweepSpec, solver_for
    from ksolve.refutations import RefutationTooLarge

    solver = solver_for(SweepSpec(table.material, table.rules))
    anywhere = table.start == "anywhere"
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    # a refutation's moves: the table's, short of the rule set's move-limit draw (Fog of War's
    # 50-move rule), which a problem file may not reach
    refuted_moves = min(table.max_moves, (solver.rules.move_limit - 1) // 2)
    out = []
    for row in rows:
        if row.moves is None and not row.never:
            continue
        if deadline is not None and time.monotonic() > deadline:
            break
        number = solver.placement(row.squares).number
        kings = None if anywhere else solver.start_squares(number, table.start)
        name = problem_id(solver, row.squares, kings)
        problem_path, certificate_path = folder / f"{name}.toml", folder / f"{name}.cert.json"
        started = time.perf_counter()
        try:
            if row.moves is not None:
                text, proof = certified_row(solver, row.squares, row.moves, kings)
            else:
                text, proof = refuted_row(solver, row.squares, refuted_moves, kings)
        except RefutationTooLarge as error:
            done = CertifiedRow(row.placement, problem_path, None, False, f"not certified: {error}",
                                write_seconds=time.perf_counter() - started)
        else:
            problem_path.write_text(text, encoding="utf-8")
            written = json.dumps(proof, separators=(",", ":"))
            certificate_path.write_text(written, encoding="utf-8")
            write_seconds = time.perf_counter() - started
            verified, message = True, "not checked"
            started = time.perf_counter()
            if check:
                from ksolve.checker import check_certificate_file

                result = check_certificate_file(problem_path, certificate_path)
                verified, message = result.verified, result.format()
            done = CertifiedRow(row.placement, problem_path, certificate_path, verified, message,
                                len(written.encode()), write_seconds, time.perf_counter() - started)
        out.append(done)
        if progress is not None:
            progress(done)
    return out


class _CallablePackage(types.ModuleType):
    """This package, callable as ``ksolve.api.endgame`` is (see the module docstring)."""

    def __call__(self, material: str, **options: Any) -> EndgameTable:
        return build_table(material, **options)


sys.modules[__name__].__class__ = _CallablePackage
