"""Problems against a lone king: the metaposition engine behind ``solve`` and ``verify``
against the belief prover alone, in one run.

The problems: K+R (Ka1, Rh1) against a king hidden in the 3x3 corner a6-c8 within 30
(the problem file of an endgame-table row), and the K+Q family of ``benchmarks/deep``
(the king hidden in the r x r corner, r = 2 .. 8).  Per problem, ``ksolve.solve`` (the
fewest moves, the strategy tree read back, as ``ksolve solve`` prints it) and
``ksolve.verify`` (keys, tries with refutations, duals), each

- ``engine``: as the commands run today (the lone king's turns decided by the engine);
- ``prover``: the same with the engine switched off (every turn searched by the belief
  prover), with a time limit (``--prover-seconds``; 0 leaves it out).

The results must agree where both decide (checked: the fewest moves, the verdict, the
keys and the number of tries; the key ``solve`` reports is one of the winning ones); the ratio is prover seconds over
engine seconds (a lower bound where the prover hit its limit).

    python benchmarks/bench_lone_king.py [--prover-seconds 120] [--only NAME ...]
        [-o benchmarks/results/lone-king.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import chess
from common import machine

import ksolve
from ksolve.search.lone_king import LoneKingEngine
from ksolve.search.run import Limits


def problems() -> dict[str, Any]:
    """The problems by name: the rook in the corner, then the queen family."""
    from ksolve.endgame.certify import problem_text
    from ksolve.endgame.sweep import SweepSpec, solver_for

    corner = sum(1 << chess.square(f, r) for f in range(3) for r in range(5, 8))
    text = problem_text(solver_for(SweepSpec("KRK", "berkeley")), (chess.A1, chess.H1), 30, corner)
    found = {"kr-k-3x3": ksolve.load_problem_text(text, "kr-k-3x3.toml")}
    for path in sorted((ROOT / "benchmarks" / "deep").glob("kq-k-*.toml")):
        found[path.stem] = ksolve.load_problem(path)
    return found


@contextmanager
def engine_off() -> Iterator[None]:
    """Every turn searched by the belief prover: the engine answers none."""
    turn = LoneKingEngine.turn
    LoneKingEngine.turn = lambda self, belief, moves, state=0: None
    try:
        yield
    finally:
        LoneKingEngine.turn = turn


def measure(problem: Any, seconds: float | None) -> dict[str, Any]:
    """``solve`` then ``verify`` of ``problem`` within ``seconds`` each."""
    limits = Limits(seconds=seconds)
    started = time.perf_counter()
    solution = ksolve.solve(problem, limits=limits, jobs=1)
    solved = time.perf_counter() - started
    started = time.perf_counter()
    verification = ksolve.verify(problem, limits=limits, jobs=1)
    verified = time.perf_counter() - started
    return {"solve": {"status": solution.status, "moves": solution.moves, "key": solution.key,
                      "nodes": solution.nodes, "seconds": round(solved, 2)},
            "verify": {"verdict": verification.verdict, "keys": sorted(key.move for key in verification.keys),
                       "tries": len(verification.tries), "duals": len(verification.duals),
                       "nodes": verification.nodes, "seconds": round(verified, 2)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prover-seconds", type=float, default=120.0,
                        help="Time limit of each run of the prover alone (0: leave it out).")
    parser.add_argument("--only", nargs="*", help="Problems by name (kr-k-3x3, kq-k-2x2 ...).")
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "results" / "lone-king.json"))
    args = parser.parse_args()
    output: dict[str, Any] = {"benchmark": "lone-king", "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
                              "machine": machine(), "prover_seconds": args.prover_seconds, "results": []}
    for name, problem in problems().items():
        if args.only and name not in args.only:
            continue
        row: dict[str, Any] = {"problem": name, "stipulation": problem.stipulation,
                               "engine": measure(problem, None)}
        if args.prover_seconds:
            with engine_off():
                row["prover"] = measure(problem, args.prover_seconds)
            row["ratios"] = {}
            for part, decided in (("solve", "status"), ("verify", "verdict")):
                engine, prover = row["engine"][part], row["prover"][part]
                if prover[decided] != "unknown":
                    same = ("moves",) if part == "solve" else ("verdict", "keys", "tries")  # a key: any that wins
                    assert all(engine[field] == prover[field] for field in same), (name, part, engine, prover)
                bound = "" if prover[decided] != "unknown" else ">="
                row["ratios"][part] = f"{bound}{prover['seconds'] / max(engine['seconds'], 0.01):.1f}"
        print(json.dumps(row), flush=True)
        output["results"].append(row)
    Path(args.output).write_text(json.dumps(output, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
