"""The Play API (``ksolve/web/play.py``) through Starlette's test client: games
hot-seat and against the computer (its reply made in the worker process), each
side's view, the spectator's own capability (it reads no men and cannot move),
the rule sets' words, the PGN, the belief tool, and every bad request answered
in one JSON line with a 4xx."""

from __future__ import annotations

import chess
import pytest
from starlette.testclient import TestClient

from ksolve.games.pgn import read_game
from ksolve.play.records import read_fog
from ksolve.web.app import create_app
from web_answers import one_line_error as _one_line_error


def one_line_error(response, status: int, words: str) -> None:
    """A one-line ``status`` error that says ``words``."""
    assert words in _one_line_error(response, status)


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(None, max_running=1)) as client:
        yield client


def start(client, **body):
    answer = client.post("/api/play", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def attempt(client, game_id, side, move):
    return client.post(f"/api/play/{game_id}/attempt", json={"side": side, "move": move})


def test_hotseat_kriegspiel_views_and_records(client):
    game = start(client, rules="berkeley", mode="hotseat")
    game_id = game["id"]
    assert game["state"]["view"]["own"]["e1"] == "K" and game["state"]["view"]["enemy"] == {}
    assert attempt(client, game_id, "white", "e2e4").json()["answer"] == {"kind": "move", "words": "Silent"}
    black = client.get(f"/api/play/{game_id}?side=black").json()["state"]
    assert black["your_turn"] and black["moves"] == ["??"] and "e2" not in black["view"]["own"]
    assert black["log"][-1]["text"] == "White moved: Silent" and black["last_move"] == [] and not black["check"]
    assert client.get(f"/api/play/{game_id}").json()["state"]["side"] == "black"   # hot-seat: the side to move
    attempt(client, game_id, "black", "e7e5")
    refused = attempt(client, game_id, "white", "e4e5").json()
    assert refused["answer"] == {"kind": "illegal", "words": "No"} and refused["state"]["your_turn"]
    assert refused["state"]["log"][-1]["text"] == "e5: No" and refused["state"]["moves"] == ["e4", "??"]
    assert refused["state"]["last_move"] == ["e2", "e4"]
    watcher = client.get(f"/api/play/watch/{game['watch']}").json()
    assert watcher["plies"] == 2 and "view" not in watcher and "reveal" not in watcher and "moves" not in watcher
    assert [line["text"] for line in watcher["log"]] == ["White moved: Silent", "Black moved: Silent"]
    white_pgn = client.get(f"/api/play/{game_id}/pgn?view=white")
    assert white_pgn.status_code == 200 and read_game(white_pgn.text).view is True
    one_line_error(client.get(f"/api/play/{game_id}/pgn"), 403, "after the end")


def test_bad_requests_are_one_line_4xx(client):
    one_line_error(client.post("/api/play", json={"rules": "chess960"}), 422, "rules: unknown rule set")
    one_line_error(client.post("/api/play", json={"rules": "orthodox"}), 422, "not played here")
    one_line_error(client.post("/api/play", json={"mode": "online"}), 422, "mode:")
    one_line_error(client.post("/api/play", json={"colour": "white"}), 422, "colour: unknown field")
    one_line_error(client.post("/api/play", content=b"{", headers={"Content-Type": "application/json"}), 400, "")
    one_line_error(client.get("/api/play/nosuch"), 404, "no game")
    game_id = start(client, rules="wild16")["id"]
    one_line_error(attempt(client, game_id, "black", "e7e5"), 409, "white's turn")
    one_line_error(attempt(client, game_id, "green", "e2e4"), 422, "side:")
    one_line_error(attempt(client, game_id, "white", "zz"), 422, "move: 'zz' is no move of your men")
    one_line_error(client.post(f"/api/play/{game_id}/attempt", json={"side": "white"}), 422, "move: missing")
    one_line_error(attempt(client, game_id, "white", "any"), 422, "no 'Any?'")
    assert attempt(client, game_id, "white", "e2e5").json()["answer"]["words"] == "Illegal move"
    assert client.delete(f"/api/play/{game_id}").json()["deleted"]
    one_line_error(client.get(f"/api/play/{game_id}"), 404, "no game")


def test_against_the_computer_the_reply_comes_with_the_answer(client):
    game = start(client, rules="fog-of-war", mode="computer", side="black", seed=4)
    game_id = game["id"]
    assert game["state"]["side"] == "black" and game["state"]["plies"] == 1 and game["state"]["your_turn"]
    one_line_error(client.get(f"/api/play/{game_id}?side=white"), 403, "computer's side")
    one_line_error(attempt(client, game_id, "white", "e2e4"), 403, "computer's side")
    answer = attempt(client, game_id, "black", "a7a6").json()
    assert answer["answer"]["kind"] == "move" and answer["state"]["plies"] == 3 and answer["state"]["your_turn"]
    summary = client.get(f"/api/play/{game_id}/belief?side=black").json()
    assert summary["positions"] >= 1 and sum(summary["heat"]["k"].values()) == pytest.approx(1.0, abs=0.01)
    # play on with the first move offered until the game ends (a king is captured, or a draw)
    state = answer["state"]
    for _ in range(120):
        if state["over"]:
            break
        state = attempt(client, game_id, "black", state["askable"][0]).json()["state"]
    assert state["over"] and len(state["reveal"]["moves"]) == state["plies"]
    full = client.get(f"/api/play/{game_id}/pgn?view=full").text
    assert read_fog(full).moves == tuple(state["reveal"]["uci"])
    assert client.get(f"/api/play/watch/{game['watch']}/pgn").text == full  # the spectators' PGN, after the end
    one_line_error(attempt(client, game_id, "black", "a6a5"), 409, "game is over")


def test_a_killed_thinking_process_answers_503_and_the_next_request_gets_the_computers_move(client):
    import os
    import signal

    from ksolve.web.play import THINKERS_POOL

    game_id = start(client, rules="wild16", mode="computer", side="white", seed=2)["id"]
    assert attempt(client, game_id, "white", "e2e4").json()["state"]["plies"] == 2  # the pool is up
    for pid in THINKERS_POOL._pool.pids():
        os.kill(pid, signal.SIGKILL)
    one_line_error(attempt(client, game_id, "white", "d2d4"), 503, "process died")
    state = client.get(f"/api/play/{game_id}?side=white").json()["state"]
    assert state["plies"] == 4 and state["your_turn"]           # White's move stood; the owed reply is made now
    assert client.get(f"/api/play/{game_id}/belief?side=white").status_code == 200


def test_at_most_max_games_are_kept():
    from ksolve.web.play import Games, PlayedGame

    games = Games(capacity=2)
    first, second, third = (games.add(PlayedGame(None, "hotseat")) for _ in range(3))
    assert games.get(third) and games.get(second)
    with pytest.raises(Exception, match="at most 2 are kept"):
        games.get(first)


def test_a_saved_game_is_replayed(client):
    from ksolve.games.play import random_policy
    from ksolve.play.match import play_match
    from ksolve.play.records import game_pgn

    for rules in ("berkeley-any", "fog-of-war"):
        game = play_match(rules, random_policy, random_policy, max_plies=20, seed=9)
        replayed = client.post("/api/play/replay", json={"pgn": game_pgn(game)}).json()
        assert replayed["reveal"]["uci"] == [turn.move for turn in game.turns]
        assert replayed["reveal"]["moves"] == game.sans()
        assert replayed["reveal"]["fens"] == game.board_fens()
        one_line_error(client.post("/api/play/replay", json={"pgn": game_pgn(game, chess.WHITE)}), 422,
                       "a side's view cannot be replayed")
    one_line_error(client.post("/api/play/replay", json={"pgn": "[Rules \"wild16\"]\n\n1. e5 *"}), 422, "<pgn>:")
    one_line_error(client.post("/api/play/replay", json={}), 422, "pgn: missing")


def test_a_side_that_is_not_a_string_is_a_422_not_a_500(client):
    one_line_error(client.post("/api/play", json={"rules": "berkeley", "mode": "hotseat", "side": ["white"]}), 422,
                   "side: must be white or black")
    game = start(client, rules="berkeley", mode="hotseat")
    one_line_error(client.post(f"/api/play/{game['id']}/attempt", json={"side": {"a": 1}, "move": "e2e4"}), 422,
                   "side: must be white or black")


def test_the_thinkers_queue_is_bounded(client, monkeypatch):
    """Past ``MAX_WAITING`` tasks a belief request is told to come back (429)."""
    from ksolve.web import play

    game = start(client, rules="berkeley", mode="hotseat")
    monkeypatch.setattr(play.THINKERS_POOL, "in_flight", play.MAX_WAITING)
    one_line_error(client.get(f"/api/play/{game['id']}/belief?side=white"), 429, "tasks waiting")


def test_the_spectators_id_reads_no_men_and_cannot_move(client):
    """The spectators' id is its own capability: with it no side's state, PGN or belief is
    read and no move is made; with the players' id the spectators' route answers nothing."""
    game = start(client, rules="wild16", mode="hotseat")
    game_id, watch = game["id"], game["watch"]
    assert watch != game_id and watch not in game_id and len(watch) >= 20
    attempt(client, game_id, "white", "Nf3")
    for request in (client.get(f"/api/play/{watch}?side=white"), client.get(f"/api/play/{watch}?side=black"),
                    client.get(f"/api/play/{watch}"), client.get(f"/api/play/{watch}/pgn?view=white"),
                    client.get(f"/api/play/{watch}/pgn?view=black"), client.get(f"/api/play/{watch}/belief?side=white"),
                    attempt(client, watch, "black", "e7e5"), client.delete(f"/api/play/{watch}"),
                    client.get(f"/api/play/watch/{game_id}")):
        one_line_error(request, 404, "no game")
    watched = client.get(f"/api/play/watch/{watch}")
    assert watched.status_code == 200 and watched.json()["plies"] == 1
    assert not {"view", "moves", "askable", "side", "reveal", "last_move"} & set(watched.json())
    assert "Nf3" not in watched.text and "g1f3" not in watched.text and '"K"' not in watched.text
    one_line_error(client.get(f"/api/play/watch/{watch}/pgn"), 403, "after the end")
    assert client.get(f"/api/play/{game_id}?side=black").json()["state"]["plies"] == 1  # nothing moved


def test_the_rule_sets_played_and_their_words(client):
    answer = client.get("/api/play/rules").json()
    assert answer["default"] == "wild16"
    names = [book["name"] for book in answer["rules"]]
    assert names == ["berkeley", "berkeley-any", "english", "cincinnati", "rand", "wild16", "fog-of-war"]
    wild16 = next(book for book in answer["rules"] if book["name"] == "wild16")
    assert [line["words"] for line in wild16["lines"]][:4] == ["Illegal move", "Pawn at e4 captured",
                                                               "Piece at e4 captured", "Rank check"]
    one_line_error(client.post("/api/play", json={"rules": "modern"}), 422, "modern is not played here")


def test_san_moves_in_the_state_and_the_replay(client):
    game = start(client, rules="berkeley", mode="hotseat")
    for side, move in (("white", "e4"), ("black", "f5"), ("white", "exf5"), ("black", "g5"), ("white", "Qh5")):
        assert attempt(client, game["id"], side, move).json()["answer"]["kind"] == "move"
    black = client.get(f"/api/play/{game['id']}?side=black").json()["state"]
    assert black["over"] and black["result"] == "1-0"
    assert black["reveal"]["moves"] == ["e4", "f5", "exf5", "g5", "Qh5#"]
    assert black["reveal"]["uci"] == ["e2e4", "f7f5", "e4f5", "g7g5", "d1h5"]
    white = client.get(f"/api/play/{game['id']}?side=white").json()["state"]
    assert white["moves"] == ["e4", "??", "exf5", "??", "Qh5#"] and white["log"][-1]["text"] == "Qh5#: Checkmate"


# --- resigning, draws, takebacks, rematches, the clock ---------------------------------------------
def post(client, game_id, what, body):
    return client.post(f"/api/play/{game_id}/{what}", json=body)


def test_hotseat_resignation_by_the_side_to_move_shown_to_spectators_and_in_the_pgn(client):
    game = start(client, rules="berkeley", mode="hotseat")
    game_id = game["id"]
    attempt(client, game_id, "white", "e4")
    one_line_error(post(client, game_id, "resign", {"side": "white"}), 409, "the side to move resigns")
    one_line_error(post(client, game_id, "resign", {"side": "green"}), 422, "side:")
    one_line_error(post(client, game_id, "resign", {"side": "black", "why": 1}), 422, "why: unknown field")
    state = post(client, game_id, "resign", {"side": "black"}).json()["state"]
    assert state["over"] and (state["result"], state["termination"]) == ("1-0", "Black resigns")
    assert state["reveal"]["moves"] == ["e4"] and state["log"][-1]["text"] == "Black resigns"
    watched = client.get(f"/api/play/watch/{game['watch']}").json()
    assert watched["termination"] == "Black resigns" and watched["log"][-1]["text"] == "Black resigns"
    text = client.get(f"/api/play/watch/{game['watch']}/pgn").text
    assert '[Termination "Black resigns"]' in text and '[Result "1-0"]' in text
    replayed = client.post("/api/play/replay", json={"pgn": text}).json()
    assert (replayed["result"], replayed["termination"]) == ("1-0", "Black resigns")
    one_line_error(post(client, game_id, "resign", {"side": "black"}), 409, "game is over")


def test_hotseat_draw_offer_declined_then_accepted(client):
    game_id = start(client, rules="wild16", mode="hotseat")["id"]
    one_line_error(post(client, game_id, "draw", {"side": "white", "action": "agree"}), 422, "action: must be offer")
    one_line_error(post(client, game_id, "draw", {"side": "white"}), 422, "action: must be offer")
    one_line_error(post(client, game_id, "draw", {"side": "black", "action": "offer"}), 409, "own turn")
    one_line_error(post(client, game_id, "draw", {"side": "black", "action": "accept"}), 409, "no draw has been offered")
    offered = post(client, game_id, "draw", {"side": "white", "action": "offer"}).json()
    assert offered["answer"]["kind"] == "offered" and offered["state"]["draw_offer"] == "white"
    assert not offered["state"]["can_offer_draw"]
    attempt(client, game_id, "white", "e4")
    black = client.get(f"/api/play/{game_id}?side=black").json()["state"]
    assert black["draw_offer"] == "white" and black["log"][0]["text"] == "White offers a draw"
    declined = post(client, game_id, "draw", {"side": "black", "action": "decline"}).json()
    assert declined["answer"] == {"kind": "declined", "words": "Black declines the draw"}
    assert declined["state"]["draw_offer"] is None and not declined["state"]["over"]
    attempt(client, game_id, "black", "e5")
    post(client, game_id, "draw", {"side": "white", "action": "offer"})
    attempt(client, game_id, "white", "Nf3")
    accepted = post(client, game_id, "draw", {"side": "black", "action": "accept"}).json()
    assert accepted["answer"]["kind"] == "accepted" and accepted["state"]["termination"] == "draw by agreement"
    assert accepted["state"]["result"] == "1/2-1/2"
    assert '[Termination "draw by agreement"]' in client.get(f"/api/play/{game_id}/pgn?view=full").text


def test_against_the_computer_a_level_draw_is_accepted_and_takebacks_are_refused(client):
    game_id = start(client, rules="berkeley", mode="computer", side="white", seed=3)["id"]
    attempt(client, game_id, "white", "e4")
    one_line_error(post(client, game_id, "takeback", {"side": "white"}), 409, "no takebacks against the computer")
    one_line_error(post(client, game_id, "draw", {"side": "black", "action": "offer"}), 403, "computer's side")
    answer = post(client, game_id, "draw", {"side": "white", "action": "offer"}).json()
    assert answer["answer"] == {"kind": "accepted", "words": "The computer accepts: draw by agreement"}
    assert answer["state"]["over"] and answer["state"]["termination"] == "draw by agreement"


def test_hotseat_takeback_of_the_last_move(client):
    game_id = start(client, rules="berkeley", mode="hotseat")["id"]
    one_line_error(post(client, game_id, "takeback", {"side": "white"}), 409, "no move has been made")
    attempt(client, game_id, "white", "e4")
    attempt(client, game_id, "black", "e5")
    assert attempt(client, game_id, "white", "e4e5").json()["answer"]["kind"] == "illegal"
    attempt(client, game_id, "white", "Nf3")
    assert client.get(f"/api/play/{game_id}?side=black").json()["state"]["can_take_back"]
    state = post(client, game_id, "takeback", {"side": "white"}).json()["state"]
    assert state["your_turn"] and state["moves"] == ["e4", "??"] and state["refused"] == ["e4e5"]
    assert state["log"][-1]["text"] == "White takes back his move" and "e4e5" not in state["askable"]
    black = client.get(f"/api/play/{game_id}?side=black").json()["state"]
    assert not black["your_turn"] and [e["text"] for e in black["log"]][-1] == "White takes back his move"
    one_line_error(post(client, game_id, "takeback", {"side": "purple"}), 422, "side:")


def test_a_rematch_keeps_the_settings_and_swaps_the_colours_against_the_computer(client):
    game = start(client, rules="wild16", mode="computer", side="white", seed=1, clock={"limit": 300, "increment": 2})
    game_id = game["id"]
    one_line_error(post(client, game_id, "rematch", {}), 409, "the game goes on")
    post(client, game_id, "resign", {"side": "white"})
    again = post(client, game_id, "rematch", {"seed": 2})
    assert again.status_code == 201
    rematch = again.json()
    assert rematch["id"] != game_id and rematch["state"]["side"] == "black" and rematch["state"]["computer"] == "white"
    assert rematch["state"]["rules"] == "wild16" and rematch["state"]["plies"] == 1   # the computer opened
    assert (rematch["state"]["clock"]["limit"], rematch["state"]["clock"]["increment"]) == (300, 2)
    twice = post(client, game_id, "rematch", {})
    assert twice.status_code == 200 and twice.json()["id"] == rematch["id"]
    assert client.get(f"/api/play/{game_id}?side=white").json()["state"]["rematch"] == rematch["id"]
    assert "rematch" not in client.get(f"/api/play/watch/{game['watch']}").text  # the players' id stays theirs
    one_line_error(post(client, game_id, "rematch", {"seed": "x"}), 422, "seed:")
    hotseat = start(client, rules="berkeley", mode="hotseat")["id"]
    post(client, hotseat, "resign", {"side": "white"})
    other = post(client, hotseat, "rematch", {}).json()["state"]
    assert other["mode"] == "hotseat" and other["clock"] is None and other["side"] == "white"


def test_the_clock_runs_the_computers_thinking_counts_and_time_out_loses(client):
    import time

    for bad, words in (({"limit": 0}, "clock.limit: must be a whole number"), ({"limit": 1.5}, "clock.limit"),
                       ({"limit": 60, "increment": -1}, "clock.increment"), ("5+0", "clock: must be null"),
                       ({"limit": 60, "delay": 3}, "clock.delay: unknown field"), ({"limit": True}, "clock.limit")):
        one_line_error(client.post("/api/play", json={"clock": bad}), 422, words)
    game = start(client, rules="wild16", mode="computer", side="white", seed=2, clock={"limit": 600, "increment": 0})
    assert game["state"]["clock"] == {"limit": 600, "increment": 0, "white": 600, "black": 600, "running": None}
    state = attempt(client, game["id"], "white", "e4").json()["state"]
    time.sleep(0.05)  # White thinks: more than the clock's rounding to 1/100 s
    state = attempt(client, game["id"], "white", "d4").json()["state"]
    assert state["clock"]["running"] == "white" and state["clock"]["black"] < 600   # the computer's 2nd move counted
    assert state["clock"]["white"] < 600
    hotseat = start(client, rules="berkeley", mode="hotseat", clock={"limit": 1})
    attempt(client, hotseat["id"], "white", "e4")
    attempt(client, hotseat["id"], "black", "e5")
    time.sleep(1.2)
    watched = client.get(f"/api/play/watch/{hotseat['watch']}").json()
    assert watched["over"] and (watched["result"], watched["termination"]) == ("0-1", "White lost on time")
    assert watched["clock"]["white"] == 0 and watched["clock"]["running"] is None
    one_line_error(attempt(client, hotseat["id"], "white", "Nf3"), 409, "White lost on time")
    reveal = client.get(f"/api/play/{hotseat['id']}?side=white").json()["state"]["reveal"]
    assert [(t["ply"], t["side"], t["kind"]) for t in reveal["times"]] == [(0, "white", "move"), (1, "black", "move")]
    assert '[TimeControl "1+0"]' in client.get(f"/api/play/{hotseat['id']}/pgn?view=full").text


def test_the_computers_level_is_chosen_kept_by_a_rematch_and_a_bad_one_refused(client):
    from ksolve.web.play import GAMES

    game = start(client, rules="wild16", mode="computer", side="white", seed=1, level="easy")
    game_id = game["id"]
    assert game["state"]["level"] == "easy" and GAMES.get(game_id).computer.level.name == "easy"
    state = attempt(client, game_id, "white", "e4").json()["state"]
    assert state["plies"] == 2 and state["level"] == "easy"                      # the easy computer replied
    assert GAMES.get(game_id).computer.level.name == "easy"                      # back from the worker so
    assert client.get(f"/api/play/watch/{game['watch']}").json()["level"] == "easy"
    post(client, game_id, "resign", {"side": "white"})
    rematch = post(client, game_id, "rematch", {}).json()
    assert rematch["state"]["level"] == "easy" and GAMES.get(rematch["id"]).computer.level.name == "easy"
    strong = start(client, rules="berkeley", mode="computer", side="black", seed=2, level="strong")
    assert strong["state"]["level"] == "strong" and strong["state"]["plies"] == 1
    assert start(client, rules="berkeley", mode="computer")["state"]["level"] == "normal"   # the default
    assert start(client, rules="berkeley", mode="hotseat")["state"]["level"] is None
    for bad in ("hard", "Easy", "", 2, None, ["easy"], {"name": "easy"}):
        one_line_error(client.post("/api/play", json={"mode": "computer", "level": bad}), 422,
                       f"level: must be easy, normal or strong, not {bad!r}")
