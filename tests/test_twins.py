"""Twins (``[[twin]]``): each a whole problem with its own belief, solved and
certified on its own, its certificate naming the twin so that the checker
(which applies the twin's changes to the file itself) replays the right one."""

from __future__ import annotations

import pytest

from ksolve.certificates import certificate
from ksolve.checker import check_certificate_text
from ksolve.problem import ProblemError, load_problem_text
from ksolve.report.text import render_solution_text
from ksolve.solver import NO_SOLUTION, SOLVED, solve

TWINS = """\
id = "demo"
stipulation = "#2"
rules = "berkeley"
[position]
fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"
[[twin]]
name = "b"
fen = "1k6/8/1K6/8/8/8/8/7R w - - 0 1"
note = "the black king on b8"
[[twin]]
stipulation = "#1"
hidden = ["p?:a7"]
note = "perhaps a black pawn on a7, mate in 1"
"""


def test_each_twin_is_a_problem_of_its_own() -> None:
    problem = load_problem_text(TWINS)
    members = problem.with_twins()
    assert [(p.id, p.twin, p.stipulation, len(p.belief())) for p in members] == [
        ("demo", "", "#2", 1), ("demo-b", "b", "#2", 1), ("demo-c", "c", "#1", 2)]
    assert members[1].fen.startswith("1k6") and members[2].fen == problem.fen


def test_twins_are_solved_and_their_certificates_replayed_as_that_twin() -> None:
    problem = load_problem_text(TWINS)
    results = {p.twin: solve(p) for p in problem.with_twins()}
    assert [(r.status, r.moves) for r in results.values()] == [(SOLVED, 1), (SOLVED, 1), (NO_SOLUTION, None)]
    twin_b = problem.twins[0]
    proof = certificate(twin_b, results["b"])
    assert (proof["twin"], proof["problem_id"]) == ("b", "demo-b")
    assert check_certificate_text(TWINS, proof).verified
    # Twin b's strategy claimed for twin c: the checker builds twin c's positions itself (with the
    # pawn on a7 White's king is in check and 1.Rh1-h8 is illegal there) and rejects it.
    wrong = {**proof, "twin": "c", "problem_id": "demo-c"}
    assert not check_certificate_text(TWINS, wrong).verified


def test_twin_shown_in_the_report() -> None:
    twin = load_problem_text(TWINS).twins[0]
    assert "Twin b: the black king on b8" in render_solution_text(twin, solve(twin))


@pytest.mark.parametrize("twin,field,reason", [
    ('[[twin]]\nname = "b"\nfenn = "x"\n', "twin[1].fenn", "unknown field"),
    ('[[twin]]\nname = "b c"\n', "twin[1].name", "must be a short name"),
    ('[[twin]]\nfen = "k7/8/8/8/8/8/8/7R w - - 0 1"\n', "twin[1] (b): position.fen", "no white king"),
    ('[[twin]]\nstipulation = "#0"\n', "twin[1] (b): stipulation", "must be 1 to"),
    ('twin = 3\n', "twin", "must be [[twin]] tables"),
])
def test_bad_twins_are_one_line_errors(twin: str, field: str, reason: str) -> None:
    text = twin + TWINS.split("[[twin]]")[0] if twin.startswith("twin =") else TWINS.split("[[twin]]")[0] + twin
    with pytest.raises(ProblemError) as caught:
        load_problem_text(text, "bad.toml")
    assert caught.value.field_name == field and reason in caught.value.reason, caught.value


def test_the_command_line_solves_a_named_twin_and_verifies_each(tmp_path) -> None:
    """``solve --twin NAME`` solves that twin (without it: the problem as
    printed, naming the twins on stderr); ``verify`` gives each twin its row."""
    import json

    from click.testing import CliRunner

    from ksolve.cli import main

    path = tmp_path / "demo.toml"
    path.write_text(TWINS)
    runner = CliRunner()
    printed = runner.invoke(main, ["solve", str(path), "--json"])
    assert printed.exit_code == 0 and "has twins b, c: --twin NAME solves one" in printed.stderr
    twin = runner.invoke(main, ["solve", str(path), "--twin", "c", "--json"])
    assert twin.exit_code == 1 and json.loads(twin.stdout)["status"] == "no solution"
    missing = runner.invoke(main, ["solve", str(path), "--twin", "z"])
    assert missing.exit_code == 2
    assert missing.stderr.strip() == f"ksolve: error: --twin: {path} has no twin 'z' (its twins: b, c)"
    verified = runner.invoke(main, ["verify", str(path), "--json"])
    assert [(row["id"], row["verdict"]) for row in json.loads(verified.stdout)] == [
        ("demo", "short solution"), ("demo-b", "short solution"), ("demo-c", "no solution")]


def test_a_twin_without_its_own_key_has_no_published_key() -> None:
    text = TWINS.replace('[position]', '[published]\nkey = "h1h8"\n[position]', 1)
    members = load_problem_text(text).with_twins()
    assert [member.published_key for member in members] == ["h1h8", None, None]
    keyed = load_problem_text(text.replace('name = "b"\n', 'name = "b"\nkey = "h1h7"\n'))
    assert keyed.twins[0].published_key == "h1h7"


def test_the_checker_reads_a_twin_of_a_file_whose_position_is_not_a_table() -> None:
    """A one-line error naming the field, not a traceback."""
    from ksolve.checker.problem import ProblemFileError

    problem = load_problem_text(TWINS)
    proof = certificate(problem.twins[0], solve(problem.twins[0]))
    bad = TWINS.replace('[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n', 'position = "abc"\n')
    with pytest.raises(ProblemFileError, match="^<problem>: position: missing table$"):
        check_certificate_text(bad, proof)
