"""Every bad input of issues 12 and 43 gets exactly one line ``ksolve: error:
<file or option>: <reason>`` on stderr and exit code 2, before any long work
(nothing on stdout, no progress line), never a traceback; every row of the
table in ``docs/guide/errors.md`` prints exactly its line, and the README's
example commands run on the games in ``examples/``."""

from __future__ import annotations

import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ERRORS = (ROOT / "docs" / "guide" / "errors.md").read_text(encoding="utf-8")
BARE_KINGS = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
WIN_IN_ONE = "k7/8/1K6/8/8/8/8/7R w - - 0 1"
ROTENBERG = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
VALID = ("berkeley, berkeley-any, english, cincinnati, rand, wild16, orthodox, fog-of-war, modern")


def problem(fen: str, *, before: str = "", fen_line: str | None = None, after: str = "") -> bytes:
    """A problem file (#2, Berkeley) with the visible position ``fen`` (``after``: tables after [position])."""
    return (f'{before}stipulation = "#2"\nrules = "berkeley"\n[position]\n'
            f'{fen_line or f"fen = {chr(34)}{fen}{chr(34)}"}\n{after}').encode()


def condition(fen: str, table: str) -> bytes:
    """A problem whose ``[[condition]]`` table is ``table``."""
    return problem(fen, after=f"[[condition]]\n{table}\n")


