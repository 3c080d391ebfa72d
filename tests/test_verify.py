"""Soundness verification (``ksolve verify``): keys, cooks, short solutions,
tries with refutations, duals, and the verdict's exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksolve.board import move_from_uci
from ksolve.cli import main
from ksolve.problem import load_problem, load_problem_text
from ksolve.verification import COOKED, NO_SOLUTION, SHORT, SOUND, verify

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"


def problem(fen: str, moves: int = 1, key: str | None = None, hidden: str = "[]"):
    published = f'\n[published]\nkey = "{key}"\n' if key else ""
    return load_problem_text(f'stipulation = "#{moves}"\nrules = "berkeley"\n[position]\n'
                             f'fen = "{fen}"\nhidden = {hidden}\n{published}')


def test_sound_problem_with_its_tries_and_refutations() -> None:
    report = verify(problem("k7/8/1K6/8/8/8/8/7R w - - 0 1", key="h1h8"))
    assert report.verdict == SOUND and [k.move for k in report.keys] == ["h1h8"]
    assert report.published_key_matches is True
    assert report.tries_total == len(report.tries) == 19  # 13 other rook moves, 6 king moves
    assert all(t.refutation["reason"] for t in report.tries)


def test_cooked_problem_a_second_rook_gives_a_second_key() -> None:
    report = verify(problem("k7/8/1K6/8/8/8/8/6RR w - - 0 1", key="h1h8"))
    assert report.verdict == COOKED
    assert {k.move for k in report.keys} == {"g1g8", "h1h8"}
    assert "cooked" in report.line() and "is a key" in report.line()


def test_unsound_problem_has_no_solution() -> None:
    report = verify(problem("k7/8/8/1K6/8/8/8/7R w - - 0 1", key="h1h8"))
    assert report.verdict == NO_SOLUTION and not report.keys
    assert report.published_key_matches is False
    assert "no solution" in report.line() and "is not a key" in report.line()


def test_short_solution() -> None:
    report = verify(problem("k7/8/1K6/8/8/8/8/7R w - - 0 1", moves=2))
    assert report.verdict == SHORT
    assert [(k.move, k.moves) for k in report.short] == [("h1h8", 1)]


def test_refutation_names_the_black_reply_and_the_hidden_squares() -> None:
    # Foster 1996: 1.Qc4? stalemates when the pawn stands on a3; after 1.Bg2? the
    # black king takes the rook on d1 and White has no mate.
    report = verify(load_problem(PROBLEMS / "foster-1996.toml"), duals=False)
    assert report.verdict == SOUND and report.keys[0].move == "a8a4"
    refuted = {t.move: t.refutation for t in report.tries}
    assert refuted["b4c4"]["answer"] == "Stalemate" and refuted["b4c4"]["hidden"] == {"pawn": ["a3"]}
    assert refuted["e4g2"]["black_moves"] == ["Kxd1"] and refuted["e4g2"]["reply"] == "Capture at d1"
    assert refuted["e4g2"]["size"] == 6


def test_duals_are_listed_with_the_line() -> None:
    report = verify(load_problem(PROBLEMS / "foster-1996.toml"))
    assert report.duals_checked
    # After 1.Ra4 No 1.Ra5 No 1.Ra6 No 1.Rxa7 both 2.Qe7# and 2.Re7# mate at once.
    dual = next(d for d in report.duals if d["played"] == "Qe7")
    assert dual["also"] == ["Re7"] and dual["moves_left"] == 1 and not dual["main_line"]
    assert dual["after"] == "1.Ra4 No 1.Ra5 No 1.Ra6 No 1.Rxa7"


def test_the_duals_do_not_depend_on_what_the_prover_searched_before() -> None:
    """The strategy the duals are counted against is proved again by a fresh
    prover: a prover that first deepened on every other attempt (whose table
    holds other moves: read from it, semikriegspiel-01's strategy had 26 White
    turns instead of 22) asks the same questions and finds the same duals."""
    from ksolve.analysis import Analysis
    from ksolve.search.pns import ProofNumberSearch
    from ksolve.verification import _first_attempts, dual_questions, find_duals

    analysis = Analysis(load_problem(PROBLEMS / "semikriegspiel-01.toml"))
    classes, moves = [first.belief for first in analysis.classes], analysis.moves
    key = move_from_uci(verify(analysis, duals=False).keys[0].move)
    warm = analysis.prover()
    search = ProofNumberSearch(warm)
    for first in _first_attempts(analysis.rules, classes)[::-1]:
        next((depth for depth in range(1, moves + 1) if search.attempt_wins(classes[0], first, depth)), None)

    def turns(prover) -> list[tuple]:
        return [(q.move_number, q.chosen, q.needed, q.after) for q in dual_questions(prover, classes, moves, key)]

    assert turns(warm) == turns(analysis.prover())
    found_warm: list = []
    found_cold: list = []
    assert find_duals(warm, classes, moves, found_warm, key)
    assert find_duals(analysis.prover(), classes, moves, found_cold, key)
    assert found_warm == found_cold and found_warm


@pytest.mark.slow
def test_duals_count_only_moves_as_fast_as_the_solutions() -> None:
    """Rotenberg: 5.Rc5 wins in 4 as 5.Rb5 does, but is no dual if 5.Rb5's line is
    faster; in the main line no other move mates as fast."""
    report = verify(load_problem(PROBLEMS / "rotenberg-1976.toml"), tries=0)
    assert report.verdict == SOUND and report.duals_checked
    assert not [dual for dual in report.duals if dual["main_line"]]
    assert all(dual["moves_left"] < 8 for dual in report.duals)


def test_published_second_key_is_reported_as_a_cook() -> None:
    report = verify(load_problem(PROBLEMS / "anderson-23.toml"), duals=False)
    assert report.verdict == COOKED and report.published_key_matches
    assert {"a5a6", "b6b3", "f2f3"} <= {k.move for k in report.keys}


def test_best_tries_only() -> None:
    report = verify(problem("k7/8/1K6/8/8/8/8/7R w - - 0 1"), tries=3)
    assert len(report.tries) == 3 and report.tries_total == 19


def test_cli_verify_exit_codes_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    sound = tmp_path / "sound.toml"
    sound.write_text('stipulation = "#1"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n')
    cooked = tmp_path / "cooked.toml"
    cooked.write_text('stipulation = "#1"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/6RR w - - 0 1"\n')
    result = runner.invoke(main, ["verify", str(sound), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["verdict"] == SOUND  # progress lines go to stderr
    result = runner.invoke(main, ["verify", str(cooked)])
    assert result.exit_code == 1 and "cooked" in result.output
    result = runner.invoke(main, ["verify", str(tmp_path)])
    assert result.exit_code == 1
    assert "sound" in result.output and "cooked" in result.output and "verdict" in result.output


def test_cli_certificate_then_check(tmp_path: Path) -> None:
    runner = CliRunner()
    proof = tmp_path / "foster.json"
    path = str(PROBLEMS / "foster-1996.toml")
    result = runner.invoke(main, ["solve", path, "--certificate", str(proof)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["check", path, str(proof)])
    assert result.exit_code == 0 and result.output.startswith("verified"), result.output
    corrupted = json.loads(proof.read_text())
    corrupted["initial"][0][1]["attempt"] = "a8a3"
    proof.write_text(json.dumps(corrupted))
    result = runner.invoke(main, ["check", path, str(proof)])
    assert result.exit_code == 1 and "counterexample" in result.output
    proof.write_text("{not json")
    result = runner.invoke(main, ["check", path, str(proof)])
    assert result.exit_code == 2 and "error" in result.output


def test_rotenberg_try_knight_f2_is_refuted_by_the_bishop_capture() -> None:
    """1.Nf2+? Bxf2 (then Kxf2 would stalemate): the published try's refutation."""
    from ksolve.search.prover import Prover
    from ksolve.verification import refutation_text, refute

    rotenberg = load_problem(PROBLEMS / "rotenberg-1976.toml")
    refutation = refute(Prover(rotenberg.rules), rotenberg.belief(), move_from_uci("d3f2"), 8)
    assert refutation["black_moves"] == ["Bxf2"] and refutation["size"] == 1
    assert refutation["san"] == "Nf2+" and refutation_text(refutation) == "Bxf2! (no mate in 7)"


