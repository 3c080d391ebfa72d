"""Every bad input of issue 12 gets exactly one line ``ksolve: error: <file or
option>: <reason>`` on stderr and exit code 2, before any long work (nothing
on stdout, no progress line), never a traceback; the README's "Errors" table
shows these lines as printed, and the README's example commands run on the
games in ``examples/``."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ROTENBERG = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
VALID = ("berkeley, berkeley-any, english, cincinnati, rand, wild16, orthodox, fog-of-war, modern")


def problem(fen: str, *, before: str = "", fen_line: str | None = None) -> bytes:
    """A problem file (#2, Berkeley) with the visible position ``fen``."""
    return (f'{before}stipulation = "#2"\nrules = "berkeley"\n[position]\n'
            f'{fen_line or f"fen = {chr(34)}{fen}{chr(34)}"}\n').encode()


CASES = [
    # (id, {file name: bytes}, command, the one line)
    ("latin-1 problem", {"bad.toml": 'title = "café"\n'.encode("latin-1") + problem("k7/8/1K6/8/8/8/8/7R w - - 0 1")},
     "solve bad.toml",
     "bad.toml: file: line 1, column 13: byte 0xe9 is not UTF-8 (save the file as UTF-8)"),
    ("binary problem", {"binary.toml": bytes(range(256)) * 2}, "solve binary.toml",
     "binary.toml: file: line 1, column 1: control byte 0x00: binary data, not a text file"),
    ("binary certificate", {"binary.json": b"\x89PNG\r\n\x1a\n\x00\x00"},
     "check problems/foster-1996.toml binary.json",
     "binary.json: line 2, column 1: control byte 0x1a: binary data, not a text file"),
    ("latin-1 certificate", {"cert.json": '{"problem": "café"}'.encode("latin-1")},
     "check problems/foster-1996.toml cert.json",
     "cert.json: line 1, column 17: byte 0xe9 is not UTF-8 (save the file as UTF-8)"),
    ("not a certificate", {"cert.json": b"{}"}, "check problems/foster-1996.toml cert.json",
     "cert.json: format: expected 'ksolve-certificate', got None"),
    ("latin-1 game", {"bad.pgn": '[Event "café"]\n'.encode("latin-1")}, "filter bad.pgn",
     "bad.pgn:1:12: byte 0xe9 is not UTF-8 (save the file as UTF-8)"),
    ("binary game", {"binary.pgn": b"\x1f\x8b\x08\x00"}, "solve binary.pgn --ply 3",
     "binary.pgn:1:1: control byte 0x1f: binary data, not a text file"),
    ("report to a missing folder", {}, "report problems/rotenberg-1976.toml --format html -o /no/such/dir/r.html",
     "-o: cannot write /no/such/dir/r.html: no such folder /no/such/dir"),
    ("certificate to a missing folder", {}, "solve problems/rotenberg-1976.toml --certificate /no/such/dir/c.json",
     "--certificate: cannot write /no/such/dir/c.json: no such folder /no/such/dir"),
    ("heatmap to a missing folder", {}, "belief examples/game.pgn -o /no/such/dir/heatmap.svg",
     "-o: cannot write /no/such/dir/heatmap.svg: no such folder /no/such/dir"),
    ("filtered game to a missing folder", {}, "filter examples/game.pgn -o /no/such/dir/white.pgn",
     "-o: cannot write /no/such/dir/white.pgn: no such folder /no/such/dir"),
    ("generate into a file", {"stats": b""}, "generate --games 1 --ply 3 -o stats",
     "-o: directory 'stats' is a file"),
    ("generate below a file", {"stats": b""}, "generate --games 1 --ply 3 -o stats/ply3",
     "-o: cannot write stats/ply3: stats is a file, not a folder"),
    ("report over a folder", {}, "report problems/foster-1996.toml -o problems",
     "-o: file 'problems' is a directory"),
    ("two white kings", {"bad.toml": problem("4k3/8/8/8/8/8/8/K3K3 w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: two white kings (a1, e1): each side has exactly one king"),
    ("no white king", {"bad.toml": problem("4k3/8/8/8/8/8/8/7R w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: no white king: each side has exactly one king"),
    ("no black king", {"bad.toml": problem("8/8/8/8/8/8/8/4K2R w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: no black king: each side has exactly one king"),
    ("a white pawn on the first rank", {"bad.toml": problem("4k3/8/8/8/8/8/8/P3K3 w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: a white pawn on a1: pawns never stand on the first or eighth rank"),
    ("nine white pawns", {"bad.toml": problem("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: 9 white pawns: a side has at most 8"),
    ("17 black men", {"bad.toml": problem("nnnnknnn/pppppppp/n7/8/8/8/8/4K3 w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: 17 black men: a side has at most 16"),
    ("the side not to move in check", {"bad.toml": problem("k7/8/8/8/8/8/8/R3K3 w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: Black, not to move, is in check from the rook on a1: the side that has just "
     "moved cannot be in check"),
    ("a check no hidden unit can block", {"bad.toml": problem("k7/8/8/8/8/8/8/R3K3 w - - 0 1").replace(
        b'- 0 1"', b'- 0 1"\nhidden = ["n:h-file"]')}, "solve bad.toml",
     "bad.toml: position.fen: Black, not to move, is in check from the rook on a1 (and no hidden unit can stand "
     "between): the side that has just moved cannot be in check"),
    ("a second hidden king", {"bad.toml": problem("4k3/8/8/8/8/8/8/4K3 w - - 0 1").replace(
        b'- 0 1"', b'- 0 1"\nhidden = ["k:a-file"]')}, "solve bad.toml",
     "bad.toml: position.hidden: hidden unit 'k:a-file' is a second black king (one stands on e8): each side "
     "has exactly one king"),
    ("castling rights without king and rook", {"bad.toml": problem("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1")},
     "solve bad.toml", "bad.toml: position.fen: castling right K without the white king on e1 and a rook on h1"),
    ("an impossible en-passant square", {"bad.toml": problem("4k3/8/8/8/8/8/8/4K3 w - e6 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: en-passant square e6: impossible unless a black pawn stands on e5 with e6 and e7 "
     "empty (it has just come from there)"),
    ("year = -5", {"bad.toml": problem("k7/8/1K6/8/8/8/8/7R w - - 0 1", before="year = -5\n")}, "solve bad.toml",
     "bad.toml: year: must be a year such as 1976 (1000 to 2999), got -5"),
    ("fen = 42", {"bad.toml": problem("", fen_line="fen = 42")}, "solve bad.toml",
     "bad.toml: position.fen: must be a string (a FEN of the visible men), got 42"),
    ("title = 7", {"bad.toml": problem("k7/8/1K6/8/8/8/8/7R w - - 0 1", before="title = 7\n")}, "solve bad.toml",
     "bad.toml: title: must be a string, got 7"),
    ("an attempt no white man can make", {}, 'belief --fen "7k/8/8/8/8/8/8/K7 w - - 0 1" a1h8',
     "event 1 'a1h8': a1h8 is not a move of White's men on his own board"),
    ("a bad event after a good one", {}, f'belief --fen "{ROTENBERG}" --hidden b:dark a2g2:No a2g2:Yes',
     "event 2 'a2g2:Yes': no answer 'Yes'; possible: a2g2:'No'"),
    ("a reply out of turn", {}, f'belief --fen "{ROTENBERG}" --hidden b:dark black',
     "event 1 'black': it is White's turn, not Black's (give his attempt as UCI:ANSWER)"),
    ("--timeout -1", {}, "solve problems/foster-1996.toml --timeout -1",
     "--timeout: -1.0 is not in the range x>=0"),
    ("a folder where a file is expected", {}, "solve problems", "FILE: file 'problems' is a directory"),
    ("an unknown option", {}, "solve problems/foster-1996.toml --tmeout 5",
     "--tmeout: no such option (did you mean --at-most, --timeout?)"),
    ("a missing argument", {}, "check problems/foster-1996.toml", "CERTIFICATE_FILE: missing"),
    ("an unknown rule set", {}, "verify problems/foster-1996.toml --rules berkley",
     f"--rules: unknown rule set 'berkley'; valid: {VALID}"),
    ("a folder as text", {}, "report problems --format text",
     "problems: a folder makes one HTML booklet: use --format html (not text)"),
    ("a belief over the memory budget", {"huge.toml": b'stipulation = "#2"\nrules = "berkeley"\n[position]\n'
                                                      b'fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"\n'
                                                      b'hidden = ["q:any", "r:any", "b:any", "n:any"]\n'},
     "solve huge.toml --max-memory 1G",
     "huge.toml: position.hidden: the belief would need ~13,247,724 positions (5.3 GB), over the memory budget "
     "of 1.0 GB (--max-memory)"),
    ("workers asked for a depth-first search", {}, "solve problems/foster-1996.toml --search dfs --jobs 2",
     "--jobs: worker processes search by proof numbers; --search dfs runs in one process"),
    ("a memory budget that is not a size", {}, "solve problems/foster-1996.toml --max-memory lots",
     "--max-memory: 'lots' is not a size such as 4G, 512M or 1.5G"),
    ("Fog of War's 50-move draw within reach", {"fog.toml": b'stipulation = "xk3"\nrules = "fog-of-war"\n'
                                                           b'[position]\nfen = "4k3/8/8/8/8/8/8/R3K3 w - - 95 60"\n'},
     "solve fog.toml",
     "fog.toml: position: the 50-move draw is within reach (halfmove clock 95, 3 moves, the draw at 100): ksolve's "
     "beliefs merge positions that differ only in the halfmove clock, which could decide this wrongly; give a "
     "halfmove clock below 94 in the FEN"),
]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding the problems and games the commands name."""
    (tmp_path / "problems").mkdir()
    for name in ("foster-1996.toml", "rotenberg-1976.toml"):
        shutil.copy(ROOT / "problems" / name, tmp_path / "problems" / name)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def one_error_line(command: str) -> str:
    """Run ``ksolve COMMAND``; assert exit 2, nothing on stdout, one stderr line; return it."""
    result = CliRunner().invoke(main, shlex.split(command))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.exit_code == 2, result.output
    assert result.stdout == "", result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ksolve: error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("files,command,line", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_bad_input_is_one_line(workdir: Path, files: dict[str, bytes], command: str, line: str) -> None:
    for name, data in files.items():
        (workdir / name).write_bytes(data)
    assert one_error_line(command) == f"ksolve: error: {line}"


def test_a_certificate_checked_against_another_problem(workdir: Path) -> None:
    solved = CliRunner().invoke(main, ["solve", "problems/foster-1996.toml", "--certificate", "foster.json"])
    assert solved.exit_code == 0, solved.output
    assert one_error_line("check problems/rotenberg-1976.toml foster.json") == (
        "ksolve: error: foster.json: this certificate is for foster-1996, not problems/rotenberg-1976.toml")
    assert CliRunner().invoke(main, ["check", "problems/foster-1996.toml", "foster.json"]).exit_code == 0


def test_certificates_record_the_problem_file_not_its_path(workdir: Path) -> None:
    import json

    CliRunner().invoke(main, ["solve", "problems/foster-1996.toml", "--certificate", "foster.json"])
    certificate = json.loads((workdir / "foster.json").read_text())
    assert (certificate["problem"], certificate["problem_id"]) == ("foster-1996.toml", "foster-1996")
    moved = workdir / "elsewhere"
    moved.mkdir()
    (moved / "foster-1996.toml").write_text((workdir / "problems" / "foster-1996.toml").read_text())
    result = CliRunner().invoke(main, ["check", str(moved / "foster-1996.toml"), "foster.json"])
    assert result.exit_code == 0 and result.stdout.startswith("verified")


def test_an_edited_problem_is_checked_with_a_note(workdir: Path) -> None:
    CliRunner().invoke(main, ["solve", "problems/foster-1996.toml", "--certificate", "foster.json"])
    path = workdir / "problems" / "foster-1996.toml"
    path.write_text(path.read_text() + "\n# a comment added since\n")
    result = CliRunner().invoke(main, ["check", "problems/foster-1996.toml", "foster.json"])
    assert result.exit_code == 0 and "changed since the certificate was written" in result.stdout


def test_help_and_version_still_work() -> None:
    for args in (["--help"], ["solve", "--help"], ["--version"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0 and result.output, args


def test_solve_verify_and_report_have_a_default_time_limit() -> None:
    for command in ("solve", "verify", "report"):
        help_text = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
        assert "0: no limit" in help_text and "default: 600" in help_text, command


def test_timeout_zero_means_no_limit(workdir: Path) -> None:
    result = CliRunner().invoke(main, ["solve", "problems/foster-1996.toml", "--timeout", "0"])
    assert result.exit_code == 0, result.output


def test_verify_takes_a_rule_set(workdir: Path) -> None:
    result = CliRunner().invoke(main, ["verify", "problems/foster-1996.toml", "--rules", "wild16", "--no-duals",
                                       "--tries", "1"])
    assert result.exit_code in (0, 1) and "rules wild16" in result.stdout, result.output


# --- the README -----------------------------------------------------------------------
def readme_section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end > 0 else len(README)]


def test_readme_error_table_shows_every_line_as_printed() -> None:
    table = readme_section("Errors")
    for name, _, command, line in CASES:
        assert f"`ksolve: error: {line}`" in table, (name, line)
    assert "this certificate is for foster-1996, not problems/rotenberg-1976.toml" in table


def readme_commands() -> list[tuple[str, list[str]]]:
    """The ``$ ksolve`` (and ``$ cat``) commands of the README's code blocks that
    use ``examples/``, each with the output lines it shows ("..." left out)."""
    commands: list[tuple[str, list[str]]] = []
    for block in README.split("```sh\n")[1:]:
        block = block.split("```")[0]
        if "examples/" not in block:
            continue
        for line in block.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands and line.strip() != "...":
                commands[-1][1].append(line.rstrip())
    return commands


def test_readme_commands_run_on_the_examples(workdir: Path) -> None:
    commands = readme_commands()
    assert any(command.startswith("ksolve filter examples/") for command, _ in commands)
    for command, shown in commands:
        words = shlex.split(command, comments=True)
        if words[0] == "cat":
            output = (workdir / words[1]).read_text()
        else:
            assert words[0] == "ksolve", command
            result = CliRunner().invoke(main, words[1:])
            assert result.exit_code in (0, 1), (command, result.output)
            output = result.output
        lines = [line.rstrip() for line in output.splitlines()]
        for line in shown:
            assert line in lines, (command, line, output)
