"""The independent certificate checker (``ksolve/checker``, format ``docs/certificate.md``).

Hand-written certificates are verified, and corrupted copies (a wrong move, a
missing "no" branch, a missing reply class, too many moves, a "win" that is
no mate, a wrong initial class, ...) are rejected with a counterexample that
names the initial position and the moves.  The checker's referee is compared
with ksolve's observation keys converted by ``ksolve.certificates.observation``
on seeded random positions, and its initial positions with ksolve's initial
beliefs for every bundled problem.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import chess
import pytest

from ksolve.checker import CertificateError, ProblemFileError, check_certificate
from ksolve.checker import fog, referee
from ksolve.checker.problem import read_problem

MATE = [{"end": "checkmate"}, "win"]
PROBLEMS = sorted(Path(__file__).resolve().parent.parent.glob("problems/*.toml"))


def problem_file(tmp_path: Path, fen: str, rules: str = "berkeley", moves: int = 1,
                 hidden: list[str] | None = None) -> Path:
    stipulation = f"xk{moves}" if rules == "fog-of-war" else f"#{moves}"
    path = tmp_path / "problem.toml"
    path.write_text(f'stipulation = "{stipulation}"\nrules = "{rules}"\n[position]\nfen = "{fen}"\n'
                    f"hidden = {json.dumps(hidden or [])}\n")
    return path


def certificate(rules: str, moves: int, initial: list, positions: int = 1) -> dict:
    return {"format": "ksolve-certificate", "version": 1, "problem": "problem.toml", "rules": rules,
            "goal": "king-capture" if rules == "fog-of-war" else "mate", "moves": moves,
            "positions": positions, "initial": initial}


def refuted(path: Path, cert: dict, reason: str, *moves: str):
    """Check that ``cert`` fails with ``reason`` in its reason and ``moves`` (UCI) leading to it."""
    result = check_certificate(path, cert)
    assert not result.verified
    assert result.counterexample is not None, result.format()
    assert reason in result.reason, result.format()
    assert [step["uci"] for step in result.counterexample.moves][:len(moves)] == list(moves), result.format()
    assert result.format().startswith("counterexample: from ")
    return result.counterexample


def test_checker_is_independent() -> None:
    """ksolve.checker (its refutation and verdict checkers too) imports python-chess and the
    standard library only: no solver module, no numpy/numba."""
    import subprocess

    code = ("import sys, ksolve.checker, ksolve.checker.refutation, ksolve.checker.verdict; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'numba', 'networkx') or (m.startswith('ksolve.') and not m.startswith('ksolve.checker'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == "[]", out.stdout


# --- mate in 1, Berkeley --------------------------------------------------------
MATE_IN_ONE = "k7/8/1K6/8/8/8/8/7R w - - 0 1"


def test_mate_in_one(tmp_path: Path) -> None:
    path = problem_file(tmp_path, MATE_IN_ONE)
    result = check_certificate(path, certificate("berkeley", 1, [[{}, {"attempt": "h1h8", "answers": [MATE]}]]))
    assert result.verified and (result.positions, result.nodes, result.lines) == (1, 1, 1)
    assert result.format().startswith("verified: mate in 1 under berkeley from all 1 initial positions")


def test_mate_in_one_wrong_move(tmp_path: Path) -> None:
    path = problem_file(tmp_path, MATE_IN_ONE)
    cert = certificate("berkeley", 1, [[{}, {"attempt": "h1h7", "answers": [MATE]}]])
    example = refuted(path, cert, "not among the listed answers", "h1h7")
    assert example.fen == MATE_IN_ONE and example.moves[0]["san"] == "Rh7"


def test_win_that_is_no_mate(tmp_path: Path) -> None:
    path = problem_file(tmp_path, MATE_IN_ONE)
    cert = certificate("berkeley", 1, [[{}, {"attempt": "h1h7", "answers": [[{}, "win"]]}]])
    refuted(path, cert, "does not mate", "h1h7")


def test_stalemate_is_no_win(tmp_path: Path) -> None:
    path = problem_file(tmp_path, "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1")
    cert = certificate("berkeley", 1, [[{}, {"attempt": "g5g6", "answers": [[{"end": "stalemate"}, "win"]]}]])
    refuted(path, cert, "without winning (stalemate)", "g5g6")


# --- mate in 2 with a hidden pawn and a "No" branch --------------------------------
# The pawn stands on g4 or h4.  1.Kb6 (Ka8-b8 or a pawn step) 2.Rh8#, and if
# "No" (the pawn blocks the h-file) 2.Rg8#.
TWO_ROOKS = "k7/8/2K5/8/8/8/8/6RR w - - 0 1"
SECOND_MOVE = {"attempt": "h1h8", "answers": [MATE], "no": {"attempt": "g1g8", "answers": [MATE]}}
TWO_ROOKS_TREE = [[{}, {"attempt": "c6b6", "answers": [[{}, {"replies": [[{}, SECOND_MOVE]]}]]}]]


@pytest.fixture
def two_rooks(tmp_path: Path) -> Path:
    return problem_file(tmp_path, TWO_ROOKS, moves=2, hidden=["p:g4,h4"])


def test_mate_in_two_with_no_branch(two_rooks: Path) -> None:
    result = check_certificate(two_rooks, certificate("berkeley", 2, TWO_ROOKS_TREE, positions=2))
    assert result.verified, result.format()
    assert (result.positions, result.lines, result.nodes) == (2, 4, 4)


def test_missing_no_branch(two_rooks: Path) -> None:
    cert = certificate("berkeley", 2, copy.deepcopy(TWO_ROOKS_TREE), positions=2)
    del cert["initial"][0][1]["answers"][0][1]["replies"][0][1]["no"]
    example = refuted(two_rooks, cert, "no 'no' branch", "c6b6")
    assert example.moves[-1] == {"side": "white", "uci": "h1h8", "san": "Rh8", "heard": "No"}
    assert example.moves[1]["side"] == "black"
    assert example.fen.split("/")[4] == "7p"  # the pawn on h4
    assert example.format().startswith(f"from {example.fen}: 1.Kb6 (c6b6) {{}}; 1...")


def test_wrong_first_move(two_rooks: Path) -> None:
    cert = certificate("berkeley", 2, copy.deepcopy(TWO_ROOKS_TREE), positions=2)
    cert["initial"][0][1]["attempt"] = "c6c7"
    example = refuted(two_rooks, cert, "the observation {} is not among the listed answers", "c6c7")
    assert [step["side"] for step in example.moves] == ["white", "black", "white"]  # 2.Rh8 is no mate


def test_missing_reply_class(two_rooks: Path) -> None:
    cert = certificate("berkeley", 2, copy.deepcopy(TWO_ROOKS_TREE), positions=2)
    cert["initial"][0][1]["answers"][0][1]["replies"][0][0] = {"checks": ["file"]}
    example = refuted(two_rooks, cert, "not among the listed replies", "c6b6")
    assert example.moves[1]["side"] == "black" and example.moves[1]["heard"] == "{}"


def test_too_many_moves(two_rooks: Path) -> None:
    cert = certificate("berkeley", 1, copy.deepcopy(TWO_ROOKS_TREE), positions=2)
    refuted(two_rooks, cert, "White's move 1 does not win and the certificate allows 1", "c6b6")


def test_wrong_initial_class(two_rooks: Path) -> None:
    cert = certificate("berkeley", 2, copy.deepcopy(TWO_ROOKS_TREE), positions=2)
    cert["initial"][0][0] = {"pawn_tries": 0}
    example = refuted(two_rooks, cert, "in no listed 'initial' class")
    assert example.moves == []


def test_more_moves_than_stipulated(tmp_path: Path) -> None:
    path = problem_file(tmp_path, TWO_ROOKS, moves=1, hidden=["p:g4,h4"])
    result = check_certificate(path, certificate("berkeley", 2, TWO_ROOKS_TREE, positions=2))
    assert not result.verified and result.counterexample is None
    assert "the problem stipulates 1" in result.format()


def test_position_count_is_reported(two_rooks: Path) -> None:
    result = check_certificate(two_rooks, certificate("berkeley", 2, TWO_ROOKS_TREE, positions=3))
    assert result.verified and result.claimed_positions == 3
    assert "the certificate says 3 initial positions, the checker enumerates 2" in result.format()


def test_black_reply_that_ends_the_game(tmp_path: Path) -> None:
    # 1.Rb2+ Kxb2 leaves the bare kings: a draw under Berkeley.
    path = problem_file(tmp_path, "8/8/8/8/8/8/k7/1R5K w - - 0 1", moves=2)
    cert = certificate("berkeley", 2, [[{}, {"attempt": "b1b2", "answers": [[{"checks": ["rank"]}, {"replies": []}]]}]])
    example = refuted(path, cert, "Black's reply ends the game (insufficient)", "b1b2", "a2b2")
    assert example.moves[1]["san"] == "Kxb2"


def test_wild16_pawn_tries_in_the_observation(tmp_path: Path) -> None:
    path = problem_file(tmp_path, MATE_IN_ONE, rules="wild16")
    good = certificate("wild16", 1, [[{"pawn_tries": 0}, {"attempt": "h1h8", "answers": [MATE]}]])
    assert check_certificate(path, good).verified
    refuted(path, certificate("wild16", 1, [[{}, {"attempt": "h1h8", "answers": [MATE]}]]), "initial")


# --- "Any?" (English and Berkeley+Any) ------------------------------------------------
# Perhaps a black pawn on h7.  Any?  "Yes" (gxh7 is possible): the obligatory
# pawn try 1.gxf7 is refused (a dummy try, enough under English), then 1.g7#;
# "No": 1.Rh1#.
ANY_FEN = "5K1k/8/6P1/8/8/8/8/6R1 w - - 0 1"
ANY_TREE = [[{}, {"ask": "any",
                  "yes": {"attempt": "g6f7", "no": {"attempt": "g6g7", "answers": [MATE]}},
                  "no": {"attempt": "g1h1", "answers": [MATE]}}]]


def test_any_english(tmp_path: Path) -> None:
    path = problem_file(tmp_path, ANY_FEN, rules="english", hidden=["p?:h7"])
    result = check_certificate(path, certificate("english", 1, ANY_TREE, positions=2))
    assert result.verified, result.format()


def test_any_obligation_under_berkeley_any(tmp_path: Path) -> None:
    """Berkeley+Any: after "Try" the pawn captures go on until one is legal, so 1.g7 is not allowed."""
    path = problem_file(tmp_path, ANY_FEN, rules="berkeley-any", hidden=["p?:h7"])
    example = refuted(path, certificate("berkeley-any", 1, ANY_TREE, positions=2),
                      "must be a pawn capture", "any", "g6f7")
    assert example.moves[0]["heard"] == "Try" and example.moves[1]["heard"] == "No"


def test_any_obligation_under_english(tmp_path: Path) -> None:
    path = problem_file(tmp_path, ANY_FEN, rules="english", hidden=["p?:h7"])
    cert = certificate("english", 1, copy.deepcopy(ANY_TREE), positions=2)
    cert["initial"][0][1]["yes"] = {"attempt": "g6g7", "answers": [MATE]}
    refuted(path, cert, "must be a pawn capture", "any")


def test_any_twice_and_missing_branch(tmp_path: Path) -> None:
    path = problem_file(tmp_path, ANY_FEN, rules="english", hidden=["p?:h7"])
    cert = certificate("english", 1, copy.deepcopy(ANY_TREE), positions=2)
    cert["initial"][0][1]["no"] = {"ask": "any", "no": {"attempt": "g1h1", "answers": [MATE]}}
    refuted(path, cert, "asked twice", "any")
    del cert["initial"][0][1]["no"]
    refuted(path, cert, "no 'no' branch", "any")


def test_any_is_not_a_berkeley_question(tmp_path: Path) -> None:
    path = problem_file(tmp_path, ANY_FEN, rules="berkeley", hidden=["p?:h7"])
    with pytest.raises(CertificateError, match="not a question of the berkeley rule set"):
        check_certificate(path, certificate("berkeley", 1, ANY_TREE, positions=2))


# --- Fog of War and orthodox -------------------------------------------------------------
def _squares(text: str) -> list[str]:
    return [name for name in text.split()]


FOG_START = {"visible": _squares("a1 b1 c1 a2 b2 c2 a3 a4 a5 a6 a7 a8"), "black": {"a8": "k"},
             "white": {"a1": "R", "b1": "K"}, "castling": ""}
FOG_CAPTURED = {"capture": "a8", "end": "king-captured",
                "visible": _squares("a1 b1 c1 a2 b2 c2 a3 a4 a5 a6 a7 a8 b8 c8 d8 e8 f8 g8 h8"),
                "black": {}, "white": {"a8": "R", "b1": "K"}, "castling": ""}


def test_fog_king_capture(tmp_path: Path) -> None:
    path = problem_file(tmp_path, "k7/8/8/8/8/8/8/RK6 w - - 0 1", rules="fog-of-war")
    cert = certificate("fog-of-war", 1, [[FOG_START, {"attempt": "a1a8", "answers": [[FOG_CAPTURED, "win"]]}]])
    assert check_certificate(path, cert).verified
    seen_less = copy.deepcopy(cert)
    seen_less["initial"][0][1]["answers"][0][0]["visible"].remove("h8")
    refuted(path, seen_less, "not among the listed answers", "a1a8")


def test_fog_no_check_rules(tmp_path: Path) -> None:
    """Fog of War: the black king may stand attacked at the start, and capturing it wins."""
    path = problem_file(tmp_path, "8/8/8/8/8/8/8/RK6 w - - 0 1", rules="fog-of-war", hidden=["k:a8,h8"])
    problem = read_problem(path)
    assert sorted(board.epd() for board in problem.boards) == ["7k/8/8/8/8/8/8/RK6 w - -", "k7/8/8/8/8/8/8/RK6 w - -"]
    with pytest.raises(ProblemFileError):
        read_problem(problem_file(path.parent, "k7/8/8/8/8/8/8/RK6 w - - 0 1", rules="berkeley",
                                  hidden=["n:c3"]))  # Ra1 checks the king: no legal placement


ORTHODOX_TREE = [[{"position": "k7/8/2K5/8/8/8/8/7R w - -"}, {"attempt": "c6b6", "answers": [[
    {"position": "k7/8/1K6/8/8/8/8/7R b - -"},
    {"replies": [[{"position": "1k6/8/1K6/8/8/8/8/7R w - -"}, {"attempt": "h1h8", "answers": [
        [{"position": "1k5R/8/1K6/8/8/8/8/8 b - -", "end": "checkmate"}, "win"]]}]]}]]}]]


def test_orthodox(tmp_path: Path) -> None:
    path = problem_file(tmp_path, "k7/8/2K5/8/8/8/8/7R w - - 0 1", rules="orthodox", moves=2)
    assert check_certificate(path, certificate("orthodox", 2, ORTHODOX_TREE)).verified
    wrong = copy.deepcopy(ORTHODOX_TREE)
    wrong[0][1]["answers"][0][1]["replies"][0][0]["position"] = "1k6/8/1K6/8/8/8/8/7R b - -"
    refuted(path, certificate("orthodox", 2, wrong), "not among the listed replies", "c6b6", "a8b8")


def test_malformed_certificates(two_rooks: Path) -> None:
    good = certificate("berkeley", 2, TWO_ROOKS_TREE, positions=2)
    for field, value, message in [("format", "x", "format"), ("rules", "chess", "rules"),
                                  ("goal", "king-capture", "goal"), ("moves", 0, "moves"), ("initial", {}, "initial")]:
        with pytest.raises(CertificateError, match=message):
            check_certificate(two_rooks, {**good, field: value})
    doubled = copy.deepcopy(good)
    doubled["initial"].append(copy.deepcopy(doubled["initial"][0]))
    with pytest.raises(CertificateError, match="listed twice"):
        check_certificate(two_rooks, doubled)


# --- the initial positions against ksolve's ------------------------------------------------
def test_initial_positions_agree_with_ksolve() -> None:
    from ksolve.problem import load_problem

    for path in PROBLEMS:
        problem = load_problem(path)
        expected = sorted(b.epd(en_passant="xfen") for b in _ksolve_boards(problem.belief().positions))
        mine = sorted(b.epd(en_passant="xfen") for b in read_problem(path).boards)
        assert mine == expected, path.name


def _ksolve_boards(rows):
    from ksolve.board import position_to_board

    return [position_to_board(row) for row in rows]


# --- the referee against ksolve's observation keys ------------------------------------------
POSITIONS = 300
SEED = 20261130
ENDINGS = [
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",        # Rh8#
    "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1",       # Qg6 stalemate
    "k7/8/1K6/8/8/8/8/1N5B w - - 0 1",      # captures leave bare material
    "4k3/8/4K3/8/8/8/8/3Q4 w - - 0 1",
    "8/8/8/8/8/8/k7/1R5K w - - 0 1",        # Kxb2: bare kings
    "r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",  # en passant, promotions with capture, castling
]


def _boards(fog_moves: bool) -> list[chess.Board]:
    """The start positions and a seeded sample of random-game positions with more than three men."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from positions import PERFT_SUITE, SPECIAL_STARTS, random_game_positions

    starts = list(PERFT_SUITE.values()) + SPECIAL_STARTS + ENDINGS
    stream = random_game_positions(starts, games=60, seed=SEED + fog_moves, max_plies=80,
                                   moves_of=fog.fog_moves if fog_moves else None)
    boards = [b for b in stream if chess.popcount(b.occupied) > 3]
    rng = random.Random(SEED)
    return [chess.Board(fen) for fen in starts] + rng.sample(boards, min(POSITIONS, len(boards)))


