"""One side's belief during a game: every true position consistent with what
he has seen and heard, kept in his own frame (the mirrored game for Black, so
that he is White there and ksolve's estimator and prover apply).

Kriegspiel beliefs are kept by ksolve's ``Estimator`` (exact, including what
the opponent's refused attempts tell).  Fog-of-War beliefs keep the
positions whose observation key (what the side sees after each ply) equals
the one he saw.

The belief is exact until it would pass ``budget`` positions: before the
opponent's turn a belief of more than ``budget // BRANCHING`` positions is
replaced by a uniform random sample of that many (``exact`` becomes False).
A sample can lose every position consistent with a later observation; the
belief is then rebuilt from the start of the game with fresh samples (up to
``REBUILDS`` times).  Past that, a Kriegspiel belief *recovers* (``recoveries``
counts it): it keeps the positions after the turn whose answer agrees with what
was heard on the capture (square, pawn or piece) and the end of the game,
though not on the checks or the pawn tries; failing that, on the capture
square alone; failing that, after the side's own move every position where the
move is legal (where it is legal in none, the opponent's men are moved out of
its way: ``_made_room``), after the opponent's the quiet replies, else any.  The
side's own men are always its true men (a man heard taken is taken off); the
opponent's are a guess that later answers narrow again.  A Fog-of-War belief,
or a recovery that keeps nothing, is marked ``lost``.

>>> import chess
>>> from ksolve.play.session import GameSession
>>> game = GameSession("berkeley")
>>> belief = SideBelief("berkeley", chess.WHITE)
>>> _ = game.attempt("e2e4"), game.attempt("e7e5")
>>> belief.sync(game.observations[chess.WHITE]); len(belief), belief.exact
(20, True)
"""

from __future__ import annotations

import random

import chess
import numpy as np

from ksolve.board import move_from_uci, position_from_fen, position_to_board
from ksolve.board.zobrist import position_hash
from ksolve.board.layout import COLUMN_BLACK, COLUMN_HASH, COLUMN_WHITE, KING
from ksolve.games.estimate import Estimator, InconsistentHistory
from ksolve.games.model import STANDARD_FEN
from ksolve.play.mirror import mirror_fen, mirror_turn
from ksolve.play.session import Observation
from ksolve.rules import codes, get_rules

BRANCHING = 32
"""The growth assumed for one opponent turn when sampling ahead of it."""
REBUILDS = 3


