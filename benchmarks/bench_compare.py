"""Compare this checkout's solve (or verification) of a problem with another
checkout's (say, ``git worktree add /tmp/base main~1``), alternating runs in
one session so that both see the same machine load.

Each run is a fresh process (numba kernels loaded from their cache; run once
before to compile) that loads the problem and solves it in one process
(``ksolve.solver.solve``; ``--verify``: ``ksolve.verification.verify``); the
figure is the wall time, and the keys, moves (verdict) and node counts must agree.
The spread (slowest over fastest run of each checkout) says how noisy the machine was.

    python benchmarks/bench_compare.py --baseline /tmp/base [--problem problems/rotenberg-1976.toml]
        [--verify] [--runs 5] [-o benchmarks/results/compare.json]
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
VERIFY = ("import json, sys, time; from ksolve.problem import load_problem; from ksolve.verification import verify; "
          "p = load_problem(sys.argv[1]); t = time.perf_counter(); r = verify(p); "
          "print(json.dumps({'key': [k.move for k in r.keys], 'moves': r.verdict, 'nodes': r.nodes, "
          "'seconds': time.perf_counter() - t}))")


def run(checkout: Path, problem: Path, script: str = SOLVE) -> dict:
    """One solve (or verification) in a fresh process with ``checkout`` first on the path."""
    completed = subprocess.run([sys.executable, "-c", script, str(problem.resolve())], cwd=checkout,
                               env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
                               capture_output=True, text=True, check=True)
    return json.loads(completed.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="The other checkout.")
    parser.add_argument("--problem", type=Path, default=ROOT / "problems" / "rotenberg-1976.toml")
    parser.add_argument("--verify", action="store_true", help="Time the verification instead of the solve.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "benchmarks" / "results" / "compare.json")
    args = parser.parse_args()
    results: dict[str, list[dict]] = {"baseline": [], "current": []}
    for _ in range(args.runs):
        script = VERIFY if args.verify else SOLVE
        results["baseline"].append(run(args.baseline.resolve(), args.problem, script))
        results["current"].append(run(ROOT, args.problem, script))
    same = {(str(r["key"]), r["moves"], r["nodes"]) for rows in results.values() for r in rows}
    if len(same) != 1:
        raise SystemExit(f"the checkouts disagree: {sorted(same)}")
    medians = {name: statistics.median(r["seconds"] for r in rows) for name, rows in results.items()}
    ratio = medians["current"] / medians["baseline"]
    spread = {name: max(r["seconds"] for r in rows) / min(r["seconds"] for r in rows) for name, rows in results.items()}
    key, moves, nodes = same.pop()
    print(f"{args.problem.name}: key {key}, {moves}, {nodes:,} nodes; median {'verify' if args.verify else 'solve'} "
          f"baseline {medians['baseline']:.2f} s, current {medians['current']:.2f} s, ratio {ratio:.3f} "
          f"(spread baseline {spread['baseline']:.2f}, current {spread['current']:.2f})")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"machine": machine(), "problem": args.problem.name, "key": key,
                                       "moves": moves, "nodes": nodes, "runs": results, "verify": args.verify,
                                       "median_seconds": medians, "ratio": round(ratio, 3),
                                       "spread": {name: round(value, 3) for name, value in spread.items()}}, indent=1) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
