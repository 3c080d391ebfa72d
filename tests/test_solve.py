"""ksolve solve: results, exit codes, JSON, limits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksolve.cli import main
from ksolve.problem import load_problem_text
from ksolve.solver import solve

FOSTER = '''
title = "Foster 1996"
stipulation = "#2"
rules = "berkeley"
[position]
fen = "R7/5PP1/1B4KP/1N6/1Q2B1P1/6P1/P1N2P1P/3R4 w - - 0 1"
hidden = ["k:e2,e5,e6,h3,a6", "p?:a-file"]
[published]
key = "a8a4"
'''


@pytest.fixture()
def foster_file(tmp_path: Path) -> Path:
    path = tmp_path / "foster.toml"
    path.write_text(FOSTER)
    return path


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_foster_is_solved_with_the_published_key(foster_file: Path) -> None:
    result = run("solve", foster_file)
    assert result.exit_code == 0, result.output
    assert "White mates in 2. Key 1.Ra4! (the published key)" in result.stdout
    assert "\n1.Ra4! 2.Qd6#\n" in result.stdout
    for mate in ("2.Qd6#", "2.Nc7#", "2.Bc7#", "2.Qe7#"):  # the four silent-branch mates
        assert mate in result.stdout


def test_json_result(foster_file: Path) -> None:
    result = run("solve", foster_file, "--json")
    data = json.loads(result.stdout)
    assert (data["status"], data["moves"], data["key"], data["belief_size"]) == ("solved", 2, "a8a4", 25)
    assert data["tree"]["nodes"][0]["kind"] == "white"


def test_no_solution_in_fewer_moves_exits_1(foster_file: Path) -> None:
    result = run("solve", foster_file, "--moves", "1")
    assert result.exit_code == 1
    assert "No solution: White cannot force mate in 1 or fewer moves." in result.stdout


def test_node_limit_gives_unknown_exit_3(tmp_path: Path) -> None:
    path = tmp_path / "rotenberg.toml"
    path.write_text(FOSTER.replace("R7/5PP1/1B4KP/1N6/1Q2B1P1/6P1/P1N2P1P/3R4", "8/8/5B2/8/8/3N4/R6p/5K1k")
                    .replace('"k:e2,e5,e6,h3,a6", "p?:a-file"', '"b:dark"').replace("#2", "#8")
                    .replace('key = "a8a4"', 'key = "a2g2"'))  # Foster's key is no move here
    result = run("solve", path, "--max-nodes", "1000")
    assert result.exit_code == 3
    assert "Not decided: node limit 1,000 reached" in result.stdout


def test_bad_file_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(FOSTER.replace('rules = "berkeley"', 'rules = "nope"'))
    result = run("solve", path)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"ksolve: error: {path}: rules: unknown rule set 'nope'; valid: berkeley, berkeley-any, english, "
        "cincinnati, rand, wild16, orthodox, fog-of-war, modern"]


def _certified(tmp_path: Path, text: str, result) -> bool:
    """Whether the independent checker verifies the result's certificate."""
    from ksolve.certificates import certificate
    from ksolve.checker import check_certificate

    path = tmp_path / "problem.toml"
    path.write_text(text)
    checked = check_certificate(path, certificate(load_problem_text(text), result))
    return checked.verified


def test_initial_pawn_tries_split_the_belief(tmp_path: Path) -> None:
    """Under Wild 16 White hears his pawn tries before the first attempt."""
    text = ('stipulation = "#1"\nrules = "wild16"\n[position]\n'
            'fen = "k7/8/KP6/8/8/8/8/8 w - - 0 1"\nhidden = ["n:a7,d7"]\n')
    result = solve(load_problem_text(text))
    assert sorted(result.classes) == [("1 pawn try", 1), ("Silent", 1)]  # the ICC's words: no "0 pawn tries"
    assert result.status == "no solution"  # no mate in 1 in either class


def test_fog_of_war_king_capture_split_by_what_white_sees(tmp_path: Path) -> None:
    """Fog of War: a hidden king may stand attacked; White's first view splits the belief."""
    text = ('stipulation = "xk2"\nrules = "fog-of-war"\n[position]\n'
            'fen = "8/8/8/8/8/8/8/R3K3 w - - 0 1"\nhidden = ["k:a5,a8"]\n')
    result = solve(load_problem_text(text))
    assert result.status == "solved" and result.moves == 1
    assert [size for _, size in result.classes] == [1, 1]
    keys = sorted(data["move"] for _, _, data in result.tree.edges(data=True) if data["kind"] == "attempt")
    assert keys == ["a1a5", "a1a8"]
    assert _certified(tmp_path, text, result)
