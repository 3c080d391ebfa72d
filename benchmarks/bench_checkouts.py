"""Whole-process solves and verifications of this checkout against another
one (``git worktree add /tmp/base REV``), alternating so that both see the
same machine: the answers must agree (status and moves, or verdict and keys),
the node counts may differ (a change of the search's tuning changes them).

Each run is a fresh ``python -m ksolve.cli`` process with its checkout first
on the path (numba kernels from each checkout's cache: a first run compiles
them and is not counted); the figure is its wall time, the median of
``--runs``, and the ratio baseline / current (above 1: this checkout is faster).

    python benchmarks/bench_checkouts.py --baseline /tmp/base [--runs 2] [--only TEXT] [-o OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine, measured_process  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("solve --jobs 1", "problems/rotenberg-1976.toml"),
    ("solve --at-most --jobs 1", "problems/rotenberg-1976.toml"),
    ("verify --jobs 1", "problems/rotenberg-1976.toml"),
    ("solve --at-most --jobs 1", "problems/family/family-11-walls-a5-e3.toml"),
    ("solve --at-most --jobs 1", "problems/family/family-11-walls-c6-e3.toml"),
    ("solve --at-most --jobs 1", "problems/anderson-37.toml"),
    ("solve --jobs 1", "problems/family/family-09-knight-c1.toml"),
    ("solve --jobs 1", "problems/family/family-10-walls-c7-e3.toml"),
    ("solve --jobs 1", "problems/family/family-11-wall-e3.toml"),
    ("verify --jobs 2", "problems/rotenberg-1976.toml"),
    ("solve --jobs 2", "problems/rotenberg-1976.toml"),
    ("solve --at-most --jobs 2", "problems/rotenberg-1976.toml"),
    ("solve --jobs 2", "problems/family/family-11-walls-a5-e3.toml"),
    ("verify --jobs 2 --tries 3", "problems/family/family-09-knight-c1.toml"),
    ("verify --jobs 2 --tries 3", "problems/family/family-10-walls-c7-e3.toml"),
    ("verify --jobs 2 --tries 3", "problems/family/family-11-walls-a5-e3.toml"),
    ("verify --jobs 2 --tries 3", "problems/family/family-11-walls-c6-e3.toml"),
]


def run(checkout: Path, command: str, problem: str) -> dict:
    """One process: seconds, peak MB and the answer (status and moves, or verdict and keys)."""
    environment = dict(os.environ, PYTHONPATH=str(checkout))
    process = measured_process([sys.executable, "-m", "ksolve.cli", *command.split(), problem, "--json"], checkout,
                               environment)
    output = json.loads(process.stdout)
    answer = (output.get("verdict"), [key["move"] for key in output.get("keys", [])]) if "verdict" in output \
        else (output["status"], output["moves"])
    return {"seconds": process.seconds, "peak_mb": process.peak_mb, "nodes": output["nodes"], "answer": answer}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="The other checkout.")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--only", help="Only the cases whose command contains this text, e.g. 'jobs 2'.")
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "benchmarks" / "results" / "checkouts.json")
    args = parser.parse_args()
    checkouts = {"baseline": args.baseline.resolve(), "current": ROOT}
    for checkout in checkouts.values():  # compile each checkout's kernels first
        measured_process([sys.executable, "-m", "ksolve.cli", "solve", "problems/rotenberg-1976.toml", "--at-most",
                          "--jobs", "1"], checkout,
                         dict(os.environ, PYTHONPATH=str(checkout)))
    rows = []
    for command, problem in CASES:
        if args.only and args.only not in command:
            continue
        runs: dict[str, list[dict]] = {name: [] for name in checkouts}
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                runs[name].append(run(checkout, command, problem))
        answers = {json.dumps(r["answer"]) for rs in runs.values() for r in rs}
        if len(answers) != 1:
            raise SystemExit(f"{command} {problem}: the checkouts disagree: {sorted(answers)}")
        medians = {name: statistics.median(r["seconds"] for r in rs) for name, rs in runs.items()}
        row = {"command": command, "problem": problem, "answer": runs["current"][0]["answer"], "runs": runs,
               "median_seconds": medians, "ratio": round(medians["baseline"] / medians["current"], 2)}
        rows.append(row)
        print(f"{command:18s} {Path(problem).stem:26s} baseline {medians['baseline']:6.2f} s "
              f"({runs['baseline'][0]['nodes']:,} nodes)  current {medians['current']:6.2f} s "
              f"({runs['current'][0]['nodes']:,} nodes)  {row['ratio']:.2f}x", flush=True)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"benchmark": "checkouts", "machine": machine(),
                                       "baseline": str(args.baseline), "results": rows}, indent=1) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
