"""A played game's records: the full game and each side's view, as PGN.

Kriegspiel games are written in ksolve's Kriegspiel PGN
(``ksolve.games.pgn``: read back by ``read_game``, by ``ksolve belief`` and
``ksolve solve GAME.pgn``).  Fog-of-War games, which that format does not
cover (a king is captured, a player may leave his king attacked: no SAN),
are written as PGN with tags ``Variant "Fog of War"`` and ``Rules
"fog-of-war"`` (and ``TimeControl``, ``Termination`` where the game has
them) and long algebraic moves (``Ng1-f3``, ``e4xd5``,
``Qd1xe8``, castling ``O-O`` and ``O-O-O``).  A side's view (tag ``Filter``) writes the opponent's moves as
``??`` and after every move a comment with the enemy men that side then sees
and, where one of his men was taken out of his sight, the marked square:
``{sees Pe5 Nf6; lost e4}``.  ``read_fog`` reads both back (a full game is
replayed, every move must be playable).

>>> from ksolve.play.session import GameSession
>>> game = GameSession("fog-of-war")
>>> for uci in ("e2e4", "d7d5", "e4d5"):
...     _ = game.attempt(uci)
>>> text = fog_pgn(game, chess.BLACK)
>>> text.split("\\n\\n")[1]
'1. ?? {sees nothing} d7-d5 {sees Pe4} 2. ?? {sees Pd5} *'
>>> read_fog(fog_pgn(game)).moves
('e2e4', 'd7d5', 'e4d5')
>>> load_record(fog_pgn(game)).board_fens()[-1]
'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import chess

from ksolve.board import position_to_board
from ksolve.games.model import Ask, Refused, filter_game
from ksolve.games.pgn import PGNError, read_game, write_game
from ksolve.play.session import GameSession, PlayError
from ksolve.play.views import side_view
from ksolve.rules import codes

FOG_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def game_pgn(game: GameSession, view: chess.Color | None = None,
             tags: tuple[tuple[str, str], ...] = ()) -> str:
    """The PGN of ``game``: in full (``view`` None) or as ``view`` saw it."""
    if game.rules.fog:
        return fog_pgn(game, view, tags)
    record = game.record(tags)
    return write_game(record if view is None else filter_game(record, view))


# --- Fog of War -------------------------------------------------------------------
def fog_pgn(game: GameSession, view: chess.Color | None = None, tags: tuple[tuple[str, str], ...] = ()) -> str:
    """A Fog-of-War game's PGN, in full or as ``view`` saw it."""
    values = dict(tags)
    lines = [f'[{name} "{values.get(name, game.result if name == "Result" else "?")}"]' for name in FOG_TAGS]
    lines += ['[Variant "Fog of War"]', '[Rules "fog-of-war"]']
    if view is not None:
        lines.append(f'[Filter "{"White" if view else "Black"}"]')
    if game.clock is not None:
        lines.append(f'[TimeControl "{game.clock.name}"]')
    if game.termination:
        lines.append(f'[Termination "{game.termination}"]')
    tokens = []
    for index, turn in enumerate(game.turns):
        if turn.white:
            tokens.append(f"{index // 2 + 1}.")
        own = view is None or turn.white == view
        tokens.append(long_algebraic(game.positions[index], turn.move) if own else "??")  # type: ignore[arg-type]
        if view is not None:
            tokens.append("{" + _sight(game, index, view) + "}")
    tokens.append(game.result)
    return "\n".join(lines) + "\n\n" + " ".join(tokens) + "\n\n"


def long_algebraic(position, uci: str) -> str:
    """A move in long algebraic notation on the true board before it (castling: ``O-O``, ``O-O-O``).

    >>> from ksolve.board import position_from_fen
    >>> start = position_from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", fog=True)
    >>> long_algebraic(start, "e1g1"), long_algebraic(start, "e1c1"), long_algebraic(start, "a1a8")
    ('O-O', 'O-O-O', 'Ra1xa8')
    """
    board = position_to_board(position)
    move = chess.Move.from_uci(uci)
    piece = board.piece_at(move.from_square)
    if piece is not None and piece.piece_type == chess.KING and \
            abs(chess.square_file(move.from_square) - chess.square_file(move.to_square)) == 2:
        return "O-O" if chess.square_file(move.to_square) == 6 else "O-O-O"
    letter = "" if piece is None or piece.piece_type == chess.PAWN else piece.symbol().upper()
    taken = board.piece_at(move.to_square) is not None or (
        piece is not None and piece.piece_type == chess.PAWN and move.to_square == board.ep_square)
    promotion = "" if move.promotion is None else "=" + chess.piece_symbol(move.promotion).upper()
    return (f"{letter}{chess.square_name(move.from_square)}{'x' if taken else '-'}"
            f"{chess.square_name(move.to_square)}{promotion}")


