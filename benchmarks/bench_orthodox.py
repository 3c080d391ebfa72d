"""Orthodox mates in 4 and 5 (``--rules orthodox``) against a dedicated engine.

The corpus is ``benchmarks/orthodox/*.toml`` (``make_orthodox.py``): 30
placements of Kriegspiel-problem material, light to heavy, each stipulated
at its exact shortest mate.  Per problem, in one run and one after another:

- ``solve``: ``api.solve`` (the shortest mate and its strategy tree, as
  ``ksolve solve`` finds them), in process with warm kernels;
- ``verify``: ``api.verify`` (every key, tries, duals), as ``ksolve verify``;
- ``engine``: Stockfish (Debian's ``stockfish``, one thread, 64 MB hash)
  asked for a mate in n (``go mate n``): the reference.  An engine stops at
  the first mate it finds and proves nothing about other keys, so it is the
  yardstick for ``solve``; ``verify`` does a problem solver's whole job.

Checks: ksolve's key is one of its verified keys, and the engine's move is
one of them too (or the engine found no mate).  Ratios are ksolve's seconds
over the engine's.

    python benchmarks/bench_orthodox.py [--engine PATH] [-o OUT.json]
    python benchmarks/bench_orthodox.py --table    # the README's table from the JSON
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine  # noqa: E402

from ksolve import api  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "orthodox"
RESULTS = Path(__file__).resolve().parent / "results" / "orthodox.json"
DEFAULT_ENGINE = "/usr/games/stockfish"
SIZES = ("light", "medium", "heavy")
ENGINE_SECONDS = 60.0


@dataclass
class Row:
    """One problem's figures."""

    problem: str
    men: int
    moves: int
    solve_seconds: float
    solve_nodes: int
    key: str | None
    verify_seconds: float
    verdict: str
    keys: list[str]
    engine_seconds: float
    engine_move: str | None
    engine_mate: int | None
    agrees: bool


def timed(function):
    """``(seconds, result)`` of one call."""
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def measure(path: Path, engine: chess.engine.SimpleEngine) -> Row:
    """Solve, verify and ask the engine about one problem."""
    problem = api.load_problem(path)
    solve_seconds, solution = timed(lambda: api.solve(problem))
    verify_seconds, verification = timed(lambda: api.verify(problem))
    keys = [key.move for key in verification.keys]
    board = chess.Board(problem.fen)
    engine.configure({"Clear Hash": None})
    engine_seconds, info = timed(lambda: engine.analyse(
        board, chess.engine.Limit(mate=problem.moves, time=ENGINE_SECONDS)))
    score = info["score"].white()
    engine_mate = score.mate() if score.is_mate() and score.mate() > 0 else None
    engine_move = info["pv"][0].uci() if engine_mate is not None else None
    agrees = solution.key in keys and (engine_move is None or engine_move in keys)
    return Row(problem.id, len(board.piece_map()), problem.moves, round(solve_seconds, 3), solution.nodes,
               solution.key, round(verify_seconds, 3), verification.verdict, keys, round(engine_seconds, 3),
               engine_move, engine_mate, agrees)


def summary(rows: list[Row]) -> dict:
    """Medians and extremes of the ratios, and the agreement count."""
    def ratios(field: str) -> list[float]:
        return [getattr(row, field) / max(row.engine_seconds, 1e-3) for row in rows]

    solve, verify = ratios("solve_seconds"), ratios("verify_seconds")
    return {
        "problems": len(rows),
        "agree": sum(row.agrees for row in rows),
        "engine found the mate": sum(row.engine_mate is not None for row in rows),
        "solve / engine median": round(statistics.median(solve), 2),
        "solve / engine max": round(max(solve), 2),
        "verify / engine median": round(statistics.median(verify), 2),
        "verify / engine max": round(max(verify), 2),
        "solve seconds max": max(row.solve_seconds for row in rows),
        "verify seconds max": max(row.verify_seconds for row in rows),
        "engine seconds max": max(row.engine_seconds for row in rows),
    }


def table(result: dict) -> str:
    """The README's table: one line per material size, then the totals."""
    lines = ["| problems | men | moves | solve s (median, max) | verify s (median, max) "
             "| Stockfish s (median, max) | solve / Stockfish (median) | keys agree |",
             "|---|---|---|---|---|---|---|---|"]
    groups: dict[str, list[dict]] = {}
    for row in result["results"]:
        groups.setdefault(row["problem"].split("-")[0], []).append(row)
    for name, rows in sorted(groups.items(), key=lambda item: SIZES.index(item[0]) if item[0] in SIZES else 9):
        def spread(field: str) -> str:
            values = [row[field] for row in rows]
            return f"{statistics.median(values):.2f}, {max(values):.2f}"

        men = [row["men"] for row in rows]
        moves = sorted({row["moves"] for row in rows})
        ratio = statistics.median(row["solve_seconds"] / max(row["engine_seconds"], 1e-3) for row in rows)
        lines.append(f"| {len(rows)} {name} | {min(men)}-{max(men)} | {'/'.join(map(str, moves))} "
                     f"| {spread('solve_seconds')} | {spread('verify_seconds')} | {spread('engine_seconds')} "
                     f"| {ratio:.1f} | {sum(row['agrees'] for row in rows)}/{len(rows)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=DEFAULT_ENGINE, help="a UCI engine (default: Debian's Stockfish)")
    parser.add_argument("-o", "--output", type=Path, default=RESULTS)
    parser.add_argument("--table", action="store_true", help="print the README's table from the JSON and stop")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(args.output.read_text())))
        return
    if not Path(args.engine).exists():
        sys.exit(f"bench_orthodox: no engine at {args.engine} (apt-get install stockfish)")
    api.solve(api.load_problem_text('stipulation = "#1"\nrules = "orthodox"\n[position]\n'
                                    'fen = "6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1"\n'))  # warm the kernels
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 64})
    rows = []
    try:
        for path in sorted(CORPUS.glob("*.toml")):
            row = measure(path, engine)
            rows.append(row)
            print(f"{row.problem:10} #{row.moves} {row.men:2} men  solve {row.solve_seconds:6.2f} s  "
                  f"verify {row.verify_seconds:6.2f} s ({row.verdict}, {len(row.keys)} keys)  "
                  f"stockfish {row.engine_seconds:6.2f} s {row.engine_move}  agrees {row.agrees}", flush=True)
        engine_name = engine.id.get("name", args.engine)
    finally:
        engine.quit()
    result = {"benchmark": "orthodox", "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "machine": machine(),
              "engine": engine_name, "summary": summary(rows), "results": [asdict(row) for row in rows]}
    args.output.parent.mkdir(exist_ok=True)
    args.output.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result["summary"], indent=1))
    print(table(result))


if __name__ == "__main__":
    main()
