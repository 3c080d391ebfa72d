"""Kriegspiel PGN (after the Berkeley/UMD v0.9 proposal, DOMAIN.md section 7).

An ordinary PGN game whose every half-move is followed by a comment
``{ANNOUNCEMENT:ACTIONS}``: the referee's announcement of the executed move
(tokens of ``ksolve.rules.notation``, e.g. ``d5,F``) and, after the colon,
what the mover did before it, in order: refused attempts in SAN on his own
board, ``Any?Y`` / ``Any?N`` ("Any?" answered "Try"/"Yes" or "No").  A
comment with nothing to say is left out.

A *filtered* game (tag ``Filter``: the side whose view it is) writes the
other side's moves as ``??`` and its actions as what the viewer heard: the
number of refused attempts (``?? {d5:2}``), under English also its "Any?"
questions (``?? {:1,Any?N}``).  Tags ``Rules`` (one of the six Kriegspiel
rule sets) and ``FEN`` (with ``SetUp "1"``) give the rule set and the start.

Unfiltered games are replayed with the referee on reading: every refused
attempt must be refused, every announcement must be the referee's.  A
malformed file raises ``PGNError`` whose message is one line
``FILE:LINE:COLUMN: reason``.

>>> from ksolve.games.model import Game, Turn, Refused, filter_game
>>> game = Game("berkeley", (Turn(True, (), "e2e4", 0), Turn(False, (), "e7e5", 0),
...                          Turn(True, (Refused("e4e5"),), "g1f3", 0)), result="*")
>>> print(write_game(filter_game(game, True)).split("\\n\\n")[1])
1. e4 ?? 2. Nf3 {:e5} *
>>> read_game(write_game(game)) == game
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

import chess

from ksolve.errors import NotText, read_text
from ksolve.games.model import Action, Ask, Game, Hidden, Refused, Turn, result_of
from ksolve.rules import codes, get_rules, kriegspiel_rule_set_names
from ksolve.rules.notation import (
    NotationError, announcement_tokens, attempt_san, own_board, parse_announcement, parse_attempt,
)

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black")
STRUCTURAL = frozenset({"Result", "Variant", "Rules", "Filter", "SetUp", "FEN"})
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
UNKNOWN = {"Date": "????.??.??"}
"""Roster tags written for values the game does not have ("?" otherwise); read back as absent."""


class PGNError(ValueError):
    """A malformed Kriegspiel PGN: ``FILE:LINE:COLUMN: reason``."""

    def __init__(self, source: str, line: int, column: int, reason: str) -> None:
        super().__init__(f"{source}:{line}:{column}: {reason}")
        self.source, self.line, self.column, self.reason = source, line, column, reason


# --- writing -------------------------------------------------------------------------
def write_game(game: Game) -> str:
    """The PGN text of a game (tags, a blank line, the movetext, a blank line)."""
    rules = get_rules(game.rules)
    tags = dict(game.tags)
    lines = [_tag(name, tags.get(name, UNKNOWN.get(name, "?"))) for name in ROSTER]
    lines.append(_tag("Result", game.result))
    lines += [_tag("Variant", "Kriegspiel"), _tag("Rules", game.rules)]
    if game.view is not None:
        lines.append(_tag("Filter", "White" if game.view else "Black"))
    if game.fen is not None:
        lines += [_tag("SetUp", "1"), _tag("FEN", game.fen)]
    lines += [_tag(name, value) for name, value in game.tags if name not in ROSTER]
    return "\n".join(lines) + "\n\n" + _wrap(list(_movetext(game, rules))) + "\n\n"


def write_games(games: list[Game]) -> str:
    """Several games, one after another."""
    return "".join(write_game(game) for game in games)


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _movetext(game: Game, rules) -> Iterator[str]:
    board = chess.Board(game.start_fen)
    view = _OwnView(board, game.view) if game.view is not None else None
    for index, turn in enumerate(game.turns):
        if board.turn == chess.WHITE or index == 0:
            yield f"{board.fullmove_number}." if board.turn == chess.WHITE else f"{board.fullmove_number}..."
        if turn.hidden:
            yield "??"
            actions = [str(a.count) if isinstance(a, Hidden) else _ask_token(a) for a in turn.actions]
        else:
            own = view.board if view is not None else own_board(board)
            actions = [attempt_san(own, a.move) if isinstance(a, Refused) else _ask_token(a)
                       for a in turn.actions]  # type: ignore[union-attr]
            move = chess.Move.from_uci(turn.move)  # type: ignore[arg-type]
            yield _decorated(attempt_san(own, turn.move), move, turn.code) if view is not None else board.san(move)
        comment = ",".join(announcement_tokens(turn.code, turn.extra, rules))
        if actions:
            comment += ":" + ",".join(actions)
        if comment:
            yield "{" + comment + "}"
        if view is None:
            board.push(chess.Move.from_uci(turn.move))  # type: ignore[arg-type]
            continue
        view.after(turn)  # the true board is unknown: only count the moves
        board.turn = not board.turn
        board.fullmove_number += board.turn == chess.WHITE
    yield game.result


def _decorated(san: str, move: chess.Move, code: int) -> str:
    """Own-board SAN with the capture sign and the check or mate sign the referee announced."""
    if codes.capture_square(code) == move.to_square and "x" not in san:
        san = san[:-2] + "x" + san[-2:]
    if codes.end_of(code) == codes.END_CHECKMATE:
        return san + "#"
    return san + "+" if code & codes.CHECK_MASK else san


def _ask_token(action: Action) -> str:
    return "Any?Y" if action.yes else "Any?N"  # type: ignore[union-attr]


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines)


class _OwnView:
    """The viewer's own men through a filtered game (his own moves, and his men
    the other side captured)."""

    def __init__(self, start: chess.Board, view: bool) -> None:
        self.view = view
        self.board = start.copy(stack=False)
        for square in chess.SquareSet(start.occupied_co[not view]):
            self.board.remove_piece_at(square)
        self.board.castling_rights = self.board.clean_castling_rights()

    def after(self, turn: Turn) -> None:
        board = self.board
        if not turn.hidden:
            board.turn = self.view
            board.push(chess.Move.from_uci(turn.move))  # type: ignore[arg-type]
            board.ep_square = None
            return
        square = codes.capture_square(turn.code)
        if square is not None:
            if turn.code & codes.EN_PASSANT:
                square += 8 if self.view == chess.WHITE else -8
            board.remove_piece_at(square)
            board.castling_rights = board.clean_castling_rights()
        board.turn = self.view
        board.ep_square = None


# --- reading: tokens -----------------------------------------------------------------
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\])
  | (?P<comment>\{[^}]*\})
  | (?P<semicolon>;[^\n]*)
  | (?P<result>1-0|0-1|1/2-1/2|\*)
  | (?P<number>\d+\s*\.(?:\s*\.\s*\.)?)
  | (?P<hidden>\?\?)
  | (?P<nag>\$\d+)
  | (?P<san>[A-Za-z][A-Za-z0-9=+#\-]*[?!]*)
""", re.VERBOSE)


