"""Fog of War observation model (``ksolve.rules.fog``) against an independent
reference written here on python-chess alone.

The reference functions below (``ref_*``) import nothing from ksolve: they
follow DOMAIN.md section 4 directly.  A side sees its own men, every square one
of its men could move to under Fog-of-War move generation (pseudo-legal moves,
king captures allowed; a pawn sees the empty squares ahead it can advance to
and the diagonal squares holding an enemy man; castling destinations when
castling is available; the en-passant target when it is to move and can take
en passant), any enemy man on such a square, and the passed pawn when it may
capture it en passant.  The side not to move is viewed as if it were to move,
with its castling rights but without any en-passant right.

White's observation key row after a move is then: the code (capture square + 1,
game end: king captured > stalemate > 50-move draw), the visible squares,
Black's men on them, White's men and White's castling rights.

The tests compare, on seeded random positions (random Fog-of-War games from
several starts, random placements and a few hand-made positions):
1. ``visible_squares`` for both colours, and ``turn_info``;
2. White's key after every Fog-of-War reply (``FOG_OF_WAR.replies``);
3. White's key after every White attempt (``FOG_OF_WAR.attempt``), one position
   at a time and batched, and ILLEGAL for attempts that are not Fog-of-War moves;
4. that king captures, castling out of / through check, en-passant visibility,
   stalemate and the 50-move draw all occur often enough to matter.
"""

from __future__ import annotations

import random
from collections import Counter

import chess
import numpy as np
import pytest

from ksolve.board import position_from_board
from ksolve.board.layout import MAX_MOVES, encode_move
from ksolve.rules import codes
from ksolve.rules.fog import FOG_OF_WAR, visible_squares
from positions import PERFT_SUITE, SPECIAL_STARTS, START, random_game_positions, random_placements
from reference import fog_reference_moves

# ---------------------------------------------------------------------------
# Independent reference (python-chess only; no ksolve code below this line
# until the test section).
# ---------------------------------------------------------------------------

REF_END_STALEMATE = 2
REF_END_MOVE_LIMIT = 4
REF_END_KING_CAPTURED = 5
REF_END_SHIFT = 14
REF_FIFTY_MOVE_HALFMOVES = 100

KEY_FIELDS = (
    ["code", "visible"]
    + [f"black {chess.piece_name(p)}s seen" for p in chess.PIECE_TYPES]
    + [f"white {chess.piece_name(p)}s" for p in chess.PIECE_TYPES]
    + ["white castling"]
)


def ref_en_passant(board: chess.Board, color: chess.Color) -> tuple[int, int | None]:
    """(pawns of ``color`` that may capture en passant, the passed pawn's square).

    Only the side to move has an en-passant right.  The capture is
    pseudo-legal in Fog of War: a pin or an exposed king does not matter.
    """
    if board.turn != color or board.ep_square is None:
        return 0, None
    target = board.ep_square
    if chess.square_rank(target) != (5 if color == chess.WHITE else 2):
        return 0, None
    passed = target - 8 if color == chess.WHITE else target + 8
    if board.piece_at(target) is not None:
        return 0, None
    if board.piece_at(passed) != chess.Piece(chess.PAWN, not color):
        return 0, None
    # A pawn of ``color`` attacks ``target`` iff it stands where an enemy pawn
    # on ``target`` would attack.
    capturers = chess.BB_PAWN_ATTACKS[not color][target] & board.pieces_mask(chess.PAWN, color)
    return (capturers, passed) if capturers else (0, None)


def ref_castling_destinations(board: chess.Board, color: chess.Color) -> int:
    """The king's castling destinations of ``color``: right, king and rook at home,
    empty squares between (attacked squares do not matter)."""
    rank = 0 if color == chess.WHITE else 7
    king_square = chess.square(4, rank)
    if board.piece_at(king_square) != chess.Piece(chess.KING, color):
        return 0
    rights = board.castling_rights
    found = 0
    for rook_file, king_to_file, between_files in ((7, 6, (5, 6)), (0, 2, (1, 2, 3))):
        rook_square = chess.square(rook_file, rank)
        if not rights & chess.BB_SQUARES[rook_square]:
            continue
        if board.piece_at(rook_square) != chess.Piece(chess.ROOK, color):
            continue
        if any(board.piece_at(chess.square(f, rank)) is not None for f in between_files):
            continue
        found |= chess.BB_SQUARES[chess.square(king_to_file, rank)]
    return found


