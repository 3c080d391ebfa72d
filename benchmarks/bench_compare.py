"""Compare this checkout's solve of a problem with another checkout's (say,
``git worktree add /tmp/base main~1``), alternating runs in one session so
that both see the same machine load.

Each run is a fresh process (numba kernels loaded from their cache; run once
before to compile) that loads the problem and solves it; the figure is the
solve's wall time, and the keys, moves and node counts must agree.

    python benchmarks/bench_compare.py --baseline /tmp/base [--problem problems/rotenberg-1976.toml]
        [--runs 5] [-o benchmarks/results/compare.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOLVE = ("import json, sys, time; from ksolve.problem import load_problem; from ksolve.solver import solve; "
         "p = load_problem(sys.argv[1]); t = time.perf_counter(); r = solve(p); "
         "print(json.dumps({'key': r.key, 'moves': r.moves, 'nodes': r.nodes, 'seconds': time.perf_counter() - t}))")


def run(checkout: Path, problem: Path) -> dict:
    """One solve in a fresh process with ``checkout`` first on the path."""
    completed = subprocess.run([sys.executable, "-c", SOLVE, str(problem.resolve())], cwd=checkout,
                               env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
                               capture_output=True, text=True, check=True)
    return json.loads(completed.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="The other checkout.")
    parser.add_argument("--problem", type=Path, default=ROOT / "problems" / "rotenberg-1976.toml")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "benchmarks" / "results" / "compare.json")
    args = parser.parse_args()
    results: dict[str, list[dict]] = {"baseline": [], "current": []}
    for _ in range(args.runs):
        results["baseline"].append(run(args.baseline.resolve(), args.problem))
        results["current"].append(run(ROOT, args.problem))
    same = {(r["key"], r["moves"], r["nodes"]) for rows in results.values() for r in rows}
    if len(same) != 1:
        raise SystemExit(f"the checkouts disagree: {sorted(same)}")
    medians = {name: statistics.median(r["seconds"] for r in rows) for name, rows in results.items()}
    ratio = medians["current"] / medians["baseline"]
    key, moves, nodes = same.pop()
    print(f"{args.problem.name}: key {key}, #{moves}, {nodes:,} nodes; median solve "
          f"baseline {medians['baseline']:.2f} s, current {medians['current']:.2f} s, ratio {ratio:.3f}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"machine": machine(), "problem": args.problem.name, "key": key,
                                       "moves": moves, "nodes": nodes, "runs": results,
                                       "median_seconds": medians, "ratio": round(ratio, 3)}, indent=1) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
