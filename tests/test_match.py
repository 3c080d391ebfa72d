"""The match runner (ksolve.play.match): seat swapping, the records, the statistics."""

from __future__ import annotations

import json
import math

import chess
import pytest

from ksolve.play.match import (PLAYERS, Clock, Ending, GameRecord, elo_difference, ending_of, make_player,
                               record_game, run_match, summarize, wilson_interval)
from ksolve.play.session import GameSession


def record(winner, first_is_white=True, ending=Ending.CHECKMATE, plies=40):
    return GameRecord(0, 0, "a", "b", first_is_white, "", winner, ending, "", plies, plies - plies // 2, plies // 2,
                      0.1 if first_is_white else 0.3, 0.3 if first_is_white else 0.1)


@pytest.fixture(scope="module")
def short_match():
    return run_match("wild16", "greedy", "random", pairs=3, max_plies=40, seed=11)


# --- seats ---------------------------------------------------------------------------------
def test_each_pair_is_one_seed_with_the_colours_swapped(short_match):
    assert len(short_match.games) == 6
    for index, (first, second) in enumerate(zip(short_match.games[::2], short_match.games[1::2])):
        assert first.pair == second.pair == index
        assert first.seed == second.seed == 11 + index
        assert (first.white, first.black, first.first_is_white) == ("greedy", "random", True)
        assert (second.white, second.black, second.first_is_white) == ("random", "greedy", False)


def test_first_score_follows_the_seat():
    assert record("white", True).first_score == 1.0
    assert record("white", False).first_score == 0.0
    assert record("black", False).first_score == 1.0
    assert record(None, False).first_score == 0.5
    assert record(None, True).seconds_per_move(True) == 0.1
    assert record(None, False).seconds_per_move(True) == 0.1 and record(None, False).seconds_per_move(False) == 0.3


