"""Differential test of ksolve's Fog of War against OpenSpiel's ``dark_chess``
(an independent C++ implementation of Fog of War, "dark chess"): seeded
random games from the standard start (the only start
``GameSession("fog-of-war")`` plays), where at every ply both must agree on
the moves the side to move may make (OpenSpiel's legal actions against
``GameSession.askable``), one of them is played in both (``pyspiel`` and
``ksolve.play.session.GameSession``), and after every ply, for both sides:

* the true position: men, side to move, castling rights, en-passant square,
  halfmove clock and move number (OpenSpiel's ``ToFEN`` against ksolve's
  board);
* what the side sees, the squares and the men on them, read from OpenSpiel's
  ``observation_string`` ('?' for an unseen square) and from its
  ``observation_tensor`` (its planes as ``open_spiel.python.observation``
  names them), against ksolve's ``GameSession.view`` and against the
  Fog-of-War observation key ksolve's players think from
  (``GameSession.observations``, Black's in the mirrored frame);
* the side's own castling rights (string, tensor, key), the side to move,
  the halfmove clock and move number (string and tensor), how often the
  position has stood (the tensor's repetition count, against ksolve's
  position hashes) and the en-passant field of the string;
* captures: the square where the side that lost a man sees it vanish from
  OpenSpiel's observation, against ksolve's capture square (the move's code,
  both sides' keys, and the victim's mark when he no longer sees it);
* the end of the game: over or not, OpenSpiel's returns against ksolve's
  result (the king captured and who wins; draws), and the kind of draw.

OpenSpiel's player 0 is Black and player 1 White.  ``dark_chess`` has no
rule parameters (only ``board_size`` and ``fen``), so it is loaded as it is.

OpenSpiel's rules (source read at commit 112b777 of google-deepmind/open_spiel;
open_spiel 2.0.2 is installed), the same as ksolve's: the ``DarkChessState``
constructor (``games/dark_chess/dark_chess.cc``) builds its board with
``ChessBoard::BoardFromFEN(fen, board_size, /*king_in_check_allowed=*/true)``,
so ``ChessBoard::GenerateLegalMoves`` (``games/chess/chess_board.cc``) yields
the pseudo-legal moves: moving into and staying in check, capturing the king,
castling out of and through check (``GenerateCastlingDestinations_``:
``make_king_jump_check`` is false, condition 7 is skipped); promotions to
queen, rook, bishop and knight.  ``DarkChessState::MaybeFinalReturns`` ends
the game when a king is missing (its side loses), else draws for
insufficient material (never: ``HasSufficientMaterial`` is true when
``king_in_check_allowed_``; ksolve's Fog of War has no such draw), then for
threefold repetition (``IsRepetitionDraw``, a Zobrist hash of the men, side
to move, castling rights and an en-passant square only when an enemy pawn
stands beside the pawn that passed, ``EpSquareThreatened``: ksolve's game
level, Polyglot hashes), then stalemate (no legal move; ksolve's
``END_STALEMATE``, no Fog-of-War move), then the 50-move rule at 100 plies
of ``IrreversibleMoveCounter`` (pawn moves and captures reset it; ksolve:
the halfmove clock at 100, ``END_MOVE_LIMIT``).  Every draw gives the returns
(0, 0), so the kind is compared through the repetition count and the clock
(every ply) and ksolve's termination must be one of the draws that hold, the
first of them in OpenSpiel's order counted.  What a side sees is
``ComputePrivateInfoTable`` (``dark_chess.cc``): his men, the destinations of
his legal moves and, for a pawn move onto the en-passant square, the square
behind it (the passed pawn), as ksolve's ``visible_squares``.

Where the two differ, the comparison is restricted exactly so:

1. ``DarkChessState::ActionToString`` returns SAN (``move.ToSAN(Board())``),
   not UCI: an action's UCI is OpenSpiel's own decoding,
   ``pyspiel.chess.action_to_move(action, board).to_lan()``, on the board of
   a ``chess`` state fed the same actions (its FEN must stay the
   ``dark_chess`` state's); the SAN must name the same destination.
2. En passant and the side not to move.  ``ComputePrivateInfoTable``
   generates the moves of the observing side whoever is to move, and
   ``GeneratePawnCaptureDestinations_`` (``include_ep``) lets a pawn of
   either colour "capture" onto ``EpSquare()``.  So right after a double step
   that an enemy pawn may take en passant, the side that made it sees, when a
   pawn of his stands diagonally behind the skipped square, the skipped
   square and the one behind it (where the pawn came from; both empty).
   ksolve's side not to move has no en-passant right
   (``ksolve.rules.fog.visible_squares``) and may not see them: OpenSpiel's
   view of the side not to move must be ksolve's plus exactly those squares
   (``phantom``; the side to move's must be ksolve's).  The string's
   en-passant field (``ChessBoard::ToDarkFEN``) shows the square to a side
   with a pawn diagonally behind it (for the side to move: the pawn that may
   take, exactly ksolve's en-passant captures), and it reads those two
   squares as index ``8 * rank + file`` with no bound on the file: beside the
   a- and h-files it reads the other edge of the next rank (after h2-h4 with
   a black pawn on g4, White's field says h3 when he has a pawn on a3), which
   ``dark_fen_ep`` reproduces for the side not to move.
3. After a king's capture on his starting square, OpenSpiel keeps his
   side's castling rights (``ChessBoard::ApplyMove`` drops them only when the
   king or the rook moves or the rook is taken), ksolve drops them (a move
   onto the king's square); so in that final position the castling rights
   of the side whose king is gone are not compared.
4. Captures are not announced by OpenSpiel: its observation is the board
   alone, where a side's own men always stand, so the square where one of
   them vanished is compared with ksolve's announced capture square.
5. The tensor (``DarkChessObserver::WriteTensor``) has public planes
   (``ComputePublicInfoTable``: squares of two enemy men that attack each
   other, and those between, from White's moves) and private planes that
   leave those squares out ("unknown" included, ``WriteUnknownSquares``); what
   it shows a side is their union, which must be the string's view; it is
   compared with ``observation_tensor`` itself at each game's start and end.
6. OpenSpiel has no move cap (``MaxGameLength`` is only a bound); a game
   that has not ended after ``MAX_PLIES`` plies is stopped.

The move played is drawn from OpenSpiel's legal moves: a king capture on
offer is played one time in 1 / ``KING_CAPTURE_CHANCE`` (never while another
move is left in one game in ``LONG_GAME_EVERY``, which goes on into the
endgames of the 50-move rule and repetitions), an en-passant capture,
castling or promotion on offer one time in 1 / ``SPECIAL_SHARE``, else the
move is drawn among the pawn moves one time in 1 / ``PAWN_MOVE_SHARE``, or
among all.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

import chess
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import make_observation  # noqa: E402

from ksolve.board.layout import COLUMN_HASH  # noqa: E402
from ksolve.play.mirror import mirror_square  # noqa: E402
from ksolve.play.session import GameSession  # noqa: E402
from ksolve.rules import codes  # noqa: E402

QUICK_GAMES = 100
SLOW_GAMES = 900
MAX_PLIES = 600
"""Plies after which a game is stopped."""
KING_CAPTURE_CHANCE = 0.2
"""How often a king capture on offer is played (else another move is, if there is one)."""
LONG_GAME_EVERY = 20
"""One game in so many is a long one, where a king is captured only when no other move is left."""
SPECIAL_SHARE = 0.3
"""How often an en-passant capture, castling or promotion on offer is played."""
PAWN_MOVE_SHARE = 0.25
"""How often the move is drawn from the pawn moves alone."""
PIECE_SYMBOLS = "KkQqRrBbNnPp"
CASTLING_PLANES = {"K": "private_right_castling", "Q": "private_left_castling"}


def player(color: chess.Color) -> int:
    """OpenSpiel's player of a colour (0 is Black)."""
    return 1 if color == chess.WHITE else 0


