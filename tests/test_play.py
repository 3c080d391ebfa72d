"""Playing games (ksolve.play): the session's referee answers and draws, Fog
of War's visibility against an independent python-chess computation, the
mirrored frame Black thinks in, each side's exact belief holding the true
position, the records' PGN round trips, and the computer opponent playing to
the end under every rule set."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from ksolve.board import fog_moves, move_from_uci, position_to_board
from ksolve.board.layout import COLUMN_HASH, MAX_MOVES
from ksolve.games.estimate import estimate
from ksolve.games.model import Ask, Refused, filter_game
from ksolve.games.pgn import read_game
from ksolve.games.play import greedy_policy, random_policy
from ksolve.play.belief import SideBelief
from ksolve.play.computer import ComputerPlayer
from ksolve.play.match import play_match
from ksolve.play.mirror import mirror_code, mirror_position, mirror_uci
from ksolve.play.records import game_pgn, read_fog
from ksolve.play.session import GameSession, PlayError
from ksolve.play.views import visible_squares
from ksolve.rules import get_rules

RULES = ("berkeley", "berkeley-any", "english", "cincinnati", "rand", "wild16", "fog-of-war")
KRIEGSPIEL = RULES[:-1]
SEED = 20261130


# --- an independent Fog-of-War visibility -------------------------------------------
def reference_visible(board: chess.Board, color: chess.Color) -> chess.SquareSet:
    """What ``color`` sees, from the rules as written, with python-chess's attack
    masks: own men; every square a man could move to (a king may step into
    attack; castling with the squares between king and rook empty); a pawn's
    empty squares ahead and diagonals holding an enemy man; en passant, when
    possible for the side to move, shows the target and the passed pawn."""
    own, enemy = board.occupied_co[color], board.occupied_co[not color]
    seen = own
    step = 8 if color == chess.WHITE else -8
    for square in chess.scan_forward(own):
        piece = board.piece_type_at(square)
        if piece != chess.PAWN:
            seen |= board.attacks_mask(square) & ~own
            continue
        ahead = square + step
        if 0 <= ahead < 64 and not board.piece_at(ahead):
            seen |= chess.BB_SQUARES[ahead]
            double = ahead + step
            start_rank = 1 if color == chess.WHITE else 6
            if chess.square_rank(square) == start_rank and not board.piece_at(double):
                seen |= chess.BB_SQUARES[double]
        diagonals = chess.BB_PAWN_ATTACKS[color][square]
        seen |= diagonals & enemy
        if board.turn == color and board.ep_square is not None and diagonals & chess.BB_SQUARES[board.ep_square]:
            seen |= chess.BB_SQUARES[board.ep_square] | chess.BB_SQUARES[board.ep_square - step]
    king = board.king(color)
    for rook in chess.scan_forward(board.castling_rights & board.pieces_mask(chess.ROOK, color)):
        if king is not None and not chess.between(king, rook) & board.occupied:
            seen |= chess.BB_SQUARES[chess.G1 if rook > king else chess.C1] if color == chess.WHITE else \
                chess.BB_SQUARES[chess.G8 if rook > king else chess.C8]
    return chess.SquareSet(seen)


def random_fog_positions(games: int, plies: int) -> list[np.ndarray]:
    rng = random.Random(SEED)
    found = []
    for _ in range(games):
        game = GameSession("fog-of-war")
        while not game.over and len(game.turns) < plies:
            game.attempt(rng.choice(game.askable()))
        found += game.positions
    return found


def test_fog_visibility_matches_an_independent_python_chess_computation():
    positions = random_fog_positions(12, 60)
    checked = 0
    for position in positions:
        board = position_to_board(position)
        if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
            continue
        for color in chess.COLORS:
            assert visible_squares(position, color) == reference_visible(board, color), (board.fen(), color)
            checked += 1
    assert checked > 600


# --- the mirrored frame -----------------------------------------------------------------
@pytest.mark.parametrize("rules", ["rand", "english", "wild16", "fog-of-war"])
def test_mirrored_announcements_equal_the_referee_on_the_mirrored_board(rules):
    rule_set = get_rules(rules)
    rng = random.Random(SEED)
    compared = 0
    for _ in range(4):
        game = GameSession(rules)
        while not game.over and len(game.turns) < 40:
            before = game.referee.position.copy()
            uci = rng.choice(game.askable())
            if game.attempt(uci).moved:
                turn = game.turns[-1]
                mirrored = mirror_position(before, rule_set.fog)
                key = rule_set.attempt(mirrored[np.newaxis, :], move_from_uci(mirror_uci(uci))).keys[0]
                extra = int(key[1]) if not rule_set.fog else 0
                assert mirror_code(turn.code, turn.extra) == (int(key[0]), extra)
                compared += 1
    assert compared > 100


@pytest.mark.parametrize("rules", RULES)
def test_each_sides_exact_belief_holds_the_true_position(rules):
    for seed in range(3):
        game = play_match(rules, random_policy, greedy_policy, max_plies=8, seed=seed)
        for side in chess.COLORS:
            belief = SideBelief(rules, side, budget=10**9)
            belief.sync(game.observations[side])
            truth = game.referee.position if side == chess.WHITE else mirror_position(game.referee.position, get_rules(rules).fog)
            assert belief.exact and int(truth[COLUMN_HASH]) in set(belief.positions[:, COLUMN_HASH].tolist())


# --- the referee's answers ----------------------------------------------------------------
def test_kriegspiel_answers_in_the_rule_sets_words():
    game = GameSession("wild16")
    assert game.attempt("e2e5").words == "Illegal move"     # impossible on his own board
    assert game.log_for(chess.WHITE)[-1].text == "e2e5: Illegal move"  # logged with the attempt
    for uci in ("e2e4", "d7d5"):
        assert game.attempt(uci).moved
    assert game.log_for(chess.BLACK)[-1].text == "d5: 1 pawn try"   # the ICC's words: the count when there is one
    assert game.attempt("e4d5").words == "Pawn at d5 captured"
    assert game.attempt("d8d4").kind == "illegal"           # the white pawn on d5 blocks, unseen
    assert game.to_move == chess.BLACK
    black_log = [entry.text for entry in game.log_for(chess.BLACK)]
    assert "White moved: Pawn at d5 captured" in black_log
    assert black_log[-1] == "Qd4: Illegal move"             # the refused attempt, in SAN of Black's own board
    assert not any("Qd4" in entry.text for entry in game.log_for(chess.WHITE))  # told to the mover only
    assert game.attempt("Qxd5").words == "Pawn at d5 captured"
    assert game.log_for(chess.WHITE)[-1].text == "Black moved: Pawn at d5 captured"

    game = GameSession("berkeley")
    game.attempt("e2e4"), game.attempt("d7d5")
    assert game.attempt("e4e5").moved
    assert game.attempt("d5e4").words == "No"               # no white man on e4 now: refused
    assert game.to_move == chess.BLACK
    assert game.attempt("d8d6").moved
    assert [e.text for e in game.log_for(chess.WHITE)][-2] == "1 refused attempt"


def test_bad_input_is_one_line_and_the_game_goes_on():
    game = GameSession("berkeley")
    with pytest.raises(PlayError, match="^move: 'zz' is no move of your men on your board"):
        game.attempt("zz")
    with pytest.raises(PlayError, match="^move: 'Nf6' is no move of your men"):
        game.attempt("Nf6")
    with pytest.raises(PlayError, match="no 'Any\\?' question"):
        game.ask_any()
    assert game.attempt("e2e4").moved
    with pytest.raises(PlayError, match="^rules: unknown rule set"):
        GameSession("chess960")
    with pytest.raises(PlayError, match="^rules: orthodox is not played here; played here: berkeley, .*fog-of-war$"):
        GameSession("orthodox")
    with pytest.raises(PlayError, match="^rules: modern is not played here"):
        GameSession("modern")
    with pytest.raises(PlayError, match="standard start"):
        GameSession("fog-of-war", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")


def test_any_question_and_its_obligation():
    game = GameSession("berkeley-any", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    assert game.can_ask()
    assert game.ask_any().words == "Try"
    assert game.askable() == ["e4d5", "e4f5"]
    assert game.attempt("e4f5").kind == "illegal"
    assert game.attempt("e4d5").words.startswith("Capture at d5")


def test_threefold_repetition_and_fifty_moves_draw():
    game = GameSession("wild16")
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:
        game.attempt(uci)
    assert (game.result, game.termination) == ("1/2-1/2", "draw by threefold repetition")
    with pytest.raises(PlayError, match="game is over"):
        game.attempt("e2e4")
    game = GameSession("berkeley", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    game.attempt("a1a2")
    assert game.termination == "draw by the 50-move rule"
    fog = GameSession("fog-of-war")
    for uci in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:
        fog.attempt(uci)
    assert fog.result == "1/2-1/2"


def test_fog_of_war_king_capture_castling_and_marks():
    game = GameSession("fog-of-war")
    for uci in ("e2e4", "f7f6", "d1h5"):
        assert game.attempt(uci).moved
    assert game.attempt("a7a6").moved                       # Black may leave his king attacked
    assert game.attempt("h5e8").words == "Captured the king"
    assert (game.result, game.termination) == ("1-0", "King captured")
    assert game.log_for(chess.BLACK)[-1].text == "White captured the king"
    # castling through an attacked square is allowed
    game = GameSession("fog-of-war")
    for uci in ("e2e4", "b7b6", "g1f3", "c8a6", "f1e2", "a6e2", "d1e2", "h7h6"):
        game.attempt(uci)
    assert "e1g1" in game.askable()
    # a man taken on a square its owner no longer sees is marked
    game = GameSession("fog-of-war")
    for uci in ("g1f3", "a7a6", "f3g5", "a6a5", "g5e6", "f7e6"):
        game.attempt(uci)
    view = game.view(chess.WHITE)
    assert view.marks == (chess.E6,) and chess.E6 not in view.visible
    assert game.log_for(chess.WHITE)[-1].text == "Black captured your man on e6"


# --- records ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rules", KRIEGSPIEL)
def test_kriegspiel_records_round_trip_and_feed_the_estimator(rules):
    game = play_match(rules, random_policy, greedy_policy, max_plies=12, seed=5)
    record = game.record((("Event", "test"),))
    assert read_game(game_pgn(game, tags=(("Event", "test"),))) == record
    for side in chess.COLORS:
        assert read_game(game_pgn(game, side, (("Event", "test"),))) == filter_game(record, side)
    belief = estimate(read_game(game_pgn(game, chess.WHITE)))
    if game.to_move == chess.WHITE or game.over:
        assert int(game.referee.position[COLUMN_HASH]) in set(belief.positions[:, COLUMN_HASH].tolist())


def test_fog_records_round_trip():
    game = play_match("fog-of-war", random_policy, random_policy, max_plies=30, seed=7)
    full = read_fog(game_pgn(game))
    assert full.moves == tuple(t.move for t in game.turns) and full.result == game.result
    white = read_fog(game_pgn(game, chess.WHITE))
    assert white.view == chess.WHITE and len(white.sights) == len(game.turns)
    assert [m is None for m in white.moves] == [not t.white for t in game.turns]
    with pytest.raises(PlayError, match="cannot be played"):
        read_fog(game_pgn(game).replace("e2-e", "e3-e", 1) if "e2-e" in game_pgn(game) else "[Rules \"fog-of-war\"]\n\n1. e3-e5 *")


# --- the computer ------------------------------------------------------------------------------
@pytest.mark.slow  # about 45 s in all on a loaded 2-core machine
@pytest.mark.parametrize("rules", RULES)
def test_computer_plays_random_to_the_end_and_the_record_round_trips(rules):
    for side in chess.COLORS:
        computer = ComputerPlayer(rules, side, seed=11)
        white, black = (computer, random_policy) if side == chess.WHITE else (random_policy, computer)
        game = play_match(rules, white, black, max_plies=24, seed=12)
        assert game.over or len(game.turns) == 24
        assert computer.stats.choices >= len(game.turns) // 2
        if get_rules(rules).fog:
            assert read_fog(game_pgn(game)).moves == tuple(t.move for t in game.turns)
        else:
            assert read_game(game_pgn(game)) == game.record()


def test_computer_mates_when_the_prover_finds_it():
    # (a black pawn: without it the endgame tables would choose the move)
    computer = ComputerPlayer("berkeley", chess.WHITE, fen="k7/6p1/1K6/8/8/8/8/7R w - - 0 1")
    game = GameSession("berkeley", "k7/6p1/1K6/8/8/8/8/7R w - - 0 1")
    computer.play_turn(game)
    assert game.turns[-1].move == "h1h8" and game.result == "1-0" and computer.stats.proofs == 1


def test_computer_keeps_its_king_in_fog_of_war():
    game = GameSession("fog-of-war")
    for uci in ("e2e4", "e7e5", "f1c4", "d7d6", "c4f7"):   # the bishop next to Black's king
        game.attempt(uci)
    computer = ComputerPlayer("fog-of-war", chess.BLACK, seed=3)
    assert computer.play_turn(game).moved
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    position = game.referee.position
    king = int(position[6 + 5])
    captures = [m for m in buffer[:fog_moves(position, buffer)] if (1 << int((m >> 6) & 63)) & king]
    assert not captures


def test_computer_does_not_give_its_queen_for_a_long_shot_mate():
    game = GameSession("wild16")
    for uci in ("e2e4", "c7c6", "d2d4", "d8c7", "g1f3"):   # 3...Qg3?? mates in a few positions only
        game.attempt(uci)
    for seed in range(3):
        computer = ComputerPlayer("wild16", chess.BLACK, seed=seed)
        assert computer.choose(game) != "c7g3"


@pytest.mark.parametrize("fen", ["7k/8/8/8/8/8/5q2/7K w - - 0 1", "8/8/8/8/8/6k1/6q1/7K w - - 0 1"])
def test_a_start_without_a_move_is_refused(fen):
    """Stalemate or mate at the start: no game (the computer found no move and crashed)."""
    with pytest.raises(PlayError, match="^fen: the side to move has no move"):
        GameSession("wild16", fen)


def test_fog_records_read_back_with_crlf_and_after_a_resignation():
    from ksolve.play.records import fog_pgn

    game = GameSession("fog-of-war")
    for uci in ("e2e4", "e7e5", "g1f3"):
        assert game.attempt(uci).moved
    game.result, game.termination = "0-1", "White resigns"
    text = fog_pgn(game)
    for variant in (text, text.replace("\n", "\r\n")):
        record = read_fog(variant)
        assert record.moves == ("e2e4", "e7e5", "g1f3") and record.result == "0-1"
    with pytest.raises(PlayError, match="^pgn: no moves"):
        read_fog(text.split("\n\n")[0] + "\n\n*\n")


# --- moves in SAN, typed and read --------------------------------------------------------------
@pytest.mark.parametrize("rules", RULES)
def test_every_move_reads_back_from_its_san_and_the_log_says_it_in_san(rules):
    """Each executed move, typed as the SAN the game writes for it (python-chess's on the
    true board in Kriegspiel, the mover's own board accepting it), is read as that very move;
    in Fog of War the SAN equals python-chess's (check marks aside) whenever the move is legal
    chess and no rival man is pinned."""
    fog = get_rules(rules).fog
    for seed in range(3):
        played = play_match(rules, random_policy, greedy_policy, max_plies=40, seed=seed)
        replayed = GameSession(rules)
        for ply, turn in enumerate(played.turns):
            board = replayed.board()
            san = replayed_san = played.san(ply)
            if not fog:
                assert san == board.san(chess.Move.from_uci(turn.move))
            else:
                move = chess.Move.from_uci(turn.move)
                rivals = [m for m in board.generate_pseudo_legal_moves()
                          if m.to_square == move.to_square and m != move
                          and board.piece_type_at(m.from_square) == board.piece_type_at(move.from_square)]
                if board.king(chess.WHITE) is not None and board.king(chess.BLACK) is not None \
                        and board.is_legal(move) and all(board.is_legal(m) for m in rivals):
                    assert san == board.san(move).rstrip("+#")
            assert replayed.read(replayed_san) == turn.move, (rules, seed, ply, san)
            for action in turn.actions:
                if isinstance(action, Refused):
                    replayed.attempt(action.move)
                elif isinstance(action, Ask):
                    replayed.ask_any()
            assert replayed.attempt(san).moved
            assert replayed.log_for(turn.white)[-1].text.startswith(f"{san}: ")
        assert replayed.sans() == played.sans()


def test_typed_san_forms_and_their_errors():
    game = GameSession("berkeley")
    assert [game.read(text) for text in ("Nf3", "g1f3", "G1F3", "Ng1f3", "Nxf3", "exd3")] == \
        ["g1f3", "g1f3", "g1f3", "g1f3", "g1f3", "e2d3"]          # a pawn try is written as a capture
    game = GameSession("berkeley", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert (game.read("O-O"), game.read("0-0-0"), game.read("Rxa8")) == ("e1g1", "e1c1", "a1a8")
    fog = GameSession("fog-of-war")
    for uci in ("g1f3", "a7a6", "b1c3", "a6a5", "c3e4", "a5a4"):
        fog.attempt(uci)
    assert (fog.read("Ne5"), fog.read("Nfg5"), fog.read("N4g5")) == ("f3e5", "f3g5", "e4g5")
    with pytest.raises(PlayError, match="^move: 'Ng5' is ambiguous: Neg5 or Nfg5$"):
        fog.read("Ng5")
    with pytest.raises(PlayError, match="^move: 'Qh5' is no move of your men"):
        fog.read("Qh5")


# --- the ICC's words for Wild 16 -------------------------------------------------------------------
def icc_words(before: chess.Board, move: chess.Move) -> str:
    """The ICC's announcements of ``move`` (its help file "Kriegspiel"), from python-chess
    alone: the capture with pawn/piece and square, each check's direction seen from the
    checked king (the longer of the king's two diagonals is "long"), the end, and the pawn
    captures of the side then to move when there are some."""
    after = before.copy()
    after.push(move)
    words = []
    if before.is_capture(move):
        square = move.to_square ^ 8 if before.is_en_passant(move) else move.to_square
        words.append(f"{'Pawn' if before.piece_type_at(square) == chess.PAWN else 'Piece'} at "
                     f"{chess.square_name(square)} captured")
    king = after.king(after.turn)
    file, rank = chess.square_file(king), chess.square_rank(king)
    checks = set()
    for checker in after.checkers():
        if after.piece_type_at(checker) == chess.KNIGHT:
            checks.add(4)
        elif chess.square_rank(checker) == rank:
            checks.add(0)
        elif chess.square_file(checker) == file:
            checks.add(1)
        else:
            rising = chess.square_file(checker) - chess.square_rank(checker) == file - rank
            length = 8 - abs(file - rank) if rising else 8 - abs(file + rank - 7)
            other = 8 - abs(file + rank - 7) if rising else 8 - abs(file - rank)
            checks.add(2 if length > other else 3)
    names = ("Rank check", "File check", "Long-diagonal check", "Short-diagonal check", "Knight check")
    if not after.is_checkmate():  # a mate is announced as such, without its directions
        words += [names[kind] for kind in sorted(checks)]
    if after.is_checkmate():
        words.append("Checkmate")
    elif after.is_stalemate():
        words.append("Stalemate")
    elif after.is_insufficient_material():
        words.append("Draw (insufficient material)")
    else:
        tries = len({(m.from_square, m.to_square) for m in after.legal_moves  # a capture promoting: one try
                     if after.piece_type_at(m.from_square) == chess.PAWN
                     and chess.square_file(m.from_square) != chess.square_file(m.to_square)})
        if tries:
            words.append(f"{tries} pawn tr{'y' if tries == 1 else 'ies'}")
    return ", ".join(words) or "Silent"


def test_wild16_speaks_the_iccs_words_after_every_move():
    """Every move of many games is announced as the ICC announces it, computed independently
    with python-chess: "Pawn at d4 captured", "Piece at g7 captured", "Rank check", "2 pawn
    tries" when there are some, never "0 pawn tries"."""
    checked = set()
    for seed in range(12):
        game = play_match("wild16", random_policy, greedy_policy, max_plies=80, seed=seed)
        for ply, turn in enumerate(game.turns):
            expected = icc_words(position_to_board(game.positions[ply]), chess.Move.from_uci(turn.move))
            words = game.rules.describe(np.array([turn.code, turn.extra], dtype=np.uint64))
            assert words == expected, (seed, ply, turn.move)
            mover, other = game.log_for(turn.white), game.log_for(not turn.white)
            assert f"{'White' if turn.white else 'Black'} moved: {words}" in [e.text for e in other]
            checked.update(part.split(" at ")[0] if " at " in part else part.split(" ", 1)[-1] for part in words.split(", "))
        assert not any("0 pawn tries" in entry.text for entry in game.log)
    assert {"Pawn", "Piece", "pawn try", "pawn tries", "Silent"} <= checked and any("check" in c for c in checked)


# --- what each side and a spectator may read ------------------------------------------------------
PUBLIC_LINE = r"(White|Black) (moved(: .+)?|captured (on [a-h][1-8]|the king)(, .+)?)|(White|Black): (\d+ refused attempts?|Any\? \w+)(, .*)?|[A-Z][a-z ].*"


@pytest.mark.parametrize("rules", RULES)
def test_the_spectators_lines_are_what_both_sides_hear_and_name_no_move(rules):
    """The lines a spectator reads: each move's announcement as the other side hears it (no
    move named), what the other side hears of the refused attempts and "Any?", the end."""
    import re

    from ksolve.play.session import fog_words

    for seed in range(3):
        game = play_match(rules, random_policy, greedy_policy, max_plies=40, seed=seed)
        public = [entry.public for entry in game.log if entry.public is not None]
        assert all(re.fullmatch(PUBLIC_LINE, line) for line in public), public
        expected = []
        for turn in game.turns:
            name = "White" if turn.white else "Black"
            if game.rules.fog:
                expected.append(f"{name} {fog_words(turn.code, False).replace('your man ', '')}")
            else:
                expected.append(f"{name} moved: {game.rules.describe(np.array([turn.code, turn.extra], dtype=np.uint64))}")
        assert [line for line in public if line.startswith(("White moved", "Black moved", "White captured",
                                                            "Black captured"))] == expected
        for ply, turn in enumerate(game.turns):  # a move's own line is for its mover alone
            number = f"{ply // 2 + 1}{'.' if turn.white else '...'}"
            own = [e for e in game.log if e.number == number and e.text.startswith(f"{game.san(ply)}: ")]
            assert own and all(e.public is None and e.heard_by == (turn.white,) for e in own)


def test_last_move_and_check_as_each_side_knows_them():
    game = GameSession("berkeley")
    for san in ("e4", "f5", "exf5"):
        game.attempt(san)
    assert game.last_squares(chess.BLACK) == ("f7", "f5")   # his own move; White's took on f5, one of them
    assert game.last_squares(chess.WHITE) == ("e4", "f5")
    game.attempt("Nc6")
    assert game.last_squares(chess.WHITE) == ("e4", "f5")   # Black's move is not his to know
    game = GameSession("berkeley")
    for san in ("e4", "f6", "Qh5"):
        game.attempt(san)
    assert game.in_check(chess.BLACK) and not game.in_check(chess.WHITE)
    assert game.last_squares(chess.BLACK) == ("f7", "f6")
    fog = GameSession("fog-of-war")
    for san in ("e4", "f6", "Qh5"):
        fog.attempt(san)
    assert not fog.in_check(chess.BLACK)          # Fog of War announces no check


def test_fog_of_war_pgn_writes_castling_as_o_o_and_reads_it_back():
    game = GameSession("fog-of-war")
    for san in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "d6", "d3", "Bg4", "Nc3", "Qd7", "Be3", "O-O-O"):
        assert game.attempt(san).moved, san
    text = game_pgn(game)
    assert " O-O " in text and " O-O-O " in text and "Ke1-g1" not in text and "Ke8-c8" not in text
    assert read_fog(text).moves == tuple(turn.move for turn in game.turns)
    assert "e1g1" in read_fog(text).moves and "e8c8" in read_fog(text).moves
    assert " O-O " in game_pgn(game, chess.WHITE) and "O-O-O" not in game_pgn(game, chess.WHITE)


def test_every_playable_rule_set_has_its_words_and_modern_has_none():
    from ksolve.play.rulebook import rulebook
    from ksolve.play.session import PLAYABLE

    for name in PLAYABLE:
        book = rulebook(name)
        assert book.lines and book.title == get_rules(name).title
    wild16 = [line.words for line in rulebook("wild16").lines]
    assert {"Illegal move", "Pawn at e4 captured", "Piece at e4 captured", "Rank check", "File check",
            "Long-diagonal check", "Short-diagonal check", "Knight check", "2 pawn tries"} <= set(wild16)
    assert "ICC" in rulebook("wild16").source or "Internet Chess Club" in rulebook("wild16").source
    assert [line.words for line in rulebook("berkeley").lines][:2] == ["No", "Capture at e4"]
    with pytest.raises(ValueError, match="modern is not played here"):
        rulebook("modern")


# --- resigning, draws by agreement, takebacks, the clock ----------------------------------------
class FakeClock:
    """The referee's clock, moved by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("rules", ("berkeley", "fog-of-war"))
def test_a_resignation_ends_the_game_in_the_log_the_pgn_and_the_replay(rules):
    from ksolve.play.records import load_record

    game = GameSession(rules)
    for uci in ("e2e4", "e7e5", "g1f3"):
        assert game.attempt(uci).moved
    game.resign(chess.BLACK)
    assert (game.result, game.termination, game.over) == ("1-0", "Black resigns", True)
    assert game.askable() == [] and not game.can_offer_draw(chess.BLACK)
    assert [e.public for e in game.log][-1] == "Black resigns"
    assert all(e.heard_by == (chess.WHITE, chess.BLACK) for e in game.log[-1:])
    text = game_pgn(game)
    assert '[Result "1-0"]' in text and '[Termination "Black resigns"]' in text and text.rstrip().endswith("1-0")
    replayed = load_record(text)
    assert (replayed.result, replayed.termination) == ("1-0", "Black resigns")
    assert replayed.sans() == game.sans()
    with pytest.raises(PlayError, match="^resign: the game is over \\(1-0, Black resigns\\)"):
        game.resign(chess.WHITE)


def test_a_draw_is_offered_on_ones_turn_declined_lapses_and_is_agreed():
    from ksolve.play.session import PlayConflict

    game = GameSession("wild16")
    with pytest.raises(PlayConflict, match="^draw: a draw is offered on one's own turn; it is White's"):
        game.offer_draw(chess.BLACK)
    with pytest.raises(PlayConflict, match="^draw: no draw has been offered to Black"):
        game.answer_draw(chess.BLACK, True)
    game.offer_draw(chess.WHITE)
    assert game.draw_offer == chess.WHITE and not game.can_offer_draw(chess.WHITE)
    with pytest.raises(PlayConflict, match="this turn already"):
        game.offer_draw(chess.WHITE)
    assert game.attempt("e2e4").moved                      # the offer stands over White's own move
    assert game.draw_offer == chess.WHITE and game.log_for(chess.BLACK)[0].text == "White offers a draw"
    game.answer_draw(chess.BLACK, False)
    assert game.draw_offer is None and game.log[-1].public == "Black declines the draw" and not game.over
    assert game.attempt("e7e5").moved
    game.offer_draw(chess.WHITE)                            # a new turn: a new offer
    assert game.attempt("g1f3").moved
    assert game.attempt("b8c6").moved                       # Black plays on: the offer lapses
    assert game.draw_offer is None and game.can_offer_draw(chess.WHITE)
    game.offer_draw(chess.WHITE)
    assert game.attempt("f1c4").moved
    game.offer_draw(chess.BLACK)                            # an offer while White's stands accepts it
    assert (game.result, game.termination) == ("1/2-1/2", "draw by agreement")
    assert game.log[-1].text == "Draw by agreement"
    assert '[Termination "draw by agreement"]' in game_pgn(game)


@pytest.mark.parametrize("rules", ("berkeley-any", "wild16", "fog-of-war"))
def test_a_takeback_leaves_the_game_as_if_the_move_had_not_been_made(rules):
    """After a takeback the session equals one where the move was never made (the mover's
    refused attempts of that turn kept); the log loses what was heard since the move."""
    rng = random.Random(SEED)
    game, twin = GameSession(rules), GameSession(rules)
    takebacks = 0
    for _ in range(24):
        if game.over:
            break
        move = rng.choice(game.askable())
        marked = len(game.log)
        answer = game.attempt(move)
        if answer.moved and not game.over and rng.random() < 0.4:
            mover = not game.to_move
            heard = [e for e in game.log[:marked]]
            board = game.board()
            refused = [m for m in game.askable() if chess.Move.from_uci(m) not in board.legal_moves]
            if refused and rules != "fog-of-war":
                assert game.attempt(refused[0]).kind == "illegal"  # the other side's: undone too
            game.take_back()
            takebacks += 1
            assert game.to_move == mover and game.log[:-1] == heard
            assert game.log[-1].text == f"{'White' if mover else 'Black'} takes back his move"
            assert game.log[-1].public == game.log[-1].text
            continue
        twin.attempt(move)
    assert takebacks >= 3 and len(twin.turns) >= 8
    assert game.sans() == twin.sans() and game.record() == twin.record()
    assert game.board_fens() == twin.board_fens() and game.askable() == twin.askable()
    for side in (chess.WHITE, chess.BLACK):
        assert [o.turn for o in game.observations[side]] == [o.turn for o in twin.observations[side]]
        assert game.view(side) == twin.view(side) and game.last_squares(side) == twin.last_squares(side)


def test_a_takeback_keeps_the_refused_attempts_of_the_movers_turn():
    from ksolve.play.session import PlayConflict

    game = GameSession("berkeley")
    with pytest.raises(PlayConflict, match="^takeback: no move has been made yet"):
        game.take_back()
    for uci in ("e2e4", "e7e5"):
        game.attempt(uci)
    assert game.attempt("e4e5").kind == "illegal"
    assert game.attempt("d2d4").moved
    game.take_back()
    assert game.refused() == ["e4e5"] and "e4e5" not in game.askable()
    assert game.log_for(chess.WHITE)[-2].text == "e5: No"
    assert game.attempt("g1f3").moved and game.record().turns[-1].actions == (Refused("e4e5"),)
    game.take_back()
    game.take_back()                                        # Black's e5 too: his turn again
    assert game.to_move == chess.BLACK and len(game.turns) == 1 and game.refused() == []
    game.attempt("d7d5")
    game.attempt("e4d5")
    game.resign(chess.BLACK)
    with pytest.raises(PlayConflict, match="^takeback: the game is over"):
        game.take_back()


def test_the_clock_charges_every_attempt_adds_the_increment_and_the_first_moves_are_free():
    from ksolve.play.session import TimeControl

    clock = FakeClock()
    game = GameSession("berkeley", clock=TimeControl(60, 5), now=clock)
    clock.now = 30.0
    game.attempt("e4")                                      # each side's first move: not charged
    clock.now = 50.0
    game.attempt("e5")
    assert game.time_left(chess.WHITE) == game.time_left(chess.BLACK) == 60.0 and game.clock_running
    clock.now = 54.0
    assert game.attempt("e4e5").kind == "illegal"           # a refused attempt's time counts
    clock.now = 60.0
    assert game.time_left(chess.WHITE) == 50.0
    game.attempt("Nf3")
    assert game.time_left(chess.WHITE) == 55.0              # 10 s spent, 5 added
    assert [(t.ply, t.kind, t.seconds, t.counted) for t in game.timings] == [
        (0, "move", 30.0, False), (1, "move", 20.0, False), (2, "illegal", 4.0, True), (2, "move", 6.0, True)]
    clock.now = 70.0
    assert game.time_left(chess.BLACK) == 50.0 and game.time_left(chess.WHITE) == 55.0
    game.take_back()                                        # White's Nf3 undone: its increment goes
    assert game.time_left(chess.WHITE) == 50.0 and game.time_left(chess.BLACK) == 50.0
    assert [t.kind for t in game.timings] == ["move", "move", "illegal"]
    clock.now = 75.0
    assert game.time_left(chess.WHITE) == 45.0
    assert '[TimeControl "60+5"]' in game_pgn(game)


def test_a_side_whose_time_runs_out_loses_or_draws_against_a_lone_king():
    from ksolve.play.session import TimeControl

    clock = FakeClock()
    game = GameSession("wild16", clock=TimeControl(10), now=clock)
    game.attempt("e4")
    game.attempt("e5")
    clock.now = 9.0
    assert not game.flag() and game.time_left(chess.WHITE) == 1.0
    clock.now = 10.5
    answer = game.attempt("Nf3")                            # too late: nothing is attempted
    assert answer.kind == "time" and len(game.turns) == 2
    assert (game.result, game.termination) == ("0-1", "White lost on time") and game.time_left(chess.WHITE) == 0
    assert game.log[-1].public == "White lost on time"
    for loser, result, termination in (
            (chess.WHITE, "1/2-1/2", "draw: White's time ran out and Black has only his king"),
            (chess.BLACK, "1-0", "Black lost on time")):
        lone = GameSession("berkeley", "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1", clock=TimeControl(5), now=clock)
        lone.attempt("e2e3")
        lone.attempt("e8d8")
        if loser == chess.BLACK:
            clock.now += 1.0
            lone.attempt("h1h2")
        clock.now += 6.0
        assert lone.flag() and (lone.result, lone.termination) == (result, termination)
        assert not lone.flag() and lone.time_left(loser) == 0


def test_the_computer_accepts_a_draw_when_it_is_not_ahead_in_material():
    from ksolve.play.session import material_balance

    fen = "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"
    level = ComputerPlayer("berkeley", chess.BLACK)
    assert material_balance(level.belief.positions) == 0 and level.accepts_draw(GameSession("berkeley"))
    ahead, behind = ComputerPlayer("berkeley", chess.BLACK, fen), ComputerPlayer("berkeley", chess.WHITE, fen)
    assert material_balance(ahead.belief.positions) == 9 and not ahead.accepts_draw(GameSession("berkeley", fen))
    assert material_balance(behind.belief.positions) == -9 and behind.accepts_draw(GameSession("berkeley", fen))
