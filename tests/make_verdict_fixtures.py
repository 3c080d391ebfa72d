"""Write ``tests/fixtures/verdicts.json``: today's verdict of every bundled problem, the
differential fixture of ``tests/test_verdict_fixtures.py``.

    python tests/make_verdict_fixtures.py                  # every problem (about 40 minutes)
    python tests/make_verdict_fixtures.py --only fog-06    # re-run some, merged into the file

Run it only when a verdict change is intended and explained: a fixed bug in the search, a
problem file added or corrected, a rule set whose answers changed.  The commit that
rewrites the fixture says which entries changed and why; a search engine that replaces
today's (issue 47, "One engine") must leave the file as it is.

For every problem file under ``problems/`` (recursively, each twin an entry of its own,
named by its path under ``problems/`` without ``.toml``, ``-<twin>`` added for a twin) the
file holds what ``ksolve.verify`` and ``ksolve.solve`` find, run as
``benchmarks/bench_verify.py`` runs them (one process, a time limit and no memory budget):

- ``verify``: the verdict, the stipulated moves, the keys (move, label, fewest moves), the
  short solutions, every try with its refutation (the referee's answer, Black's reply and
  moves, the class's size and hidden squares, the kind and the reason), the number of
  tries, the duals when they were all checked (in a canonical order: the library lists
  duals of one move number in the order it walked the strategy), the attempts after
  "Any?" and the size of the initial belief;
- ``solve``: the status, the fewest moves and the key.

Nothing that depends on timing or on the search's order is kept (nodes, seconds, the
one-line text).  A problem the search does not decide within ``--limit`` seconds (120 by
default, for the verification and the solve each) is written as ``{"verdict": "unknown",
"limit_seconds": 120}`` (``"status"`` for the solve): whether a problem is decided in time
depends on the machine, the test skips such entries, and a longer ``--limit`` may decide
them.  The file is written with sorted keys, entries by name, one try or dual a line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "problems"
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "verdicts.json"
LIMIT_SECONDS = 120.0
"""Seconds a verification (or a solve) may take when the fixture is made."""
UNKNOWN = "unknown"

REFUTATION_FIELDS = ("answer", "san", "reply", "black_moves", "size", "hidden", "kind", "reason")
"""What a try's refutation (``Verification.as_dict``'s ``refuted_by``) keeps."""
DUAL_FIELDS = ("move_number", "moves_left", "played", "also", "after", "main_line")


def problem_files() -> list[Path]:
    """Every bundled problem file, by path."""
    return sorted(PROBLEMS.rglob("*.toml"), key=lambda path: path.relative_to(PROBLEMS).as_posix())


def entry_name(path: Path, twin: str | None) -> str:
    """``family/family-09-knight-c1``; twin ``b`` of ``problems/x.toml``: ``x-b``."""
    name = path.relative_to(PROBLEMS).with_suffix("").as_posix()
    return f"{name}-{twin}" if twin else name


def bundled_problems() -> Iterator[tuple[str, Path, Any]]:
    """``(name, file, problem)`` of every bundled problem, each twin on its own."""
    import ksolve

    for path in problem_files():
        for problem in ksolve.load_problem(path).with_twins():
            yield entry_name(path, problem.twin), path, problem


def limits(seconds: float):
    """The limits ``benchmarks/bench_verify.py`` runs with: time only."""
    from ksolve import Limits

    return Limits(seconds)


def verification_content(report: Any, limit: float) -> dict[str, Any]:
    """What a ``Verification`` decided (``limit``: the seconds it was given)."""
    data = report.as_dict()
    if data["verdict"] == UNKNOWN:
        return {"verdict": UNKNOWN, "limit_seconds": limit}
    content: dict[str, Any] = {
        "verdict": data["verdict"],
        "moves": data["moves"],
        "keys": [{"move": key["move"], "label": key["label"], "moves": key.get("moves")} for key in data["keys"]],
        "short": [{"move": key["move"], "moves": key.get("moves")} for key in data["short"]],
        "tries": [try_content(attempt) for attempt in data["tries"]],
        "tries_total": data["tries_total"],
        "after_question": list(data["after_question"]),
        "belief_size": data["belief_size"],
        "duals_checked": data["duals_checked"],
    }
    if data["duals_checked"]:
        content["duals"] = canonical_duals(data["duals"])
    elif data.get("reason", "").startswith("duals not all checked"):
        content["duals_checked"] = UNKNOWN  # the limit stopped them: decided by time, not by the problem
        content["limit_seconds"] = limit
    return content


def try_content(attempt: dict[str, Any]) -> dict[str, Any]:
    refutation = attempt.get("refuted_by") or {}
    return {"move": attempt["move"], "label": attempt["label"],
            **{field: refutation.get(field) for field in REFUTATION_FIELDS}}


def canonical_duals(duals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The duals, the main line's first, then by move number, line and move (``also``
    sorted): the same list whatever order the strategy was walked in."""
    entries = [{field: dual.get(field) for field in DUAL_FIELDS} for dual in duals]
    for entry in entries:
        entry["also"] = sorted(entry["also"] or [])
    return sorted(entries, key=lambda dual: (not dual["main_line"], dual["move_number"], dual["after"],
                                             dual["played"], dual["moves_left"], dual["also"]))


