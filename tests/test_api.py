"""The public Python API (``import ksolve``) end to end: load, solve, verify,
certify and check from Python, the one analysis session, the rule sets'
protocol, and the CLI standing on the API alone."""

from __future__ import annotations

import ast
import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import ksolve

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "problems"
SMALL = 'stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'


def test_solve_verify_and_check_from_python() -> None:
    problem = ksolve.load_problem(PROBLEMS / "foster-1996.toml")
    solution = ksolve.solve(problem)
    assert isinstance(solution, ksolve.Solution)
    assert (solution.status, solution.key, solution.moves, solution.rules) == ("solved", "a8a4", 2, "berkeley")
    assert solution.tree is not None and solution.problem is problem
    result = ksolve.check(problem, ksolve.certificate(problem, solution))
    assert result.verified, result.format()
    verification = ksolve.verify(problem, duals=False)
    assert isinstance(verification, ksolve.Verification)
    assert verification.verdict == "sound" and [key.move for key in verification.keys] == ["a8a4"]


def test_rotenberg_as_the_issue_states_it() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", "import ksolve; p = ksolve.load_problem('problems/rotenberg-1976.toml'); "
                               "s = ksolve.solve(p); print(s.status, s.key, s.moves)"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert completed.stdout.strip() == "solved a2g2 8", completed.stderr


def test_check_reads_certificate_files_and_problem_paths(tmp_path) -> None:
    import json

    problem = ksolve.load_problem_text(SMALL, source="small.toml")
    solution = ksolve.solve(problem)
    path = tmp_path / "cert.json"
    written = ksolve.certificate(problem, solution)
    assert written["producer"] == f"ksolve {ksolve.__version__}"  # the checker does not read it
    path.write_text(json.dumps(written))
    assert ksolve.check(problem, path).verified
    toml = tmp_path / "small.toml"
    toml.write_text(SMALL)
    assert ksolve.check(toml, path).verified
    assert ksolve.check(str(toml), json.loads(path.read_text())).verified


def test_one_analysis_serves_solve_and_verify() -> None:
    problem = ksolve.load_problem_text(SMALL)
    session = ksolve.Analysis(problem)
    belief = session.belief
    assert ksolve.solve(session).key == "h1h8"
    assert ksolve.verify(session).verdict == "short solution"
    assert session.belief is belief  # built once
    assert problem.belief() is problem.belief()


def test_rules_override_reaches_the_search_and_the_result() -> None:
    problem = ksolve.load_problem(PROBLEMS / "foster-1996.toml")
    solution = ksolve.solve(problem, rules="wild16", tree=False)
    assert solution.rules == "wild16"
    assert ksolve.verify(problem, rules="orthodox", duals=False).rules == "orthodox"


def test_rules_override_that_changes_the_goal_is_an_error() -> None:
    problem = ksolve.load_problem(PROBLEMS / "foster-1996.toml")
    with pytest.raises(ksolve.ProblemError, match="fog-of-war is won by capturing the king, but the "
                                                  "stipulation #2 asks for mate"):
        ksolve.solve(problem, rules="fog-of-war")
    with pytest.raises(ksolve.InputError, match="unknown rule set 'nope'"):
        ksolve.solve(problem, rules="nope")


def test_cli_rules_override_that_changes_the_goal_is_one_error_line() -> None:
    from click.testing import CliRunner

    from ksolve.cli import main

    result = CliRunner().invoke(main, ["solve", str(PROBLEMS / "foster-1996.toml"), "--rules", "fog-of-war"])
    assert result.exit_code == 2
    assert result.output.strip().startswith("ksolve: error: ") and "capturing the king" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_at_most_and_limits() -> None:
    problem = ksolve.load_problem_text(SMALL)
    assert ksolve.solve(problem, at_most=True).shortest is False
    unknown = ksolve.solve(ksolve.load_problem(PROBLEMS / "rotenberg-1976.toml"), limits=ksolve.Limits(nodes=50))
    assert unknown.status == "unknown" and "node limit" in unknown.reason


def test_both_searches_prove_the_same() -> None:
    problem = ksolve.load_problem(PROBLEMS / "foster-1996.toml")
    assert ksolve.solve(problem, search="dfs").key == ksolve.solve(problem, search="pn").key == "a8a4"


