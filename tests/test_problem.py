"""Problem files: every bad field is one clear error naming file, field and reason."""

from __future__ import annotations

import pytest

from ksolve.problem import ProblemError, load_problem, load_problem_text

GOOD = '''
title = "t"
stipulation = "#2"
rules = "berkeley"
[position]
fen = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
hidden = ["b:dark"]
[published]
key = "a2g2"
'''


def test_a_good_file_loads() -> None:
    problem = load_problem_text(GOOD, "good.toml")
    assert (problem.moves, problem.goal, problem.rules.name, problem.published_key) == (2, "mate", "berkeley", "a2g2")
    assert len(problem.belief()) == 30


def test_hidden_units_as_tables() -> None:
    text = GOOD.replace('hidden = ["b:dark"]', 'hidden = [{piece = "b", squares = ["b2", "d2", "f2"]}]')
    assert len(load_problem_text(text).belief()) == 3


def test_explicit_positions() -> None:
    text = GOOD.replace('fen = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"\nhidden = ["b:dark"]',
                        'positions = ["8/8/5B2/8/8/3N4/Rb5p/5K1k w - - 0 1", "8/8/5B2/8/8/3N4/R2b3p/5K1k w - - 0 1"]')
    assert len(load_problem_text(text).belief()) == 2


@pytest.mark.parametrize("change,field,reason", [
    (('stipulation = "#2"', 'stipulation = "mate in two"'), "stipulation", "is not '#N'"),
    (('stipulation = "#2"', 'stipulation = "#0"'), "stipulation", "1 to 60"),
    (('stipulation = "#2"\n', ''), "stipulation", "missing"),
    (('rules = "berkeley"', 'rules = "bekreley"'), "rules", "unknown rule set 'bekreley'; valid: berkeley"),
    (('rules = "berkeley"', 'rules = "fog-of-war"'), "stipulation", "capture the king"),
    (('fen = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"', 'fen = "8/8/5B2/8/8/3N4/R6p/5K1k x - - 0 1"'),
     "position.fen", "invalid FEN"),
    (('fen = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"', 'fen = "8/8/5B2/8/8/3N4/R6p/5K1k b - - 0 1"'),
     "position.fen", "White must be to move"),
    (('hidden = ["b:dark"]', 'hidden = ["x:dark"]'), "position.hidden[1]", "unknown piece 'x'"),
    (('hidden = ["b:dark"]', 'hidden = ["b:f6"]'), "position.hidden", "none of its squares is empty"),
    (('hidden = ["b:dark"]', 'hidden = ["k:e4", "k:e4"]'), "position.hidden", "is a second black king"),
    (('hidden = ["b:dark"]', 'hidden = ["Q:g2"]'), "position.hidden", "no legal position"),
    (('hidden = ["b:dark"]', 'hidden = ["q:any", "r:any", "b:any", "n:any", "p:any"]'),
     "position.hidden", "over the memory budget"),
    (('key = "a2g2"', 'key = "Rg2"'), "published.key", "is not a UCI move"),
    (('title = "t"', 'titel = "t"'), "titel", "unknown field"),
    (('[published]', '[publishd]'), "publishd", "unknown field"),
])
def test_bad_fields_are_named(change: tuple[str, str], field: str, reason: str) -> None:
    text = GOOD.replace(*change)
    with pytest.raises(ProblemError) as error:
        load_problem_text(text, "bad.toml")
    assert str(error.value).startswith(f"bad.toml: {field}: ")
    assert reason in str(error.value)


def test_broken_toml_and_missing_file() -> None:
    with pytest.raises(ProblemError, match="bad.toml: toml: "):
        load_problem_text("stipulation = ", "bad.toml")
    with pytest.raises(ProblemError, match="nowhere.toml: file: "):
        load_problem("nowhere.toml")
