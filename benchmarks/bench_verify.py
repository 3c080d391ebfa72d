"""Verify every bundled problem (``ksolve.verification``) and write the results as
JSON (``benchmarks/results/verify.json``) and, with ``--table``, the Markdown
table of ``problems/README.md``.

    python benchmarks/bench_verify.py --timeout 600 --table

``--only NAME`` re-verifies some problems and merges them into the existing
JSON (e.g. after a long one timed out).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from common import machine

from ksolve.problem import load_problem
from ksolve.search.prover import Limits
from ksolve.verification import verify

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results" / "verify.json"


def verify_all(names: list[str] | None, timeout: float) -> dict[str, dict]:
    rows = {}
    for path in sorted((ROOT / "problems").glob("*.toml")):
        if names and path.stem not in names:
            continue
        for problem in load_problem(path).with_twins():  # each twin a row of its own
            name = path.stem if not problem.twin else f"{path.stem}-{problem.twin}"
            started = time.perf_counter()
            report = verify(problem, limits=Limits(timeout))
            rows[name] = {"stipulation": problem.stipulation, "rules": problem.rules.name,
                          **report.as_dict(), "wall_seconds": round(time.perf_counter() - started, 2)}
            print(f"{name}: {report.line()} ({rows[name]['wall_seconds']} s)", flush=True)
    return rows


def table(rows: dict[str, dict]) -> str:
    lines = ["| problem | stip. | rules | verdict | keys | tries | duals | published key | seconds |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, row in rows.items():
        keys = ", ".join(f"1.{k['label']}!" + (f" (#{k['moves']})" if k.get("moves") != row["moves"] else "")
                         for k in row["keys"]) or "-"
        duals = str(len(row["duals"])) if row["duals_checked"] else "-"
        published = f"1.{row.get('published_label') or row['published_key']}" if row["published_key"] else "-"
        if row["published_key"] and row["verdict"] != "unknown":
            question_first = [k["move"] for k in row["keys"]] == ["any"]
            published += (" (a key)" if row["published_key_matches"] else
                          " (the key is the question Any?)" if question_first else " (not a key)")
        elif row["published_key"]:
            published += " (not decided)"
        tries = str(row["tries_total"]) if row["verdict"] != "unknown" else "-"
        verdict = "not decided" if row["verdict"] == "unknown" else row["verdict"]
        lines.append(f"| {name} | {row['stipulation']} | {row['rules']} | {verdict} | {keys} | {tries} | "
                     f"{duals} | {published} | {row['seconds']:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per problem")
    parser.add_argument("--only", nargs="*", help="problem names to (re)verify, merged into the JSON")
    parser.add_argument("--table", action="store_true", help="print the Markdown table")
    args = parser.parse_args()
    rows = verify_all(args.only, args.timeout)
    if args.only and RESULTS.exists():
        rows = {**json.loads(RESULTS.read_text())["problems"], **rows}
        rows = dict(sorted(rows.items()))
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": machine(), "timeout": args.timeout, "problems": rows}, indent=1))
    if args.table:
        print(table(rows))


if __name__ == "__main__":
    main()
