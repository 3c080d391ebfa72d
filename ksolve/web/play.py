"""The Play pages' API: Kriegspiel and Fog-of-War games kept by the server
(``ksolve.play``), hot-seat or against the computer, watched by spectators.

A game has two capabilities, both unguessable: its id, the players' (one
device hot-seat, or the human against the computer), and its ``watch`` id,
the spectators', which reads only what a spectator may see (no men and no
moves before the end: the rule set, whose turn, the announcements both sides
hear) and cannot move.  Neither id can be derived from the other.

- ``GET /api/play/rules`` → ``{"default", "rules": [Rulebook]}``: the rule sets played, each with
  what its referee says (``ksolve.play.rulebook``);
- ``POST /api/play`` ``{"rules", "mode": "hotseat" | "computer", "side", "level", "seed", "clock"}`` → 201
  ``{"id", "watch", "state"}`` (``side``: the human's, against the computer; ``level``: the
  computer's, ``easy``, ``normal`` (the default) or ``strong``, ``ksolve.play.computer.LEVELS``;
  ``clock``: null or ``{"limit": seconds, "increment": seconds}``); the state's ``level`` says
  the computer's (null hot-seat);
- ``GET /api/play/{id}?side=white|black`` → ``{"id", "state"}``: that side's board, log (SAN),
  attempts, last move and check as he knows them (everything, the true moves included, once
  the game is over); without ``side``: the human's against the computer, the side to move
  hot-seat;
- ``POST /api/play/{id}/attempt`` ``{"side", "move": "<uci or SAN>" | "any"}`` →
  ``{"answer", "state"}`` (against the computer, its reply is made before the answer);
- ``POST /api/play/{id}/resign`` ``{"side"}`` → ``{"state"}`` (hot-seat: the side to move);
- ``POST /api/play/{id}/draw`` ``{"side", "action": "offer" | "accept" | "decline"}`` →
  ``{"answer", "state"}`` (against the computer it answers an offer at once: ``ComputerPlayer.accepts_draw``);
- ``POST /api/play/{id}/takeback`` ``{"side"}`` → ``{"state"}``: the last move undone (hot-seat only);
- ``POST /api/play/{id}/rematch`` ``{}`` → 201 ``{"id", "watch", "state"}``: a new game with the same
  settings (the computer's level too), the colours swapped against the computer (the same game
  again for a second request);
- ``GET /api/play/{id}/belief?side=`` → the belief tool: ``{"positions", "exact", "heat"}``;
- ``GET /api/play/{id}/pgn?view=white|black|full`` → the PGN (full after the end only);
- ``GET /api/play/watch/{watch}`` → the spectator's state: no men before the end, then the replay;
- ``GET /api/play/watch/{watch}/pgn`` → the full PGN, after the end only;
- ``POST /api/play/replay`` ``{"pgn": "<a full game>"}`` → the replay of a saved game;
- ``DELETE /api/play/{id}``.

Errors are one JSON line: 404 no such game, 409 not this side's turn / the
computer is thinking / the game is over / no offer to answer / no takeback against the
computer, 422 bad input, 403 a side that is
the computer's or the full record before the end, 503 the thinking process
died (the computer's turn is made again with the game's next request).  At
most ``MAX_GAMES`` games are kept, the least recently used dropped first.  The computer thinks in a spawned worker process
(``THINKERS`` of them), never in the server's event loop: the game goes
there and comes back with the computer's move.  A timed game's clock is the
session's (``ksolve.play.session.TimeControl``): every request on a game first
ends it if the mover's time has run out.

>>> from starlette.applications import Starlette
>>> from starlette.testclient import TestClient
>>> client = TestClient(Starlette(routes=routes))
>>> started = client.post("/api/play", json={"rules": "berkeley", "mode": "hotseat"}).json()
>>> client.post(f"/api/play/{started['id']}/attempt", json={"side": "white", "move": "e4"}).json()["answer"]
{'kind': 'move', 'words': 'Silent'}
>>> watched = client.get(f"/api/play/watch/{started['watch']}").json()
>>> watched["plies"], watched["log"], "view" in watched
(1, [{'number': '1.', 'text': 'White moved: Silent'}], False)
>>> client.get(f"/api/play/{started['watch']}?side=white").status_code
404
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import chess
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from ksolve.execution.processes import ProcessLost, WorkerPool
from ksolve.web.errors import ApiError, error_response
from ksolve.web.requests import read_json

MAX_GAMES = 64
"""Games kept at once (a game with the computer holds its belief: a few megabytes)."""
THINKERS = 1
"""Worker processes where the computer thinks (and the belief tool counts)."""
BELIEF_BUDGET = 200_000
"""The belief tool's budget: past it the belief is sampled (the count then says so)."""
MODES = ("hotseat", "computer")
SIDES = {"white": chess.WHITE, "black": chess.BLACK}
MAX_LIMIT = 3 * 3600
"""The longest time a clock may give each side, in seconds."""
MAX_INCREMENT = 180
"""The largest increment per move, in seconds."""