@dataclass
class _Token:
    kind: str
    text: str
    at: int


class _Source:
    """The text being read: token positions as LINE:COLUMN."""

    def __init__(self, text: str, name: str) -> None:
        self.text, self.name = text, name
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def error(self, at: int, reason: str) -> PGNError:
        import bisect

        line = bisect.bisect_right(self.line_starts, at)
        return PGNError(self.name, line, at - self.line_starts[line - 1] + 1, reason)

    def tokens(self) -> Iterator[_Token]:
        text, at = self.text, 0
        while at < len(text):
            if text[at] == "%" and (at == 0 or text[at - 1] == "\n"):  # escape line
                end = text.find("\n", at)
                at = len(text) if end < 0 else end
                continue
            match = _TOKEN.match(text, at)
            if match is None:
                if text[at] == "{":
                    raise self.error(at, "unterminated comment")
                if text[at] == "[":
                    raise self.error(at, 'malformed tag (expected [Name "value"])')
                if text[at] in "()":
                    raise self.error(at, "variations are not supported in Kriegspiel PGN")
                raise self.error(at, f"unexpected character {text[at]!r}")
            kind = match.lastgroup
            if kind == "value" or kind == "name":
                kind = "tag"
            if kind not in ("space", "semicolon", "nag"):
                yield _Token("tag" if match.group("tag") else kind, match.group(0), at)  # type: ignore[arg-type]
            at = match.end()