class View:
    """What one side is shown: the squares he sees (a mask), the men on them."""

    def __init__(self, seen: int, men: dict[chess.Square, str]) -> None:
        self.seen, self.men = seen, men

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and (self.seen, self.men) == (other.seen, other.men)

    def __repr__(self) -> str:
        squares = " ".join(chess.square_name(s) for s in chess.scan_forward(self.seen)) or "-"
        men = " ".join(f"{p}{chess.square_name(s)}" for s, p in sorted(self.men.items()))
        return f"<sees {squares}; men {men}>"


def read_observation(text: str) -> tuple[View, list[str]]:
    """OpenSpiel's observation string (``ToDarkFEN``): the view and the other
    fields (side to move, castling rights, en passant, clock, move number)."""
    fields = text.split()
    assert len(fields) == 6, f"unreadable OpenSpiel observation {text!r}"
    seen, men = 0, {}
    for row, line in enumerate(fields[0].split("/")):
        rank, file = 7 - row, 0
        for char in line:
            if char.isdigit():
                for _ in range(int(char)):
                    seen |= chess.BB_SQUARES[chess.square(file, rank)]
                    file += 1
                continue
            if char != "?":
                assert char in PIECE_SYMBOLS, f"unreadable OpenSpiel observation {text!r}"
                square = chess.square(file, rank)
                seen |= chess.BB_SQUARES[square]
                men[square] = char
            file += 1
        assert file == 8, f"unreadable OpenSpiel observation {text!r}"
    return View(seen, men), fields[1:]