def ref_destinations(board: chess.Board, color: chess.Color) -> int:
    """Every square a man of ``color`` could move to under Fog-of-War rules, with
    ``board``'s en-passant right only if ``color`` is to move."""
    own = board.occupied_co[color]
    enemy = board.occupied_co[not color]
    occupied = board.occupied
    step = 8 if color == chess.WHITE else -8
    start_rank = 1 if color == chess.WHITE else 6
    found = 0
    for square in chess.scan_forward(own):
        if board.piece_type_at(square) == chess.PAWN:
            one = square + step
            if 0 <= one < 64 and not occupied & chess.BB_SQUARES[one]:
                found |= chess.BB_SQUARES[one]
                two = one + step
                if chess.square_rank(square) == start_rank and not occupied & chess.BB_SQUARES[two]:
                    found |= chess.BB_SQUARES[two]
            found |= chess.BB_PAWN_ATTACKS[color][square] & enemy
        else:
            found |= board.attacks_mask(square) & ~own
    found |= ref_castling_destinations(board, color)
    capturers, _ = ref_en_passant(board, color)
    if capturers:
        found |= chess.BB_SQUARES[board.ep_square]
    return found


def ref_view_board(board: chess.Board, color: chess.Color) -> chess.Board:
    """``board`` as ``color`` sees it for move generation: ``color`` to move; if it
    was not, no en-passant right (castling rights kept)."""
    if board.turn == color:
        return board
    view = board.copy(stack=False)
    view.turn = color
    view.ep_square = None
    return view


def ref_visible(board: chess.Board, color: chess.Color) -> int:
    """The squares ``color`` sees in ``board`` (DOMAIN.md section 4)."""
    view = ref_view_board(board, color)
    seen = board.occupied_co[color] | ref_destinations(view, color)
    _, passed = ref_en_passant(view, color)
    if passed is not None:
        seen |= chess.BB_SQUARES[passed]
    return seen


def ref_white_castling(board: chess.Board) -> int:
    rights = board.clean_castling_rights()
    return (1 if rights & chess.BB_H1 else 0) | (2 if rights & chess.BB_A1 else 0)


def ref_white_key(board: chess.Board, code: int) -> tuple[int, ...]:
    """White's observation key row of ``board``."""
    seen = ref_visible(board, chess.WHITE)
    return tuple(
        [code, seen]
        + [board.pieces_mask(p, chess.BLACK) & seen for p in chess.PIECE_TYPES]
        + [board.pieces_mask(p, chess.WHITE) for p in chess.PIECE_TYPES]
        + [ref_white_castling(board)]
    )


def ref_capture_square(board: chess.Board, move: chess.Move) -> int | None:
    """The square where ``move`` (of the side to move) captures a man, if any."""
    victim = board.piece_at(move.to_square)
    if victim is not None and victim.color != board.turn:
        return move.to_square
    if (board.piece_type_at(move.from_square) == chess.PAWN
            and chess.square_file(move.from_square) != chess.square_file(move.to_square)):
        return move.to_square - 8 if board.turn == chess.WHITE else move.to_square + 8
    return None


def ref_end(board: chess.Board) -> int:
    """The game end after a move: king captured, stalemate (no Fog-of-War move at
    all), 50-move draw; king capture first."""
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        return REF_END_KING_CAPTURED
    if ref_destinations(board, board.turn) == 0:
        return REF_END_STALEMATE
    if board.halfmove_clock >= REF_FIFTY_MOVE_HALFMOVES:
        return REF_END_MOVE_LIMIT
    return 0