CASES = [
    # (id, {file name: bytes}, command, the one line)
    ("a bishop no game reaches", {"bad.toml": problem("4k3/8/8/8/3B4/8/PPPPPPPP/4K3 w - - 0 1")}, "solve bad.toml",
     "bad.toml: position.fen: no game reaches it: a white dark-squared bishop on d4 (the c1 bishop is shut in by "
     "the pawns on b2 and d2) needs a promotion, and no white pawn is missing"),
    ("pawns no game reaches", {"bad.toml": problem("rnbqkbnr/pppppppp/8/8/8/3P4/PPPP1PPP/RNBQKBNR w KQkq - 0 1")},
     "solve bad.toml",
     "bad.toml: position.fen: no game reaches it: the white pawns (a2, b2, c2, d2, f2, g2, h2, d3) need at least "
     "1 capture (a file step each), and no black man is missing"),
    ("no hidden placement a game reaches",
     {"bishops.toml": problem("8/8/p4pp1/1p1pp2p/2p5/3N4/R7/b4K1k w - - 0 1", after='hidden = ["b:dark"]\n')},
     "solve bishops.toml",
     "bishops.toml: position.hidden: no placement of the hidden units is reachable in a game: a second black "
     "dark-squared bishop (e3) needs a promotion, and no black pawn is missing"),
    ("a start no game reaches", {}, 'play --fen "4k3/8/8/8/3B4/8/PPPPPPPP/4K3 w - - 0 1"',
     "--fen: no game reaches it: a white dark-squared bishop on d4 (the c1 bishop is shut in by the pawns on b2 "
     "and d2) needs a promotion, and no white pawn is missing"),
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
    ("a fairy piece in a YACPDB entry", {"fairy.yaml": b"algebraic: {white: [Ka1, Gb2], black: [Kh8]}\nstipulation: '#2'\n"},
     "import fairy.yaml",
     "fairy.yaml: algebraic.white: 'Gb2' is not a chess man on a square (K, Q, R, B, S, P and a square such as "
     "Kf1; fairy pieces are not read)"),
    ("a YACPDB entry of a helpmate", {"help.yaml": b"algebraic: {white: [Ka1], black: [Kh8]}\nstipulation: h#4\n"},
     "import help.yaml", "help.yaml: stipulation: 'h#4': ksolve reads mates (#N), not other stipulations"),
    ("a Kriegspiel problem for Popeye", {}, "export problems/foster-1996.toml --to popeye",
     "problems/foster-1996.toml: rules: Popeye solves orthodox problems, and this one is Kriegspiel (berkeley): it "
     "sees every man and hears no referee"),
    ("a folder as one YACPDB entry", {}, "export problems --to yacpdb",
     "problems: a folder makes an Olive collection (--to olive); a YACPDB entry holds one problem"),
    ("a PDF of an Olive collection", {}, "export problems --to olive -o all.pdf",
     "-o all.pdf: a PDF is written by --to latex only"),
    ("a verdict's certificate to a missing folder", {},
     "verify problems/foster-1996.toml --certificate /no/such/dir/v.json",
     "--certificate: cannot write /no/such/dir/v.json: no such folder /no/such/dir"),
    ("a verdict's certificate for a folder", {}, "verify problems --certificate v.json",
     "--certificate: the certificate of one problem file's verdict (not a folder)"),
    ("a refutation under Modern Kriegspiel",
     {"r.json": b'{"format": "ksolve-refutation", "version": 1, "rules": "modern", "goal": "mate", "moves": 1, '
                b'"initial": [{}, {}]}'},
     "check problems/modern-01.toml r.json",
     "r.json: rules: refutations under modern are not checked (a probe may name too many sets of squares to "
     "enumerate)"),
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
    ("TOML nested too deeply", {"deep.toml": problem(WIN_IN_ONE, before="notes = " + "[" * 3000 + "]" * 3000 + "\n")},
     "solve deep.toml",
     "deep.toml: toml: arrays or tables nested too deeply (a problem file nests a few levels: [position], [[twin]], "
     "hidden = [...])"),
    ("a byte-order mark", {"bom.toml": b"\xef\xbb\xbf" + problem(WIN_IN_ONE)}, "solve bom.toml",
     "bom.toml: file: line 1, column 1: the file begins with a byte-order mark (bytes EF BB BF): save it as UTF-8 "
     "without one (the TOML, JSON and PGN readers take none)"),
    ("more hidden units than a side has men",
     {"many.toml": problem(BARE_KINGS, after="").replace(b'0 1"\n', b'0 1"\nhidden = [' +
                                                         b", ".join([b'"p?:a-file"'] * 2000) + b"]\n")},
     "solve many.toml",
     "many.toml: position.hidden: hidden units: 2,000 black ones where at most 15 fit besides the visible men (a side "
     "has at most 16 men)"),
    ("a condition no black man can play", {"cond.toml": condition("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 'move = "h8a1"')},
     "solve cond.toml",
     "cond.toml: condition[1].moves: no black man can play h8a1 at his reply 1: none can stand on h8 and move like "
     "that by then"),
    ("White's move as a condition", {"cond.toml": condition("R7/8/8/8/8/8/8/K6k w - - 0 1", 'move = "a8a4"')},
     "solve cond.toml",
     "cond.toml: condition[1].moves: no black man can play a8a4 at his reply 1: none can stand on a8 and move like "
     "that by then"),
    ("`move` and `moves` together", {"cond.toml": condition(WIN_IN_ONE, 'move = "a8b8"\nmoves = ["a8a7"]')},
     "solve cond.toml", "cond.toml: condition[1].move: give move (one) or moves (a list), not both"),
    ("two twins of one name", {"twins.toml": problem(WIN_IN_ONE, after='[[twin]]\nname = "b"\nstipulation = "#3"\n'
                                                                     '[[twin]]\nname = "b"\nstipulation = "#1"\n')},
     "solve twins.toml", "twins.toml: twin[2].name: 'b' names twin[1] too: each twin needs a name of its own"),
    ("a twin that changes nothing", {"twins.toml": problem(WIN_IN_ONE, after='[[twin]]\nname = "b"\nnote = "x"\n')},
     "solve twins.toml",
     "twins.toml: twin[1]: changes nothing: a twin gives another fen, hidden, positions or stipulation"),
    ("a twin's key that is no move",
     {"twins.toml": problem(WIN_IN_ONE, after='[[twin]]\nname = "b"\nstipulation = "#3"\nkey = "h1a2"\n')},
     "solve twins.toml",
     "twins.toml: twin[1] (b): published.key: h1a2 is not a move of White's men on his own board"),
    ("a published key that is no move", {"key.toml": problem(WIN_IN_ONE, after='[published]\nkey = "a8a7"\n')},
     "solve key.toml", "key.toml: published.key: a8a7 is not a move of White's men on his own board"),
    ("a key to keep that is no move", {}, "mend problems/anderson-27.toml --key e2e4",
     "--key: e2e4 is not a move of White's men on his own board"),
    ("an output folder that cannot be made", {}, 'compose --material "KR v K" --moves 2 -o /proc/x',
     "-o: cannot write /proc/x: no such file or directory (in /proc)"),
    ("the same for mend", {}, "mend problems/anderson-27.toml -o /proc/x",
     "-o: cannot write /proc/x: no such file or directory (in /proc)"),
    ("a report to a file that cannot be written", {}, "report problems/foster-1996.toml -o /proc/version",
     "-o: cannot write /proc/version: invalid argument (/proc/version)"),
    ("a game record that cannot be written", {}, "play -o /proc/g.pgn",
     "-o: cannot write /proc/g.pgn: no such file or directory (in /proc)"),
    ("a level the computer does not have", {}, "play --level hard",
     "--level: 'hard' is not one of 'easy', 'normal', 'strong'"),
    ("a results file that cannot be written", {}, "verify problems --jobs 2 --results /proc/r.jsonl",
     "--results: cannot write /proc/r.jsonl: no such file or directory (in /proc)"),
    ("--timeout nan", {}, "solve problems/foster-1996.toml --timeout nan", "--timeout: nan is not a number of seconds"),
    ("--max-memory 0", {}, "solve problems/foster-1996.toml --max-memory 0",
     "--max-memory: 0 is no memory at all (a budget such as 4G, 512M or 1.5G)"),
    ("a memory budget larger than the machine", {}, "solve problems/foster-1996.toml --max-memory 99999999999999999999G",
     "--max-memory: 99999999999999999999G is more than this machine's memory (MEMORY)"),
    ("a memory budget below what ksolve holds", {}, 'belief --fen "4k3/8/8/8/8/8/8/R3K3 w - - 0 1" --max-memory 1K',
     "--max-memory: 1K is less than ksolve holds before doing anything (HELD)"),
    ("the referee without attempts", {}, 'referee --fen "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"',
     "ATTEMPTS: missing (the attempts to answer, e.g. e2e4)"),
    ("--jobs -1 (the same line for solve, verify, compose, mend and generate)", {}, "verify problems --jobs -1",
     "--jobs: -1 is not a number of worker processes (1 or more; 0: one per core)"),
    ("a results file for one problem", {}, "verify problems/foster-1996.toml --results r.jsonl",
     "--results: for a folder of problems (one problem's result is printed)"),
    ("a scheduler address that is not one", {}, "verify problems --scheduler garbage",
     "--scheduler: 'garbage' is not an address such as tcp://127.0.0.1:8786 (no port)"),
    ("a web address for the scheduler", {}, "verify problems --scheduler http://127.0.0.1:8786",
     "--scheduler: 'http://127.0.0.1:8786' is not an address such as tcp://127.0.0.1:8786 (scheme http: a scheduler "
     "speaks tcp or tls)"),
    ("no scheduler at the address", {}, "verify problems --scheduler tcp://127.0.0.1:PORT",
     "--scheduler: cannot reach tcp://127.0.0.1:PORT: connection refused"),
    ("something else at the address", {}, "verify problems --scheduler tcp://127.0.0.1:PORT",
     "--scheduler: cannot reach tcp://127.0.0.1:PORT: nothing answered within 5 s; if something listens there, it is "
     "not a Dask scheduler (one greets at once)"),
]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding the problems and games the commands name."""
    (tmp_path / "problems").mkdir()
    for name in ("foster-1996.toml", "rotenberg-1976.toml", "anderson-27.toml"):
        shutil.copy(ROOT / "problems" / name, tmp_path / "problems" / name)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def one_error_line(command: str) -> str:
    """Run ``ksolve COMMAND``; assert exit 2, nothing on stdout, one stderr line; return it.

    A command with ``--max-memory`` runs in a fresh process, as a user runs it: the budget
    is weighed against the process's resident size, and this test process holds whatever
    the tests before it left (an endgame table, a belief)."""
    if "--max-memory" in command:
        done = subprocess.run([sys.executable, "-m", "ksolve.cli", *shlex.split(command)],
                              capture_output=True, text=True, check=False)
        exit_code, stdout, stderr = done.returncode, done.stdout, done.stderr
    else:
        result = CliRunner().invoke(main, shlex.split(command))
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        exit_code, stdout, stderr = result.exit_code, result.stdout, result.stderr
    assert "Traceback" not in stdout + stderr
    assert exit_code == 2, stdout + stderr
    assert stdout == "", stdout
    compiling = ("ksolve: compiling kernels", "ksolve: still compiling kernels")  # a fresh process's first run
    lines = [line for line in stderr.splitlines() if not line.startswith(compiling)]
    assert len(lines) == 1 and lines[0].startswith("ksolve: error: "), stderr
    return lines[0]


def matches(printed: str, line: str) -> bool:
    """Whether ``printed`` is ``ksolve: error: LINE``, ``MEMORY`` and ``HELD`` standing for sizes."""
    pattern = re.escape(f"ksolve: error: {line}").replace("MEMORY", r"[\d,.]+ [KMG]B").replace("HELD", r"[\d,.]+ [KMG]B")
    return re.fullmatch(pattern, printed) is not None


FIXED = [case for case in CASES if "PORT" not in case[2]]


@pytest.mark.parametrize("files,command,line", [case[1:] for case in FIXED], ids=[case[0] for case in FIXED])
def test_bad_input_is_one_line(workdir: Path, files: dict[str, bytes], command: str, line: str) -> None:
    for name, data in files.items():
        (workdir / name).write_bytes(data)
    printed = one_error_line(command)
    assert matches(printed, line), printed


def listening(handler: type[BaseHTTPRequestHandler] | None):
    """A port on loopback: a web server's (``handler``), or none listening (None)."""
    if handler is None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return probe.getsockname()[1], None
    server = HTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1], server


@pytest.mark.parametrize("name", ["no scheduler at the address", "something else at the address"])
def test_a_scheduler_that_is_not_there_is_one_line_within_seconds(workdir: Path, name: str) -> None:
    """Nothing listening: refused at once; a web server listening (it waits for a
    request and says nothing): the greeting a Dask scheduler sends at once never comes."""
    import time

    _, files, command, line = next(case for case in CASES if case[0] == name)
    port, server = listening(BaseHTTPRequestHandler if "else" in name else None)
    started = time.monotonic()
    try:
        printed = one_error_line(command.replace("PORT", str(port)))
    finally:
        if server is not None:
            server.shutdown()
    assert printed == f"ksolve: error: {line}".replace("PORT", str(port))
    assert time.monotonic() - started < 15


def test_jobs_minus_one_is_the_same_line_on_every_command(workdir: Path) -> None:
    line = next(case[3] for case in CASES if case[2] == "verify problems --jobs -1")
    for command in ("solve problems/foster-1996.toml", "verify problems", 'compose --material "KR v K" --moves 2 -o c',
                    "mend problems/anderson-27.toml", "generate --games 1 --ply 3 -o g"):
        for jobs in ("--jobs -1", "--jobs=-1"):
            assert one_error_line(f"{command} {jobs}") == f"ksolve: error: {line}", (command, jobs)


def test_jobs_over_the_cores_is_one_warning_and_the_cores(workdir: Path) -> None:
    import os

    result = CliRunner().invoke(main, ["solve", "problems/foster-1996.toml", "--jobs", "1000", "--json"])
    assert result.exit_code == 0, result.output
    cores = os.cpu_count() or 1
    warning = [line for line in result.stderr.splitlines() if line.startswith("ksolve: warning:")]
    assert warning == [f"ksolve: warning: --jobs 1000: this machine has {cores} core{'s' if cores > 1 else ''}; "
                       f"{cores} worker process{'es' if cores > 1 else ''}"]


def test_a_very_long_reason_is_cut_to_one_short_line() -> None:
    from ksolve.cli_support import MAX_LINE, shortened

    line = shortened("x" * 2213)
    assert len(line) <= MAX_LINE and "(1,953 characters left out)" in line


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


def error_rows() -> list[tuple[str, str, str]]:
    """``docs/guide/errors.md``'s table: (bad input, command, line) per row."""
    rows = []
    for row in ERRORS.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split(" | ")]
        if len(cells) == 3 and cells[2].startswith("`ksolve: error: "):
            command = re.match(r"`ksolve (.*?)`", cells[1])[1]
            rows.append((cells[0], command, cells[2].strip("`")[len("ksolve: error: "):]))
    return rows