class TensorLayout:
    """Where ``make_observation``'s named planes lie in OpenSpiel's observation
    tensor (each plane indexed [file, rank]): the public and private planes of
    the men (in ``PIECE_SYMBOLS``' order), the public empty squares and the
    private unknown ones."""

    def __init__(self, observation) -> None:
        base = observation.tensor.ctypes.data

        def offset(name: str) -> int:
            return (observation.dict[name].ctypes.data - base) // observation.tensor.itemsize

        self.public = offset("public_K_pieces")
        self.private = offset("private_K_pieces")
        self.empty = offset("public_empty_pieces")
        self.unknown = offset("private_unknown_squares")
        for prefix, start in (("public", self.public), ("private", self.private)):
            assert [offset(f"{prefix}_{symbol}_pieces") for symbol in PIECE_SYMBOLS] == \
                list(range(start, start + 12 * 64, 64)), "unexpected layout of the observation tensor"

    def planes(self, tensor, start: int, count: int) -> np.ndarray:
        """``count`` planes from ``start``, by square index (8 * rank + file)."""
        return tensor[start:start + count * 64].reshape(count, 8, 8).transpose(0, 2, 1).reshape(count, 64) == 1


def read_tensor(observation, layout: TensorLayout) -> tuple[View, dict]:
    """OpenSpiel's observation tensor (docstring, 5.): the view (public planes
    and private planes not "unknown") and the scalars."""
    tensor, planes = observation.tensor, observation.dict
    pieces = layout.planes(tensor, layout.public, 12) | layout.planes(tensor, layout.private, 12)
    assert (pieces.sum(axis=0) <= 1).all(), "two men on a square in the tensor"
    seen = ~layout.planes(tensor, layout.unknown, 1)[0] | layout.planes(tensor, layout.empty, 1)[0] | pieces.any(0)
    men = {int(square): PIECE_SYMBOLS[index] for index, square in zip(*np.nonzero(pieces))}
    scalars = {"repetitions": int(planes["repetitions"].argmax()) + 1,
               "to move": chess.WHITE if planes["side_to_play"][1] == 1 else chess.BLACK,
               "clock": round(float(planes["irreversible_move_counter"][0]) * 100),
               "castling": {side for side, name in CASTLING_PLANES.items() if planes[name][1] == 1}}
    """(Castling: the kingside ("right") and queenside ("left") rights, as White's letters.)"""
    return View(int(np.packbits(seen, bitorder="little").view("<u8")[0]), men), scalars


