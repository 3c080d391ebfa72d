"""Kriegspiel games: PGN round trips, malformed files, filtering, and White's
estimated belief against the true positions and against an independent
python-chess brute force (``history_reference.py``).

Run with ``-s`` to see the counts.
"""

from __future__ import annotations

import dataclasses
import random
import time

import chess
import chess.polyglot
import numpy as np
import pytest

from history_reference import brute_force_beliefs
from ksolve.board import move_from_uci, position_from_board, position_from_fen
from ksolve.rules.counts import attempt_counts
from ksolve.games.estimate import BeliefTooLarge, InconsistentHistory, beliefs, estimate, white_beliefs
from ksolve.games.model import Ask, Game, Hidden, Refused, Turn, filter_game
from ksolve.games.pgn import PGNError, read_game, read_games, write_game, write_games
from ksolve.games.play import greedy_policy, play_game, random_policy
from ksolve.rules import get_rules
from ksolve.rules.referee import Referee, pawn_diagonal_attempts

RULES = ("berkeley", "berkeley-any", "english", "cincinnati", "rand", "wild16")
SEED = 20250614


def random_fen(rng: random.Random, white: tuple[int, int] = (1, 3), black: tuple[int, int] = (1, 3)) -> str:
    """A legal position, White to move, kings plus a few random men."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + white[1] + black[1])
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        index = 2
        for color, (low, high) in ((chess.WHITE, white), (chess.BLACK, black)):
            for _ in range(rng.randint(low, high)):
                piece = rng.choice([chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
                square = squares[index]
                index += 1
                if piece != chess.PAWN or chess.square_rank(square) not in (0, 7):
                    board.set_piece_at(square, chess.Piece(piece, color))
        if board.is_valid() and not board.is_game_over() and not board.is_check():
            return board.fen()


def random_game(rng: random.Random, index: int, plies: int, fen: str | None = None) -> Game:
    white = (random_policy, greedy_policy)[index % 2]
    black = (random_policy, greedy_policy)[index // 2 % 2]
    return play_game(RULES[index % len(RULES)], white, black, plies, rng, fen=fen)


# --- PGN round trips ----------------------------------------------------------------
def test_round_trip_of_random_games():
    """Every unfiltered game written and read back is identical (and so are its
    two filtered versions)."""
    rng = random.Random(SEED)
    games = []
    for index in range(240):
        fen = random_fen(rng) if index % 4 == 3 else None
        games.append(random_game(rng, index, rng.randint(10, 60), fen))
    for game in games:
        text = write_game(game)
        assert read_game(text, "round-trip") == game, text
        for view in (True, False):
            filtered = filter_game(game, view)
            assert read_game(write_game(filtered)) == filtered
    assert read_games(write_games(games[:20])) == games[:20]
    refused = sum(isinstance(a, Refused) for g in games for t in g.turns for a in t.actions)
    asked = sum(isinstance(a, Ask) for g in games for t in g.turns for a in t.actions)
    ended = sum(g.result != "*" for g in games)
    print(f"\n{len(games)} games, {refused} refused attempts, {asked} 'Any?', {ended} finished")
    assert refused > 1000 and asked > 100 and ended > 5


def test_written_game_is_ordinary_pgn():
    """python-chess reads an unfiltered Kriegspiel PGN as an ordinary game."""
    import io

    import chess.pgn

    game = random_game(random.Random(3), 1, 30)
    parsed = chess.pgn.read_game(io.StringIO(write_game(game)))
    assert [m.uci() for m in parsed.mainline_moves()] == [t.move for t in game.turns]


def test_filtered_pgn_example():
    game = Game("berkeley", (Turn(True, (Refused("g1h3"),), "e2e4", 0),
                             Turn(False, (), "d7d5", 0),
                             Turn(True, (Refused("e4f5"),), "e4d5", 36),
                             Turn(False, (Refused("d8d5"),), "d8d5", 36)))
    with pytest.raises(PGNError, match="attempt Nh3 is legal"):
        read_game(write_game(game))
    turns = list(game.turns)
    turns[0] = Turn(True, (), "e2e4", 0)
    game = dataclasses.replace(game, turns=tuple(turns))
    with pytest.raises(PGNError, match="attempt Qd5 is legal"):
        read_game(write_game(game))
    turns[3] = Turn(False, (Refused("d8d1"),), "d8d5", 36)  # through the hidden pawn on d2
    game = dataclasses.replace(game, turns=tuple(turns))
    assert read_game(write_game(game)) == game
    assert write_game(game).split("\n\n")[1] == "1. e4 d5 2. exd5 {d5:exf5} Qxd5 {d5:Qd1} *"
    assert write_game(filter_game(game, True)).split("\n\n")[1] == "1. e4 ?? 2. exd5 {d5:exf5} ?? {d5:1} *"
    assert write_game(filter_game(game, False)).split("\n\n")[1] == "1. ?? d5 2. ?? {d5:1} Qxd5 {d5:Qd1} *"


def test_fen_header_and_tags():
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    game = play_game("wild16", random_policy, random_policy, 8, random.Random(5), fen=fen,
                     tags=(("Event", "Test \"quoted\""), ("Annotator", "ksolve")))
    text = write_game(game)
    assert '[FEN "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"]' in text and '[SetUp "1"]' in text
    assert '[Event "Test \\"quoted\\""]' in text
    assert read_game(text) == game
    assert len(estimate(game)) >= 1


# --- filtering -------------------------------------------------------------------------
def test_what_the_opponent_hears():
    actions = (Refused("b7b6"), Ask(False), Refused("a7a6"), Refused("h7h6"))
    board = chess.Board("4k3/pp5p/8/8/8/8/8/4K3 b - - 0 1")
    from ksolve.games.model import heard_actions

    assert heard_actions("berkeley", actions, board) == (Hidden(3),)
    assert heard_actions("wild16", actions, board) == ()
    assert heard_actions("english", actions, board) == (Hidden(1), Ask(False), Hidden(2))
    # Berkeley+Any: "Any?" is not heard, its "No" adds the 3 possible pawn captures a7xb6, b7xa6, b7xc6
    # (h7xg6 makes 4)
    assert heard_actions("berkeley-any", actions, board) == (Hidden(7),)
    assert heard_actions("berkeley-any", (Ask(True),), board) == ()


# --- malformed files -------------------------------------------------------------------------
BERKELEY = '[Rules "berkeley"]\n\n'
MALFORMED = [
    ('[Event "x"]\n\n1. e4 *', "1:1", "missing tag Rules"),
    ('[Rules "berkley"]\n\n1. e4 *', "1:1", "unknown rule set 'berkley'"),
    (BERKELEY + "1. e5 *", "3:4", "White's move 'e5'"),
    (BERKELEY + "1. e4 {:d4} *", "3:9", "attempt d4 is legal"),
    (BERKELEY + "1. e4 e5 2. Nf3 {:exd5,exd5} *", "3:24", "attempt exd5 cannot be made here"),
    (BERKELEY + "1. e4 e5 2. Nf3 {:Kd1} *", "3:19", "attempt 'Kd1' is not a move on the mover's own board"),
    (BERKELEY + "1. e4 {d5} *", "3:8", "announcement 'd5' differs from the referee's ''"),
    (BERKELEY + "1. e4 {:d4 *", "3:7", "unterminated comment"),
    (BERKELEY + "1. e4 e5", "3:9", "the game has no result"),
    (BERKELEY + "1. e4 {Q9} *", "3:8", "unknown announcement token 'Q9'"),
    (BERKELEY + "1. e4 {d5,F,R,} *", "3:13", "two check tokens"),
    (BERKELEY + "1. e4 ?? *", "3:7", "?? hides Black's move, but the game is unfiltered"),
    ('[Rules "berkeley"]\n[Filter "White"]\n\n1. e4 e5 *', "4:7", "must hide this move as ??"),
    ('[Rules "berkeley"]\n[Filter "Red"]\n\n1. e4 ?? *', "2:1", "Filter must be White or Black"),
    (BERKELEY + "1. e4 {:2} *", "3:9", "a count of refused attempts stands only after a hidden move"),
    ('[Rules "wild16"]\n[Filter "White"]\n\n1. e4 {T0} ?? {T0:1} *', "4:19", "not heard"),
    ('[Rules "berkeley"]\n[Filter "White"]\n\n1. e4 ?? {:Nf3} *', "4:12", "counted, not named"),
    ('[Rules "berkeley"]\n[Filter "White"]\n\n1. e4 ?? {:Any?N} *', "4:12", "has no 'Any?' question"),
    ('[Rules "berkeley-any"]\n[Filter "White"]\n\n1. e4 ?? {:Any?N} *', "4:12",
     "the opponent's 'Any?' is not heard"),
    ('[Rules "wild16"]\n\n1. e4 {} *', "3:8", "missing pawn-try token"),
    ('[Rules "wild16"]\n\n1. e4 {T+} *', "3:8", "gives a count"),
    ('[Rules "berkeley"]\n\n1. e4 {d5/pawn} *', "3:8", "does not say pawn or piece"),
    (BERKELEY + "1. e4 e5 3. Nf3 *", "3:10", "move number '3.', expected '2.'"),
    (BERKELEY + "1. e4 (1. d4) *", "3:7", "variations are not supported"),
    ('[Rules "berkeley"]\n[FEN "8/8/8/8/8/8/8/K7 w - - 0 1"]\n\n1. Kb1 *', "2:1", "no black king"),
    (BERKELEY + "1. e4 {:Any?N} *", "3:9", "has no 'Any?' question"),
    (BERKELEY + "1. e4 e5 *\n[Event \"x\"]", "4:12", "the game has no result"),
    (BERKELEY + "1. e4 e5 [Event \"x\"] *", "3:10", "tag inside the movetext"),
    (BERKELEY + "1. f3 e5 2. g4 Qh4# 3. a3 *", "3:24", "a move after the end of the game"),
    (BERKELEY + "1. f3 e5 2. g4 Qh4# *", "3:21", "the game ended 0-1"),
    ('[Rules "berkeley"]\n[Result "1-0"]\n\n1. e4 *', "4:7", "differs from the Result tag"),
    (BERKELEY + "1. e4 {} @ *", "3:10", "unexpected character '@'"),
    ('[Rules "berkeley-any"]\n\n1. e4 {:Any?Y} *', "3:9", "'Any?' was answered 'No', not as written"),
]


@pytest.mark.parametrize("text, where, reason", MALFORMED)
def test_malformed_pgn(text, where, reason):
    with pytest.raises(PGNError) as caught:
        read_games(text, "game.pgn")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"game.pgn:{where}: "), message
    assert reason in message, message


# --- the refusable-attempt counts ------------------------------------------------------------
def test_attempt_counts_against_the_referee():
    """The kernel's counts equal those of the game referee's askable set and python-chess legality."""
    rng = random.Random(SEED + 1)
    compared = 0
    for index in range(60):
        game = random_game(rng, index, 30, random_fen(rng, (2, 5), (2, 5)) if index % 2 else None)
        rules = get_rules(game.rules)
        rows = np.stack([position_from_board(b) for b in game.boards()])
        counts = attempt_counts(rows, rules.pawn_info)
        for board, row, got in zip(game.boards(), rows, counts):
            if board.is_game_over():
                continue
            legal = {move_from_uci(m.uci()) for m in board.legal_moves}
            askable = Referee(rules, row).askable()
            tries = pawn_diagonal_attempts(row)
            pawn_captures = {(m.from_square, m.to_square) for m in board.legal_moves
                             if board.piece_type_at(m.from_square) == chess.PAWN and board.is_capture(m)}
            expected = [len(askable - legal), len((askable & tries) - legal),
                        len({m & 0xFFF for m in tries}), len(pawn_captures)]
            assert list(got) == expected, (game.rules, board.fen())
            compared += 1
    assert compared > 1500


# --- state estimation --------------------------------------------------------------------------
def test_belief_contains_the_true_position():
    """In 500 random games (6-16 plies, six rule sets, from the start or from
    positions with few men) White's belief holds the true position after every ply."""
    rng = random.Random(SEED + 2)
    started = time.perf_counter()
    checked, largest = 0, 0
    for index in range(500):
        if index % 5 == 0:
            game = random_game(rng, index, rng.randint(6, 8))
        else:
            plies = rng.randint(6, 16)
            game = random_game(rng, index, plies, random_fen(rng, black=(1, 2) if plies > 10 else (1, 3)))
        truth = [chess.polyglot.zobrist_hash(b) for b in game.boards()]
        for ply, belief in beliefs(game, max_positions=1_000_000):
            assert truth[ply] in set(belief.hashes.tolist()), (index, game.rules, ply)
            largest = max(largest, len(belief))
        checked += 1
    print(f"\n{checked} games, largest belief {largest:,}, {time.perf_counter() - started:.1f} s")
    assert checked == 500


