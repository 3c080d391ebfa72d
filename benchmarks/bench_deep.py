"""Deep problems with one hidden piece: how the time grows with the number of moves.

The family (``benchmarks/deep/*.toml``): White Ka1 and Qh1 against a black
king hidden on any square of the r x r corner region at a8 (r = 2 .. 8; 8
is the whole board).  The mate gets longer as the region grows.  Per
problem, in one run:

- ``shortest``: iterative deepening as ``ksolve solve`` runs it (proof-number
  search at each depth, so every depth below the mate is a complete
  disproof), with the time and nodes each depth adds;
- ``stipulation``: the stipulated ``#n`` proven directly by proof-number
  search from an empty table (mate within n: what a composer's stipulation
  asks), for n = the shortest mate and n = 15;
- ``dfs``: the depth-first prover alone at the shortest depth, for comparison.

The provers fit their full-information bounds to the material as ``ksolve
solve`` does (``Prover.fit_bounds``: eight moves with three men).

Every search has a time limit; a search that hits it is reported as such.

    python benchmarks/bench_deep.py [--timeout S] [--only NAME ...] [-o OUT.json]
    python benchmarks/bench_deep.py --table    # the README's table from the JSON
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
from ksolve.search.prover import Limits, Prover, SearchAborted  # noqa: E402

DEEP = Path(__file__).resolve().parent / "deep"
LONG_STIPULATION = 15


def _timed(run, prover: Prover) -> dict:
    """Run ``run()`` -> bool and report result, nodes, seconds ("timeout" if cut off)."""
    start = time.perf_counter()
    nodes = prover.stats.nodes
    try:
        won = run()
    except SearchAborted:
        won = "timeout"
    return {"wins": won, "nodes": prover.stats.nodes - nodes, "seconds": round(time.perf_counter() - start, 3)}


def shortest(problem, timeout: float) -> dict:
    """Iterative deepening with proof-number search, one table for all depths."""
    prover = Prover(problem.rules, Limits(seconds=timeout))
    belief = problem.belief()
    prover.fit_bounds(belief)  # as ksolve solve does
    search = ProofNumberSearch(prover)
    rows = []
    for depth in range(1, problem.moves + 1):
        row = _timed(lambda: search.wins(belief, depth), prover)
        rows.append({"depth": depth, **row})
        print(f"  depth {depth}: {row}", flush=True)
        if row["wins"] is not False:
            break
    found = rows[-1]["depth"] if rows[-1]["wins"] is True else None
    return {"moves": found, "seconds": round(prover.stats.seconds, 3), "nodes": prover.stats.nodes, "depths": rows}


def direct(problem, moves: int, timeout: float, search: str = "pn") -> dict:
    """Mate within ``moves`` proven from an empty table."""
    prover = Prover(problem.rules, Limits(seconds=timeout))
    belief = problem.belief()
    prover.fit_bounds(belief)
    run = ProofNumberSearch(prover).wins if search == "pn" else prover.wins
    return {"moves": moves, "search": search, **_timed(lambda: run(belief, moves), prover)}


def _seconds(run: dict) -> str:
    if run["wins"] == "timeout":
        return f"> {run['seconds']:.0f} s (limit)"
    return f"{'mate' if run['wins'] else 'no mate'}, {run['seconds']:.2f} s"


def table(output: dict) -> str:
    """The Markdown table of ``README.md``."""
    lines = ["| hidden king in | positions | shortest mate | `ksolve solve` (shortest) | last refuted depth | "
             "within n, proof-number | within 15, proof-number | within n, depth-first |",
             "|---|---|---|---|---|---|---|---|"]
    for entry in output["results"]:
        shortest_run = entry["shortest"]
        found = shortest_run["moves"]
        depths = shortest_run["depths"]
        refuted = [row for row in depths if row["wins"] is False]
        last = f"{refuted[-1]['depth']}: {refuted[-1]['seconds']:.1f} s" if refuted else "-"
        solve_time = (f"{shortest_run['seconds']:.2f} s" if found
                      else f"> {output['timeout']:.0f} s (limit; no mate in {refuted[-1]['depth'] if refuted else 0})")
        proofs = {proof["moves"]: proof for proof in entry["stipulation_proofs"]}
        within_n = _seconds(proofs[found]) if found in proofs else "-"
        within_15 = _seconds(proofs[LONG_STIPULATION]) if LONG_STIPULATION in proofs else "-"
        if not found:
            stipulated = [proof for n, proof in proofs.items() if n != LONG_STIPULATION]
            within_n = (f"#{stipulated[0]['moves']}: {_seconds(stipulated[0])}" if stipulated else "-")
        dfs = _seconds(entry["dfs"]) if "dfs" in entry else "-"
        region = entry["problem"].removeprefix("kq-k-")
        lines.append(f"| {region} | {entry['positions']} | {found or '?'} | {solve_time} | {last} | {within_n} | "
                     f"{within_15} | {dfs} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=300.0, help="Seconds per search.")
    parser.add_argument("--only", nargs="*", help="Problem file stems to run.")
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "deep.json"))
    parser.add_argument("--table", action="store_true", help="Print the table of the JSON in --output and stop.")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(Path(args.output).read_text())))
        return
    files = sorted(DEEP.glob("*.toml"))
    if args.only:
        files = [f for f in files if f.stem in args.only]
    Prover(load_problem(files[0]).rules).wins(load_problem(files[0]).belief(), 2)  # compile outside the timing
    results = []
    for path in files:
        problem = load_problem(path)
        print(f"{path.stem}: {len(problem.belief())} positions, stipulation #{problem.moves}", flush=True)
        entry = {"problem": path.stem, "positions": len(problem.belief()), "stipulation": problem.moves,
                 "shortest": shortest(problem, args.timeout)}
        found = entry["shortest"]["moves"]
        entry["stipulation_proofs"] = [direct(problem, n, args.timeout)
                                       for n in sorted({found or problem.moves, LONG_STIPULATION})]
        for proof in entry["stipulation_proofs"]:
            print(f"  mate within {proof['moves']} (pn, from scratch): {proof}", flush=True)
        if found:
            entry["dfs"] = direct(problem, found, args.timeout, "dfs")
            print(f"  mate within {found} (depth-first, from scratch): {entry['dfs']}", flush=True)
        results.append(entry)
    output = {"benchmark": "deep", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "timeout": args.timeout, "results": results}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(output, indent=2) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
