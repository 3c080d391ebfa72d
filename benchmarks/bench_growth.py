"""How the solve time grows with the number of moves: Rotenberg 1976 (one
hidden piece), iterative deepening depth by depth, one prover (as ``ksolve
solve`` runs it), with the time and nodes each depth adds; once with the
proof-number search (``ksolve solve``'s default) and once with the
depth-first prover alone (``--search dfs``).

    python benchmarks/bench_growth.py [--max-depth 8] [-o OUT.json]
    python benchmarks/bench_growth.py --table    # the README's table from the JSON
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
from ksolve.search.pns import ProofNumberSearch  # noqa: E402
from ksolve.search.prover import Prover  # noqa: E402


def table(result: dict) -> str:
    """The Markdown table of ``README.md``: per depth, both searches."""
    by_depth: dict[int, dict] = {}
    for row in result["rows"]:
        by_depth.setdefault(row["depth"], {})[row["search"]] = row
    lines = ["| depth | result | proof-number: nodes | seconds | depth-first: nodes | seconds |",
             "|---|---|---|---|---|---|"]
    for depth, runs in sorted(by_depth.items()):
        verdict = "mate" if any(run["wins"] for run in runs.values()) else "no mate"
        cells = [f"{runs[s]['nodes']:,} | {runs[s]['seconds']:.2f}" if s in runs else "- | -" for s in ("pn", "dfs")]
        lines.append(f"| {depth} | {verdict} | {cells[0]} | {cells[1]} |")
    totals = [sum(row["seconds"] for row in result["rows"] if row["search"] == s) for s in ("pn", "dfs")]
    lines.append(f"| all | | | {totals[0]:.2f} | | {totals[1]:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default=str(ROOT / "problems" / "rotenberg-1976.toml"))
    parser.add_argument("--max-depth", type=int, default=8)
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "growth.json"))
    parser.add_argument("--table", action="store_true", help="Print the table of the JSON in --output and stop.")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(Path(args.output).read_text())))
        return
    problem = load_problem(args.problem)
    belief = problem.belief()
    Prover(problem.rules).wins(belief, 2)  # compile the kernels outside the timing
    rows = []
    for search in ("pn", "dfs"):
        prover = Prover(problem.rules)
        prover.fit_bounds(belief)
        wins = ProofNumberSearch(prover).wins if search == "pn" else prover.wins
        for depth in range(1, args.max_depth + 1):
            nodes_before = prover.stats.nodes
            start = time.perf_counter()
            won = wins(belief, depth)
            seconds = time.perf_counter() - start
            rows.append({"search": search, "depth": depth, "wins": won, "seconds": seconds,
                         "nodes": prover.stats.nodes - nodes_before})
            print(f"{search} depth {depth}: {'mate' if won else 'no mate'}, {rows[-1]['nodes']:,} nodes, "
                  f"{seconds:.2f} s", flush=True)
            if won:
                break
    result = {"benchmark": "growth", "problem": problem.id, "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
              "machine": machine(), "rows": rows}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