# --- statistics ----------------------------------------------------------------------------
def test_seven_wins_two_draws_one_loss_by_hand():
    games = [record("white")] * 4 + [record("black", False)] * 3 + [record(None)] * 2 + [record("white", False)]
    summary = summarize("wild16", "a", "b", games)
    assert (summary.games, summary.wins, summary.draws, summary.losses, summary.capped) == (10, 7, 2, 1, 0)
    assert summary.score == pytest.approx(0.8)                 # (7 + 2/2) / 10
    # Wilson, z = 1.96: (0.8 + z²/20 ± z·sqrt(0.8·0.2/10 + z²/400)) / (1 + z²/10)
    z = 1.959963984540054
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.016 + z * z / 400) / (1 + z * z / 10)
    assert (summary.score_low, summary.score_high) == pytest.approx((centre - half, centre + half))
    assert (summary.score_low, summary.score_high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert summary.elo == pytest.approx(400 * math.log10(4))   # 240.8
    assert summary.elo_low == pytest.approx(400 * math.log10(0.49016 / 0.50984), abs=0.01)
    assert summary.elo_low < 0 < summary.elo < summary.elo_high
    assert summary.endings == ((Ending.CHECKMATE, 10),)


def test_seconds_per_move_are_weighted_by_moves():
    games = [record(None, True, plies=10), record(None, False, plies=30)]   # first: 5 moves at 0.1, 15 at 0.1
    summary = summarize("wild16", "a", "b", games)
    assert summary.first_seconds_per_move == pytest.approx(0.1)
    assert summary.second_seconds_per_move == pytest.approx(0.3)
    assert summary.mean_plies == 20


def test_elo_sign_symmetry_and_clipping():
    assert elo_difference(0.5, 10) == 0
    assert elo_difference(0.7, 10) > 0 > elo_difference(0.3, 10)
    assert elo_difference(0.7, 10) == pytest.approx(-elo_difference(0.3, 10))
    for games in (1, 10, 100):   # a sweep: clipped half a game from 1, finite and growing with the games
        assert elo_difference(1.0, games) == pytest.approx(400 * math.log10(2 * games - 1))
        assert elo_difference(0.0, games) == pytest.approx(-elo_difference(1.0, games))
    assert elo_difference(1.0, 100) > elo_difference(1.0, 10)


def test_wilson_stays_inside_zero_and_one_and_wide_at_the_ends():
    assert wilson_interval(1.0, 100)[1] == 1.0 and 0.95 < wilson_interval(1.0, 100)[0] < 0.97
    assert wilson_interval(0.0, 100)[0] == 0.0 and 0.03 < wilson_interval(0.0, 100)[1] < 0.05
    low, high = wilson_interval(0.5, 100)
    assert low == pytest.approx(1 - high) and 0.40 < low < 0.41
    sweep = summarize("wild16", "a", "b", [record("white")] * 20)
    assert sweep.score == 1.0 and sweep.elo == sweep.elo_high and 0 < sweep.elo_low < sweep.elo


# --- endings -----------------------------------------------------------------------------
def play(rules, moves):
    game = GameSession(rules)
    for uci in moves:
        assert game.attempt(uci).moved
    return game


@pytest.mark.parametrize("rules, moves, ending, result", [
    ("wild16", ["f2f3", "e7e5", "g2g4", "d8h4"], Ending.CHECKMATE, "0-1"),
    ("fog-of-war", ["e2e4", "f7f6", "d1h5", "a7a6", "h5e8"], Ending.KING_CAPTURE, "1-0"),
    ("berkeley", ["g1f3", "g8f6", "f3g1", "f6g8"] * 2, Ending.REPETITION, "1/2-1/2"),
    ("wild16", ["e2e4", "e7e5"], Ending.PLY_CAP, "*"),
])
def test_endings(rules, moves, ending, result):
    game = play(rules, moves)
    assert ending_of(game) == ending and game.result == result
    played = record_game(game, Clock(1.0, 2.0, (len(moves) + 1) // 2, len(moves) // 2), 0, 0, "a", "b", False)
    assert played.ending == ending and played.plies == len(moves) and played.moves == tuple(moves)
    assert played.winner == {"1-0": "white", "0-1": "black"}.get(result)
    assert played.first_score == {"1-0": 0.0, "0-1": 1.0}.get(result, 0.5)   # the first player had Black


def test_refused_attempts_are_counted_per_side():
    game = GameSession("wild16")
    for uci, moved in (("e2e4", True), ("e7e5", True), ("e4e5", False), ("e1e2", True), ("e5e4", False), ("d7d5", True)):
        assert game.attempt(uci).moved == moved
    played = record_game(game, Clock(1.0, 1.0, 2, 2), 0, 0, "a", "b", True)
    assert (played.white_refused, played.black_refused, played.plies) == (1, 1, 4)
    summary = summarize("wild16", "a", "b", [played])
    assert summary.first_refused_per_move == summary.second_refused_per_move == 0.5


# --- a real match ----------------------------------------------------------------------
def test_a_short_real_match_has_consistent_records(short_match):
    for played in short_match.games:
        assert played.plies == len(played.moves) == played.white_moves + played.black_moves
        assert played.white_moves - played.black_moves in (0, 1)
        assert (played.ending == Ending.PLY_CAP) == (played.result == "*")
        assert played.plies <= 40 and (played.ending != Ending.PLY_CAP or played.plies == 40)
        assert played.winner == {"1-0": "white", "0-1": "black"}.get(played.result)
        assert played.white_seconds_per_move > 0 and played.black_seconds_per_move > 0
        replay = play("wild16", played.moves)                   # the moves give the recorded end
        assert replay.result == played.result and ending_of(replay) == played.ending
    summary = short_match.summary
    assert summary.wins + summary.draws + summary.losses == summary.games == 6
    assert summary.capped == sum(g.ending == Ending.PLY_CAP for g in short_match.games) <= summary.draws
    assert sum(count for _, count in summary.endings) == 6
    assert summary.score == pytest.approx(sum(g.first_score for g in short_match.games) / 6)
    refused = sum(g.refused_of(True) for g in short_match.games) / sum(g.moves_of(True) for g in short_match.games)
    assert summary.first_refused_per_move == pytest.approx(refused) and refused > 0
    assert summary.score_low <= summary.score <= summary.score_high
    assert summary.elo_low <= summary.elo <= summary.elo_high
    data = json.loads(json.dumps(short_match.as_json()))
    assert len(data["games"]) == 6 and data["summary"]["wins"] == summary.wins
    assert data["games"][1]["white"] == "random" and data["games"][1]["moves"] == " ".join(short_match.games[1].moves)


def test_same_seed_same_games(short_match):
    again = run_match("wild16", "greedy", "random", pairs=1, max_plies=40, seed=11)
    assert [g.moves for g in again.games] == [g.moves for g in short_match.games[:2]]
    other = run_match("wild16", "greedy", "random", pairs=1, max_plies=40, seed=12)
    assert [g.moves for g in other.games] == [g.moves for g in short_match.games[2:4]]   # pair i: seed + i


def test_players_by_name():
    assert set(PLAYERS) == {"random", "greedy", "computer", "computer-easy", "computer-strong", "computer-previous",
                            "ismcts"}
    assert type(make_player("computer", "wild16", chess.BLACK, 3)).__name__ == "ComputerPlayer"
    levels = {name: make_player(name, "wild16", chess.WHITE, 0).level.name
              for name in ("computer", "computer-easy", "computer-strong", "computer-previous")}
    assert levels == {"computer": "normal", "computer-easy": "easy", "computer-strong": "strong",
                      "computer-previous": "normal"}
    assert make_player("computer-previous", "wild16", chess.WHITE, 0).endings.materials == frozenset()
    with pytest.raises(ValueError, match="unknown player 'stockfish'"):
        make_player("stockfish", "wild16", chess.WHITE, 0)
    with pytest.raises(ValueError, match="unknown player"):
        run_match("wild16", "random", "nobody", pairs=1, max_plies=2)