def ksolve_view(game: GameSession, side: chess.Color) -> tuple[View, tuple]:
    """ksolve's ``GameSession.view``: the view and its marks."""
    view = game.view(side)
    men = {s: p.symbol() for s, p in {**view.own, **view.enemy}.items()}
    return View(int(view.visible), men), view.marks


def key_view(game: GameSession, side: chess.Color) -> tuple[View, str, int | None]:
    """The Fog-of-War observation key of ``side``'s last observation, back in the
    true frame: the view, his castling rights and the capture square of the code."""
    key = [int(x) for x in game.observations[side][-1].fog_key]
    flip = (lambda m: m) if side == chess.WHITE else chess.flip_vertical
    seen, men = flip(key[1]), {}
    for piece in range(6):
        for column, color in ((2 + piece, not side), (8 + piece, side)):
            for square in chess.scan_forward(flip(key[column])):
                men[square] = chess.Piece(piece + 1, color).symbol()
    rights = "".join(letter for bit, letter in ((1, "K"), (2, "Q")) if key[14] & bit)
    capture = codes.capture_square(key[0])
    if capture is not None and side == chess.BLACK:
        capture = mirror_square(capture)
    return View(seen, men), (rights if side == chess.WHITE else rights.lower()) or "-", capture


def true_view(board: chess.Board, seen: int) -> View:
    """The men of ``board`` on the squares ``seen``."""
    return View(seen, {s: board.piece_at(s).symbol() for s in chess.scan_forward(board.occupied & seen)})


def true_fen(board: chess.Board) -> str:
    """ksolve's true position as ``ChessBoard::ToFEN`` writes it: the castling
    rights as ksolve holds them (not python-chess's cleaned ones), the
    en-passant square when a pawn may take there (pseudo-legally)."""
    fields = board.fen(en_passant="xfen").split()
    fields[2] = "".join(castling_of(board, side).strip("-") for side in chess.COLORS) or "-"
    return " ".join(fields)


def openspiel_fen(fen: str, board: chess.Board) -> str:
    """OpenSpiel's FEN without the castling rights of a side whose king was
    captured (docstring, 3.)."""
    fields = fen.split()
    for side in chess.COLORS:
        if board.king(side) is None:
            fields[2] = fields[2].translate(str.maketrans("", "", "KQ" if side == chess.WHITE else "kq")) or "-"
    return " ".join(fields)


def castling_of(board: chess.Board, side: chess.Color) -> str:
    """``side``'s castling rights as ``ToDarkFEN`` writes them."""
    rights = "".join(letter for square, letter in ((chess.H1, "K"), (chess.A1, "Q"))
                     if board.castling_rights & chess.BB_SQUARES[square if side == chess.WHITE else square ^ 56])
    return (rights if side == chess.WHITE else rights.lower()) or "-"


def threatened_ep(board: chess.Board, last: chess.Move | None) -> int | None:
    """The en-passant square after ``last`` if an enemy pawn stands beside the pawn
    that passed (``EpSquareThreatened``), else None."""
    if last is None or board.piece_type_at(last.to_square) != chess.PAWN:
        return None
    if abs(last.to_square - last.from_square) != 16:
        return None
    mover = board.color_at(last.to_square)
    arrival = chess.BB_SQUARES[last.to_square]
    beside = (arrival << 1 & ~chess.BB_FILE_A) | (arrival >> 1 & ~chess.BB_FILE_H)
    if not beside & board.pieces_mask(chess.PAWN, not mover):
        return None
    return (last.from_square + last.to_square) // 2


def phantom(board: chess.Board, ep: int | None, side: chess.Color) -> int:
    """The squares OpenSpiel's side not to move sees by its en-passant quirk
    (docstring, 2.): for his pawns diagonally behind the en-passant square,
    that square and the one behind it."""
    if ep is None or side == board.turn:
        return 0
    if not chess.BB_PAWN_ATTACKS[not side][ep] & board.pieces_mask(chess.PAWN, side):
        return 0
    return chess.BB_SQUARES[ep] | chess.BB_SQUARES[ep - 8 if side == chess.WHITE else ep + 8]