@dataclass
class PlayedGame:
    """One game on the server: the session, the computer (if any), who plays what, and the
    spectators' id."""

    game: Any
    mode: str
    computer: Any = None
    watch: str = field(default_factory=lambda: new_id())
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    rematch: str | None = None
    """The players' id of this game's rematch, once asked for."""

    def is_computer(self, side: chess.Color) -> bool:
        return self.computer is not None and self.computer.side == side

    def default_side(self) -> chess.Color:
        """The human's side against the computer; hot-seat, the side to move."""
        if self.computer is not None:
            return not self.computer.side
        return self.game.to_move


def new_id() -> str:
    """A fresh capability: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class Games:
    """The games, by the players' id (and by the spectators'): at most ``capacity``, least
    recently used dropped first."""

    def __init__(self, capacity: int = MAX_GAMES) -> None:
        self.capacity = capacity
        self._games: OrderedDict[str, PlayedGame] = OrderedDict()
        self._watched: dict[str, str] = {}
        """Spectators' id -> players' id."""

    def add(self, played: PlayedGame) -> str:
        game_id = new_id()
        self._games[game_id] = played
        self._watched[played.watch] = game_id
        while len(self._games) > self.capacity:
            _, dropped = self._games.popitem(last=False)
            self._watched.pop(dropped.watch, None)
        return game_id

    def get(self, game_id: str) -> PlayedGame:
        played = self._games.get(game_id)
        if played is None:
            raise ApiError(404, f"no game {game_id!r} (it ended, or was dropped: at most {self.capacity} "
                                "are kept; start a new one)")
        self._games.move_to_end(game_id)
        return played

    def watched(self, watch_id: str) -> PlayedGame:
        """The game a spectators' id shows (404 as for an unknown game)."""
        game_id = self._watched.get(watch_id)
        if game_id is None:
            raise ApiError(404, f"no game to watch with {watch_id!r} (it ended, or was dropped: at most "
                                f"{self.capacity} are kept)")
        return self.get(game_id)

    def remove(self, game_id: str) -> None:
        played = self.get(game_id)
        del self._games[game_id]
        self._watched.pop(played.watch, None)


GAMES = Games()


class Thinkers:
    """The worker processes where the computer thinks (``ksolve.execution.processes.WorkerPool``),
    started on first use; at most ``MAX_WAITING`` tasks at once (beyond that a request gets 429)."""

    def __init__(self, processes: int = THINKERS) -> None:
        self.processes = processes
        self._pool = WorkerPool(processes)
        self.in_flight = 0

    async def run(self, function, *args):
        if self.in_flight >= MAX_WAITING:
            raise ApiError(429, f"the computer has {self.in_flight} tasks waiting; try again", {"Retry-After": "1"})
        self.in_flight += 1
        try:
            return await self._pool.run(function, *args)
        except ProcessLost:
            raise ApiError(503, "the computer's process died; try again", {"Retry-After": "1"}) from None
        finally:
            self.in_flight -= 1

    def shutdown(self) -> None:
        self._pool.shutdown()


MAX_WAITING = 16
"""Tasks (computer turns, belief counts) the thinkers' pool may hold at once."""
THINKERS_POOL = Thinkers()


# --- in the worker process -----------------------------------------------------------
def computer_turn(computer, game):
    """The computer's turn (run in a worker): the computer and the game after it."""
    computer.play_turn(game)
    return computer, game


def draw_judgement(computer, game):
    """The computer's answer to a draw offer (run in a worker): the computer and whether it
    accepts (``ComputerPlayer.accepts_draw``)."""
    return computer, computer.accepts_draw(game)


def belief_summary(rules: str, side: chess.Color, fen: str | None, observations: list) -> dict[str, Any]:
    """The belief tool (run in a worker): how many positions fit what ``side`` heard, and
    for each enemy man type the share of them with one on each square."""
    from ksolve.play.belief import SideBelief

    belief = SideBelief(rules, side, fen, BELIEF_BUDGET)
    belief.sync(observations)
    return {"positions": len(belief), "exact": belief.exact and not belief.lost, "lost": belief.lost,
            "heat": belief.heat_map()}