def _tries(board: chess.Board, moves: list[chess.Move], rng: random.Random) -> list[chess.Move]:
    """Every capture, promotion, castling and checking move (up to 8), a few others, and some
    attempts that are often illegal."""
    kings = board.king(chess.BLACK) is not None and board.king(chess.WHITE) is not None
    special = [m for m in moves if board.is_capture(m) or m.promotion or board.is_castling(m)
               or (kings and board.gives_check(m))]
    others = [m for m in moves if m not in special]
    illegal = [chess.Move.from_uci(u) for u in ("e1g1", "e1c1", "a7a8q", "d4e5", "b2b4")]
    return rng.sample(special, min(8, len(special))) + rng.sample(others, min(3, len(others))) + illegal


def test_referee_agrees_with_ksolve_observations() -> None:
    """For every rule set, White's observation of attempts (of the side to move,
    as for Black's replies), the turn information and "Any?", the checker's
    referee against ksolve's keys converted by ``ksolve.certificates.observation``."""
    pytest.importorskip("ksolve.certificates")
    from ksolve.board import move_from_uci
    from ksolve.board.convert import position_from_board
    from ksolve.certificates import observation
    from ksolve.rules import codes, get_rules

    rng = random.Random(SEED)
    seen: dict[str, int] = {}
    compared = 0
    for fog_moves in (False, True):
        names = ["fog-of-war"] if fog_moves else [name for name in referee.RULE_SETS if name != "fog-of-war"]
        for board in _boards(fog_moves):
            row = position_from_board(board, validate=False)[None, :]
            tries = _tries(board, referee.moves(board, names[0]), rng)
            for name in names:
                rules = get_rules(name)
                turn = observation(rules, rules.turn_info(row)[0])
                assert turn == referee.turn_info(board, name), (name, board.fen())
                if name in referee.ANY_QUESTION:
                    assert bool(rules.any_answers(row)[0]) == referee.any_answer(board), board.fen()
                for move in tries:
                    key = rules.attempt(row, move_from_uci(move.uci())).keys[0]
                    legal = referee.is_legal(board, move, name)
                    assert (int(key[0]) != codes.ILLEGAL) == legal, (name, board.fen(), move.uci())
                    if not legal:
                        continue
                    mine, _ = referee.play(board, move, name)
                    assert observation(rules, key) == mine, (name, board.fen(), move.uci())
                    compared += 1
                    for field in list(mine) + mine.get("checks", []) + ([mine["end"]] if "end" in mine else []):
                        seen[field] = seen.get(field, 0) + 1
    print(f"\n{compared} observations compared: {sorted((str(k), v) for k, v in seen.items())}")
    for field in ("capture", "captured", "en_passant", "promotion", "checks", "rank", "file", "long", "short",
                  "knight", "pawn_tries", "position", "visible", "checkmate", "stalemate", "insufficient",
                  "king-captured"):
        assert seen.get(field, 0) >= 2, (field, seen)