def names(mask: int) -> str:
    return " ".join(chess.square_name(s) for s in chess.scan_forward(mask)) or "-"


def dark_fen_ep(board: chess.Board, ep: int | None, side: chess.Color) -> str:
    """The en-passant field ``ToDarkFEN`` writes for ``side`` (docstring, 2.): the
    threatened square when a pawn of his stands diagonally behind it, the
    squares read by index ``8 * rank + file`` with no bound on the file (beside
    the a- and h-files, the other edge of the next rank)."""
    if ep is None:
        return "-"
    behind = ep - 8 if side == chess.WHITE else ep + 8
    pawn = chess.Piece(chess.PAWN, side)
    return chess.square_name(ep) if board.piece_at(behind + 1) == pawn or board.piece_at(behind - 1) == pawn else "-"


def repetitions(game: GameSession, seen: Counter) -> int:
    """How often ksolve's game has stood in its present position (its hash;
    ``seen`` counts the hashes of ``game.positions`` but the last)."""
    now = int(game.positions[-1][COLUMN_HASH])
    if len(game.positions) > sum(seen.values()):
        seen[now] += 1
    return seen[now]


class Mismatch(AssertionError):
    pass


def play_game(seed: int, stats: Counter) -> None:
    """One random game; ``Mismatch`` naming the seed, the moves and both answers."""
    rng = random.Random(f"openspiel-fog-{seed}")
    long_game = seed % LONG_GAME_EVERY == LONG_GAME_EVERY - 1
    game = GameSession("fog-of-war")
    dark = pyspiel.load_game("dark_chess")
    state = dark.new_initial_state()
    decoder = pyspiel.load_game("chess").new_initial_state()  # docstring, 1.
    observation = make_observation(dark)
    history: list[str] = []

    def check(condition: bool, what: str, theirs: object, ours: object) -> None:
        if not condition:
            difference = ""
            if isinstance(theirs, View) and isinstance(ours, View):
                difference = (f" (seen by OpenSpiel only: {names(theirs.seen & ~ours.seen)}, by ksolve only: "
                              f"{names(ours.seen & ~theirs.seen)})")
            raise Mismatch(f"seed {seed}, moves {' '.join(history) or '-'}: {what}: "
                           f"OpenSpiel {theirs!r}, ksolve {ours!r}{difference}")

    board = game.board()
    layout = TensorLayout(observation)
    seen: Counter = Counter()  # ksolve's positions by hash
    shown = {side: compare_side(game, board, state, observation, layout, side, None, seen, True, check, stats)
             for side in chess.COLORS}
    while len(history) < MAX_PLIES:
        if game.over:  # compare_end compared the end
            return
        check(not state.is_terminal(), "game over", state.returns(), "not over")
        mover = board.turn
        check(state.current_player() == player(mover), "player to move", state.current_player(), mover)
        check(str(decoder) == str(state), "decoder's board (docstring, 1.)", str(state), str(decoder))
        theirs = {}
        for action in state.legal_actions():
            uci = pyspiel.chess.action_to_move(action, decoder.board()).to_lan()
            san = state.action_to_string(player(mover), action)
            check(uci[2:4] in san or san.startswith("O-O"), f"SAN of {uci}", san, uci)
            theirs[uci] = action
        ours = set(game.askable())
        check(set(theirs) == ours, "legal moves (OpenSpiel minus ksolve, ksolve minus OpenSpiel)",
              sorted(set(theirs) - ours), sorted(ours - set(theirs)))
        stats["legal moves compared"] += len(ours)
        uci = choose(board, sorted(theirs), rng, 0.0 if long_game else KING_CAPTURE_CHANCE)
        move = chess.Move.from_uci(uci)
        state.apply_action(theirs[uci])
        decoder.apply_action(theirs[uci])
        answer = game.attempt(uci)
        history.append(uci)
        check(answer.moved, f"ksolve's answer to {uci}", "a move", answer.words)
        stats["plies"] += 1
        tally_move(board, move, stats)
        after = game.board()
        check(openspiel_fen(str(state), after) == true_fen(after), "true position (FEN)", str(state),
              true_fen(after))
        ep = threatened_ep(after, move)
        now = {side: compare_side(game, after, state, observation, layout, side, ep, seen, state.is_terminal(),
                                  check, stats) for side in chess.COLORS}
        compare_capture(board, game, shown[not mover], now, check, stats)
        shown, board = now, after
        compare_end(game, board, state, seen, check, stats)
    stats["stopped"] += 1