# --- the JSON edge ---------------------------------------------------------------------
def side_name(side: chess.Color) -> str:
    return "white" if side == chess.WHITE else "black"


def state(played: PlayedGame, side: chess.Color | None) -> dict[str, Any]:
    """What ``side`` may know now (None: a spectator: the announcements both sides hear);
    everything once the game is over."""
    game = played.game
    data: dict[str, Any] = {
        "rules": game.rules_name, "title": game.rules.title, "fog": bool(game.rules.fog), "mode": played.mode,
        "computer": None if played.computer is None else side_name(played.computer.side),
        "level": None if played.computer is None else played.computer.level.name,
        "to_move": side_name(game.to_move), "number": game.number, "plies": len(game.turns),
        "over": game.over, "result": game.result, "termination": game.termination,
        "clock": clock(game), "draw_offer": None if game.draw_offer is None else side_name(game.draw_offer),
    }
    if side is None:
        data["log"] = [{"number": e.number, "text": e.public} for e in game.log if e.public is not None]
    else:
        mine = game.to_move == side and not game.over
        sans = game.sans()
        data.update({
            "side": side_name(side), "your_turn": mine, "view": game.view(side).as_dict(),
            "log": [{"number": e.number, "text": e.text} for e in game.log_for(side)],
            "moves": [san if turn.white == side else "??" for san, turn in zip(sans, game.turns)],
            "askable": game.askable() if mine else [], "can_ask": mine and game.can_ask(),
            "last_move": list(game.last_squares(side)), "check": game.in_check(side),
            "refused": game.refused() if mine else [], "must_capture": mine and game.must_capture(),
            "can_offer_draw": game.can_offer_draw(side),
            "can_take_back": played.computer is None and not game.over and bool(game.turns),
            "watch": played.watch, "rematch": played.rematch,
        })
    if game.over:
        data["reveal"] = reveal(game)
    return data


def clock(game) -> dict[str, Any] | None:
    """A timed game's clock now: the time control, each side's seconds left, whose clock runs."""
    if game.clock is None:
        return None
    return {"limit": game.clock.limit, "increment": game.clock.increment,
            "white": round(game.time_left(chess.WHITE), 2), "black": round(game.time_left(chess.BLACK), 2),
            "running": side_name(game.to_move) if game.clock_running else None}


def reveal(game) -> dict[str, Any]:
    """The whole game, after the end: the side that moved first, every position's FEN, every
    move (SAN and UCI), the referee's log; a timed game's every attempt's seconds."""
    times = {} if game.clock is None else {"times": [
        {"ply": t.ply, "side": side_name(t.white), "kind": t.kind, "seconds": t.seconds} for t in game.timings]}
    return {**times, "first": side_name(game.board_at(0).turn),
            "fens": game.board_fens(),
            "moves": game.sans(),
            "uci": [turn.move for turn in game.turns],
            "log": [{"number": e.number, "text": e.text, "heard_by": [side_name(s) for s in e.heard_by]}
                    for e in game.log]}


def _side(value: Any, what: str = "side") -> chess.Color:
    if not isinstance(value, str) or value not in SIDES:
        raise ApiError(422, f"{what}: must be white or black, not {value!r}")
    return SIDES[value]