def solution_content(solution: Any, limit: float) -> dict[str, Any]:
    """What a ``Solution`` decided."""
    if solution.status == UNKNOWN:
        return {"status": UNKNOWN, "limit_seconds": limit}
    return {"status": solution.status, "moves": solution.moves, "key": solution.key}


def run_verify(problem: Any, seconds: float, duals: bool = True) -> tuple[Any, float]:
    """``ksolve.verify`` within ``seconds`` (``duals``: look for them): the report and its wall seconds."""
    import ksolve

    started = time.perf_counter()
    report = ksolve.verify(problem, limits=limits(seconds), duals=duals)
    return report, time.perf_counter() - started


def run_solve(problem: Any, seconds: float) -> tuple[Any, float]:
    """``ksolve.solve`` (the shortest win, as ``ksolve solve``) within ``seconds``."""
    import ksolve

    started = time.perf_counter()
    solution = ksolve.solve(problem, limits=limits(seconds))
    return solution, time.perf_counter() - started


def entry(path: Path, problem: Any, limit: float) -> tuple[dict[str, Any], float, float]:
    """One problem's fixture entry, with the verification's and the solve's wall seconds."""
    report, verify_seconds = run_verify(problem, limit)
    solution, solve_seconds = run_solve(problem, limit)
    data = {"path": path.relative_to(ROOT).as_posix(), "id": problem.id, "twin": problem.twin or None,
            "stipulation": problem.stipulation, "rules": problem.rules.name,
            "verify": verification_content(report, limit), "solve": solution_content(solution, limit)}
    return data, verify_seconds, solve_seconds


def fixture_text(problems: dict[str, dict[str, Any]]) -> str:
    """The fixture file: sorted keys, entries by name, each try or dual on a line of its own."""
    return _dumps({"about": "written by tests/make_verdict_fixtures.py (its docstring says when to run it)",
                   "problems": dict(sorted(problems.items()))}, 0) + "\n"


def _dumps(value: Any, depth: int) -> str:
    """JSON: objects indented one space a level; a list of scalars, or each object of a
    list of objects, on one line."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(key)}: {_dumps(value[key], depth + 1)}" for key in sorted(value)]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list) and value and any(isinstance(item, (dict, list)) for item in value):
        items = [f"{inner}{json.dumps(item, sort_keys=True)}" for item in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    return json.dumps(value, sort_keys=True)


def read_fixture(path: Path = FIXTURE) -> dict[str, dict[str, Any]]:
    """The fixture's entries, by name."""
    return json.loads(path.read_text())["problems"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=LIMIT_SECONDS,
                        help="seconds per verification and per solve (default %(default)s)")
    parser.add_argument("--only", nargs="*", help="entry names to re-run, merged into the existing file")
    parser.add_argument("--output", type=Path, default=FIXTURE, help="the fixture file (default %(default)s)")
    args = parser.parse_args(argv)
    known = {name for name, _, _ in bundled_problems()}
    unknown_names = sorted(set(args.only or []) - known)
    if unknown_names:
        parser.error(f"--only: no such bundled problem: {', '.join(unknown_names)}")
    problems: dict[str, dict[str, Any]] = {}
    if args.only and args.output.exists():
        problems = {name: data for name, data in read_fixture(args.output).items() if name in known}
    for name, path, problem in bundled_problems():
        if args.only and name not in args.only:
            continue
        problems[name], verify_seconds, solve_seconds = entry(path, problem, args.limit)
        verdict, status = problems[name]["verify"]["verdict"], problems[name]["solve"]["status"]
        print(f"{name}: verify {verdict} ({verify_seconds:.2f} s), solve {status} ({solve_seconds:.2f} s)",
              flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(fixture_text(problems))
    print(f"{len(problems)} entries written to {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
