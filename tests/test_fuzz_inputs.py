"""Fuzzing the inputs: hundreds of mutated problem files, certificates and
Kriegspiel games (a seeded mutator over the bundled ones: bytes flipped,
lines dropped or repeated, values replaced by values of other types) give
either a normal result or one ``InputError`` line naming the file, never
another exception; a sample goes through the command line, which must exit
0, 1 or 3 with a result, or 2 with exactly one ``ksolve: error:`` line."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksolve.checker import CertificateError, ProblemFileError, check_certificate
from ksolve.checker.problem import read_problem
from ksolve.cli import main
from ksolve.errors import InputError
from ksolve.games.pgn import PGNError, read_game_file
from ksolve.problem import load_problem

ROOT = Path(__file__).resolve().parent.parent
SEED = 12
PROBLEMS = sorted((ROOT / "problems").glob("*.toml"))
GAMES = sorted((ROOT / "examples").glob("*.pgn")) + sorted((ROOT / "benchmarks/generated/ply5/mate").glob("*.pgn"))[:5]
VALUES = ['42', '-5', 'true', '""', '"x"', '[1, "a"]', '{ a = 1 }', '1.5', '1979-05-27', '99999999999999999999',
          '"b:dark"', '"k:e2,e5"', '"p?:a-file"', '"#0"', '"xk2"', '"fog-of-war"', '"orthodox"', '"8/8/8/8 w"',
          '["b:light", "n:h-file"]', '"K:any"', '"k7/8/1K6/8/8/8/8/7R w KQ e3 0 1"']
"""Values a mutation puts in place of a field's value (no hidden unit with millions of placements)."""
LIMIT = 2_000
"""Search nodes of a command-line solve of a mutated input."""


def mutate_text(data: bytes, rng: random.Random) -> bytes:
    """One random mutation of a text file's bytes."""
    lines = data.split(b"\n")
    kind = rng.choice([0, 1, 2, 3, 3, 3, 3, 4, 5, 5, 5, 6])  # mostly values and characters, some raw bytes
    if kind == 0:  # flip a byte
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.randrange(256)]) + data[at + 1:]
    if kind == 1:  # drop a line
        del lines[rng.randrange(len(lines))]
    elif kind == 2:  # repeat a line
        at = rng.randrange(len(lines))
        lines.insert(at, lines[at])
    elif kind == 3:  # another value
        candidates = [i for i, line in enumerate(lines) if b"=" in line]
        if candidates:
            at = rng.choice(candidates)
            lines[at] = lines[at].split(b"=")[0] + b"= " + rng.choice(VALUES).encode()
    elif kind == 4:  # cut the file short
        return data[:rng.randrange(len(data))]
    elif kind == 5:  # change one character of a FEN, a square or a move
        at = rng.randrange(len(data))
        return data[:at] + rng.choice(b"12345678abcdefghkqrbnpKQRBNP/ -#:x").to_bytes(1, "big") + data[at + 1:]
    else:  # random bytes in the middle
        at = rng.randrange(len(data))
        return data[:at] + rng.randbytes(rng.randrange(1, 8)) + data[at:]
    return b"\n".join(lines)


def mutations(sources: list[Path], count: int, seed: int) -> list[tuple[str, bytes]]:
    """``count`` mutated files (one to three mutations each), seeded."""
    rng = random.Random(seed)
    found = []
    for number in range(count):
        source = rng.choice(sources)
        data = source.read_bytes()
        for _ in range(rng.choice([1, 1, 2, 3])):
            data = mutate_text(data, rng) or b" "
        found.append((f"{number:03d}-{source.name}", data))
    return found


def assert_one_line(error: Exception, path: Path) -> None:
    message = str(error)
    assert "\n" not in message and message.startswith(str(path)), message


@pytest.mark.parametrize("chunk", range(4))
def test_mutated_problem_files_load_or_name_the_error(tmp_path: Path, chunk: int) -> None:
    for name, data in mutations(PROBLEMS, 100, SEED + chunk):
        path = tmp_path / name
        path.write_bytes(data)
        try:
            problem = load_problem(path)
        except InputError as error:
            assert_one_line(error, path)
        else:
            assert len(problem.belief()) >= 1
        try:
            read_problem(path)
        except ProblemFileError as error:
            assert_one_line(error, path)


def mutate_json(value, rng: random.Random):
    """The certificate with one node, list or value changed."""
    value = copy.deepcopy(value)
    paths = []

    def walk(node, parent, key):
        paths.append((parent, key))
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, node, k)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, node, i)

    walk(value, None, None)
    parent, key = rng.choice(paths[1:])
    replacement = rng.choice([None, 0, -1, 1.5, True, "", "win", "h1h8", "any", "e9e9", [], {}, [[{}, "win"]],
                              {"attempt": "a1a2"}, {"ask": "any"}, {"replies": []}, {"end": "checkmate"}])
    if rng.random() < 0.3 and isinstance(parent, list):
        del parent[key]
    elif rng.random() < 0.3 and isinstance(parent, dict):
        del parent[key]
    else:
        parent[key] = replacement
    return value


