"""Benchmark what leaving out the positions no game reaches costs the
enumeration of a belief: each belief enumerated with the retro counts
(``reachable=True``, the default) and without them (``reachable=False``, the
reference: the enumeration as it was before the counts), alternating, in one
run; the ratio is the slowdown.  The beliefs: every bundled problem's (summed),
a belief of over a million positions, and smaller ones with pawns and with
placements left out.

    python benchmarks/bench_retro.py [--quick] [-o OUT.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_of, machine  # noqa: E402

from ksolve.hidden import enumerate_placements, parse_hidden_unit  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# (name, visible FEN, hidden units): beliefs of 10^4 to 10^6 positions, with and without pawns.
BELIEFS = [
    ("rotenberg-1976", "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"]),
    ("three-pieces-bare-kings", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ["q:any", "r:any", "b:any"]),
    ("four-pieces-over-a-million", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ["q:any", "r:any", "b:any", "n:a-file"]),
    ("pawns-and-bishops", "4k3/pp3ppp/8/8/8/8/PPP2PPP/2B1K3 w - - 0 1", ["p:any", "p:any", "b:any"]),
    ("eight-pawns-extra-bishop", "4k3/8/p4pp1/1p1pp2p/2p5/3N4/R7/b4K2 w - - 0 1", ["b:any", "n:any", "r:any"]),
]


def bundled() -> list[tuple[chess.Board, list]]:
    """Every bundled problem's visible board and hidden units (twins included; listed positions left out)."""
    from ksolve.problem import load_problem

    found = []
    for path in sorted((ROOT / "problems").glob("**/*.toml")):
        for problem in load_problem(path).with_twins():
            if problem.fen is not None:
                found.append((chess.Board(problem.fen), problem.hidden))
    return found


def measure(inputs: list[tuple[chess.Board, list]], repeats: int) -> dict:
    """Enumerate every ``(board, units)`` of ``inputs`` with and without the counts, alternating."""
    def run(reachable: bool) -> list:
        return [enumerate_placements(board, units, reachable=reachable) for board, units in inputs]

    run(True), run(False)  # compiled and warm
    with_counts = without = float("inf")
    for _ in range(repeats):  # alternating, so that the machine's load hits both alike
        seconds, placed = best_of(1, lambda: run(True))
        with_counts = min(with_counts, seconds)
        seconds, every = best_of(1, lambda: run(False))
        without = min(without, seconds)
    assert all(len(p.rows) + p.left_out.total == len(e.rows) for p, e in zip(placed, every))
    return {"positions": sum(len(e.rows) for e in every), "kept": sum(len(p.rows) for p in placed),
            "left_out": sum(p.left_out.total for p in placed), "reachable_seconds": with_counts,
            "all_seconds": without, "ratio": with_counts / without}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="Fewer repeats.")
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "retro.json"))
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    rows = []
    problems = bundled()
    cases = [("bundled-problems", f"{len(problems)} problems and twins", problems)]
    cases += [(name, hidden, [(chess.Board(fen), [parse_hidden_unit(unit) for unit in hidden])])
              for name, fen, hidden in BELIEFS]
    for name, hidden, inputs in cases:
        row = {"belief": name, "hidden": hidden, **measure(inputs, repeats)}
        rows.append(row)
        print(f"{name:28} {row['positions']:>9,} positions, {row['left_out']:>7,} left out: "
              f"{row['reachable_seconds']:.3f} s against {row['all_seconds']:.3f} s (x{row['ratio']:.3f})")
    result = {"benchmark": "retro-enumeration", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "rows": rows}
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