def test_the_errors_page_shows_every_case_and_every_row_is_run() -> None:
    """Every row of ``docs/guide/errors.md`` is a case run here (its command and line
    the same) or in ``tests/test_endgame_limits.py``, every case a row; the
    certificate of another problem has its own test."""
    from test_endgame_limits import CASES as ENDGAME_CASES

    rows = {name: (command, line) for name, command, line in error_rows()}
    cases = {name: (command, line) for name, _, command, line in CASES}
    endgame = {case[0] for case in ENDGAME_CASES}
    assert set(rows) - set(cases) - endgame == {"the certificate of foster-1996 checked against another problem"}
    assert set(cases) <= set(rows), set(cases) - set(rows)
    for name, (command, line) in cases.items():
        assert rows[name] == (command, line), name
    assert rows["the certificate of foster-1996 checked against another problem"][1] == (
        "foster.json: this certificate is for foster-1996, not problems/rotenberg-1976.toml")


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


# --- results that used to say too little --------------------------------------------
def test_full_information_names_the_position_of_each_first_class(workdir: Path) -> None:
    """Under ``--rules orthodox`` every first class is one position, each
    "Silent": the hidden men's squares say which (issue 43: 17 bare "Silent:" lines)."""
    result = CliRunner().invoke(main, ["solve", "problems/foster-1996.toml", "--rules", "orthodox"])
    assert result.exit_code == 0, result.output
    classes = [line.strip() for line in result.stdout.splitlines() if line.startswith("  Silent")]
    assert len(classes) == 25 and len(set(line.split(":")[0] for line in classes)) == 25
    assert "  Silent (K e2): 1.Re1#!" in result.stdout.splitlines()