@pytest.mark.slow
def test_belief_equals_brute_force():
    """On small games (4-8 plies from positions with few men) White's belief
    after every ply is exactly the python-chess brute force's set.  Half the
    games give Black a lone king (or one man) against several white men, so
    that his refused attempts often tell White something."""
    rng = random.Random(SEED + 3)
    compared, constrained, asks, skipped = 0, 0, 0, 0
    while compared < 900:
        material = ((1, 3), (1, 3)) if compared % 2 else ((2, 5), (0, 1))
        game = filter_game(random_game(rng, compared + skipped, rng.randint(4, 8), random_fen(rng, *material)), True)
        ours = [set(b.hashes.tolist()) for _, b in beliefs(game)]
        counts = [sum(a.count for a in t.actions if isinstance(a, Hidden)) for t in game.turns if t.hidden]
        if max(len(b) for b in ours) > 1000 or max(counts, default=0) > 12:
            skipped += 1  # keep the brute force small
            continue
        assert brute_force_beliefs(game) == ours, (game.rules, game.fen, write_game(game))
        compared += 1
        stripped = dataclasses.replace(game, turns=tuple(dataclasses.replace(t, actions=()) if t.hidden else t
                                                         for t in game.turns))
        constrained += [set(b.hashes.tolist()) for _, b in beliefs(stripped)] != ours
        asks += any(isinstance(a, Ask) for t in game.turns if t.hidden for a in t.actions)
    print(f"\n{compared} games compared ({skipped} skipped as too large), {constrained} where Black's heard "
          f"attempts removed positions, {asks} with Black's 'Any?' heard")
    assert constrained >= 10 and asks >= 10