def choose(board: chess.Board, moves: list[str], rng: random.Random, king_capture_chance: float) -> str:
    """The move to play (see the docstring's end)."""
    king_captures = [m for m in moves if board.piece_type_at(chess.parse_square(m[2:4])) == chess.KING]
    if king_captures and rng.random() < king_capture_chance:
        return rng.choice(king_captures)
    others = [m for m in moves if m not in king_captures] or moves
    special = [m for m in others if len(m) == 5 or is_special(board, m)]
    if special and rng.random() < SPECIAL_SHARE:
        return rng.choice(special)
    pawn_moves = [m for m in others if board.piece_type_at(chess.parse_square(m[:2])) == chess.PAWN]
    if pawn_moves and rng.random() < PAWN_MOVE_SHARE:
        return rng.choice(pawn_moves)
    return rng.choice(others)


def is_special(board: chess.Board, uci: str) -> bool:
    """Whether the move is a castling or an en-passant capture."""
    piece = board.piece_type_at(chess.parse_square(uci[:2]))
    if piece == chess.KING:
        return abs(ord(uci[0]) - ord(uci[2])) == 2
    return piece == chess.PAWN and uci[0] != uci[2] and board.piece_at(chess.parse_square(uci[2:4])) is None


def tally_move(board: chess.Board, move: chess.Move, stats: Counter) -> None:
    """What the move exercised."""
    stats["en passant"] += board.is_en_passant(move)
    stats["promotions"] += move.promotion is not None
    stats["under-promotions"] += move.promotion not in (None, chess.QUEEN)
    castling = board.is_castling(move)
    stats["castlings"] += castling
    if castling:
        path = chess.SquareSet(chess.between(move.from_square, move.to_square)) | {move.from_square}
        stats["castlings out of or through check"] += any(board.is_attacked_by(not board.turn, s) for s in path)
    stats["captures"] += board.is_capture(move)
    child = board.copy(stack=False)
    child.push(move)
    king = child.king(board.turn)
    stats["moves leaving the king attacked"] += king is not None and child.is_attacked_by(child.turn, king)


class Shown(NamedTuple):
    """What ``compare_side`` found: OpenSpiel's view by its string, ksolve's marks
    and the capture square of ksolve's key."""

    view: View
    marks: tuple
    key_capture: int | None