def test_games_from_python(tmp_path) -> None:
    import random

    from ksolve.games.model import Game, Turn
    from ksolve.games.pgn import write_game
    from ksolve.games.play import play_game, random_policy

    pgn = tmp_path / "game.pgn"
    game = play_game("berkeley", random_policy, random_policy, 4, random.Random(3),
                     fen="k7/8/1K6/8/8/8/8/7R w - - 0 1")
    pgn.write_text(write_game(game))
    read = ksolve.read_game(pgn)
    assert isinstance(read, Game) and all(isinstance(turn, Turn) for turn in read.turns)
    belief = ksolve.game_belief(read)
    assert len(belief) >= 1
    with pytest.raises(ksolve.InputError, match="cannot read"):
        ksolve.read_game(tmp_path / "missing.pgn")


def test_perft_and_referee_through_the_api() -> None:
    assert ksolve.perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3).total == 8902
    divided = ksolve.perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2, divide=True)
    assert len(divided.divided) == 20 and divided.total == 400
    with pytest.raises(ksolve.InputError, match="--fen"):
        ksolve.perft("8/8/8/8/8/8/8/K7 w - - 0 1", 1)
    answers = ksolve.referee_answers(ksolve.rule_set("wild16"), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
                                     ["e4e5", "e4d5"])
    assert answers[0] == ("White", "e4e5", "Silent") and answers[1][0] == "Black"


def test_results_show_themselves_in_jupyter() -> None:
    problem = ksolve.load_problem(PROBLEMS / "rotenberg-1976.toml")
    assert problem._repr_svg_().lstrip().startswith("<svg")
    small = ksolve.load_problem_text(SMALL)
    assert "solved" in ksolve.solve(small)._repr_html_()
    assert "Short solution" in ksolve.verify(small)._repr_html_()


def test_rule_sets_own_the_protocol() -> None:
    from ksolve.rules import RULE_SET_NAMES, get_rules
    from ksolve.rules.base import ASKED, FRESH, MUST_CAPTURE, MUST_TRY

    goals = {name: get_rules(name).goal for name in RULE_SET_NAMES}
    assert goals.pop("fog-of-war") == "king-capture" and set(goals.values()) == {"mate"}
    berkeley_any, english = get_rules("berkeley-any"), get_rules("english")
    assert berkeley_any.state_after_refusal(MUST_CAPTURE) == MUST_CAPTURE
    assert english.state_after_refusal(MUST_TRY) == ASKED
    problem = ksolve.load_problem(PROBLEMS / "foster-1996.toml")
    assert [state for state, _ in english.any_split(problem.belief().positions)] == [MUST_TRY, ASKED]
    assert [state for state, _ in berkeley_any.any_split(problem.belief().positions)] == [MUST_CAPTURE, ASKED]
    assert english.any_answer_words(MUST_TRY) == "Yes" and berkeley_any.any_answer_words(ASKED) == "No"
    assert not get_rules("berkeley").can_ask(FRESH) and english.can_ask(FRESH) and not english.can_ask(ASKED)
    assert [get_rules(name).kriegspiel_games for name in ("wild16", "orthodox", "fog-of-war")] == [True, False, False]


def _imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
    return modules


def test_the_cli_stands_on_the_api() -> None:
    forbidden = ("ksolve.board", "ksolve.rules.kernels", "ksolve.search", "ksolve.belief")
    for front_end in ("cli.py", "cli_support.py"):
        imported = _imported_modules(ROOT / "ksolve" / front_end)
        assert not [m for m in imported if m.startswith(forbidden)], (front_end, imported)


def test_nothing_outside_the_rules_tests_a_rule_set_name_or_class() -> None:
    completed = subprocess.run(
        ["grep", "-rnE", r"rules\.name ==|isinstance\([^)]*Rules|getattr\([^)]*rules", "ksolve"],
        cwd=ROOT, capture_output=True, text=True)
    offending = [line for line in completed.stdout.splitlines() if not line.startswith("ksolve/rules/")]
    assert offending == []


def test_readme_python_api_examples() -> None:
    failures, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