@pytest.fixture(scope="module")
def foster_certificate() -> dict:
    import ksolve

    problem = ksolve.load_problem(ROOT / "problems" / "foster-1996.toml")
    return ksolve.certificate(problem, ksolve.solve(problem))


def test_mutated_certificates_check_or_name_the_error(foster_certificate: dict) -> None:
    rng = random.Random(SEED)
    problem = ROOT / "problems" / "foster-1996.toml"
    for _ in range(150):
        certificate = mutate_json(foster_certificate, rng)
        try:
            result = check_certificate(problem, certificate)
        except CertificateError as error:
            assert "\n" not in str(error), error
        else:
            assert result.verified or result.reason, result


def test_mutated_certificate_files_check_or_name_the_error(tmp_path: Path, foster_certificate: dict) -> None:
    source = tmp_path / "foster.json"
    source.write_text(json.dumps(foster_certificate, indent=1))
    problem = ROOT / "problems" / "foster-1996.toml"
    for name, data in mutations([source], 100, SEED):
        path = tmp_path / name
        path.write_bytes(data)
        result = CliRunner().invoke(main, ["check", str(problem), str(path)])
        assert_cli(result, path)


@pytest.mark.parametrize("chunk", range(2))
def test_mutated_games_read_or_name_the_error(tmp_path: Path, chunk: int) -> None:
    for name, data in mutations(GAMES, 100, SEED + chunk):
        path = tmp_path / name
        path.write_bytes(data)
        try:
            read_game_file(str(path))
        except PGNError as error:
            assert_one_line(error, path)


def assert_cli(result, path: Path) -> None:
    """A normal result (exit 0, 1, 3) or one error line naming ``path`` or an option (exit 2)."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (path, result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2, 3), (path, result.exit_code, result.output)
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and re.match(r"ksolve: error: (\S*" + re.escape(path.name) + r"|--?\w)", lines[0]), (
            path, result.stderr)


def test_the_command_line_on_mutated_problems_and_games(tmp_path: Path) -> None:
    runner = CliRunner()
    for name, data in mutations(PROBLEMS, 40, SEED + 7):
        path = tmp_path / name
        path.write_bytes(data)
        assert_cli(runner.invoke(main, ["solve", str(path), "--timeout", "2", "--max-nodes", str(LIMIT)]), path)
    for name, data in mutations(GAMES, 40, SEED + 8):
        path = tmp_path / name
        path.write_bytes(data)
        command = random.Random(name).choice([["filter"], ["belief"], ["solve", "--ply", "3", "--timeout", "2"]])
        assert_cli(runner.invoke(main, [command[0], str(path), *command[1:]]), path)


NESTED = {"arrays": "notes = " + "[" * 3000 + "]" * 3000, "inline tables": "notes = " + "{a = " * 5000 + "1" + "}" * 5000}
"""TOML nested deeper than the parser's recursion allows (issue 43: a traceback of 2,999 lines, and HTTP 500)."""


@pytest.mark.parametrize("kind", sorted(NESTED))
def test_deep_nesting_is_one_line_and_422_on_the_web(kind: str, tmp_path: Path) -> None:
    from starlette.testclient import TestClient
    from web_answers import one_line_error

    from ksolve.problem import ProblemError, load_problem_text
    from ksolve.web.app import create_app

    text = f'{NESTED[kind]}\nstipulation = "#1"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'
    with pytest.raises(ProblemError, match=r"^<problem>: toml: arrays or tables nested too deeply"):
        load_problem_text(text)
    with TestClient(create_app(tmp_path, max_running=1, max_queued=1, max_body=64 * 1024)) as client:
        line = one_line_error(client.post("/api/problems/check", json={"problem": text}), 422)
    assert "nested too deeply" in line


def test_library_errors_name_settings_not_command_line_options() -> None:
    """The web workbench shows the library's line: a budget is "the memory
    budget", never ``--max-memory`` (the command line adds its option)."""
    from ksolve.problem import ProblemError, load_problem_text
    from ksolve.resources import Resources
    from ksolve.search.memory import BudgetTooSmall, MemoryPlan

    huge = ('stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"\n'
            'hidden = ["q:any", "r:any", "b:any", "n:any"]\n')
    with pytest.raises(ProblemError) as raised:
        load_problem_text(huge, resources=Resources(1 << 30))
    assert raised.value.setting == "memory" and "over the memory budget of 1.0 GB" in str(raised.value)
    with pytest.raises(BudgetTooSmall) as too_small:
        MemoryPlan.for_budget(100 << 20, in_use=90 << 20, workers=2)
    for error in (raised.value, too_small.value):
        assert "--" not in str(error), str(error)
