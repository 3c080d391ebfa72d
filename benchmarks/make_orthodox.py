"""Compose the orthodox mate-in-4/5 corpus of ``bench_orthodox.py``.

Random placements of Kriegspiel-problem material (White's king and pieces,
pawns among them, against a black king with a few men) in three sizes:
``light`` (4-7 men), ``medium`` (7-11) and ``heavy`` (14-18).  Stockfish
(Debian's ``stockfish``, depth 14, one thread: deterministic) picks the
placements with a mate in 4 or 5; ksolve's shortest-mate search then gives
each its exact length, which becomes the stipulation.  A placement whose
exact mate is shorter than 4 is dropped.

    python benchmarks/make_orthodox.py [--per-size 10] [--seed 1] [--engine /usr/games/stockfish]

The files land in ``benchmarks/orthodox/`` as ``SIZE-NN.toml``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ksolve import api  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "orthodox"
SIZES = {
    # name: (White's men besides the king, Black's men besides the king, piece choices)
    "light": ((2, 4), (0, 2), "RBNPPQ", "PPBN"),
    "medium": ((3, 5), (2, 4), "RBNPPQ", "PPBNR"),
    "heavy": ((6, 8), (5, 7), "RBNPPQ", "PPBNRQ"),
}
DEFAULT_ENGINE = "/usr/games/stockfish"


def placement(rng: random.Random, size: str) -> chess.Board:
    """One random placement of ``size``'s material, White to move (maybe illegal).

    >>> placement(random.Random(1), "light").turn == chess.WHITE
    True
    """
    (white_low, white_high), (black_low, black_high), white_men, black_men = SIZES[size]
    white = rng.randint(white_low, white_high)
    black = rng.randint(black_low, black_high)
    squares = rng.sample(range(64), 2 + white + black)
    board = chess.Board(None)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for index, square in enumerate(squares[2:]):
        letter = rng.choice(white_men) if index < white else rng.choice(black_men).lower()
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    board.turn = chess.WHITE
    return board


def exact_mate(fen: str) -> int | None:
    """ksolve's shortest orthodox mate of ``fen``, up to 5 moves (None: none)."""
    text = f'stipulation = "#5"\nrules = "orthodox"\n[position]\nfen = "{fen}"\n'
    solution = api.solve(api.load_problem_text(text, "candidate.toml"), tree=False,
                         limits=api.Limits(seconds=120))
    return solution.moves if solution.status == "solved" else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-size", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", default=DEFAULT_ENGINE)
    args = parser.parse_args()
    CORPUS.mkdir(exist_ok=True)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1})
    try:
        for size in SIZES:
            rng = random.Random(f"{args.seed}-{size}")
            kept = 0
            while kept < args.per_size:
                board = placement(rng, size)
                if not board.is_valid() or board.is_game_over():
                    continue
                score = engine.analyse(board, chess.engine.Limit(depth=14))["score"].white()
                if not score.is_mate() or score.mate() not in (4, 5):
                    continue
                moves = exact_mate(board.fen())
                if moves is None or moves < 4:
                    continue
                kept += 1
                name = f"{size}-{kept:02d}"
                (CORPUS / f"{name}.toml").write_text(
                    f'id = "{name}"\nstipulation = "#{moves}"\nrules = "orthodox"\n'
                    f'notes = "Random {size} placement; Stockfish depth 14 saw a mate in {score.mate()}, '
                    f'ksolve\'s shortest mate is {moves}."\n[position]\nfen = "{board.fen()}"\n')
                print(name, board.fen(), f"#{moves}", flush=True)
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