# --- reading: games ------------------------------------------------------------------
def read_games(text: str, source: str = "<pgn>") -> list[Game]:
    """Every game of a PGN text (``source`` names the file in error messages)."""
    src = _Source(text, source)
    games, tags, movetext = [], [], []
    for token in src.tokens():
        if token.kind == "tag":
            if movetext:
                raise src.error(token.at, "tag inside the movetext (a game must end with its result)")
            tags.append(token)
            continue
        movetext.append(token)
        if token.kind == "result":
            games.append(_GameReader(src, tags, movetext).read())
            tags, movetext = [], []
    if tags or movetext:
        last = (movetext or tags)[-1]
        raise src.error(last.at + len(last.text), "the game has no result (1-0, 0-1, 1/2-1/2 or *)")
    return games


def read_game(text: str, source: str = "<pgn>") -> Game:
    """The one game of a PGN text."""
    games = read_games(text, source)
    if len(games) != 1:
        raise PGNError(source, 1, 1, f"expected one game, found {len(games)}")
    return games[0]


def read_game_file(path: str) -> Game:
    """The one game of a PGN file (``OSError`` if it cannot be read, ``PGNError``
    if it is not UTF-8 text or not a Kriegspiel game)."""
    try:
        text = read_text(path)
    except NotText as error:
        raise PGNError(str(path), error.line, error.column, error.reason) from None
    return read_game(text, str(path))


