"""The computer opponent (ksolve.play.computer) against ksolve's random and
greedy policies: seeded games per rule set, the computer White in half of
them, each game ending at mate / king capture / a draw or at the move limit
(counted apart, as unfinished).  Reported per rule set and opponent: wins,
draws, losses, unfinished, the score (win 1, draw or unfinished 1/2), the
computer's average think time per move (seconds per executed move, its
refused attempts included) and, as the reference measured in the same run,
the opponent policy's time per move.

    python benchmarks/bench_play.py [--games N] [--plies P] [--rules NAME ...] [-o OUT.json]
    python benchmarks/bench_play.py --merge A.json B.json -o OUT.json

``--games`` is per rule set and opponent (default 100: 200 games per rule set).
The JSON is rewritten after every row, so that a long run split over
processes (``--rules`` each) leaves its rows as it goes; ``--merge`` joins
such runs' files into one.
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
from common import machine  # noqa: E402

from ksolve.games.play import POLICIES  # noqa: E402
from ksolve.play.computer import ComputerPlayer  # noqa: E402
from ksolve.play.match import play_match  # noqa: E402

RULES = ("berkeley", "berkeley-any", "english", "cincinnati", "rand", "wild16", "fog-of-war")


def timed(policy):
    """The policy, with its seconds and calls counted."""
    def wrapped(referee, rng):
        started = time.perf_counter()
        choice = policy(referee, rng)
        wrapped.seconds += time.perf_counter() - started
        return choice
    wrapped.seconds = 0.0
    wrapped.__name__ = policy.__name__
    return wrapped


def match_series(rules: str, opponent: str, games: int, plies: int) -> dict:
    counts = {"wins": 0, "draws": 0, "losses": 0, "unfinished": 0}
    think = moves = 0.0
    other_seconds = other_moves = 0.0
    for seed in range(games):
        side = chess.WHITE if seed % 2 == 0 else chess.BLACK
        computer = ComputerPlayer(rules, side, seed=seed)
        policy = timed(POLICIES[opponent])
        white, black = (computer, policy) if side == chess.WHITE else (policy, computer)
        game = play_match(rules, white, black, plies, seed=10_000 + seed)
        mine = sum(1 for turn in game.turns if turn.white == side)
        think += computer.stats.seconds
        moves += mine
        other_seconds += policy.seconds
        other_moves += len(game.turns) - mine
        won = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(game.result)
        if game.result == "*":
            counts["unfinished"] += 1
        elif won is None:
            counts["draws"] += 1
        else:
            counts["wins" if won == side else "losses"] += 1
    score = counts["wins"] + 0.5 * (counts["draws"] + counts["unfinished"])
    per_move = think / max(moves, 1)
    reference = other_seconds / max(other_moves, 1)
    return {"rules": rules, "opponent": opponent, "games": games, **counts, "score": score,
            "score_percent": round(100 * score / games, 1), "think_seconds_per_move": round(per_move, 4),
            "opponent_seconds_per_move": round(reference, 6),
            "think_ratio_to_opponent": round(per_move / reference, 1) if reference else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per rule set and opponent")
    parser.add_argument("--plies", type=int, default=80, help="the move limit, in plies")
    parser.add_argument("--rules", nargs="*", default=list(RULES))
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "play.json"))
    parser.add_argument("--merge", nargs="+", help="join these runs' JSON files into --output")
    args = parser.parse_args()
    if args.merge:
        runs = [json.loads(Path(name).read_text()) for name in args.merge]
        merged = {**runs[0], "rows": [row for run in runs for row in run["rows"]],
                  "seconds": round(sum(run["seconds"] for run in runs), 1), "runs": len(runs)}
        Path(args.output).write_text(json.dumps(merged, indent=2) + "\n")
        print(f"written {args.output}")
        return
    started = time.perf_counter()
    rows = []
    for rules in args.rules:
        for opponent in ("random", "greedy"):
            row = match_series(rules, opponent, args.games, args.plies)
            rows.append(row)
            print(f"{rules:13} vs {opponent:6}: +{row['wins']} ={row['draws']} -{row['losses']} "
                  f"unfinished {row['unfinished']}  score {row['score_percent']}%  "
                  f"think {row['think_seconds_per_move'] * 1000:.0f} ms/move "
                  f"({row['think_ratio_to_opponent']}x the {opponent} policy)", flush=True)
            result = {"benchmark": "play", "machine": machine(), "games_per_opponent": args.games,
                      "plies": args.plies, "seconds": round(time.perf_counter() - started, 1), "rows": rows}
            Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    print(f"written {args.output}")


if __name__ == "__main__":
    main()
