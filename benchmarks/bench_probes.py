"""Modern Kriegspiel: search cost against the number of squares a probe names (k = 1 to 7).

Per problem and per k: ``ksolve.solve`` under ``modern`` with ``probes = k``
(df-pn and the depth-first prover), the fewest moves found (within the
problem's stipulation), the search's nodes and seconds; the same problem
under Berkeley, solved in the same run, is the reference the times are
divided by.  Also the probe sets of the first turn: how many ksolve tries
(undominated, ``ksolve.rules.modern.probe_sets``) against every set of k
squares on which the positions differ, and against every set of k of the 64
squares (what the pruning saves).

    python benchmarks/bench_probes.py [-o OUT.json] [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine  # noqa: E402

from ksolve.problem import load_problem, load_problem_text  # noqa: E402
from ksolve.rules import get_rules  # noqa: E402
from ksolve.rules.modern import differing_squares, modern_rules, probe_sets  # noqa: E402
from ksolve.search.run import Limits  # noqa: E402
from ksolve.solver import solve  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CORNER = '''stipulation = "#3"
rules = "modern"
[position]
fen = "8/8/8/2K5/8/8/8/7Q w - - 0 1"
hidden = ["k:a8,b8,c8,a7,b7,c7,a6"]
'''
"""King and queen against a king somewhere in the a8 corner (5 legal squares): no mate in 3
under Berkeley nor with one square probed, mate in 3 with two or more."""
WIDE = '''stipulation = "#5"
rules = "modern"
[position]
fen = "8/8/8/8/2K5/8/8/7Q w - - 0 1"
hidden = ["k:a8,b8,c8,d8,a7,b7,c7,d7,a6,b6"]
'''
"""King and queen against a king in a wider corner (8 legal squares): no mate in 5 under
Berkeley; more squares differ, so more probe sets."""


def problems() -> dict[str, object]:
    return {"modern-01": load_problem(ROOT / "problems" / "modern-01.toml"),
            "kq-corner": load_problem_text(CORNER, "kq-corner"),
            "kq-wide": load_problem_text(WIDE, "kq-wide")}


def measure(problem, rules, search: str, timeout: float) -> dict:
    solution = solve(problem, rules=rules, search=search, limits=Limits(seconds=timeout))
    return {"status": solution.status, "moves": solution.moves, "nodes": solution.nodes,
            "seconds": round(solution.seconds, 4), "reason": solution.reason or None}


def first_turn(problem, k: int) -> dict:
    """The first turn's probe sets: generated, and all k-sets of differing squares / of the board."""
    positions = problem.belief().positions
    differing = bin(differing_squares(positions)).count("1")
    try:
        generated = len(probe_sets(positions, k))
    except ValueError as error:
        generated = str(error)
    return {"differing_squares": differing, "generated": generated,
            "all_of_differing": math.comb(differing, min(k, differing)), "all_of_board": math.comb(64, k)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "results" / "probes.json"))
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per search")
    args = parser.parse_args()
    rows = []
    for name, problem in problems().items():
        berkeley = {search: measure(problem, get_rules("berkeley"), search, args.timeout) for search in ("pn", "dfs")}
        print(name, "berkeley", berkeley, flush=True)
        for k in range(1, 8):
            row = {"problem": name, "stipulation": problem.stipulation, "positions": len(problem.belief()), "k": k,
                   "first_turn": first_turn(problem, k), "berkeley": berkeley}
            for search in ("pn", "dfs"):
                result = measure(problem, modern_rules(k), search, args.timeout)
                reference = berkeley[search]["seconds"]
                result["time_vs_berkeley"] = round(result["seconds"] / reference, 2) if reference else None
                row[search] = result
            rows.append(row)
            print(name, k, row["first_turn"], row["pn"], row["dfs"], flush=True)
            Path(args.output).write_text(json.dumps({"machine": machine(), "timeout": args.timeout, "rows": rows},
                                                    indent=1) + "\n")


if __name__ == "__main__":
    main()