# --- the solver's certificates ----------------------------------------------------------------
SOLVED = [
    # (fen, hidden, rules, moves): small problems over every rule set
    (TWO_ROOKS, ["p:g4,h4"], "berkeley", 2),
    (ANY_FEN, ["p?:h7"], "english", 1),
    (ANY_FEN, ["p?:h7"], "berkeley-any", 2),
    ("7k/8/6K1/8/8/8/1R6/R7 w - - 0 1", ["p:a5,b5"], "cincinnati", 1),
    ("k7/8/2K5/8/8/8/8/7R w - - 0 1", ["p?:b4,b5"], "rand", 2),
    ("k7/8/2K5/8/8/8/8/7R w - - 0 1", [], "wild16", 2),
    ("k7/8/2K5/8/8/8/8/7R w - - 0 1", ["p?:e4,f5"], "orthodox", 2),
    ("k7/8/1Q6/8/8/8/8/K7 w - - 0 1", [], "fog-of-war", 2),
]


@pytest.mark.parametrize("fen, hidden, rules, moves", SOLVED, ids=[case[2] for case in SOLVED])
def test_solver_certificates_verify(tmp_path: Path, fen: str, hidden: list[str], rules: str, moves: int) -> None:
    """ksolve solves, writes the certificate, and the checker verifies it (after a JSON round trip)."""
    make_certificate = pytest.importorskip("ksolve.certificates").certificate
    from ksolve.problem import load_problem
    from ksolve.solver import solve

    path = problem_file(tmp_path, fen, rules=rules, moves=moves, hidden=hidden)
    problem = load_problem(path)
    result = solve(problem)
    assert result.status == "solved", (rules, result.status)
    cert = json.loads(json.dumps(make_certificate(problem, result)))
    checked = check_certificate(path, cert)
    assert checked.verified, checked.format()
    assert checked.positions == result.belief_size and not checked.notes


