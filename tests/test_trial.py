"""Trying a problem out against the worst-case referee (``ksolve.trial``) and its
web routes (``ksolve.web.tryit``), on Rotenberg 1976 (#8, a black bishop on
any of 30 dark squares)."""

from __future__ import annotations

import chess
import pytest

import ksolve
from ksolve.report.lines import main_line
from ksolve.search.run import Limits
from ksolve.trial import Trial

ROTENBERG = "problems/rotenberg-1976.toml"


@pytest.fixture(scope="module")
def problem() -> ksolve.Problem:
    return ksolve.load_problem(ROTENBERG)


@pytest.fixture(scope="module")
def untouched(problem) -> Trial:
    """A trial no test may change (only refused inputs are tried on it)."""
    return Trial(problem)


@pytest.fixture(scope="module")
def solution(problem):
    return ksolve.solve(problem)


def play_strategy(trial: Trial, tree) -> list[str]:
    """Play the strategy ``tree`` against the trial's referee, following
    whatever it answers; the moves played as SAN."""
    played, node = [], 0
    while not trial.over:
        (_, attempt, edge), = tree.out_edges(node, data=True)
        step = trial.attempt("any" if edge["kind"] == "ask" else edge["move"])
        assert step.mate_kept, (step, trial.heard)
        if step.san:
            played.append(step.san)
        node = next(child for _, child, data in tree.out_edges(attempt, data=True) if data["label"] == step.answer)
        if tree.nodes[node]["kind"] == "black" and not trial.over:
            node = next(child for _, child, data in tree.out_edges(node, data=True) if data["label"] == step.reply)
    return played


def test_the_knight_check_throws_the_mate_away_to_bxf2(problem):
    trial = Trial(problem)
    step = trial.attempt("d3f2")
    assert (step.answer, step.san, step.reply) == ("Knight check", "Nf2+", "Capture at f2")
    assert step.mate_kept is False
    assert step.refutation == "Bxf2! (no mate in 7)"
    view = trial.view()
    assert (view.move_number, view.moves_left, view.positions, view.forced_win) == (2, 7, 1, False)
    assert view.heard == ["1.Nf2+: Knight check", "1...: Capture at f2"]


def test_rg2_keeps_the_mate_and_the_referee_answers_with_the_larger_longer_class(problem):
    trial = Trial(problem)
    assert trial.forced_win is True
    step = trial.attempt("a2g2")
    assert (step.answer, step.reply, step.mate_kept, step.refutation) == ("Silent", "Silent", True, None)
    view = trial.view()
    assert (view.move_number, view.moves_left, view.fen.split()[0]) == (2, 7, "8/8/5B2/8/8/3N4/6R1/5K2")
    assert view.hidden[0]["name"] == "bishop" and view.positions == len(view.hidden[0]["squares"]) == 30


def test_a_refused_attempt_keeps_the_move_number_and_cannot_be_repeated(problem):
    trial = Trial(problem)
    step = trial.attempt("f1g1")  # next to the black king: refused in every position
    assert (step.answer, step.san, step.reply, step.mate_kept) == ("No", None, None, True)
    assert (trial.move_number, trial.moves_left, trial.heard) == (1, 8, ["1.Kg1: No"])
    with pytest.raises(ksolve.InputError, match="refused already"):
        trial.attempt("f1g1")


@pytest.mark.parametrize("move, words", [("a2b3", "a2b3 is not a move of White's men"), ("zz", "invalid UCI"),
                                         ("any", "no such question")])
def test_a_move_white_cannot_make_on_his_own_board_is_refused_with_one_line(untouched, move, words):
    trial = untouched
    with pytest.raises(ksolve.InputError, match=words) as error:
        trial.attempt(move)
    assert "\n" not in str(error.value)
    assert trial.heard == [] and trial.move_number == 1


def test_the_solution_mates_in_8_whatever_the_worst_case_referee_answers(problem, solution):
    trial = Trial(problem)
    played = play_strategy(trial, solution.tree)
    assert (trial.over, trial.result) == (True, "mate")
    assert trial.move_number <= 8 and played[-1].endswith("#")
    # The worst-case referee walks the main line as printed (longest answer, then the larger class).
    printed = [move.split(".")[-1].rstrip("!") for move in main_line(solution.tree).moves if "." in move]
    assert played == printed == ["Rg2", "Rg8", "Rh8", "Rh5", "Rb5", "Rb1", "Nf2+", "Kxf2#"]
    with pytest.raises(ksolve.InputError, match="over"):
        trial.attempt("a2a3")
    reveal = trial.view().reveal
    board = chess.Board(reveal.fen)
    assert board.is_valid()
    for san in reveal.moves:
        board.push_san(san)
    assert board.is_checkmate() and board.fen() == reveal.final_fen


def test_the_reveal_is_a_legal_position_with_the_visible_men_and_a_replay_python_chess_accepts(problem):
    trial = Trial(problem)
    for move in ("a2g2", "g2g8", "d3f2"):
        trial.attempt(move)
    reveal = trial.reveal()
    board = chess.Board(reveal.fen)
    assert board.is_valid()
    visible = chess.Board(problem.fen)
    assert board.piece_map().items() >= visible.piece_map().items()
    assert [piece.symbol() for square, piece in board.piece_map().items() if square not in visible.piece_map()] == ["b"]
    for san in reveal.moves:
        board.push_san(san)
    assert board.fen() == reveal.final_fen
    assert [move for move in reveal.moves[::2]] == ["Rg2", "Rg8", "Nf2+"]