@pytest.mark.slow
def test_rotenberg_tries_read_as_composers_print_them() -> None:
    """The real try 1.Nf2+? Bxf2! comes first; the 26 moves that capture the
    bishop where it may stand and stalemate share one line."""
    from ksolve.report.text import render_verification_text

    report = verify(load_problem(PROBLEMS / "rotenberg-1976.toml"), duals=False)
    lines = render_verification_text(report.as_dict()).splitlines()
    assert lines[0] == "Verdict: sound: key 1.Rg2! (#8), the published key"
    assert lines[2] == "  1.Nf2+? Bxf2! (no mate in 7)"
    grouped = [line for line in lines if "tries end the game at once (stalemate)" in line]
    assert len(grouped) == 1 and grouped[0].strip().startswith("26 tries") and "1.Rxa1" in grouped[0]


@pytest.mark.parametrize("name,keys", [
    ("anderson-21", ["h1a8", "h1b7"]),  # 1.Bb7's mate asks "Any?" after a refused attempt (issue 42)
    ("anderson-23", ["a5a6", "b6b3", "f2f3"]),
    ("anderson-27", ["b2b4", "c6d7"]),
    ("anderson-31", ["a7b5", "e7e8"]),
    ("anderson-33", ["d2d3", "d4c2", "d4e6"]),
    ("ciancarini-intro-7.2", ["b7b8n", "b7b8q", "f7f8q", "f7f8r"]),
])
def test_cooks_of_published_problems_are_confirmed_by_the_checker(name: str, keys: list[str]) -> None:
    """Each key of a cooked problem gets its own strategy, and the independent
    checker replays each: the cooks are real, not a prover error."""
    from ksolve.certificates import certificate
    from ksolve.checker import check_certificate
    from ksolve.solver import solve_with_key

    cooked = load_problem(PROBLEMS / f"{name}.toml")
    report = verify(cooked, duals=False)
    assert report.verdict == COOKED and sorted(k.move for k in report.keys) == keys
    for key in keys:
        result = solve_with_key(cooked, key)
        checked = check_certificate(cooked.source, certificate(cooked, result))
        assert checked.verified, f"{key}: {checked.format()}"