def ref_outcome(board: chess.Board, move: chess.Move) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(White's key after ``move``, the child's twelve piece bitboards)."""
    capture = ref_capture_square(board, move)
    board.push(move)
    try:
        code = (0 if capture is None else capture + 1) | (ref_end(board) << REF_END_SHIFT)
        key = ref_white_key(board, code)
        pieces = piece_masks(board)
    finally:
        board.pop()
    return key, pieces


def piece_masks(board: chess.Board) -> tuple[int, ...]:
    return tuple(board.pieces_mask(p, c) for c in (chess.WHITE, chess.BLACK) for p in chess.PIECE_TYPES)


# ---------------------------------------------------------------------------
# Test data
# ---------------------------------------------------------------------------

# White to move is stalemated (no Fog-of-War move at all): Ka1, Bb1, Rb2 and
# pawns a2, b3, c2 are all blocked by their own men or by the black pawns.
WHITE_STALEMATED = "7k/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1"
STALEMATE_PARENTS = [
    "7k/8/8/8/1pp5/pP6/PRP5/KB6 b - - 0 1",        # ...c4-c3 stalemates White
    "7k/8/8/3n4/1p6/pP6/PRP5/KB6 b - - 99 80",     # ...Nd5-c3 stalemate with the clock at 100
]
FIFTY_MOVE_STARTS = [
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 90 50",
    "r3k2r/8/8/8/8/8/8/4K2R b Kkq - 92 60",
    "4k3/3q4/8/8/8/8/8/2N1K2R w K - 85 70",
    "3rk3/8/8/8/8/8/8/R3K3 b Q - 96 80",
]
EN_PASSANT_STARTS = [
    "4k3/pppppppp/8/1P1P1P1P/8/8/8/4K3 b - - 0 1",
    "4k3/8/8/8/p1p1p1p1/8/PPPPPPPP/4K3 w - - 0 1",
    "r3k2r/pppppppp/8/P1P1P1P1/1p1p1p1p/8/PPPPPPPP/R3K2R w KQkq - 0 1",
]
CASTLING_STARTS = [
    "r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/4Q3/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/2b2b2/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/2B2B2/8/R3K2R b KQkq - 0 1",
]

STARTS = ([START] * 3 + list(PERFT_SUITE.values()) + SPECIAL_STARTS + FIFTY_MOVE_STARTS
          + EN_PASSANT_STARTS + CASTLING_STARTS)


def _hand_made() -> list[chess.Board]:
    boards = [chess.Board(fen) for fen in [WHITE_STALEMATED] + STALEMATE_PARENTS]
    boards += [board.mirror() for board in list(boards)]  # the same with colours swapped
    return boards


@pytest.fixture(scope="module")
def boards() -> list[chess.Board]:
    """Random Fog-of-War games from many starts, random placements, hand-made positions."""
    found = list(random_game_positions(STARTS, games=len(STARTS) * 2, seed=20240611, max_plies=70,
                                       moves_of=fog_reference_moves))
    found += list(random_placements(1_500, seed=4242))
    found += _hand_made()
    return found


def _both_kings(board: chess.Board) -> bool:
    return board.king(chess.WHITE) is not None and board.king(chess.BLACK) is not None


def _row(board: chess.Board) -> np.ndarray:
    return position_from_board(board, validate=False)


def _encode(move: chess.Move) -> int:
    return encode_move(move.from_square, move.to_square, move.promotion - 1 if move.promotion else 0)


def _key_tuple(key: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in key)


def _squares(mask: int) -> str:
    return " ".join(chess.square_name(s) for s in chess.scan_forward(mask)) or "-"


def _explain(board: chess.Board, move: chess.Move | str, expected, got) -> str:
    """A failure message naming the FEN, the move and every differing key field."""
    lines = [f"FEN {board.fen()}  move {move}"]
    for name, want, have in zip(KEY_FIELDS, expected, got):
        if want != have:
            if name == "code":
                lines.append(f"  code: expected {want:#x} ({codes.describe(want)}), "
                             f"got {have:#x} ({codes.describe(have)})")
            elif name == "white castling":
                lines.append(f"  {name}: expected {want}, got {have}")
            else:
                lines.append(f"  {name}: expected {_squares(want)}; got {_squares(have)}; "
                             f"missing {_squares(want & ~have)}; extra {_squares(have & ~want)}")
    return "\n".join(lines)


def _count(counts: Counter, kind: str, board: chess.Board, move: chess.Move, expected: tuple) -> None:
    """Tally what one checked move exercised."""
    counts[kind] += 1
    counts[f"end {codes.end_of(expected[0])}"] += 1
    if codes.capture_square(expected[0]) is not None:
        counts["captures"] += 1
    if board.is_en_passant(move):
        counts["en passant"] += 1
    if _castling_through_check(board, move):
        counts["castling in/through check"] += 1


def _assert_rules_exercised(counts: Counter) -> None:
    """The checked moves must include king captures, draws, captures, en passant and odd castlings."""
    assert counts[f"end {codes.END_KING_CAPTURED}"] >= 100, counts
    assert counts[f"end {codes.END_STALEMATE}"] >= 2, counts
    assert counts[f"end {codes.END_MOVE_LIMIT}"] >= 20, counts
    assert counts["captures"] >= 1_000, counts
    assert counts["en passant"] >= 10, counts
    assert counts["castling in/through check"] >= 10, counts


def _castling_through_check(board: chess.Board, move: chess.Move) -> bool:
    """Castling that starts in, passes through or ends in an attacked square."""
    if board.piece_type_at(move.from_square) != chess.KING:
        return False
    if abs(chess.square_file(move.from_square) - chess.square_file(move.to_square)) != 2:
        return False
    path = chess.SquareSet(chess.between(move.from_square, move.to_square)) | {move.from_square,
                                                                               move.to_square}
    return any(board.is_attacked_by(not board.turn, s) for s in path)


# ---------------------------------------------------------------------------
# 1. Visible squares of both colours
# ---------------------------------------------------------------------------

def test_visible_squares_match_reference(boards: list[chess.Board]) -> None:
    assert len(boards) >= 3_000
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    seen_counts = Counter()
    for board in boards:
        row = _row(board)
        for color_index, color in enumerate((chess.WHITE, chess.BLACK)):
            expected = ref_visible(board, color)
            got = int(visible_squares(row, color_index, buffer))
            assert got == expected, (
                f"FEN {board.fen()}  {'white' if color else 'black'} view: expected "
                f"{_squares(expected)}; got {_squares(got)}; missing {_squares(expected & ~got)}; "
                f"extra {_squares(got & ~expected)}")
            seen_counts["views"] += 1
            if color == board.turn:
                _, passed = ref_en_passant(board, color)
                if passed is not None:
                    seen_counts["en passant visibility"] += 1
                    others = board.occupied_co[color] | ref_destinations(board, color)
                    if not others & chess.BB_SQUARES[passed]:
                        seen_counts["passed pawn seen only through en passant"] += 1
            else:
                # The side to move's en-passant square lies on a square a pawn of
                # the side not to move attacks: that side must not capture there.
                if board.ep_square is not None and (
                        chess.BB_PAWN_ATTACKS[not color][board.ep_square]
                        & board.pieces_mask(chess.PAWN, color)):
                    seen_counts["en-passant square attacked by the side not to move"] += 1
            # An enemy man right in front of a pawn that stays hidden.
            step = 8 if color == chess.WHITE else -8
            for pawn in chess.scan_forward(board.pieces_mask(chess.PAWN, color)):
                ahead = pawn + step
                if (0 <= ahead < 64 and board.occupied_co[not color] & chess.BB_SQUARES[ahead]
                        and not expected & chess.BB_SQUARES[ahead]):
                    seen_counts["hidden man in front of a pawn"] += 1
        # The reference's move destinations agree with the other reference
        # (tests/reference.py) for the side to move.
        if _both_kings(board):
            destinations = 0
            for move in fog_reference_moves(board):
                destinations |= chess.BB_SQUARES[move.to_square]
            assert ref_destinations(board, board.turn) == destinations, board.fen()
        # turn_info is White's view with code 0.
        key = FOG_OF_WAR.turn_info(row)[0]
        expected_key = ref_white_key(board, 0)
        assert _key_tuple(key) == expected_key, _explain(board, "(turn info)", expected_key,
                                                          _key_tuple(key))
    assert seen_counts["views"] >= 2_000, seen_counts
    assert seen_counts["en passant visibility"] >= 50, seen_counts
    assert seen_counts["passed pawn seen only through en passant"] >= 30, seen_counts
    assert seen_counts["hidden man in front of a pawn"] >= 100, seen_counts
    assert seen_counts["en-passant square attacked by the side not to move"] >= 10, seen_counts


# ---------------------------------------------------------------------------
# 2. White's key after every Fog-of-War reply
# ---------------------------------------------------------------------------

def test_reply_keys_match_reference(boards: list[chess.Board]) -> None:
    parents = [b for b in boards if b.turn == chess.BLACK and _both_kings(b)]
    rng = random.Random(5)
    rng.shuffle(parents)
    parents = parents[:1_400] + [b for b in _hand_made() if b.turn == chess.BLACK]
    assert len(parents) >= 1_000
    outcomes = FOG_OF_WAR.replies(np.stack([_row(b) for b in parents]))
    assert outcomes.parents is not None
    by_parent: dict[int, dict[tuple[int, ...], tuple[int, ...]]] = {}
    for key, child, parent in zip(outcomes.keys, outcomes.children, outcomes.parents):
        pieces = tuple(int(x) for x in child[:12])
        children = by_parent.setdefault(int(parent), {})
        assert pieces not in children, f"FEN {parents[int(parent)].fen()}: two replies give one child"
        children[pieces] = _key_tuple(key)
    counts = Counter()
    for index, board in enumerate(parents):
        ours = by_parent.get(index, {})
        moves = fog_reference_moves(board)
        assert len(ours) == len(moves), (
            f"FEN {board.fen()}: {len(ours)} replies, reference {len(moves)}: "
            f"{' '.join(m.uci() for m in moves)}")
        for move in moves:
            expected, pieces = ref_outcome(board, move)
            assert pieces in ours, f"FEN {board.fen()}  move {move}: no such child among the replies"
            got = ours[pieces]
            assert got == expected, _explain(board, move, expected, got)
            _count(counts, "replies", board, move, expected)
            # The reply gives White an en-passant capture: the passed pawn is visible.
            board.push(move)
            if ref_en_passant(board, chess.WHITE)[1] is not None:
                counts["white sees passed pawn"] += 1
            board.pop()
    assert counts["replies"] >= 20_000, counts
    _assert_rules_exercised(counts)
    assert counts["white sees passed pawn"] >= 20, counts


# ---------------------------------------------------------------------------
# 3. White's key after every attempt; ILLEGAL for what is not a Fog-of-War move
# ---------------------------------------------------------------------------

def _not_fog_moves(board: chess.Board, legal: set[chess.Move], rng: random.Random) -> list[chess.Move]:
    """Attempts that are not Fog-of-War moves: random from/to pairs, black men,
    blocked pawn pushes, empty pawn diagonals, bogus promotions, blocked castling."""
    found = set()
    own = list(chess.scan_forward(board.occupied_co[board.turn]))
    theirs = list(chess.scan_forward(board.occupied_co[not board.turn]))
    for _ in range(3):
        found.add(chess.Move(rng.choice(own), rng.randrange(64)))
    if theirs:
        source = rng.choice(theirs)
        found.add(chess.Move(source, rng.choice([s for s in range(64) if s != source])))
    step = 8 if board.turn == chess.WHITE else -8
    for pawn in chess.scan_forward(board.pieces_mask(chess.PAWN, board.turn)):
        ahead = pawn + step
        found.add(chess.Move(pawn, ahead))  # blocked ahead or a promotion without piece
        found.add(chess.Move(pawn, ahead, chess.QUEEN))  # promotion off the last rank
        found.add(chess.Move(pawn, ahead, chess.KING))
        for target in chess.scan_forward(chess.BB_PAWN_ATTACKS[board.turn][pawn]):
            found.add(chess.Move(pawn, target))
    king = board.king(board.turn)
    if king is not None:
        for to in (king + 2, king - 2):
            if 0 <= to < 64 and chess.square_rank(to) == chess.square_rank(king):
                found.add(chess.Move(king, to))
    return [m for m in found if m not in legal and m.from_square != m.to_square]


def test_attempt_keys_match_reference(boards: list[chess.Board]) -> None:
    parents = [b for b in boards if b.turn == chess.WHITE and _both_kings(b)]
    rng = random.Random(6)
    rng.shuffle(parents)
    parents = parents[:1_400] + [b for b in _hand_made() if b.turn == chess.WHITE]
    assert len(parents) >= 1_000
    counts = Counter()
    for board in parents:
        row = _row(board)[None, :]
        moves = fog_reference_moves(board)
        for move in moves:
            expected, pieces = ref_outcome(board, move)
            outcome = FOG_OF_WAR.attempt(row, _encode(move))
            got = _key_tuple(outcome.keys[0])
            assert got == expected, _explain(board, move, expected, got)
            child = tuple(int(x) for x in outcome.children[0, :12])
            assert child == pieces, f"FEN {board.fen()}  move {move}: wrong child position"
            _count(counts, "attempts", board, move, expected)
        for move in _not_fog_moves(board, set(moves), rng):
            outcome = FOG_OF_WAR.attempt(row, _encode(move))
            code = int(outcome.keys[0, 0])
            assert code == codes.ILLEGAL, (
                f"FEN {board.fen()}  move {move} (not a Fog-of-War move): expected ILLEGAL, "
                f"got {code:#x} ({codes.describe(code)})")
            counts["illegal attempts"] += 1
    assert counts["attempts"] >= 20_000, counts
    assert counts["illegal attempts"] >= 5_000, counts
    _assert_rules_exercised(counts)


@pytest.mark.parametrize("uci", ["e1g1", "e1c1", "e2e4", "g1f3", "d1h5", "e5d6"])
def test_batched_attempt_matches_reference(boards: list[chess.Board], uci: str) -> None:
    """One attempt over a whole belief-state-like array: legal in some rows, not in others."""
    parents = [b for b in boards if b.turn == chess.WHITE and _both_kings(b)]
    move = chess.Move.from_uci(uci)
    outcome = FOG_OF_WAR.attempt(np.stack([_row(b) for b in parents]), _encode(move))
    legal_count = 0
    for board, key in zip(parents, outcome.keys):
        got = _key_tuple(key)
        if move in fog_reference_moves(board):
            legal_count += 1
            expected, _ = ref_outcome(board, move)
            assert got == expected, _explain(board, move, expected, got)
        else:
            assert got[0] == codes.ILLEGAL, (
                f"FEN {board.fen()}  move {move} (not a Fog-of-War move): expected ILLEGAL, "
                f"got {got[0]:#x} ({codes.describe(got[0])})")
    assert 0 < legal_count < len(parents), (uci, legal_count, len(parents))


def test_attempt_after_king_capture_is_illegal(boards: list[chess.Board]) -> None:
    finished = [b for b in boards if b.turn == chess.WHITE and b.king(chess.WHITE) is None
                and b.king(chess.BLACK) is not None]
    assert len(finished) >= 5
    for board in finished:
        assert fog_reference_moves(board) == []
        row = _row(board)[None, :]
        assert FOG_OF_WAR.replies(row).keys.shape[0] == 0, board.fen()
        for move in board.generate_pseudo_legal_moves():
            code = int(FOG_OF_WAR.attempt(row, _encode(move)).keys[0, 0])
            assert code == codes.ILLEGAL, (
                f"FEN {board.fen()}  move {move} (White's king already captured): expected "
                f"ILLEGAL, got {code:#x} ({codes.describe(code)})")
