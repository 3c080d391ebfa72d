"""ksolve mend: a small cooked problem built here is repaired by adding a man,
each fix keeps the author's key, is sound by an independent verification of
its file and has its certificate replayed by the checker; fixes come
smallest first; the command writes them and resumes its results file."""

from __future__ import annotations

import json

from click.testing import CliRunner

import ksolve
from ksolve.cli import main
from ksolve.compose.mend import mend

COOKED = ('title = "Two kings and a rook"\nstipulation = "#2"\nrules = "berkeley"\n[position]\n'
          'fen = "k7/8/2K5/8/8/8/8/7R w - - 0 1"\n[published]\nkey = "c6b6"\n')
"""Mate in 2 by 1.Kb6 (then 2.Rh8#), cooked by 1.Kc7 (then 2.Ra1# or 2.Rh8#)."""
SHORT = ('stipulation = "#3"\nrules = "berkeley"\n[position]\n'
         'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n[published]\nkey = "h1h8"\n')
"""1.Rh8 mates at once: a #3 with a short solution."""


def test_the_cooked_problem_is_cooked() -> None:
    report = ksolve.verify(ksolve.load_problem_text(COOKED))
    assert report.verdict == "cooked"
    assert sorted(key.move for key in report.keys) == ["c6b6", "c6c7"]


def test_mend_adds_a_man_that_refutes_the_cook() -> None:
    problem = ksolve.load_problem_text(COOKED)
    report = mend(problem, kinds=("add",), seconds=30, max_fixes=None)
    assert report.cooks == ["c6c7"] and report.original == "cooked"
    assert report.fixes, "some added man makes 1.Kb6 the only key"
    assert [fix.edit.sort_key for fix in report.fixes] == sorted(fix.edit.sort_key for fix in report.fixes)
    for fix in report.fixes[:2]:
        fixed = ksolve.load_problem_text(fix.edit.text)
        verification = ksolve.verify(fixed)
        assert verification.verdict == "sound" and [key.move for key in verification.keys] == ["c6b6"]
        solution = ksolve.solve(fixed, at_most=True)
        assert ksolve.check(fixed, ksolve.certificate(fixed, solution)).verified
        assert fix.certified
    pawns = [fix.edit.describe() for fix in report.fixes if fix.edit.cost == 1]
    assert pawns and all(name.startswith("add P") or name.startswith("add p") for name in pawns)


def test_mend_finds_no_fix_when_every_change_keeps_a_cook() -> None:
    report = mend(ksolve.load_problem_text(SHORT), kinds=("stipulation", "remove"), seconds=30)
    assert report.original == "short solution"
    assert len(report.cooks) > 10, "in three moves every rook move mates"
    assert report.fixes == [] and report.stages == {"cooks": 2}  # #2 and #4: the other rook moves still mate


def test_mend_command_writes_the_fixes_and_resumes(tmp_path) -> None:
    source = tmp_path / "short.toml"
    source.write_text(SHORT.replace('"#3"', '"#2"'))
    out = tmp_path / "mended"
    first = CliRunner().invoke(main, ["mend", str(source), "--kinds", "stipulation", "-o", str(out)])
    assert first.exit_code == 0, first.output
    assert "stipulation #1" in first.stdout and "certificate checked" in first.stdout
    fixed = ksolve.load_problem(out / "short-mend1.toml")
    assert fixed.stipulation == "#1" and "Mended by ksolve mend: stipulation #1" in fixed.notes
    assert ksolve.verify(fixed).verdict == "sound"
    rows = (out / "short-mend.jsonl").read_text().splitlines()
    again = CliRunner().invoke(main, ["mend", str(source), "--kinds", "stipulation", "-o", str(out)])
    assert again.stdout.splitlines()[1:] == first.stdout.splitlines()[1:]  # the first line ends with the time
    assert (out / "short-mend.jsonl").read_text().splitlines() == rows, "the re-run checked nothing again"
    assert all(json.loads(row)["status"] == "done" for row in rows)


def test_mend_bad_kind_and_missing_key_are_one_error_line(tmp_path) -> None:
    source = tmp_path / "nokey.toml"
    source.write_text(COOKED.split("[published]")[0])
    result = CliRunner().invoke(main, ["mend", str(source), "--kinds", "shuffle"])
    assert result.exit_code == 2 and result.stderr.strip().startswith("ksolve: error: --kinds: unknown kind 'shuffle'")
    result = CliRunner().invoke(main, ["mend", str(source)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"ksolve: error: {source}: published.key: no key to keep (give --key)"