# --- which problem a certificate is for ---------------------------------------------------------
def test_a_certificate_for_another_problem_is_refused_before_any_replay(tmp_path: Path) -> None:
    from ksolve.checker import WrongProblem, check_certificate_file

    path = problem_file(tmp_path, MATE_IN_ONE)
    cert = certificate("berkeley", 1, [[{}, {"attempt": "h1h8", "answers": [MATE]}]])
    cert.update(problem_id="rotenberg-1976", problem_sha256="0" * 64)
    with pytest.raises(WrongProblem, match="this certificate is for rotenberg-1976, not .*problem.toml"):
        check_certificate(path, cert)
    (tmp_path / "cert.json").write_text(json.dumps(cert))
    with pytest.raises(WrongProblem, match=f"^{tmp_path / 'cert.json'}: this certificate is for rotenberg-1976"):
        check_certificate_file(path, tmp_path / "cert.json")


def test_the_same_problem_edited_is_checked_with_a_note_and_old_certificates_as_before(tmp_path: Path) -> None:
    from ksolve.checker.problem import problem_digest

    path = problem_file(tmp_path, MATE_IN_ONE)
    cert = certificate("berkeley", 1, [[{}, {"attempt": "h1h8", "answers": [MATE]}]])
    assert "problem_sha256" not in cert and check_certificate(path, cert).verified  # an old certificate
    cert.update(problem_id="problem", problem_sha256=problem_digest(path.read_text()))
    result = check_certificate(path, cert)
    assert result.verified and not result.notes
    path.write_text(path.read_text() + "# edited\n")
    result = check_certificate(path, cert)
    assert result.verified and result.notes == ["the problem file has changed since the certificate was written"]


