"""Benchmark belief-state updates against a straightforward python-chess
implementation, in one run, on the same beliefs.

The update measured is the one the solver does most: expand every position
of a belief by all of Black's replies and partition the children by what
White hears (Berkeley: capture square, check directions, mate/stalemate;
Wild 16 adds pawn/piece and White's pawn-try count).  Both implementations
must produce the same classes (checked), and speed is reported as positions
(children) expanded and partitioned per second, with the ratio.

    python benchmarks/bench_belief.py [--quick] [-o OUT.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import chess
import chess.polyglot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_of, machine  # noqa: E402

from ksolve.belief import BeliefState  # noqa: E402
from ksolve.board import move_from_uci, position_to_board  # noqa: E402
from ksolve.rules import get_rules  # noqa: E402

# (name, visible FEN, hidden units, White's first move): the belief measured is
# the silent class after White's move, Black to reply.
BELIEFS = [
    ("rotenberg-1976", "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:dark"], "a2g2"),
    ("rook-vs-knight-bishop", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ["n:any", "b:dark"], "a1a2"),
    ("middlegame-two-hidden", "r1bqk2r/pp3ppp/2n5/3p4/3P4/2N2N2/PP3PPP/R2QKB1R w KQkq - 0 1",
     ["n:rank-6+rank-5", "b:light"], "f1d3"),
]


def _line_kind(king: int, attacker: int) -> str:
    kf, kr = chess.square_file(king), chess.square_rank(king)
    af, ar = chess.square_file(attacker), chess.square_rank(attacker)
    if af == kf:
        return "file"
    if ar == kr:
        return "rank"
    if abs(af - kf) == abs(ar - kr):
        rising = (af - kf) * (ar - kr) > 0
        rising_length, falling_length = 8 - abs(kf - kr), 8 - abs(kf + kr - 7)
        longer = rising_length > falling_length if rising else falling_length > rising_length
        return "long" if longer else "short"
    return "knight"


def python_chess_replies(boards: list[chess.Board], wild16: bool) -> dict:
    """Black's replies of every board grouped by White's observation (python-chess)."""
    classes: dict = defaultdict(set)
    for board in boards:
        for move in board.legal_moves:
            capture = None
            if board.is_capture(move):
                square = move.to_square
                if board.is_en_passant(move):
                    square += -8 if board.turn == chess.WHITE else 8
                capture = (square, board.piece_type_at(square) == chess.PAWN if wild16 else None)
            board.push(move)
            if board.is_stalemate():
                end = "stalemate"
            elif board.is_checkmate():
                end = "checkmate"
            else:
                end = None
            king = board.king(board.turn)
            checks = frozenset(_line_kind(king, a) for a in board.checkers()) if end is None else frozenset()
            tries = None
            if wild16 and end is None:
                tries = len({(m.from_square, m.to_square) for m in board.legal_moves
                             if board.piece_type_at(m.from_square) == chess.PAWN and board.is_capture(m)})
            classes[(capture, checks, end, tries)].add(chess.polyglot.zobrist_hash(board))
            board.pop()
    return classes


def bench_one(name: str, fen: str, hidden: list[str], move: str, rules_name: str, repeats: int) -> dict:
    rules = get_rules(rules_name)
    initial = BeliefState.from_hidden(fen, hidden)
    belief = [b for key, b in initial.attempt(rules, move_from_uci(move)) if rules.describe(key) == "Silent"
              or rules.describe(key).startswith("Silent,")][0]
    belief.replies(rules)  # compile outside the timing
    ours_s, classes = best_of(repeats, lambda: belief.replies(rules))
    children = sum(len(b) for _, b in classes)
    expanded = rules.replies(belief.positions).children.shape[0]  # before merging transpositions
    boards = [position_to_board(row) for row in belief.positions]
    theirs_s, theirs = best_of(1, lambda: python_chess_replies(boards, rules_name == "wild16"))
    assert sorted(len(b) for _, b in classes) == sorted(len(v) for v in theirs.values()), name
    return {
        "belief": name, "rules": rules_name, "positions": len(belief), "replies_expanded": expanded,
        "children": children,
        "classes": len(classes),
        "ksolve_seconds": ours_s, "python_chess_seconds": theirs_s,
        "ksolve_children_per_second": children / ours_s,
        "python_chess_children_per_second": children / theirs_s,
        "ratio": theirs_s / ours_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repeat (a smoke run)")
    parser.add_argument("-o", "--output", default=str(Path(__file__).parent / "results" / "belief.json"))
    args = parser.parse_args()
    repeats = 1 if args.quick else 5
    rows = [bench_one(*belief, rules_name, repeats) for belief in BELIEFS for rules_name in ("berkeley", "wild16")]
    result = {
        "benchmark": "belief-replies",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "machine": machine(),
        "rows": rows,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    for row in rows:
        print(f"{row['belief']:<24} {row['rules']:<9} {row['positions']:>6} positions, {row['replies_expanded']:>6} "
              f"replies -> {row['children']:>6} children in {row['classes']:>3} classes: ksolve {row['ksolve_children_per_second']:>12,.0f}/s, "
              f"python-chess {row['python_chess_children_per_second']:>9,.0f}/s, ratio {row['ratio']:.0f}x")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
