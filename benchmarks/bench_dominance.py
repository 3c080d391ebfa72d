"""Dominance in refutation certificates: the whole verdict's certificate written with and
without it (the reference), in the same run, and each checked by the independent checker.

With dominance a White turn whose positions include those of a turn already refuted (same
moves left, same turn state) is written as that turn's answers with ``keep``; without it,
each turn is refuted on its own.  Per problem: seconds to write and to check, size, nodes,
the nodes written by dominance, and the ratios reference / dominance.

    python benchmarks/bench_dominance.py [--only NAME ...] [--seconds 600]
        [-o benchmarks/results/dominance.json]
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
from ksolve.search.run import Limits
from ksolve.verdict_certificates import verdict_certificate

PROBLEMS = ("anderson-17", "anderson-21", "anderson-29", "anderson-31", "anderson-33")
"""Verdicts whose refutations meet turns again: small ones and the #3s that take minutes without dominance."""


def written(path: Path, report: Any, problem: Any, dominance: bool, seconds: float) -> dict[str, Any]:
    started = time.perf_counter()
    certificate = verdict_certificate(problem, report, limits=Limits(seconds=seconds), dominance=dominance)
    row: dict[str, Any] = {"write_seconds": round(time.perf_counter() - started, 2)}
    nodes = [node for part in certificate.data["refutations"] for node in part.get("nodes", [])]
    row.update(bytes=len(json.dumps(certificate.data, separators=(",", ":"))), nodes=len(nodes),
               kept=sum("keep" in node for node in nodes), left_out=certificate.left_out)
    if not certificate.left_out:
        started = time.perf_counter()
        checked = ksolve.check(path, certificate.data)
        row.update(check_seconds=round(time.perf_counter() - started, 2), verified=checked.verified)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="problem file stems (default: the module's list)")
    parser.add_argument("--seconds", type=float, default=600.0, help="limit of each certificate's writing")
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "results" / "dominance.json"))
    args = parser.parse_args()
    rows = []
    for name in args.only or PROBLEMS:
        path = ROOT / "problems" / f"{name}.toml"
        problem = ksolve.load_problem(path)
        report = ksolve.verify(problem, duals=False, jobs=1)
        row: dict[str, Any] = {"problem": name, "verdict": report.verdict,
                               "dominance": written(path, report, problem, True, args.seconds),
                               "reference": written(path, report, problem, False, args.seconds)}
        mine, reference = row["dominance"], row["reference"]
        row["ratios"] = {field: round(reference[field] / max(mine[field], 0.01), 2)
                         for field in ("write_seconds", "check_seconds", "bytes") if field in mine and field in reference}
        rows.append(row)
        print(json.dumps(row), flush=True)
    Path(args.output).write_text(json.dumps({"machine": machine(), "seconds": args.seconds, "problems": rows},
                                            indent=1) + "\n")


if __name__ == "__main__":
    main()