def compare_side(game: GameSession, board: chess.Board, state, observation, layout: TensorLayout,
                 side: chess.Color, ep: int | None, seen: Counter, full: bool, check, stats: Counter) -> Shown:
    """Compare what ``side`` is shown now (``board``: ksolve's true position, ``ep``:
    the threatened en-passant square; ``full``: also OpenSpiel's two ways to the
    tensor)."""
    who = "White" if side == chess.WHITE else "Black"
    theirs, (to_move, rights, ep_field, clock, number) = read_observation(state.observation_string(player(side)))
    observation.set_from(state, player(side))
    if full:
        check(np.array_equal(observation.tensor, state.observation_tensor(player(side))),
              f"{who}'s observation tensor (observation_tensor, make_observation)", "not the same", "-")
    tensor, scalars = read_tensor(observation, layout)
    ours, marks = ksolve_view(game, side)
    check(ours == true_view(board, ours.seen), f"{who}'s ksolve view against ksolve's board", board, ours)
    extra = phantom(board, ep, side)  # docstring, 2.
    stats["phantom en-passant views"] += bool(extra)
    stats["phantom squares ksolve does not see"] += bool(extra & ~ours.seen)
    expected = true_view(board, ours.seen | extra)
    check(theirs == expected, f"{who}'s view (observation string; ksolve's, and the phantom squares "
          f"{names(extra)})", theirs, ours)
    check(tensor == theirs, f"{who}'s view (tensor, string)", tensor, theirs)
    stats["views compared"] += 1
    kingless = board.king(side) is None  # his castling rights are not compared (docstring, 3.)
    key_capture = None
    if game.observations[side]:
        key, key_rights, key_capture = key_view(game, side)
        check(key == ours, f"{who}'s observation key (OpenSpiel's string view, key)", theirs, key)
        check(kingless or key_rights == rights, f"{who}'s castling rights (string, key)", rights, key_rights)
    check(kingless or rights == castling_of(board, side), f"{who}'s castling rights", rights,
          castling_of(board, side))
    stats["castling rights OpenSpiel keeps after the king's capture"] += kingless and rights != "-"
    check(scalars["castling"] == set(rights.upper()) - {"-"}, f"{who}'s castling rights (tensor, string)",
          scalars["castling"], rights)
    check((to_move, scalars["to move"]) == ("wb"[board.turn == chess.BLACK], board.turn),
          f"side to move in {who}'s observation (string, tensor)", (to_move, scalars["to move"]), board.turn)
    check(int(clock) == scalars["clock"] == board.halfmove_clock, f"halfmove clock in {who}'s observation "
          "(string, tensor)", (clock, scalars["clock"]), board.halfmove_clock)
    check(int(number) == board.fullmove_number, f"move number in {who}'s observation", number,
          board.fullmove_number)
    count = repetitions(game, seen)
    check(scalars["repetitions"] == min(count, 3), f"repetitions in {who}'s observation", scalars["repetitions"],
          count)
    stats["repetitions seen"] += scalars["repetitions"] > 1 and side == chess.WHITE
    threatened = "-" if ep is None else chess.square_name(ep)
    if side == board.turn:  # the en-passant right: the threatened square in both
        if not game.over:
            takes = {m[2:4] for m in game.askable() if is_special(board, m)
                     and board.piece_type_at(chess.parse_square(m[:2])) == chess.PAWN}
            check(takes == ({threatened} - {"-"}), f"{who}'s en-passant captures (the threatened square, ksolve)",
                  threatened, sorted(takes))
            stats["turns with an en-passant right"] += bool(takes)
        check(ep_field == threatened, f"{who}'s en-passant square (the threatened one)", ep_field, threatened)
    else:  # docstring, 2.
        shown = dark_fen_ep(board, ep, side)
        check(ep_field == shown and (shown != "-") >= bool(extra), f"{who}'s en-passant square (not to move; "
              f"the phantom squares {names(extra)}, ToDarkFEN's)", ep_field, shown)
        stats["en-passant squares shown by the wrap-around"] += shown != "-" and not extra
    return Shown(theirs, marks, key_capture)


def compare_capture(board: chess.Board, game: GameSession, was: Shown, shown: dict, check, stats: Counter) -> None:
    """The capture by the move just played on ``board``: where the victim's men
    vanished from OpenSpiel's view (``was``, then now) against ksolve's capture
    square, and the capture squares of the keys (``shown``: both sides now) and
    of the victim's mark (docstring, 4.)."""
    victim = not board.turn
    now, was = shown[victim].view, was.view
    own = lambda view: {(s, p) for s, p in view.men.items() if p.isupper() == (victim == chess.WHITE)}  # noqa: E731
    lost = {s for s, _ in own(was) - own(now)}
    code = game.turns[-1].code
    square = codes.capture_square(code)
    ours = set() if square is None else {square}
    named = lambda squares: sorted(chess.square_name(s) for s in squares)  # noqa: E731
    check(lost == ours, "capture square (where the victim's man vanished, ksolve's code)", named(lost),
          named(ours))
    for side in chess.COLORS:
        key_square = shown[side].key_capture
        check(key_square == square, f"capture square in {'White' if side else 'Black'}'s key",
              named(lost), named({key_square} - {None}))
    marks = shown[victim].marks
    unseen = ours - {s for s in ours if now.seen & chess.BB_SQUARES[s]}
    check(set(marks) == unseen, "mark of the capture square the victim no longer sees", named(unseen), named(marks))
    stats["captures the victim no longer sees"] += bool(unseen)


