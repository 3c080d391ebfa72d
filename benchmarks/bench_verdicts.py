"""Whole verdicts certified: for each bundled problem, ``ksolve.verify`` (the reference),
then its verdict certificate written (every key's strategy, every other first move's
refutation, no shorter mate) and checked by the independent checker.

Per problem: the verdict, verify's seconds, the certificate's seconds to write and to
check with their ratios to verify's, its size, the parts left out (too large, or the
time limit), and whether the checker verified the verdict.  Problems ``verify`` leaves
undecided within ``--seconds`` are listed as such.

    python benchmarks/bench_verdicts.py [--seconds 60] [--only NAME ...]
        [-o benchmarks/results/verdicts.json] [--table]

``--table`` prints the Markdown table of ``problems/README.md``'s certified verdicts (from
the JSON with ``--from``, without measuring again).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine

import ksolve
from ksolve.search.run import Limits, SearchAborted
from ksolve.verdict_certificates import verdict_certificate


def measure(path: Path, seconds: float) -> dict[str, Any]:
    problem = ksolve.load_problem(path)
    row: dict[str, Any] = {"problem": path.stem, "rules": problem.rules.name, "moves": problem.moves}
    if problem.rules.probes:
        row["result"] = "not written: refutations under Modern Kriegspiel are not checked"
        return row
    started = time.perf_counter()
    report = ksolve.verify(problem, duals=False, jobs=1, limits=Limits(seconds=seconds))
    row["verify_seconds"] = round(time.perf_counter() - started, 3)
    row["verdict"] = report.verdict
    if report.verdict == "unknown":
        row["result"] = "verify undecided"
        return row
    started = time.perf_counter()
    try:
        written = verdict_certificate(problem, report, limits=Limits(seconds=seconds))
    except SearchAborted as stop:
        row["write_seconds"] = round(time.perf_counter() - started, 3)
        row["result"] = f"not written: {stop}"
        return row
    row["write_seconds"] = round(time.perf_counter() - started, 3)
    row["bytes"] = len(json.dumps(written.data, separators=(",", ":")))
    row["refutations"] = len(written.data["refutations"])
    row["left_out"] = written.left_out
    if written.left_out:
        row["result"] = "parts left out"  # the checker would say so, after replaying megabytes
        return row
    started = time.perf_counter()
    checked = ksolve.check(path, written.data)
    row["check_seconds"] = round(time.perf_counter() - started, 3)
    row["verified"] = checked.verified
    row["checker"] = checked.format()
    row["result"] = "verified" if checked.verified else "not verified"
    reference = max(row["verify_seconds"], 0.01)
    row["ratios"] = {"write/verify": round(row["write_seconds"] / reference, 2),
                     "check/verify": round(row["check_seconds"] / reference, 2)}
    return row


def table(rows: list[dict[str, Any]]) -> str:
    """The certified verdicts as a Markdown table: C+ where the checker verified the whole verdict."""
    lines = ["| id | stipulation | rules | verdict | whole verdict | certificate | checked in |",
             "|---|---|---|---|---|---:|---:|"]
    for row in rows:
        if row.get("verified"):
            status = "**C+**"
        elif "left_out" in row:
            status = f"{len(row['left_out'])} part(s) left out" if row["left_out"] else "not verified"
            if row["left_out"] and "time limit" in row["left_out"][0]:
                status = "time limit: " + row["left_out"][0].split(" and the ")[0].split(":")[0]
        else:
            status = row["result"]
        size = f"{row['bytes'] / 1024:,.0f} KB" if "bytes" in row else ""
        checked = f"{row['check_seconds']:.1f} s" if "check_seconds" in row else ""
        stipulation = ("xk" if row["rules"] == "fog-of-war" else "#") + str(row["moves"])
        lines.append(f"| `{row['problem']}` | {stipulation} | {row['rules']} | {row.get('verdict', '')} | {status} "
                     f"| {size} | {checked} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="limit of verify and of the writing, per problem")
    parser.add_argument("--only", nargs="*", help="problem file stems")
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "results" / "verdicts.json"))
    parser.add_argument("--table", action="store_true", help="print the Markdown table")
    parser.add_argument("--from", dest="source", help="with --table: read the rows from this JSON instead")
    args = parser.parse_args()
    if args.table and args.source:
        print(table(json.loads(Path(args.source).read_text())["problems"]))
        return
    paths = sorted((ROOT / "problems").glob("*.toml"))
    if args.only:
        paths = [path for path in paths if path.stem in args.only]
    rows = []
    for path in paths:
        row = measure(path, args.seconds)
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "checker"}), flush=True)
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["result"].split(":")[0]] = counts.get(row["result"].split(":")[0], 0) + 1
    Path(args.output).write_text(json.dumps({"machine": machine(), "seconds": args.seconds, "summary": counts,
                                             "problems": rows}, indent=1) + "\n")
    print(json.dumps(counts))
    if args.table:
        print(table(rows))


if __name__ == "__main__":
    main()