def test_cli_verify_missing_path_is_one_error_line() -> None:
    result = CliRunner().invoke(main, ["verify", "no-such-problem.toml"])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "no such file" in result.output


def test_a_stopped_verification_says_what_it_established_and_decides_nothing() -> None:
    """A node limit leaves the verdict and the published key "not decided",
    with the first moves it did not decide, never "is not a key"."""
    from ksolve.report.text import render_verification_text
    from ksolve.search.run import Limits
    from ksolve.solver import solve

    rotenberg = load_problem(PROBLEMS / "rotenberg-1976.toml")
    report = verify(rotenberg, limits=Limits(nodes=3000))
    assert report.verdict == "unknown" and report.as_dict()["published_key_matches"] is None
    assert report.line().startswith("not decided: node limit 3,000 reached; first moves not decided: 1.Ra1 (depth 8)")
    assert report.line().endswith(" more begun")
    text = render_verification_text(report.as_dict())
    assert "not a key" not in text and "Duals" not in text
    solution = solve(rotenberg, limits=Limits(nodes=3000))
    assert solution.status == "unknown"
    assert "; no mate in " in solution.reason and solution.reason.endswith("not decided")


def test_the_keys_found_first_are_kept_when_a_limit_stops_their_fewest_moves(monkeypatch) -> None:
    """The keys are looked for at the stipulated depth before any key's fewest
    moves: a limit reached while deepening on them still names every key
    found (a cooked problem's three here), never "no first move wins"."""
    import ksolve.verification as verification
    from ksolve.search.run import SearchAborted

    def limit_reached(*_: object) -> bool:
        raise SearchAborted("node limit 1 reached")

    monkeypatch.setattr(verification, "_key_wins", limit_reached)
    report = verify(load_problem(PROBLEMS / "anderson-23.toml"))
    assert report.verdict == "unknown"
    assert report.line() == ("not decided: node limit 1 reached; keys so far 1.Qb3!, 1.f3!, 1.a6! "
                             "(within 3, fewest moves not decided)")


def test_the_keys_first_and_the_deepening_of_every_attempt_verify_alike(monkeypatch) -> None:
    """Differential: looking for the keys at the stipulated depth first, then
    each key's fewest moves, finds the verdicts, keys with their fewest moves,
    tries and refutations that deepening every attempt together from one
    move finds (the one way for several first classes or probes), on random
    problems and bundled ones."""
    import ksolve.verification as verification
    from test_parallel import facts
    from test_solver_vs_bruteforce import generate_problems

    problems = [load_problem_text(
        f'stipulation = "#{random.moves}"\nrules = "{random.rules}"\n[position]\nfen = "{random.fen}"\n'
        f'hidden = {json.dumps(list(random.hidden))}\n') for random, _ in generate_problems()[:40]]
    problems += [load_problem(PROBLEMS / f"{name}.toml") for name in ("anderson-23", "anderson-33", "swart-1034")]
    keys_first = [facts(verify(problem, duals=False)) for problem in problems]
    monkeypatch.setattr(verification, "keys_first", lambda *_: False)
    deepening = [facts(verify(problem, duals=False)) for problem in problems]
    assert keys_first == deepening
    assert {"sound", "cooked", "no solution"} <= {verdict for verdict, *_ in keys_first}