def _sight(game: GameSession, index: int, view: chess.Color) -> str:
    """What ``view`` sees after the move ``index``: the enemy men, the marked square."""
    turn = game.turns[index]
    lost = codes.capture_square(turn.code) if turn.white != view else None
    seen = side_view(game.positions[index + 1], view, True, lost)
    parts = []
    if seen.enemy:
        parts.append("sees " + " ".join(f"{p.symbol().upper()}{chess.square_name(s)}"
                                        for s, p in sorted(seen.enemy.items())))
    if seen.marks:
        parts.append("lost " + " ".join(chess.square_name(s) for s in seen.marks))
    return "; ".join(parts) or "sees nothing"


@dataclass(frozen=True)
class FogRecord:
    """A Fog-of-War PGN read back: the moves (None: hidden) and each move's comment."""

    tags: dict[str, str]
    moves: tuple[str | None, ...]
    sights: tuple[str, ...]
    result: str

    @property
    def view(self) -> chess.Color | None:
        name = self.tags.get("Filter")
        return None if name is None else name == "White"


_TAG = re.compile(r'\[(\w+)\s+"([^"]*)"\]')
_MOVE = re.compile(r"^([KQRBN]?)([a-h][1-8])[-x]([a-h][1-8])(?:=([QRBN]))?$")
_CASTLING = {"O-O": ("e1g1", "e8g8"), "O-O-O": ("e1c1", "e8c8")}
_TOKEN = re.compile(r"\{[^}]*\}|\S+")


def read_fog(text: str) -> FogRecord:
    """Read a Fog-of-War PGN written by ``fog_pgn``; a full game is replayed
    (``PlayError`` names the first move that cannot be played)."""
    head, _, body = text.replace("\r\n", "\n").replace("\r", "\n").strip().partition("\n\n")
    tags = dict(_TAG.findall(head))
    if tags.get("Rules") != "fog-of-war":
        raise PlayError("pgn: tag Rules must be fog-of-war")
    moves: list[str | None] = []
    sights: list[str] = []
    result = "*"
    for token in _TOKEN.findall(body):
        if token.startswith("{"):
            sights.append(token[1:-1])
        elif token in ("1-0", "0-1", "1/2-1/2", "*"):
            result = token
        elif token == "??":
            moves.append(None)
        elif token in _CASTLING:
            moves.append(_CASTLING[token][len(moves) % 2])
        elif not re.fullmatch(r"\d+\.", token):
            match = _MOVE.match(token)
            if match is None:
                raise PlayError(f"pgn: {token!r} is not a long algebraic move")
            promotion = (match.group(4) or "").lower()
            moves.append(match.group(2) + match.group(3) + promotion)
    record = FogRecord(tags, tuple(moves), tuple(sights), result)
    if not moves:
        raise PlayError("pgn: no moves (a Fog-of-War game's moves follow its tags after an empty line)")
    if record.view is None:
        replayed = replay(record.moves)
        if replayed.over and replayed.result != result:  # a game not over on the board was resigned or left
            raise PlayError(f"pgn: the result {result} differs from the replayed game's {replayed.result}")
    return record


def replay(moves: tuple[str | None, ...], rules: str = "fog-of-war") -> GameSession:
    """The game of a full list of moves, every one executed by the referee."""
    game = GameSession(rules)
    for ply, uci in enumerate(moves, 1):
        if uci is None or not game.attempt(uci).moved:
            raise PlayError(f"pgn: move {ply} ({uci}) cannot be played")
    return game


def load_record(text: str, source: str = "<pgn>") -> GameSession:
    """A full game's PGN (Kriegspiel or Fog of War) replayed by the referee, for the replay:
    every refused attempt must be refused again and every move executed (``PlayError``
    otherwise, and for a side's filtered view, which cannot be replayed)."""
    if '[Rules "fog-of-war"]' in text:
        record = read_fog(text)
        if record.view is not None:
            raise PlayError(f"{source}: a side's view cannot be replayed; give the full game")
        replayed = replay(record.moves)
        if replayed.result == "*" and record.result != "*":  # resigned, agreed, lost on time
            replayed.result, replayed.termination = record.result, record.tags.get("Termination", "")
        return replayed
    try:
        game = read_game(text, source)
    except PGNError as error:
        raise PlayError(str(error)) from None
    if game.view is not None:
        raise PlayError(f"{source}: a side's view cannot be replayed; give the full game")
    session = GameSession(game.rules, game.fen)
    for ply, turn in enumerate(game.turns, 1):
        for action in turn.actions:
            if isinstance(action, Ask):
                session.ask_any()
            elif isinstance(action, Refused) and session.attempt(action.move).moved:
                raise PlayError(f"{source}: ply {ply}: the refused attempt {action.move} is legal")
        if not session.attempt(turn.move).moved:  # type: ignore[arg-type]
            raise PlayError(f"{source}: ply {ply}: {turn.move} cannot be played")
    if session.result == "*" and game.result != "*":
        session.result = game.result
        session.termination = dict(game.tags).get("Termination", "")
    return session