def test_a_step_that_hits_its_limits_says_not_decided(problem):
    trial = Trial(problem, limits=Limits(nodes=1))
    assert trial.forced_win is None
    step = trial.attempt("a2a8")
    assert step.mate_kept is None and step.refutation is None and step.note.startswith("not decided")


def test_any_under_english_rules_keeps_the_move_number_and_is_asked_once():
    trial = Trial(ksolve.load_problem("problems/anderson-01.toml"))
    assert trial.view().can_ask  # English rules: the page shows its "Any?" button
    step = trial.attempt("any")
    assert step.answer in ("Yes", "No") and step.san is None and trial.move_number == 1
    assert trial.heard == [f"1.Any?: {step.answer}"] and not trial.view().can_ask
    with pytest.raises(ksolve.InputError, match="asked already"):
        trial.attempt("any")


# --- the web routes ---------------------------------------------------------------
@pytest.fixture()
def client():
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from ksolve.web import tryit

    return TestClient(Starlette(routes=tryit.routes))


def test_the_routes_play_the_knight_check_and_say_it_loses_the_mate(client):
    with open(ROTENBERG, encoding="utf-8") as file:
        started = client.post("/api/try", json={"problem": file.read()})
    assert started.status_code == 201
    trial_id, view = started.json()["id"], started.json()["view"]
    assert (view["fen"], view["positions"], view["moves_left"], view["over"]) == (
        "8/8/5B2/8/8/3N4/R7/5K2 w - - 0 1", 30, 8, False)
    assert len(view["hidden"][0]["squares"]) == 30
    bad = client.post(f"/api/try/{trial_id}/attempt", json={"move": "a2b3"})
    assert bad.status_code == 422 and "a2b3" in bad.json()["error"]
    step = client.post(f"/api/try/{trial_id}/attempt", json={"move": "d3f2"})
    assert step.status_code == 200
    body = step.json()
    assert (body["answer"], body["san"], body["reply"], body["mate_kept"]) == (
        "Knight check", "Nf2+", "Capture at f2", False)
    assert "Bxf2" in body["refutation"] and body["view"]["heard"][-1] == "1...: Capture at f2"
    assert client.get(f"/api/try/{trial_id}").json()["view"] == body["view"]
    assert client.delete(f"/api/try/{trial_id}").status_code == 200
    assert client.post(f"/api/try/{trial_id}/attempt", json={"move": "a2a3"}).status_code == 404


def test_the_routes_answer_bad_requests_with_one_line(client):
    bad_toml = client.post("/api/try", json={"problem": "stipulation = '#2'"})
    assert bad_toml.status_code == 422 and bad_toml.json()["error"].startswith("<problem>:")
    assert client.post("/api/try", content=b"{not json", headers={"content-type": "application/json"}
                       ).status_code == 400
    assert client.post("/api/try", json={"toml": "x"}).status_code == 422
    missing = client.post("/api/try/0123/attempt", json={"move": "a2a3"})
    assert missing.status_code == 404 and "no trial" in missing.json()["error"]
    assert client.delete("/api/try/0123").status_code == 404


def test_the_store_keeps_the_most_recently_used_trials():
    from ksolve.web.trials import NoSuchTrial, TrialStore

    store = TrialStore(capacity=2)
    assert store.add("first", "one") == store.add("second", "two") == []
    store.get("first")
    assert store.add("third", "three") == [("second", "two")]  # dropped: its process is told
    assert store.get("first") == "one" and len(store) == 2
    with pytest.raises(NoSuchTrial, match="at most 2 are kept"):
        store.get("second")


def test_a_capture_that_stalemates_ends_the_game_at_once(problem):
    trial = Trial(problem)
    step = trial.attempt("f6e5")  # the bishop on e5 is the worst class: Bxe5 stalemates
    assert (step.answer, step.san, step.mate_kept, step.refutation) == (
        "Capture at e5, stalemate", "Bxe5", False, "capture at e5, stalemate!")
    assert (trial.over, trial.result, trial.reveal().moves) == (True, "stalemate", ["Bxe5"])
    assert chess.Board(trial.reveal().fen).piece_at(chess.E5) == chess.Piece.from_symbol("b")


def test_the_last_move_without_mate_ends_the_game_without_a_reply():
    trial = Trial(ksolve.load_problem_text(
        'stipulation = "#1"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'))
    step = trial.attempt("h1h2")
    assert (step.reply, step.mate_kept, trial.over, trial.result) == (None, False, True, "no mate in time")
    assert trial.view().reveal.moves == ["Rh2"]


def test_try_it_plays_anderson_21s_second_key_and_asks_after_a_refusal():
    """1.Bb7 (issue 42): its strategy against the worst-case referee mates in 2,
    asking "Any?" on the last move after a refused attempt where it must."""
    from ksolve.solver import solve_with_key

    anderson = ksolve.load_problem("problems/anderson-21.toml")
    trial = Trial(anderson)
    played = play_strategy(trial, solve_with_key(anderson, "h1b7").tree)
    assert played[0] == "Bb7" and played[-1].endswith("#") and trial.result == "mate"
    asked = [i for i, heard in enumerate(trial.heard) if ".Any?:" in heard]
    assert asked and any(trial.heard[i - 1].endswith(": No") for i in asked if i > 0), trial.heard