class _GameReader:
    def __init__(self, src: _Source, tags: list[_Token], movetext: list[_Token]) -> None:
        self.src = src
        self.tags = tags
        self.movetext = movetext

    def read(self) -> Game:
        values = self._tags()
        rules_name = values.get("Rules")
        if rules_name is None:
            raise self._at_first("missing tag Rules (one of: " + ", ".join(kriegspiel_rule_set_names()) + ")")
        if rules_name[0] not in kriegspiel_rule_set_names():
            raise self.src.error(rules_name[1], f"unknown rule set {rules_name[0]!r}; valid: "
                                 + ", ".join(kriegspiel_rule_set_names()))
        self.rules_name = rules_name[0]
        self.rules = get_rules(self.rules_name)
        view = values.get("Filter")
        self.view: bool | None = None
        if view is not None:
            if view[0].lower() not in ("white", "black"):
                raise self.src.error(view[1], f"Filter must be White or Black, not {view[0]!r}")
            self.view = view[0].lower() == "white"
        fen = values.get("FEN")
        self.fen = fen[0] if fen else None
        board = self._start_board(fen)
        turns = self._turns(board)
        result_token = self.movetext[-1]
        header = values.get("Result")
        if header is not None and header[0] != result_token.text and header[0] in RESULTS:
            raise self.src.error(result_token.at, f"result {result_token.text} differs from the Result tag "
                                 f"{header[0]}")
        if turns and codes.end_of(turns[-1].code) != codes.END_NONE:
            expected = result_of(turns[-1].code, turns[-1].white, self.rules_name)
            if result_token.text != expected:
                raise self.src.error(result_token.at, f"result {result_token.text}: the game ended {expected}")
        other = tuple((name, value) for name, value in
                      ((t.group("name"), _unescape(t.group("value"))) for t in self._tag_matches())
                      if name not in STRUCTURAL and not (name in ROSTER and value == UNKNOWN.get(name, "?")))
        return Game(self.rules_name, tuple(turns), self.fen, self.view, result_token.text, other)

    # --- tags -------------------------------------------------------------------------
    def _tag_matches(self) -> list[re.Match]:
        return [_TOKEN.match(t.text) for t in self.tags]  # type: ignore[misc]

    def _tags(self) -> dict[str, tuple[str, int]]:
        values: dict[str, tuple[str, int]] = {}
        for token, match in zip(self.tags, self._tag_matches()):
            name = match.group("name")
            if name in values:
                raise self.src.error(token.at, f"tag {name} given twice")
            values[name] = (_unescape(match.group("value")), token.at)
        return values

    def _at_first(self, reason: str) -> PGNError:
        return self.src.error((self.tags or self.movetext)[0].at, reason)

    def _start_board(self, fen: tuple[str, int] | None) -> chess.Board:
        if fen is None:
            return chess.Board()
        from ksolve.board import PositionError, position_from_fen

        try:
            position_from_fen(fen[0])
        except PositionError as error:
            raise self.src.error(fen[1], str(error)) from None
        return chess.Board(fen[0])

    # --- movetext -----------------------------------------------------------------------
    def _turns(self, board: chess.Board) -> list[Turn]:
        replay = self._referee(board) if self.view is None else None
        view = _OwnView(board, self.view) if self.view is not None else None
        turns: list[Turn] = []
        tokens = self.movetext[:-1]
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token.kind == "number":
                self._check_number(token, board)
                i += 1
                continue
            if token.kind == "comment":
                raise self.src.error(token.at, "a comment must follow a move")
            if turns and codes.end_of(turns[-1].code) != codes.END_NONE:
                raise self.src.error(token.at, "a move after the end of the game")
            comment = tokens[i + 1] if i + 1 < len(tokens) and tokens[i + 1].kind == "comment" else None
            turn = self._turn(board, token, comment, replay, view)
            turns.append(turn)
            if view is not None:
                view.after(turn)
                board.turn = not board.turn
                if board.turn == chess.WHITE:
                    board.fullmove_number += 1
            i += 2 if comment is not None else 1
        return turns

    def _check_number(self, token: _Token, board: chess.Board) -> None:
        digits = re.match(r"\d+", token.text).group(0)  # type: ignore[union-attr]
        dots = token.text.count(".")
        if int(digits) != board.fullmove_number or (dots == 3) != (board.turn == chess.BLACK):
            expected = f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}"
            raise self.src.error(token.at, f"move number {token.text!r}, expected {expected!r}")

    def _turn(self, board: chess.Board, token: _Token, comment: _Token | None, replay, view) -> Turn:
        white = board.turn == chess.WHITE
        hidden = token.kind == "hidden"
        if token.kind not in ("san", "hidden"):
            raise self.src.error(token.at, f"expected a move, found {token.text!r}")
        if hidden and (self.view is None or self.view == white):
            whose = "White's" if white else "Black's"
            raise self.src.error(token.at, f"?? hides {whose} move, but the game is "
                                 + ("unfiltered (no Filter tag)" if self.view is None else "filtered for that side"))
        if not hidden and self.view is not None and self.view != white:
            raise self.src.error(token.at, f"{token.text}: the filtered game must hide this move as ??")
        body = comment.text[1:-1] if comment else ""
        announce, _, actions_text = body.partition(":")
        own = view.board if view is not None else own_board(board)
        actions = self._actions(actions_text, comment, hidden, white, own, len(announce) + 1)
        move = None
        if not hidden:
            move = self._parse_move(token, board if view is None else own, view is None)
        code, extra = self._announcement(announce, comment, token)
        if replay is not None:
            code, extra = replay(board, token, comment, actions, self._action_at, move,
                                 (code, extra) if comment else None)
            board.push(chess.Move.from_uci(move))  # type: ignore[arg-type]
        return Turn(white, actions, move, code, extra)

    def _parse_move(self, token: _Token, board: chess.Board, true_board: bool) -> str:
        text = token.text.rstrip("?!")
        try:
            if true_board:
                return board.parse_san(text).uci()
            return parse_attempt(board, text)
        except ValueError as error:
            side = "White" if board.turn == chess.WHITE else "Black"
            raise self.src.error(token.at, f"{side}'s move {text!r}: {error}") from None

    def _announcement(self, text: str, comment: _Token | None, token: _Token) -> tuple[int, int]:
        try:
            return parse_announcement(text, self.rules)  # type: ignore[arg-type]
        except NotationError as error:
            at = comment.at + 1 + error.offset if comment else token.at
            raise self.src.error(at, error.reason) from None

    def _actions(self, text: str, comment: _Token | None, hidden: bool, white: bool, own: chess.Board,
                 offset: int) -> tuple[Action, ...]:
        self._action_at: list[int] = []
        if comment is None or not text.strip():
            return ()
        actions: list[Action] = []
        start = comment.at + 1 + offset
        for raw in text.split(","):
            item = raw.strip()
            at = start + len(raw) - len(raw.lstrip())
            start += len(raw) + 1
            actions.append(self._action(item, at, hidden, own))
            self._action_at.append(at)
        if hidden:
            return _canonical(actions)
        return tuple(actions)

    def _action(self, item: str, at: int, hidden: bool, own: chess.Board) -> Action:
        if item in ("Any?Y", "Any?N"):
            if not self.rules.any_question:
                raise self.src.error(at, f"the {self.rules_name} rule set has no 'Any?' question")
            if hidden and not self.rules.opponent_any_heard:
                raise self.src.error(at, f"under {self.rules_name} the opponent's 'Any?' is not heard")
            return Ask(item == "Any?Y")
        if item.isdigit():
            if not hidden:
                raise self.src.error(at, "a count of refused attempts stands only after a hidden move ??")
            if not self.rules.refusal_count_heard:
                raise self.src.error(at, f"under {self.rules_name} the opponent's refused attempts are not heard")
            return Hidden(int(item))
        if hidden:
            raise self.src.error(at, f"{item!r}: the hidden side's attempts are counted, not named")
        if not item:
            raise self.src.error(at, "empty attempt")
        try:
            return Refused(parse_attempt(own, item))
        except ValueError as error:
            raise self.src.error(at, f"attempt {error}") from None

    # --- unfiltered replay ------------------------------------------------------------------
    def _referee(self, board: chess.Board):
        from ksolve.board import move_from_uci, position_from_board
        from ksolve.rules.referee import Referee

        referee = Referee(self.rules, position_from_board(board))

        def replay(board: chess.Board, token: _Token, comment: _Token | None, actions, places: list[int],
                   move: str, written: tuple[int, int] | None) -> tuple[int, int]:
            for action, at in zip(actions, places):
                if isinstance(action, Ask):
                    answer = referee.ask_any()
                    if answer.kind not in ("any-yes", "any-no"):
                        raise self.src.error(at, f"'Any?' cannot be asked here ({answer.words})")
                    if (answer.kind == "any-yes") != action.yes:
                        raise self.src.error(at, f"'Any?' was answered {answer.words!r}, not as written")
                    continue
                san = attempt_san(own_board(board), action.move)
                number = move_from_uci(action.move)
                if number not in referee.askable():
                    raise self.src.error(at, f"attempt {san} cannot be made here (not a possible attempt now)")
                answer = referee.attempt(number)
                if answer.kind == "move":
                    raise self.src.error(at, f"attempt {san} is legal: it would have been played")
            answer = referee.attempt(move_from_uci(move))
            if answer.kind != "move":
                raise self.src.error(token.at, f"move {token.text} cannot be played here ({answer.words})")
            if written is not None and written != (answer.code, answer.extra):
                raise self.src.error(comment.at + 1,  # type: ignore[union-attr]
                                     f"announcement {_announce_text(written, self.rules)!r} differs from the referee's "
                                     f"{_announce_text((answer.code, answer.extra), self.rules)!r}")
            return answer.code, answer.extra

        return replay


def _announce_text(pair: tuple[int, int], rules) -> str:
    return ",".join(announcement_tokens(pair[0], pair[1], rules))


def _canonical(actions: list[Action]) -> tuple[Action, ...]:
    """Counts merged and zeros dropped."""
    out: list[Action] = []
    for action in actions:
        if isinstance(action, Hidden):
            if action.count == 0:
                continue
            if out and isinstance(out[-1], Hidden):
                out[-1] = Hidden(out[-1].count + action.count)
                continue
        out.append(action)
    return tuple(out)


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)
