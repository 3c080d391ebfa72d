"""Solve every problem in ``problems/`` and time it; in the same run, the
brute-force python-chess solver of the tests (``tests/bruteforce.py``) on the
problems it can finish (small beliefs, few moves), for comparison.

Writes JSON (default ``benchmarks/results/problems.json``) and, with
``--table``, prints the Markdown results table of ``problems/README.md``.

    python benchmarks/bench_problems.py [--timeout S] [--only ID ...] [--table]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine  # noqa: E402

from ksolve.problem import load_problem  # noqa: E402
from ksolve.search.prover import Limits  # noqa: E402
from ksolve.solver import key_wins, solve  # noqa: E402

BRUTE_FORCE_MAX_POSITIONS = 40
BRUTE_FORCE_MAX_MOVES = 3


def brute_force(problem) -> dict | None:
    """The tests' python-chess brute-force solver on small problems: fewest moves and time."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from bruteforce import RULE_SETS, BruteForce  # the tests' independent solver
    except ImportError:
        return None
    if problem.moves > BRUTE_FORCE_MAX_MOVES or problem.rules.name not in RULE_SETS:
        return None
    belief = problem.belief()
    if len(belief) > BRUTE_FORCE_MAX_POSITIONS:
        return None
    from ksolve.board import position_to_board

    epds = frozenset(position_to_board(row).epd() for row in belief.positions)
    start = time.perf_counter()
    moves = BruteForce(problem.rules.name).solve(epds, problem.moves)
    return {"moves": moves, "seconds": time.perf_counter() - start}


def run(path: Path, timeout: float) -> dict:
    problem = load_problem(path)
    result = solve(problem, limits=Limits(seconds=timeout))
    row = {
        "id": problem.id, "file": str(path.relative_to(ROOT)), "stipulation": problem.stipulation,
        "rules": problem.rules.name, "belief_size": result.belief_size, "published_key": problem.published_key,
        "status": result.status, "moves": result.moves, "key": result.key, "nodes": result.nodes,
        "seconds": round(result.seconds, 3), "reason": result.reason,
    }
    if problem.published_key and problem.published_key != result.key and result.status != "unknown":
        row["published_key_wins"] = key_wins(problem, problem.published_key, limits=Limits(seconds=timeout))
    reference = brute_force(problem)
    if reference is not None:
        row["brute_force"] = reference
    return row


def markdown(rows: list[dict]) -> str:
    """The results table for problems/README.md."""
    lines = ["| problem | stip. | rules | belief | published key | ksolve | key | agrees | nodes | seconds "
             "| brute force |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        if row["status"] == "solved":
            outcome = f"mate in {row['moves']}"
        elif row["status"] == "no solution":
            outcome = "no solution"
        else:
            outcome = "unknown" + (" (timeout)" if "time limit" in row["reason"] else "")
        agrees = ""
        if row["published_key"] and row["key"]:
            agrees = "yes" if row["published_key"] == row["key"] else {
                True: "also wins", False: "published key fails", None: "unknown"}[row.get("published_key_wins")]
        reference = row.get("brute_force")
        brute = "" if reference is None else (
            f"{'mate in ' + str(reference['moves']) if reference['moves'] else 'none'}, {reference['seconds']:.2f} s")
        lines.append(f"| {row['id']} | {row['stipulation']} | {row['rules']} | {row['belief_size']} | "
                     f"{row['published_key'] or ''} | {outcome} | {row['key'] or ''} | {agrees} | "
                     f"{row['nodes']:,} | {row['seconds']:.2f} | {brute} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per problem")
    parser.add_argument("--only", nargs="*", help="problem ids to run (default: all)")
    parser.add_argument("--table", action="store_true", help="print the Markdown table")
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "problems.json"))
    args = parser.parse_args()
    paths = sorted((ROOT / "problems").glob("*.toml"))
    if args.only:
        paths = [p for p in paths if p.stem in args.only]
    rows = []
    for path in paths:
        row = run(path, args.timeout)
        rows.append(row)
        print(f"{row['id']:<28} {row['stipulation']:>4} {row['rules']:<10} {row['belief_size']:>5}  "
              f"{row['status']:<11} {row['moves'] or '':>2} {row['key'] or '':<6} "
              f"(published {row['published_key'] or '-'})  {row['nodes']:>9,} nodes {row['seconds']:8.2f} s",
              flush=True)
    result = {"benchmark": "problems", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "timeout_seconds": args.timeout, "rows": rows}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    if args.table:
        print(markdown(rows))
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
