"""Endgame tables: placements per hour with and without sharing, in one run.

For a material under a rule set (default KQK, Berkeley), on a sample of its
placements (every k-th in canonical order) and in this one process:

- ``today``: the single-problem prover (``ksolve solve``'s proof-number
  search over belief states) on the first placement of the sample, with a
  time limit (``--today-seconds``; 0 leaves it out);
- ``waves``: the sweep (``ksolve.endgame``: all placements by waves of depth,
  one workspace) over the whole material;
- ``independent``: the metaposition search on the sample, each placement from
  an empty workspace (iterative deepening from the full-information bound);
- ``shared``: the same, the placements one after another with one workspace.

Each figure is placements per hour (and seconds, nodes); the sample's shortest
wins must agree between ``independent``, ``shared`` and ``waves`` (checked).
Also: the K+R against a king hidden in the 3x3 corner at a8 (Ka1, Rh1) within
30 moves, by the single-problem prover (issue 13 measured some 9 minutes) and by
the tables, and its shortest mate by the tables.  Timings on a shared machine are noisy:
compare the ratios measured in one run.

    python benchmarks/bench_endgame.py [--material KQK] [--rules berkeley] [--sample 40]
        [--today-seconds 900] [-o benchmarks/results/endgame.json]
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

import chess
from common import machine

from ksolve.endgame.sweep import SweepSpec, solver_for, sweep

HOUR = 3600.0


def rate(count: int, seconds: float) -> float:
    return round(count * HOUR / seconds, 1) if seconds > 0 else float("inf")


def today(material: str, rules: str, squares: tuple[int, ...], seconds: float) -> dict:
    """The single-problem solver on one placement, the king anywhere (shortest mate)."""
    import ksolve
    from ksolve.endgame.certify import problem_text
    from ksolve.search.run import Limits

    tables = solver_for(SweepSpec(material, rules))
    problem = ksolve.load_problem_text(problem_text(tables, squares, 60), "today.toml")
    started = time.perf_counter()
    solution = ksolve.solve(problem, limits=Limits(seconds=seconds), tree=False, jobs=1)
    taken = time.perf_counter() - started
    return {"placement": tables.material.describe(squares), "status": solution.status, "moves": solution.moves,
            "nodes": solution.nodes, "seconds": round(taken, 2),
            "placements_per_hour": rate(1, taken) if solution.status == "solved" else None}


def per_placement(material: str, rules: str, sample: list, shared: bool, max_moves: int) -> dict:
    tables = solver_for(SweepSpec(material, rules))
    work = tables.fresh()
    results, started, nodes = {}, time.perf_counter(), 0
    for placement in sample:
        if not shared:
            work = tables.fresh()
        before = work.nodes
        found = work.shortest(placement, max_moves)
        nodes += work.nodes - before
        results[tables.material.describe(placement.squares)] = found.moves if found.moves else \
            ("none" if found.never else f"none within {max_moves}")
    taken = time.perf_counter() - started
    return {"placements": len(sample), "seconds": round(taken, 2), "nodes": nodes,
            "placements_per_hour": rate(len(sample), taken), "results": results}


def waves(material: str, rules: str, max_moves: int) -> dict:
    started = time.perf_counter()
    table = sweep(SweepSpec(material, rules, max_moves))
    taken = time.perf_counter() - started
    return {"placements": len(table.rows), "seconds": round(taken, 2), "nodes": sum(r.nodes for r in table.rows),
            "placements_per_hour": rate(len(table.rows), taken), "maximum": table.maximum,
            "counts": table.counts(), "results": {row.placement: row.moves if row.moves else row.result
                                                  for row in table.rows}}


def rook_corner(today_seconds: float) -> dict:
    """K+R (Ka1, Rh1) against a king hidden in the 3x3 corner a8-c6: within 30 by the
    single-problem prover (``today``, with a time limit; 0 leaves it out) and by the
    tables, and the shortest by the tables."""
    import ksolve
    from ksolve.endgame.certify import problem_text
    from ksolve.search.run import Limits

    tables = solver_for(SweepSpec("KRK", "berkeley"))
    corner = sum(1 << chess.square(f, r) for f in range(3) for r in range(5, 8))
    out = {}
    if today_seconds:
        problem = ksolve.load_problem_text(problem_text(tables, (chess.A1, chess.H1), 30, corner), "rook.toml")
        started = time.perf_counter()
        solution = ksolve.solve(problem, limits=Limits(seconds=today_seconds), tree=False, jobs=1)
        out["today_within_30"] = {"status": solution.status, "moves": solution.moves, "nodes": solution.nodes,
                                  "seconds": round(time.perf_counter() - started, 2)}
    work = tables.fresh()
    number, kings, _ = work.canonical("KR", (chess.A1, chess.H1), corner)
    kings &= int(work.tables.full[number])
    started = time.perf_counter()
    won = work.wins(number, kings, 30)
    out["within_30"] = {"wins": won == 1, "seconds": round(time.perf_counter() - started, 2), "nodes": work.nodes}
    work = tables.fresh()
    found = work.shortest_from((chess.A1, chess.H1), corner, 40)
    out["shortest"] = {"moves": found.moves, "seconds": round(found.seconds, 2), "nodes": found.nodes}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--material", default="KQK")
    parser.add_argument("--rules", default="berkeley")
    parser.add_argument("--sample", type=int, default=40, help="Placements in the sample (spread evenly).")
    parser.add_argument("--max-moves", type=int, default=60)
    parser.add_argument("--today-seconds", type=float, default=900.0,
                        help="Time limit of the single-problem prover's run (0: leave it out).")
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "results" / "endgame.json"))
    args = parser.parse_args()
    started = time.perf_counter()
    tables = solver_for(SweepSpec(args.material, args.rules))
    build = round(time.perf_counter() - started, 2)
    everything = tables.placements()
    step = max(1, len(everything) // args.sample)
    sample = everything[::step][:args.sample]
    print(f"{args.material} under {args.rules}: {len(everything)} placements, tables built in {build} s "
          f"(compilation included on a first run); sample of {len(sample)}", flush=True)
    output = {"benchmark": "endgame", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "material": args.material, "rules": args.rules, "placements": len(everything),
              "tables_seconds": build, "sample": len(sample)}
    output["waves"] = waves(args.material, args.rules, args.max_moves)  # first: the cached solver's workspace is empty
    print("waves:", {k: v for k, v in output["waves"].items() if k != "results"}, flush=True)
    output["independent"] = per_placement(args.material, args.rules, sample, False, args.max_moves)
    print("independent:", {k: v for k, v in output["independent"].items() if k != "results"}, flush=True)
    output["shared"] = per_placement(args.material, args.rules, sample, True, args.max_moves)
    print("shared:", {k: v for k, v in output["shared"].items() if k != "results"}, flush=True)
    for name in ("independent", "shared"):
        for placement, moves in output[name]["results"].items():
            assert output["waves"]["results"][placement] == moves, (name, placement, moves)
    output["agree"] = True
    output["rook_corner"] = rook_corner(args.today_seconds)
    print("K+R, king in the 3x3 corner:", output["rook_corner"], flush=True)
    if args.today_seconds:
        output["today"] = today(args.material, args.rules, sample[0].squares, args.today_seconds)
        print("today:", output["today"], flush=True)
    independent = output["independent"]["placements_per_hour"]
    output["ratios"] = {"shared_over_independent": round(output["shared"]["placements_per_hour"] / independent, 2),
                        "waves_over_independent": round(output["waves"]["placements_per_hour"] / independent, 2)}
    if output.get("today", {}).get("placements_per_hour"):
        output["ratios"]["independent_over_today"] = round(independent / output["today"]["placements_per_hour"], 1)
    print("ratios:", output["ratios"])
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(output, indent=1) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