def _fields(data: dict[str, Any], known: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ApiError(422, f"{unknown[0]}: unknown field (known: {', '.join(known)})")


def _answered(handler):
    """``handler`` with its errors answered as one JSON line (in any Starlette app)."""
    async def answered(request: Request):
        from ksolve.play.session import PlayConflict, PlayError

        try:
            return await handler(request)
        except ApiError as error:
            return error_response(error.status, error.message, error.headers)
        except PlayConflict as error:
            return error_response(409, str(error))
        except PlayError as error:
            return error_response(422, str(error))

    answered.__name__ = handler.__name__
    return answered


# --- the routes ------------------------------------------------------------------------
@_answered
async def rule_sets(_request: Request) -> JSONResponse:
    from ksolve.play.rulebook import rulebook
    from ksolve.play.session import PLAYABLE

    return JSONResponse({"default": "wild16", "rules": [rulebook(name).as_dict() for name in PLAYABLE]})


def _clock(value: Any):
    """The ``clock`` field: None, or ``{"limit": seconds, "increment": seconds}``."""
    from ksolve.play.session import TimeControl

    if value is None:
        return None
    if not isinstance(value, dict):
        raise ApiError(422, "clock: must be null or {\"limit\": seconds, \"increment\": seconds}")
    unknown = sorted(set(value) - {"limit", "increment"})
    if unknown:
        raise ApiError(422, f"clock.{unknown[0]}: unknown field (known: limit, increment)")
    limit, increment = value.get("limit"), value.get("increment", 0)
    for name, number, low, high in (("limit", limit, 1, MAX_LIMIT), ("increment", increment, 0, MAX_INCREMENT)):
        if not isinstance(number, int) or isinstance(number, bool) or not low <= number <= high:
            raise ApiError(422, f"clock.{name}: must be a whole number of seconds from {low} to {high}, "
                                f"not {number!r}")
    return TimeControl(limit, increment)


def _level(data: dict[str, Any]) -> str:
    """The ``level`` field: one of ``ksolve.play.computer.LEVELS`` (its ``DEFAULT_LEVEL`` if not given)."""
    from ksolve.play.computer import DEFAULT_LEVEL, LEVELS

    level = data.get("level", DEFAULT_LEVEL)
    if not isinstance(level, str) or level not in LEVELS:
        names = list(LEVELS)
        raise ApiError(422, f"level: must be {', '.join(names[:-1])} or {names[-1]}, not {level!r}")
    return level


def _seed(data: dict[str, Any]) -> int:
    import random

    seed = data.get("seed", random.randrange(2**31))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ApiError(422, f"seed: must be an integer, not {seed!r}")
    return seed


async def _new_game(rules: str, mode: str, human: chess.Color, seed: int, time_control,
                    level: str | None) -> tuple[str, PlayedGame]:
    """A new game on the server (against the computer at ``level``: its first move made if it
    has White; hot-seat, ``level`` is not used)."""
    from ksolve.play.computer import ComputerPlayer
    from ksolve.play.session import GameSession

    game = GameSession(rules, clock=time_control)
    computer = ComputerPlayer(rules, not human, seed=seed, level=level) if mode == "computer" else None
    played = PlayedGame(game, mode, computer)
    game_id = GAMES.add(played)
    await computer_moves(played)
    return game_id, played


@_answered
async def start_game(request: Request) -> JSONResponse:
    data = await read_json(request)
    _fields(data, ("rules", "mode", "side", "level", "seed", "clock"))
    rules = data.get("rules", "wild16")
    mode = data.get("mode", "hotseat")
    if mode not in MODES:
        raise ApiError(422, f"mode: must be hotseat or computer, not {mode!r}")
    if not isinstance(rules, str):
        raise ApiError(422, "rules: must be a rule set's name")
    human = _side(data.get("side", "white"))
    level = _level(data)
    seed = _seed(data)
    time_control = _clock(data.get("clock"))
    game_id, played = await _new_game(rules, mode, human, seed, time_control, level)
    return JSONResponse({"id": game_id, "watch": played.watch, "state": state(played, played.default_side())},
                        status_code=201)


async def computer_moves(played: PlayedGame) -> None:
    """The computer's turn, if it is owed one (its process died during the last): made now."""
    if played.computer is None or played.game.over or played.game.to_move != played.computer.side:
        return
    if played.lock.locked():
        raise ApiError(409, "the computer is thinking; try again in a moment")
    async with played.lock:
        played.computer, played.game = await THINKERS_POOL.run(computer_turn, played.computer, played.game)


def flag(played: PlayedGame) -> None:
    """End the game if the mover's time has run out (not while the computer thinks: the game
    is in the worker then, and its clock is checked at the computer's next attempt)."""
    if not played.lock.locked():
        played.game.flag()


@_answered
async def get_game(request: Request) -> JSONResponse:
    game_id = request.path_params["id"]
    played = GAMES.get(game_id)
    await computer_moves(played)
    flag(played)
    wanted = request.query_params.get("side")
    side = played.default_side() if wanted is None else _side(wanted)
    if played.is_computer(side) and not played.game.over:
        raise ApiError(403, f"{side_name(side)} is the computer's side")
    return JSONResponse({"id": game_id, "state": state(played, side)})


@_answered
async def attempt(request: Request) -> JSONResponse:
    game_id = request.path_params["id"]
    played = GAMES.get(game_id)
    data = await read_json(request)
    _fields(data, ("side", "move"))
    side = _side(data.get("side"))
    move = data.get("move")
    if not isinstance(move, str):
        raise ApiError(422, "move: missing (an attempt in UCI such as 'e2e4' or SAN such as 'Nf3', or 'any')"
                       if move is None
                       else f"move: must be a string, got {type(move).__name__}")
    if played.is_computer(side):
        raise ApiError(403, f"{side_name(side)} is the computer's side")
    await ready(played)
    game = played.game
    if game.to_move != side:
        raise ApiError(409, f"it is {side_name(game.to_move)}'s turn, not {side_name(side)}'s")
    async with played.lock:
        answer = game.ask_any() if move.strip().lower() in ("any", "any?") else game.attempt(move)
        if answer.moved and played.computer is not None and not game.over:
            played.computer, played.game = await THINKERS_POOL.run(computer_turn, played.computer, game)
    return JSONResponse({"answer": {"kind": answer.kind, "words": answer.words}, "state": state(played, side)})


async def ready(played: PlayedGame) -> None:
    """The game ready for a player's request: the computer's owed turn made, the clock looked
    at; 409 while the computer thinks and once the game is over."""
    await computer_moves(played)
    if played.lock.locked():
        raise ApiError(409, "the computer is thinking; try again in a moment")
    flag(played)
    game = played.game
    if game.over:
        raise ApiError(409, f"the game is over ({game.result}, {game.termination})")


async def _players(request: Request, known: tuple[str, ...]) -> tuple[PlayedGame, dict[str, Any], chess.Color]:
    """A players' request on a going game: the game, the body (``known`` fields), the side
    (not the computer's)."""
    played = GAMES.get(request.path_params["id"])
    data = await read_json(request)
    _fields(data, known)
    side = _side(data.get("side"))
    if played.is_computer(side):
        raise ApiError(403, f"{side_name(side)} is the computer's side")
    await ready(played)
    return played, data, side


@_answered
async def resign(request: Request) -> JSONResponse:
    played, _, side = await _players(request, ("side",))
    game = played.game
    if played.computer is None and game.to_move != side:
        raise ApiError(409, f"it is {side_name(game.to_move)}'s turn: in a hot-seat game the side to move resigns")
    game.resign(side)
    return JSONResponse({"state": state(played, side)})


DRAW_ACTIONS = ("offer", "accept", "decline")


@_answered
async def draw(request: Request) -> JSONResponse:
    played, data, side = await _players(request, ("side", "action"))
    action = data.get("action")
    if action not in DRAW_ACTIONS:
        raise ApiError(422, f"action: must be offer, accept or decline, not {action!r}")
    game, name = played.game, side_name(side).capitalize()
    if action != "offer":
        game.answer_draw(side, action == "accept")
        answer = ("accepted", "Draw by agreement") if action == "accept" else ("declined", f"{name} declines the draw")
    elif played.computer is None:
        game.offer_draw(side)
        answer = ("accepted", "Draw by agreement") if game.over else \
            ("offered", f"{name} offers a draw: {side_name(not side).capitalize()} answers on his turn")
    else:
        if not game.can_offer_draw(side):
            game.offer_draw(side)  # says why not
        async with played.lock:
            played.computer, accepts = await THINKERS_POOL.run(draw_judgement, played.computer, game)
        game.offer_draw(side)
        game.answer_draw(played.computer.side, accepts)
        answer = ("accepted", "The computer accepts: draw by agreement") if accepts else \
            ("declined", "The computer declines the draw: it is ahead in material, as far as it knows")
    return JSONResponse({"answer": {"kind": answer[0], "words": answer[1]}, "state": state(played, side)})


@_answered
async def takeback(request: Request) -> JSONResponse:
    played = GAMES.get(request.path_params["id"])
    if played.computer is not None:
        raise ApiError(409, "takeback: there are no takebacks against the computer (it has heard your move "
                            "and answered it); takebacks are for hot-seat games")
    played, _, side = await _players(request, ("side",))
    played.game.take_back()
    return JSONResponse({"state": state(played, side)})


@_answered
async def rematch(request: Request) -> JSONResponse:
    played = GAMES.get(request.path_params["id"])
    data = await read_json(request)
    _fields(data, ("seed",))
    seed = _seed(data)
    flag(played)
    game = played.game
    if not game.over:
        raise ApiError(409, "rematch: the game goes on (resign, or offer a draw, first)")
    if played.rematch is not None:
        try:
            again = GAMES.get(played.rematch)
            return JSONResponse({"id": played.rematch, "watch": again.watch,
                                 "state": state(again, again.default_side())})
        except ApiError:
            pass  # dropped: a new one
    human = played.computer.side if played.computer is not None else chess.WHITE
    level = None if played.computer is None else played.computer.level.name
    game_id, new = await _new_game(game.rules_name, played.mode, human, seed, game.clock, level)
    played.rematch = game_id
    return JSONResponse({"id": game_id, "watch": new.watch, "state": state(new, new.default_side())},
                        status_code=201)


@_answered
async def belief(request: Request) -> JSONResponse:
    played = GAMES.get(request.path_params["id"])
    side = _side(request.query_params.get("side", "white"))
    if played.is_computer(side) and not played.game.over:
        raise ApiError(403, f"{side_name(side)} is the computer's side")
    game = played.game
    summary = await THINKERS_POOL.run(belief_summary, game.rules_name, side, game.fen,
                                      list(game.observations[side]))
    return JSONResponse(summary)


@_answered
async def spectate(request: Request) -> JSONResponse:
    watch_id = request.path_params["watch"]
    played = GAMES.watched(watch_id)
    flag(played)
    return JSONResponse({"watch": watch_id, **state(played, None)})


@_answered
async def spectator_pgn(request: Request) -> PlainTextResponse:
    from ksolve.play.records import game_pgn

    watch_id = request.path_params["watch"]
    played = GAMES.watched(watch_id)
    if not played.game.over:
        raise ApiError(403, "the game is shown to spectators after the end")
    return PlainTextResponse(game_pgn(played.game), headers={
        "Content-Disposition": f'attachment; filename="ksolve-{watch_id}.pgn"'})


@_answered
async def pgn(request: Request) -> PlainTextResponse:
    from ksolve.play.records import game_pgn

    game_id = request.path_params["id"]
    played = GAMES.get(game_id)
    view = request.query_params.get("view", "full")
    if view == "full":
        if not played.game.over:
            raise ApiError(403, "the full game is shown after the end; ask for view=white or view=black")
        side = None
    else:
        side = _side(view, "view")
        if played.is_computer(side) and not played.game.over:
            raise ApiError(403, f"{view} is the computer's side")
    return PlainTextResponse(game_pgn(played.game, side), headers={
        "Content-Disposition": f'attachment; filename="ksolve-{game_id}-{view}.pgn"'})


@_answered
async def replay_record(request: Request) -> JSONResponse:
    """A full game's PGN replayed for the replay page (nothing kept)."""
    from ksolve.play.records import load_record

    data = await read_json(request)
    _fields(data, ("pgn",))
    text = data.get("pgn")
    if not isinstance(text, str):
        raise ApiError(422, "pgn: missing (the text of a full game's PGN)")
    game = load_record(text)
    return JSONResponse({"title": game.rules.title, "rules": game.rules_name, "plies": len(game.turns),
                         "over": True, "result": game.result, "termination": game.termination,
                         "reveal": reveal(game)})


@_answered
async def end_game(request: Request) -> JSONResponse:
    game_id = request.path_params["id"]
    GAMES.remove(game_id)
    return JSONResponse({"id": game_id, "deleted": True})


def shutdown() -> None:
    """Stop the thinking process (the server is stopping)."""
    THINKERS_POOL.shutdown()


routes = [
    Route("/api/play", start_game, methods=["POST"]),
    Route("/api/play/rules", rule_sets, methods=["GET"]),
    Route("/api/play/replay", replay_record, methods=["POST"]),
    Route("/api/play/watch/{watch}", spectate, methods=["GET"]),
    Route("/api/play/watch/{watch}/pgn", spectator_pgn, methods=["GET"]),
    Route("/api/play/{id}", get_game, methods=["GET"]),
    Route("/api/play/{id}", end_game, methods=["DELETE"]),
    Route("/api/play/{id}/attempt", attempt, methods=["POST"]),
    Route("/api/play/{id}/resign", resign, methods=["POST"]),
    Route("/api/play/{id}/draw", draw, methods=["POST"]),
    Route("/api/play/{id}/takeback", takeback, methods=["POST"]),
    Route("/api/play/{id}/rematch", rematch, methods=["POST"]),
    Route("/api/play/{id}/belief", belief, methods=["GET"]),
    Route("/api/play/{id}/pgn", pgn, methods=["GET"]),
]
"""The Play routes, for ``create_app`` to mount."""
