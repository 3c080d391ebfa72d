"""Solve every instance of the generated benchmark set (``benchmarks/generated/
plyD/{mate,near-miss}/*.pgn``, made by ``make_generated.py``) and compare the
verdict with the instance's label.

Each instance is read (``read_game_file``), turned into the problem "White
mates within D plies" at the end of its history (``game_problem``: White's
belief estimated from his filtered history) and solved by
``ksolve.solver.solve`` with a time limit, without building the strategy
tree (the verdict, the fewest moves and the key only).

- a **mate** instance agrees when it is solved within its ply;
- a **near-miss** instance (no mate within D plies, but one within D + 2, or
  a mate within D in most of the belief's positions if White knew which)
  agrees when the solver proves there is no solution within D plies;
- ``unknown`` (time limit) is neither; every other verdict is a disagreement.

Writes JSON (default ``benchmarks/results/generated.json``): the machine, per
ply depth and kind the counts (instances, solved, no solution, unknown,
agreeing), the median and worst solve seconds and prover nodes, the
disagreements, and a row per instance; prints a table.  ``seconds`` is the
solve alone; ``estimate_seconds`` the reading and state estimation before it.

    python benchmarks/bench_generated.py [--timeout 30] [--ply 3 5 7] [-o OUT.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine  # noqa: E402

from ksolve.games.pgn import read_game_file  # noqa: E402
from ksolve.games.problem import game_problem  # noqa: E402
from ksolve.problem import load_problem_text  # noqa: E402
from ksolve.search.prover import Limits  # noqa: E402
from ksolve.solver import NO_SOLUTION, SOLVED, UNKNOWN, solve  # noqa: E402

SET = ROOT / "benchmarks" / "generated"
DEPTHS = (3, 5, 7)
KINDS = ("mate", "near-miss")


def instances(ply: int, root: Path = SET) -> list[tuple[str, Path]]:
    """The depth's instance files as (kind, path), in name order."""
    return [(kind, path) for kind in KINDS for path in sorted((root / f"ply{ply}" / kind).glob("*.pgn"))]


def agrees(kind: str, status: str, moves: int | None, ply: int) -> bool | None:
    """Whether the verdict matches the label (None: undecided)."""
    if status == UNKNOWN:
        return None
    if kind == "mate":
        return status == SOLVED and moves is not None and moves <= (ply + 1) // 2
    return status == NO_SOLUTION


def run(kind: str, path: Path, ply: int, timeout: float) -> dict:
    started = time.perf_counter()
    game = read_game_file(str(path))
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    problem = game_problem(game, ply=ply, source=name)
    estimated = time.perf_counter() - started
    result = solve(problem, limits=Limits(seconds=timeout), tree=False)
    tags = dict(game.tags)
    return {"file": name, "ply": ply, "kind": kind, "detail": tags.get("Detail", ""),
            "belief_size": result.belief_size, "status": result.status, "moves": result.moves, "key": result.key,
            "nodes": result.nodes, "seconds": round(result.seconds, 4), "estimate_seconds": round(estimated, 4),
            "agrees": agrees(kind, result.status, result.moves, ply), "reason": result.reason}


def summarize(rows: list[dict]) -> dict:
    """Counts, agreement and median/worst seconds and nodes of some rows."""
    if not rows:
        return {"instances": 0}
    seconds = [row["seconds"] for row in rows]
    nodes = [row["nodes"] for row in rows]
    return {
        "instances": len(rows),
        "solved": sum(row["status"] == SOLVED for row in rows),
        "no_solution": sum(row["status"] == NO_SOLUTION for row in rows),
        "unknown": sum(row["status"] == UNKNOWN for row in rows),
        "agree": sum(row["agrees"] is True for row in rows),
        "disagree": sum(row["agrees"] is False for row in rows),
        "median_seconds": round(statistics.median(seconds), 4), "worst_seconds": round(max(seconds), 4),
        "median_nodes": float(statistics.median(nodes)), "worst_nodes": max(nodes),
        "under_1s": sum(s < 1.0 for s in seconds),
        "median_belief_size": float(statistics.median(row["belief_size"] for row in rows)),
        "worst_belief_size": max(row["belief_size"] for row in rows),
    }


def table(summary: dict) -> str:
    """The summary as a Markdown table."""
    lines = ["| ply | kind | instances | solved | no solution | unknown | agree | disagree | median s | worst s "
             "| median nodes | worst nodes | under 1 s |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for depth, kinds in summary.items():
        for kind, s in kinds.items():
            if not s["instances"]:
                continue
            lines.append(f"| {depth.removeprefix('ply')} | {kind} | {s['instances']} | {s['solved']} | "
                         f"{s['no_solution']} | {s['unknown']} | {s['agree']} | {s['disagree']} | "
                         f"{s['median_seconds']:.3f} | {s['worst_seconds']:.2f} | {s['median_nodes']:,g} | "
                         f"{s['worst_nodes']:,} | {s['under_1s']} |")
    return "\n".join(lines)


def commit() -> str:
    """The checked-out commit ("+" if the working tree differs from it), or ""."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "ksolve"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+" if dirty else "")


def warm_up(depths: list[int], root: Path) -> None:
    """Load (or compile) the numba kernels outside the timing: a small problem,
    then the first instance of each depth (kernels first used deeper in a search)."""
    problem = load_problem_text('stipulation = "#2"\nrules = "berkeley"\n[position]\n'
                                'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n')
    solve(problem)
    for ply in depths:
        for kind, path in instances(ply, root)[:1]:
            run(kind, path, ply, 60.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per instance")
    parser.add_argument("--ply", type=int, nargs="*", choices=DEPTHS, default=list(DEPTHS))
    parser.add_argument("--set", default=str(SET), help="folder of the plyD folders")
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "generated.json"))
    args = parser.parse_args()
    warm_up(args.ply, Path(args.set))
    started = time.perf_counter()
    rows = []
    for ply in args.ply:
        for kind, path in instances(ply, Path(args.set)):
            row = run(kind, path, ply, args.timeout)
            rows.append(row)
            mark = {True: "", False: "  DISAGREES", None: "  undecided"}[row["agrees"]]
            print(f"{row['file']:<52} {row['belief_size']:>6} {row['status']:<11} {row['moves'] or '':>2} "
                  f"{row['nodes']:>8,} nodes {row['seconds']:7.3f} s{mark}", flush=True)
    summary = {}
    for ply in args.ply:
        at_depth = [row for row in rows if row["ply"] == ply]
        summary[f"ply{ply}"] = {kind: summarize([row for row in at_depth if row["kind"] == kind]) for kind in KINDS}
        summary[f"ply{ply}"]["all"] = summarize(at_depth)
    result = {"benchmark": "generated", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "commit": commit(), "timeout_seconds": args.timeout,
              "total_seconds": round(time.perf_counter() - started, 1), "summary": summary,
              "disagreements": [row for row in rows if row["agrees"] is False], "rows": rows}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    print(table(summary))
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
