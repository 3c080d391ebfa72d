"""Benchmark the board engine against python-chess, in one run, on the same positions.

Measures
- perft with full make-move at every leaf, and with bulk counting of the last ply;
- batch child generation (every child of many positions) against python-chess
  copy-and-push, the straightforward way to expand a set of boards;
- numba start-up: cold (empty cache, everything compiled) and warm (cached);
- ``ksolve --help`` start-up (numba must not be imported for it).

Speed is reported as a ratio against python-chess measured in the same run;
absolute figures are given beside it.  Results go to JSON (default
``benchmarks/results/board.json``).

    python benchmarks/bench_board.py [--quick] [-o OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_of, machine  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def python_chess_perft(board: chess.Board, depth: int, bulk: bool) -> int:
    """python-chess perft: push/pop every move, or count the last ply's moves."""
    if depth == 0:
        return 1
    if bulk and depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_chess_perft(board, depth - 1, bulk)
        board.pop()
    return nodes


def bench_perft(fen: str, depth: int, repeats: int) -> dict:
    from ksolve.board import perft, position_from_fen

    position = position_from_fen(fen)
    perft(position, 2)
    perft(position, 2, False, True)  # compile outside the timing
    rows = {}
    for bulk in (False, True):
        ours_s, ours_nodes = best_of(repeats, lambda: int(perft(position, depth, False, bulk)))
        theirs_s, theirs_nodes = best_of(1, lambda: python_chess_perft(chess.Board(fen), depth, bulk))
        assert ours_nodes == theirs_nodes, (ours_nodes, theirs_nodes)
        rows["bulk" if bulk else "full_make_move"] = {
            "nodes": ours_nodes,
            "ksolve_seconds": ours_s,
            "python_chess_seconds": theirs_s,
            "ksolve_nodes_per_second": ours_nodes / ours_s,
            "python_chess_nodes_per_second": theirs_nodes / theirs_s,
            "ratio": theirs_s / ours_s,
        }
    return {"fen": fen, "depth": depth, **rows}


def sample_positions(count: int, seed: int) -> list[str]:
    """FENs from seeded random games: a realistic mix of openings to endgames."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randint(10, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.1 and not board.is_game_over():
                fens.append(board.fen())
    return fens[:count]


def bench_children(count: int, repeats: int) -> dict:
    from ksolve.board import expand, positions_from_fens

    fens = sample_positions(count, seed=1)
    positions = positions_from_fens(fens)
    expand(positions[:2])
    ours_s, (children, _, _) = best_of(repeats, lambda: expand(positions))
    boards = [chess.Board(f) for f in fens]

    def python_chess_children():
        result = []
        for board in boards:
            for move in board.legal_moves:
                child = board.copy(stack=False)
                child.push(move)
                result.append(child)
        return result

    theirs_s, theirs = best_of(1, python_chess_children)
    assert len(theirs) == children.shape[0]
    return {
        "positions": count,
        "children": int(children.shape[0]),
        "ksolve_seconds": ours_s,
        "python_chess_seconds": theirs_s,
        "ksolve_children_per_second": children.shape[0] / ours_s,
        "python_chess_children_per_second": len(theirs) / theirs_s,
        "ratio": theirs_s / ours_s,
    }


STARTUP_SNIPPET = (
    "import time; t=time.perf_counter();"
    "import numpy as np;"
    "from ksolve.board import expand, perft, position_from_fen;"
    "p=position_from_fen('" + KIWIPETE + "');"
    "perft(p, 2); perft(p, 2, True, True); expand(p[np.newaxis, :]); expand(p[np.newaxis, :], True);"
    "print(time.perf_counter()-t)"
)


def bench_startup() -> dict:
    """Seconds to import the engine and run each kernel once, cold and warm."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        timings = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", STARTUP_SNIPPET], env=env, check=True,
                                 capture_output=True, text=True).stdout
            timings.append(float(out.strip()))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ksolve.cli", "--help"], check=True, capture_output=True)
    help_seconds = time.perf_counter() - start
    return {"cold_seconds": timings[0], "warm_seconds": timings[1], "cli_help_seconds": help_seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "board.json"))
    args = parser.parse_args()
    depth, positions, repeats = (3, 200, 1) if args.quick else (4, 2000, 3)
    result = {
        "benchmark": "board",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "machine": machine(),
        "perft_kiwipete": bench_perft(KIWIPETE, depth, repeats),
        "perft_start": bench_perft(chess.STARTING_FEN, depth, repeats),
        "children": bench_children(positions, repeats),
        "startup": bench_startup(),
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    for name in ("perft_kiwipete", "perft_start"):
        for kind in ("full_make_move", "bulk"):
            row = result[name][kind]
            print(f"{name} d{result[name]['depth']} {kind}: ksolve {row['ksolve_nodes_per_second']:,.0f} n/s, "
                  f"python-chess {row['python_chess_nodes_per_second']:,.0f} n/s, ratio {row['ratio']:.1f}x")
    row = result["children"]
    print(f"children of {row['positions']} positions: ksolve {row['ksolve_children_per_second']:,.0f}/s, "
          f"python-chess {row['python_chess_children_per_second']:,.0f}/s, ratio {row['ratio']:.1f}x")
    row = result["startup"]
    print(f"start-up: cold {row['cold_seconds']:.2f} s, warm {row['warm_seconds']:.2f} s, "
          f"ksolve --help {row['cli_help_seconds']:.2f} s")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