class SideBelief:
    """``side``'s belief in a game from ``fen`` (None: the standard start)."""

    def __init__(self, rules: str, side: chess.Color, fen: str | None = None, budget: int = 40_000,
                 seed: int = 0) -> None:
        self.rules_name, self.side = rules, side
        self.rules = get_rules(rules)
        self.fen = fen or STANDARD_FEN
        self.frame_fen = self.fen if side == chess.WHITE else mirror_fen(self.fen)
        self.budget = budget
        self.rng = random.Random(seed)
        self.history: list[Observation] = []
        self.rebuilds = 0
        self.recoveries = 0
        self.lost = False
        self._reset()

    def _reset(self) -> None:
        self.exact = True
        self.positions = position_from_fen(self.frame_fen, fog=self.rules.fog)[np.newaxis, :]
        self._estimator = None if self.rules.fog else Estimator(self.rules_name, self.frame_fen)

    def __len__(self) -> int:
        return len(self.positions)

    def heat_map(self) -> dict[str, dict[str, float]]:
        """For each enemy man type (``k``, ``q``, ...), the share of the positions with one on
        each square (squares of no position left out), on the real board.

        >>> SideBelief("berkeley", chess.BLACK).heat_map()["k"]
        {'e1': 1.0}
        """
        heat: dict[str, dict[str, float]] = {}
        for piece in range(6):
            boards = self.positions[:, COLUMN_BLACK + piece]
            shares = {}
            for square in range(64):
                share = float(((boards >> np.uint64(square)) & np.uint64(1)).mean()) if len(boards) else 0.0
                if share > 0:
                    shares[chess.square_name(square if self.side == chess.WHITE else square ^ 56)] = round(share, 3)
            heat[chess.piece_symbol(piece + 1)] = shares
        return heat

    # --- hearing ------------------------------------------------------------------
    def sync(self, observations: list[Observation]) -> None:
        """Take in the observations not seen yet (a session's list for this side)."""
        for observation in observations[len(self.history):]:
            self.history.append(observation)
            if not self.lost:
                self._take(observation)

    def _take(self, observation: Observation) -> None:
        before = self.positions
        try:
            self._update(observation)
        except InconsistentHistory:
            self.positions = self.positions[:0]
        while len(self.positions) == 0 and not self.lost:
            if self.exact:
                self.lost = True  # an exact belief cannot empty: only a sample can miss
                return
            if self.rebuilds >= REBUILDS:
                self._recover(before, observation)
                return
            self.rebuilds += 1
            self._reset()
            try:
                for seen in self.history:
                    self._update(seen)
            except InconsistentHistory:
                self.positions = self.positions[:0]

    def _update(self, observation: Observation) -> None:
        turn = observation.turn if self.side == chess.WHITE else mirror_turn(observation.turn)
        own = turn.white
        if not own:
            self._sample(self.budget // BRANCHING)
        if self._estimator is not None:
            self._estimator.positions = self.positions
            self._estimator.observe(turn)
            self.positions = self._estimator.positions
            return
        key = observation.fog_key
        if own:
            outcome = self.rules.attempt(self.positions, move_from_uci(turn.move))  # type: ignore[arg-type]
        else:
            outcome = self.rules.replies(self.positions)
        keep = (outcome.keys == key).all(axis=1)
        children = outcome.children[keep]
        _, unique = np.unique(children[:, COLUMN_HASH], return_index=True)
        self.positions = children[np.sort(unique)]

    def _recover(self, before: np.ndarray, observation: Observation) -> None:
        """The positions after the turn that agree with what was heard on the capture and
        the end, else on the capture square, else (see the module) any of them: after the
        side's own move every position it could be in, after the opponent's the quiet
        replies, else any, with the side's men as they were and its man gone from the square
        where it was heard taken."""
        if self._estimator is None or len(before) == 0:
            self.lost = True
            return
        turn = observation.turn if self.side == chess.WHITE else mirror_turn(observation.turn)
        if turn.white:
            move = move_from_uci(turn.move)  # type: ignore[arg-type]
            outcome = self.rules.attempt(before, move)
            if not (outcome.keys[:, 0] != np.uint64(codes.ILLEGAL)).any():
                outcome = self.rules.attempt(_made_room(before, chess.Move.from_uci(turn.move), turn.code), move)
        else:
            outcome = self.rules.replies(before)
        heard = outcome.keys[:, 0].astype(np.int64)
        legal = heard != codes.ILLEGAL
        quiet = (heard & codes.CAPTURE_MASK) == 0
        levels = [legal & ((heard & mask) == (turn.code & mask))
                  for mask in (codes.CAPTURE_MASK | codes.CAPTURED_PAWN | codes.END_MASK, codes.CAPTURE_MASK)]
        levels.append(legal if turn.white else legal & quiet)
        if not turn.white:
            levels.append(legal)
        for level, keep in enumerate(levels):
            if keep.any():
                children = outcome.children[keep].copy()
                square = codes.capture_square(turn.code)
                if not turn.white and (square is not None or level == 3):
                    if level == 3:  # a reply that took another man: the side's men as they were
                        own = before[outcome.parents[keep], COLUMN_WHITE:COLUMN_WHITE + 6]
                        children[:, COLUMN_WHITE:COLUMN_WHITE + 6] = own
                        children[:, COLUMN_BLACK:COLUMN_BLACK + 6] &= ~np.bitwise_or.reduce(own, axis=1)[:, None]
                    if square is not None:  # the side's man there is gone, whatever took it
                        if turn.code & codes.EN_PASSANT:  # the square announced is the one the pawn passed
                            square += 8
                        children[:, COLUMN_WHITE:COLUMN_WHITE + 6] &= ~np.uint64(1 << square)
                    for row in children:
                        row[COLUMN_HASH] = position_hash(row)
                    children = children[children[:, COLUMN_BLACK + KING] != 0]  # its king taken off: no position
                    if len(children) == 0:
                        continue
                _, unique = np.unique(children[:, COLUMN_HASH], return_index=True)
                self.positions = children[np.sort(unique)]
                self.recoveries += 1
                self.exact = False
                return
        self.lost = True

    def _sample(self, size: int) -> None:
        if len(self.positions) > size:
            picked = sorted(self.rng.sample(range(len(self.positions)), size))
            self.positions = self.positions[picked]
            self.exact = False


def _made_room(positions: np.ndarray, move: chess.Move, code: int) -> np.ndarray:
    """The positions changed so that the side's own move is legal in them (the opponent's
    men are a guess there): the opponent's men off the squares the move passed and its
    target, a man of the kind heard on the target where it took one (a pawn, else the
    first of a knight, a bishop, a rook, a queen the position can hold), and those that
    would attack the side's king after the move taken off; an enemy king in the way, or
    next to where the side's king goes, is moved to the nearest square it may stand on."""
    rows = []
    passed = chess.SquareSet(chess.BB_SQUARES[move.to_square] | chess.between(move.from_square, move.to_square))
    kinds = [None]
    if codes.capture_square(code) is not None:
        kinds = [chess.PAWN] if code & codes.CAPTURED_PAWN else [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]
    for row in positions:
        board = position_to_board(row)
        if not _king_moved_aside(board, move, passed):
            continue
        for square in passed:
            if board.color_at(square) == chess.BLACK:
                board.remove_piece_at(square)
        _checkers_removed(board, move)
        for candidate in _with_man_taken(board, move.to_square, kinds):
            try:
                rows.append(position_from_fen(candidate.fen()))
                break
            except ValueError:  # no position (more men of a kind than a game allows, say)
                continue
    return np.array(rows, dtype=positions.dtype).reshape(len(rows), positions.shape[1])


def _checkers_removed(board: chess.Board, move: chess.Move) -> None:
    """Take off the enemy men (not the king) that would attack the side's king after ``move``,
    until none does (a man taken off may open another's line)."""
    while True:
        after = board.copy(stack=False)
        after.push(move)
        king = after.king(chess.WHITE)
        attackers = [square for square in after.attackers(chess.BLACK, king) if square != move.to_square
                     and board.piece_type_at(square) != chess.KING] if king is not None else []
        if not attackers:
            return
        for square in attackers:
            board.remove_piece_at(square)


def _with_man_taken(board: chess.Board, target: int, kinds: list[int | None]):
    """The boards with a man of one of ``kinds`` on ``target`` (None: as it is): added, else
    the nearest of the enemy's men of that kind moved there."""
    for kind in kinds:
        if kind is None:
            yield board
            continue
        added = board.copy(stack=False)
        added.set_piece_at(target, chess.Piece(kind, chess.BLACK))
        yield added
        men = sorted(board.pieces(kind, chess.BLACK), key=lambda square: chess.square_distance(square, target))
        if men:
            moved = board.copy(stack=False)
            moved.remove_piece_at(men[0])
            moved.set_piece_at(target, chess.Piece(kind, chess.BLACK))
            yield moved


def _king_moved_aside(board: chess.Board, move: chess.Move, passed: chess.SquareSet) -> bool:
    """Move the enemy king off the squares ``move`` passes and away from the side's king
    after it, to the nearest empty square that is neither and that the side's men do not
    attack; False if there is none."""
    king = board.king(chess.BLACK)
    mover = board.piece_type_at(move.from_square)
    own_king = move.to_square if mover == chess.KING else board.king(chess.WHITE)

    def fits(square: int) -> bool:
        return square not in passed and chess.square_distance(square, own_king) > 1

    if king is None or fits(king):
        return king is not None
    board.remove_piece_at(king)
    empty = [square for square in chess.SQUARES if board.piece_at(square) is None and fits(square)
             and square != move.from_square and not board.is_attacked_by(chess.WHITE, square)]
    if not empty:
        return False
    board.set_piece_at(min(empty, key=lambda square: chess.square_distance(square, king)),
                       chess.Piece(chess.KING, chess.BLACK))
    return True