def _altered(game: Game, rng: random.Random) -> Game:
    """The game with random heard actions in place of some of Black's."""
    turns = []
    for turn in game.turns:
        if turn.hidden and rng.random() < 0.6:
            before, after = rng.randint(0, 3), rng.randint(0, 3)
            if game.rules == "english" and rng.random() < 0.7:
                actions = (Hidden(before), Ask(rng.random() < 0.5), Hidden(after))
            else:
                actions = (Hidden(before + after + (rng.randint(0, 4) if game.rules == "berkeley-any" else 0)),)
            turn = dataclasses.replace(turn, actions=tuple(a for a in actions if not isinstance(a, Hidden) or a.count))
        turns.append(turn)
    return dataclasses.replace(game, turns=tuple(turns))


def test_belief_equals_brute_force_on_altered_histories():
    """The same comparison where Black's heard refusals and "Any?" answers are
    random (often inconsistent): both must agree on every belief, empty included."""
    rng = random.Random(SEED + 4)
    compared, emptied = 0, 0
    for index in range(400):
        rules = ("english", "berkeley-any", "berkeley", "cincinnati", "rand")[index % 5]
        game = play_game(rules, random_policy, random_policy, rng.randint(2, 6), rng,
                         fen=random_fen(rng, (1, 3), (1, 3)))
        game = _altered(filter_game(game, True), rng)
        expected = brute_force_beliefs(game)
        got: list[set[int]] = []
        try:
            for _, belief in beliefs(game, max_positions=2000):
                got.append(set(belief.hashes.tolist()))
        except InconsistentHistory:
            got.append(set())
            emptied += 1
        except BeliefTooLarge:
            continue
        assert got == expected[:len(got)], (rules, game.fen, write_game(game))
        assert len(got) == len(expected) or not got[-1]
        compared += 1
    print(f"\n{compared} altered histories compared, {emptied} found inconsistent")
    assert compared > 300 and emptied > 30


