"""The booklet: a folder of problems on one HTML page (``ksolve report DIR --format html``)."""

from __future__ import annotations

import ksolve

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksolve.cli import main
from ksolve.problem import load_problem
from ksolve.report.booklet import BookletEntry, render_booklet
from ksolve.solver import solve
from ksolve.verification import verify
from test_reports import check_html

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
FAST = ("foster-1996.toml", "anderson-05.toml", "anderson-27.toml")
"""Problems solved and verified in about a second each; anderson-27 is cooked."""


@pytest.fixture(scope="module")
def entries() -> list[BookletEntry]:
    found = []
    for name in FAST:
        problem = load_problem(PROBLEMS / name)
        solution, verification = solve(problem), verify(problem, tries=3)
        found.append(BookletEntry(problem, solution, verification, ksolve.key_solutions(problem, solution, verification)))
    return found


def test_booklet_indexes_every_problem_with_its_verdict(entries) -> None:
    page = render_booklet(entries, "Three problems")
    checker = check_html(page)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # several problems, no id twice
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    assert len(rows) == len(FAST) == checker.counts["article"]
    for row, entry in zip(rows, entries):
        target = re.search(r'href="#([^"]+)"', row).group(1)
        assert f'<article class="problem" id="{target}">' in page and entry.problem.name in row
        assert {"sound": "Sound", "cooked": "Cooked"}[entry.verification.verdict] in row
        for key in entry.verification.keys:
            assert f'<span class="move">1.{key.label}!</span>' in row
    assert page.count("<h1>") == 1 and page.count('<section class="result">') == len(FAST)


def test_booklet_draws_each_key_of_a_cooked_problem(entries) -> None:
    page = render_booklet(entries)
    cooked = page.split('<article class="problem" id="anderson-27">')[1].split("</article>")[0]
    assert 'id="anderson-27-solution"' in cooked and 'id="anderson-27-key-2"' in cooked
    assert '<a href="#anderson-27-key-2">' in cooked


def test_booklet_keeps_anchors_unique_for_the_same_problem_twice(entries) -> None:
    page = render_booklet([entries[0], entries[0]])
    assert 'id="foster-1996"' in page and 'id="foster-1996-2"' in page and 'id="foster-1996-2-solution"' in page


def _folder(tmp_path: Path, names: tuple[str, ...]) -> Path:
    folder = tmp_path / "collection"
    folder.mkdir()
    for name in names:
        shutil.copy(PROBLEMS / name, folder / name)
    return folder


def test_cli_writes_one_booklet_for_a_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path, FAST[:2])
    out = tmp_path / "booklet.html"
    result = CliRunner().invoke(main, ["report", str(folder), "--format", "html", "-o", str(out),
                                       "--timeout", "60"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    check_html(page)
    assert page.count("<article") == 2 and "<h1>collection</h1>" in page
    assert "[2/2] foster-1996.toml: sound" in result.output


@pytest.mark.parametrize("output_format", ["text", "json", "dot"])
def test_cli_other_formats_of_a_folder_are_one_error_line(tmp_path: Path, output_format: str) -> None:
    folder = _folder(tmp_path, FAST[:1])
    result = CliRunner().invoke(main, ["report", str(folder), "--format", output_format])
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"ksolve: error: {folder}: a folder makes one HTML booklet: use --format html (not {output_format})"]


def test_cli_empty_folder_is_one_error_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["report", str(tmp_path), "--format", "html"])
    assert result.exit_code == 2 and result.output.splitlines() == [
        f"ksolve: error: {tmp_path}: no problem files (*.toml) in this folder"]