DRAWS = {"Stalemate": "stalemate", "Draw (move limit)": "50-move rule", "draw by the 50-move rule": "50-move rule",
         "draw by threefold repetition": "repetition"}


def compare_end(game: GameSession, board: chess.Board, state, seen: Counter, check, stats: Counter) -> None:
    """The end of the game after a move (``board``: ksolve's true position)."""
    over = state.is_terminal()
    check(over == game.over, "game over", state.returns() if over else "not over", game.termination or "not over")
    if not over:
        return
    returns = state.returns()
    expected = {"1-0": [-1.0, 1.0], "0-1": [1.0, -1.0], "1/2-1/2": [0.0, 0.0]}[game.result]
    check(returns == expected, "returns", returns, (game.result, game.termination))
    if game.result != "1/2-1/2":
        loser = chess.BLACK if game.result == "1-0" else chess.WHITE
        check(board.king(loser) is None and game.termination == "King captured", "king captured",
              returns, (game.result, game.termination))
        stats[f"king captured by {'White' if loser == chess.BLACK else 'Black'}"] += 1
        return
    # OpenSpiel's order (``MaybeFinalReturns``): repetition, stalemate, the 50-move rule.
    kinds = {"repetition": repetitions(game, seen) >= 3, "stalemate": not any(board.pseudo_legal_moves),
             "50-move rule": board.halfmove_clock >= 100}
    check(game.termination in DRAWS and kinds[DRAWS[game.termination]], "kind of draw",
          [kind for kind, holds in kinds.items() if holds], game.termination)
    theirs = next(kind for kind, holds in kinds.items() if holds)
    stats[f"draw: {theirs}"] += 1
    stats[f"ksolve: {game.termination}"] += 1
    if DRAWS[game.termination] != theirs:
        stats[f"draw: {theirs} (ksolve: {game.termination})"] += 1


def run(seeds: range) -> Counter:
    stats: Counter = Counter()
    for seed in seeds:
        play_game(seed, stats)
        stats["games"] += 1
    return stats


def test_fog_matches_openspiel_quick() -> None:
    stats = run(range(QUICK_GAMES))
    assert stats["plies"] > 5_000 and stats["captures"] > 500 and stats["promotions"] > 20, stats
    assert stats["king captured by White"] > 20 and stats["king captured by Black"] > 20, stats
    assert stats["draw: 50-move rule"] > 0 and stats["draw: repetition"] > 0, stats
    assert stats["phantom en-passant views"] > 3 and stats["captures the victim no longer sees"] > 100, stats


@pytest.mark.slow
def test_fog_matches_openspiel() -> None:
    stats = run(range(QUICK_GAMES, QUICK_GAMES + SLOW_GAMES))
    # The games must reach every rule both implement and every difference of the docstring.
    assert stats["plies"] > 55_000 and stats["captures"] > 7_000, stats
    assert stats["moves leaving the king attacked"] > 8_000, stats
    assert stats["promotions"] > 500 and stats["under-promotions"] > 400, stats
    assert stats["en passant"] > 80 and stats["turns with an en-passant right"] > 300, stats
    assert stats["castlings"] > 200 and stats["castlings out of or through check"] > 15, stats
    assert stats["phantom en-passant views"] > 120 and stats["phantom squares ksolve does not see"] > 50, stats
    assert stats["en-passant squares shown by the wrap-around"] > 0, stats
    assert stats["castling rights OpenSpiel keeps after the king's capture"] > 80, stats
    assert stats["king captured by White"] > 300 and stats["king captured by Black"] > 300, stats
    assert stats["draw: 50-move rule"] > 25 and stats["draw: repetition"] > 0 and stats["repetitions seen"] > 80, stats