@pytest.mark.parametrize("data, reason", [
    ("{\"problem\": \"café\"}".encode("latin-1"), "line 1, column 17: byte 0xe9 is not UTF-8"),
    (b"\x89PNG\r\n\x1a\n", "line 2, column 1: control byte 0x1a: binary data"),
    (b"[" * 100_000, "nested too deeply"),
])
def test_unreadable_certificate_files_are_named(tmp_path: Path, data: bytes, reason: str) -> None:
    from ksolve.checker import read_certificate

    (tmp_path / "cert.json").write_bytes(data)
    with pytest.raises(CertificateError) as error:
        read_certificate(tmp_path / "cert.json")
    assert str(error.value).startswith(f"{tmp_path / 'cert.json'}: ") and reason in str(error.value)


def test_a_problem_file_with_a_byte_order_mark_is_one_line_naming_it(tmp_path) -> None:
    """The checker reads problem files itself: a BOM is said as such, not as TOML's 'Invalid statement'."""
    from click.testing import CliRunner

    from ksolve.cli import main

    problem = tmp_path / "bom.toml"
    problem.write_bytes(b"\xef\xbb\xbf" + b'stipulation = "#1"\nrules = "berkeley"\n[position]\n'
                        b'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n')
    proof = tmp_path / "proof.json"
    proof.write_text(json.dumps(certificate("berkeley", 1, [[{}, {"attempt": "h1h8", "answers": [MATE]}]])))
    result = CliRunner().invoke(main, ["check", str(problem), str(proof)])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "byte-order mark" in result.output and "Traceback" not in result.output