HAND_MADE = [  # rules, start (Black to move), what White heard of Black's turn, Black's move, belief size
    ("english", "4k3/8/2n5/p7/1N6/8/8/3RK3 b - - 0 1", (Ask(True),), "a5b4", 1),  # not Nc6xb4
    ("english", "4k3/8/2n5/p7/1N6/8/8/3RK3 b - - 0 1", (Ask(True), Hidden(1)), "a5b4", 0),  # a5xb4 is legal
    ("english", "4k3/8/2n5/p7/1N6/8/8/3RK3 b - - 0 1", (Hidden(2), Ask(True)), "a5b4", 1),  # Kd8, Kd7 refused
    ("english", "4k3/8/2n5/p7/1N6/8/8/3RK3 b - - 0 1", (Hidden(3), Ask(True)), "a5b4", 0),
    ("english", "4k3/8/8/1p6/2N5/8/8/4K3 b - - 0 1", (Ask(True), Hidden(1)), "b5c4", 1),  # b5xa4 refused
    ("english", "4k3/8/8/1p6/2N5/8/8/4K3 b - - 0 1", (Ask(False),), "e8d8", 0),  # b5xc4 exists
    ("english", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (Ask(False), Hidden(1)), "e8d8", 0),  # only h7xg6 is illegal
    ("english", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (Hidden(1), Ask(False)), "e8d8", 7),  # h7xg6, then "Any?"
    ("berkeley-any", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (Hidden(1),), "e8d8", 7),
    ("berkeley-any", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (Hidden(2),), "e8d8", 7),  # h7xg6 and "Any?" "No" (+1)
    ("berkeley-any", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (Hidden(3),), "e8d8", 0),
    ("berkeley", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (Hidden(1),), "e8d8", 7),
    ("berkeley", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (Hidden(2),), "e8d8", 0),
    ("wild16", "4k3/7p/8/8/8/8/8/4K3 b - - 0 1", (), "e8d8", 7),
    ("cincinnati", "4k3/8/8/8/8/8/3PPP2/3RKR2 b - - 0 1", (Hidden(3),), "e8d8", 0),  # nothing is illegal
]