def test_compilation_is_said_every_five_seconds_and_left_out_of_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first run compiles for a minute: said at once, then every few seconds
    of it; a worker's compilation heard by the parent is left out of its clock."""
    import time

    import click

    from ksolve import cli_support, compilation

    heard: list[str] = []
    monkeypatch.setattr(click, "echo", lambda message, err=False: heard.append(message))
    seconds = iter([0.0, 6.0, 7.0, 12.5])
    monkeypatch.setattr(compilation, "compile_seconds", lambda: next(seconds))
    with click.Context(click.Command("x")):
        cli_support.say_when_compiling()
        compilation._WATCH.announce()
        for _ in range(4):
            compilation._WATCH.listener(True)
    compilation.listen_to_compilation(None)
    assert heard == ["ksolve: compiling kernels (first run only)...",
                     "ksolve: still compiling kernels (first run only): 6 s so far, not counted in the time limit",
                     "ksolve: still compiling kernels (first run only): 12 s so far, not counted in the time limit"]
    monkeypatch.undo()
    wall, work = time.perf_counter(), compilation.work_clock()
    compilation.heard_compilation(True)
    time.sleep(0.3)
    compilation.heard_compilation(False)
    assert (compilation.work_clock() - work) < (time.perf_counter() - wall) - 0.25


def test_a_solution_whose_strategy_was_not_read_back_still_prints(workdir: Path) -> None:
    """Workers that reach a limit while reading the strategy back leave the key
    without a tree: said, not an AttributeError (seen by the fuzzer)."""
    import ksolve
    from ksolve.report.text import render_solution_text
    from ksolve.solver import Solution

    problem = ksolve.load_problem("problems/rotenberg-1976.toml")
    solution = Solution("solved", 8, 8, "a2g2", 30, 1000, 1.0, reason="the strategy was not read back: node limit")
    text = render_solution_text(problem, solution)
    assert "White mates in 8. Key a2g2 (the published key)" in text and "The strategy is not shown" in text
