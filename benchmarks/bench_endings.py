"""The computer in tabled lone-king endings: is each one won within the tables'
number of moves?

Seeded random placements of K+Q and K+R (and, at the ``strong`` level, the
two-piece materials K+B+B with bishops on both colours, K+B+N, K+R+R)
against a lone king (the computer's men and the king on legal squares, the
computer White or Black), the computer not
seeing the king: its belief is every square of the king's class
(``ksolve.play.endings.unseen_king_belief``).  The opponent is the random or
the greedy policy (the greedy one peeks at the board and takes a man when it
can).  Where the tables hold no sure win from the king's class (the lone king
may take the unguarded man), the computer plays by its heuristic until they
do.  Each game records the tables' number of moves ``n`` at their first move
(``bound``; none if they never had a sure win), the computer's moves from
then to the end, and whether it won within ``n``; the reference is the bound
itself.  Reported per rule set, material and opponent: games, wins, sure wins
by the tables, those won within the bound.

    python benchmarks/bench_endings.py [--games N] [--rules wild16 berkeley fog-of-war]
                                       [--materials KQK KRK KBBK ...] [-o results/endings.json]

The one-piece materials are played at the default level (``normal``), the
two-piece ones at ``strong``, the first level that plays them from the tables
(their tables are built once per rule set, 40-100 s each).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine  # noqa: E402

from ksolve.games.play import POLICIES  # noqa: E402
from ksolve.play.match import play_policy_turn  # noqa: E402
from ksolve.play.computer import ComputerPlayer  # noqa: E402
from ksolve.play.endings import unseen_king_belief  # noqa: E402
from ksolve.play.session import GameSession  # noqa: E402
from ksolve.rules import get_rules  # noqa: E402

MATERIALS = {"KQK": (chess.QUEEN,), "KRK": (chess.ROOK,), "KBBK": (chess.BISHOP, chess.BISHOP),
             "KBNK": (chess.BISHOP, chess.KNIGHT), "KRRK": (chess.ROOK, chess.ROOK)}
"""The computer's pieces besides its king in each material measured."""
PLY_CAP = 200


def placement(rng: random.Random, pieces: tuple[int, ...], computer: chess.Color) -> str:
    """A random legal position of the computer's king and ``pieces`` against the lone king
    (two bishops on squares of both colours), the computer to move (its men White when it
    is White, Black otherwise).

    >>> fen = placement(random.Random(1), (chess.BISHOP, chess.BISHOP), chess.WHITE)
    >>> board = chess.Board(fen)
    >>> len(board.pieces(chess.BISHOP, chess.WHITE) & chess.BB_DARK_SQUARES)
    1
    """
    while True:
        board = chess.Board(None)
        king, *men, lone = rng.sample(chess.SQUARES, 2 + len(pieces))
        board.set_piece_at(king, chess.Piece(chess.KING, computer))
        board.set_piece_at(lone, chess.Piece(chess.KING, not computer))
        for square, piece in zip(men, pieces):
            board.set_piece_at(square, chess.Piece(piece, computer))
        bishops = board.pieces(chess.BISHOP, computer)
        if len(bishops) == 2 and len(bishops & chess.BB_DARK_SQUARES) != 1:
            continue
        board.turn = computer
        if board.is_valid() and not board.is_check() and any(board.legal_moves):
            return board.fen()


def level_of(material: str) -> str:
    """The level that plays ``material`` from the tables: ``normal`` for one piece, else ``strong``."""
    return "normal" if len(material) == 3 else "strong"


def play(rules: str, fen: str, side: chess.Color, opponent: str, seed: int, level: str) -> dict:
    game = GameSession(rules, fen)
    computer = ComputerPlayer(rules, side, fen, seed=seed, level=level)
    computer.assume(unseen_king_belief(get_rules(rules), fen, side))
    policy, rng = POLICIES[opponent], random.Random(seed)
    started = time.perf_counter()
    while not game.over and len(game.turns) < PLY_CAP:
        if game.to_move == side:
            computer.play_turn(game)
            continue
        play_policy_turn(game, policy, rng)
    won = game.result == ("1-0" if side == chess.WHITE else "0-1")
    bound = computer.ending.moves if computer.ending is not None else None
    own_moves = (len(game.turns) - max(0, computer.ending_turn) + 1) // 2  # from the tables' first move
    return {"fen": fen, "side": "white" if side == chess.WHITE else "black", "opponent": opponent,
            "result": game.result, "termination": game.termination, "moves": own_moves, "bound": bound,
            "won": won, "within_bound": bool(won and bound is not None and own_moves <= bound),
            "beyond_fifty": bool(computer.ending is not None and computer.ending.beyond_fifty),
            "seconds_per_move": computer.stats.mean_seconds, "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per rule set, material and opponent")
    parser.add_argument("--rules", nargs="+", default=["wild16", "berkeley"])
    parser.add_argument("--materials", nargs="+", default=["KQK", "KRK"], choices=list(MATERIALS))
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "endings.json"))
    arguments = parser.parse_args()
    rows, games = [], []
    for rules in arguments.rules:
        for material in arguments.materials:
            for opponent in ("random", "greedy"):
                rng = random.Random(f"{rules}-{material}-{opponent}")
                played = []
                for seed in range(arguments.games):
                    side = chess.WHITE if seed % 2 == 0 else chess.BLACK
                    played.append(play(rules, placement(rng, MATERIALS[material], side), side, opponent, seed,
                                       level_of(material)))
                won = sum(game["won"] for game in played)
                tabled = [game for game in played if game["bound"] is not None]
                within = sum(game["within_bound"] for game in played)
                row = {"rules": rules, "material": material, "level": level_of(material), "opponent": opponent,
                       "games": len(played),
                       "won": won, "sure_wins": len(tabled), "within_bound": within,
                       "mean_moves": sum(game["moves"] for game in played) / len(played),
                       "mean_bound": sum(game["bound"] or 0 for game in played) / len(played),
                       "longest_bound": max(game["bound"] or 0 for game in played),
                       "seconds_per_move": sum(game["seconds_per_move"] for game in played) / len(played)}
                rows.append(row)
                games.extend({"rules": rules, "material": material, **game} for game in played)
                print(f"{rules} {material} v {opponent}: won {won}/{len(played)}; a sure win by the tables "
                      f"{len(tabled)}, won within their bound {within}; moves {row['mean_moves']:.1f} (bound {row['mean_bound']:.1f}, longest "
                      f"{row['longest_bound']}), {row['seconds_per_move']:.3f} s/move", flush=True)
    Path(arguments.output).write_text(json.dumps({"machine": machine(), "command": sys.argv, "rows": rows,
                                                  "games": games}, indent=1) + "\n")
    print(f"written {arguments.output}")


if __name__ == "__main__":
    main()