@pytest.mark.parametrize("rules, fen, heard, move, size", HAND_MADE)
def test_hand_made_histories(rules, fen, heard, move, size):
    """Black's refusals and "Any?" as White hears them, from a known position."""
    key = get_rules(rules).attempt(position_from_fen(fen)[None, :], move_from_uci(move)).keys[0]
    game = Game(rules, (Turn(False, heard, None, int(key[0]), int(key[1])),), fen, True)
    assert len(brute_force_beliefs(game)[-1]) == size
    if size:
        assert len(estimate(game)) == size
    else:
        with pytest.raises(InconsistentHistory, match="after ply 1"):
            estimate(game)


def test_en_passant_heard():
    """English announces en passant at the arrival square; "Yes" to Black's "Any?" then the capture."""
    fen = "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1"
    rules = get_rules("english")
    start = position_from_fen(fen)[None, :]
    white = rules.attempt(start, move_from_uci("a2a4"))
    black = rules.attempt(white.children, move_from_uci("b4a3")).keys[0]
    assert rules.describe(black) == "Capture at a3 (en passant)"
    game = Game("english", (Turn(True, (), "a2a4", int(white.keys[0, 0])),
                            Turn(False, (Ask(True),), None, int(black[0]), int(black[1]))), fen, True)
    assert len(estimate(game)) == 1 and brute_force_beliefs(game)[-1] == set(estimate(game).hashes.tolist())


def test_memory_budget():
    game = random_game(random.Random(1), 0, 8)
    with pytest.raises(BeliefTooLarge) as caught:
        estimate(game, max_positions=50)
    assert caught.value.size > 50 and "budget of 50 positions" in str(caught.value)
    assert [ply for ply, _ in white_beliefs(game)] == [0, 2, 4, 6, 8]


def test_generate(tmp_path):
    """Generated instances read back; their beliefs have the recorded size and verdict."""
    import csv

    from ksolve.games.generate import classify, generate, random_endgame_fen
    from ksolve.games.problem import game_problem
    from ksolve.solver import solve

    rng = random.Random(SEED + 5)
    fens = [random_endgame_fen(rng) for _ in range(30)]
    rows = generate("wild16", games=30, ply=3, seed=1, out_dir=tmp_path, plies_per_game=16, fens=fens, seconds=1.0)
    with open(tmp_path / "stats.csv", newline="") as handle:
        assert [row["result"] for row in csv.DictReader(handle)] == [row["result"] for row in rows]
    instances = [row for row in rows if row["file"]]
    print(f"\n{len(rows)} beliefs classified: {sum(r['result'] == 'mate' for r in rows)} mates, "
          f"{sum(r['result'] == 'near-miss' for r in rows)} near-misses")
    assert any(row["result"] == "mate" for row in instances)
    for row in instances:
        game = read_game((tmp_path / row["file"]).read_text(), row["file"])
        tags = dict(game.tags)
        assert game.view is True and tags["Instance"] == row["result"] and tags["Ply"] == "3"
        belief = estimate(game)
        assert len(belief) == row["belief_size"] == int(tags["BeliefSize"])
        if row["result"] == "mate":
            assert classify(get_rules("wild16"), belief, 3).result == "mate"
            result = solve(game_problem(game, ply=3, source=row["file"]), tree=False)
            assert result.status == "solved" and result.moves <= 2 and result.belief_size == len(belief)
