"""ksolve compose: a fixed seed and small material give at least one sound
problem, verified and certified again here from its written file; the same
seed gives the same problems; the ranking's terms are printed; bad material
is one error line."""

from __future__ import annotations

from click.testing import CliRunner

import ksolve
from ksolve.cli import main
from ksolve.compose.compose import ComposeSpec, compose, parse_material, write_problems
from ksolve.compose.ranking import Ranking

SPEC = ComposeSpec(parse_material("KR v K"), ("p?:a-file",), moves=2, rules="berkeley", count=1, seed=1, batch=16,
                   seconds=30)


def test_compose_finds_a_sound_problem_with_a_hidden_unit(tmp_path) -> None:
    report = compose(SPEC)
    assert len(report.problems) == 1 and report.stages["sound"] >= 1
    assert report.candidates == sum(report.stages.values())
    [path] = write_problems(report, SPEC, tmp_path)
    problem = ksolve.load_problem(path)
    assert problem.hidden and problem.stipulation == "#2" and len(problem.belief()) > 1
    verification = ksolve.verify(problem)
    assert verification.verdict == "sound" and verification.published_key_matches
    assert not verification.short
    solution = ksolve.solve(problem, at_most=True)
    assert ksolve.check(problem, ksolve.certificate(problem, solution)).verified
    assert "Ranking" in problem.notes and "certificate checked" in problem.notes
    assert (tmp_path / "booklet.html").read_text().count(problem.id) >= 1


def test_the_same_seed_gives_the_same_problems() -> None:
    spec = ComposeSpec(parse_material("KQ v K"), (), moves=1, rules="berkeley", count=2, seed=5, batch=8)
    first, again = compose(spec), compose(spec)
    assert [p.text for p in first.problems] == [p.text for p in again.problems] and first.problems


def test_moves_of_near_misses_that_are_illegal_end_at_the_legality_check() -> None:
    spec = ComposeSpec(parse_material("KQ v K"), (), moves=2, rules="berkeley", count=50, seed=2, batch=16,
                       max_candidates=32)
    report = compose(spec)
    assert report.candidates == 32
    assert report.stages.get("verify", 0) > 0, "some candidates won in 2 but were cooked: their moves came next"
    assert report.stages.get("legal", 0) > 0, "some moved queen gave check: an illegal candidate, not an error"


def test_ranking_prefers_a_quiet_refused_key_and_economy() -> None:
    plain = Ranking(quiet=False, key_refused=False, no_branches=0, refutations=3, tries=10, men=4)
    fine = Ranking(quiet=True, key_refused=True, no_branches=2, refutations=3, tries=10, men=4)
    heavy = Ranking(quiet=True, key_refused=True, no_branches=2, refutations=3, tries=10, men=8)
    assert fine.score > heavy.score > plain.score
    assert fine.terms().startswith("quiet key +3, key refused in some positions +2, No branches 2 +2")


def test_compose_command_writes_problems_booklet_and_resumes(tmp_path) -> None:
    args = ["compose", "--material", "KR v K", "--hidden", "p?:a-file", "--moves", "2", "--count", "1",
            "--seed", "1", "--batch", "16", "-o", str(tmp_path)]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "score" in first.stdout and ("quiet key" in first.stdout or "key checks" in first.stdout)
    assert (tmp_path / "composed-01.toml").exists() and (tmp_path / "booklet.html").exists()
    rows = (tmp_path / "results.jsonl").read_text().splitlines()
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0
    assert (tmp_path / "results.jsonl").read_text().splitlines() == rows, "the re-run checked nothing again"
    assert again.stdout.splitlines()[1:] == first.stdout.splitlines()[1:]


def test_bad_material_is_one_error_line(tmp_path) -> None:
    result = CliRunner().invoke(main, ["compose", "--material", "KX v K", "--moves", "2", "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == "ksolve: error: --material: 'KX v K': unknown man 'X' (use K Q R B N P)"
    result = CliRunner().invoke(main, ["compose", "--material", "KR v K", "--hidden", "z:dark", "--moves", "2",
                                       "-o", str(tmp_path)])
    assert result.exit_code == 2 and result.stderr.startswith("ksolve: error: --hidden: hidden unit 'z:dark'")
