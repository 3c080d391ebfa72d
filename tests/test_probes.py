"""Modern Kriegspiel probes (``rules = "modern"``, ``probes = k``): the pruned
probe sets against every subset of the board, the prover and df-pn against a
python-chess brute force over all probe sets (``bruteforce_probes.py``), the
problem field, the report and the checker replaying probes."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import chess
import numpy as np
import pytest

from bruteforce import BruteForce
from bruteforce_probes import ProbesBruteForce
from ksolve.belief import BeliefState
from ksolve.board import position_to_board
from ksolve.certificates import certificate
from ksolve.checker import check_certificate_text
from ksolve.checker.schema import CertificateError
from ksolve.problem import ProblemError, load_problem, load_problem_text
from ksolve.report import REPORT_FORMATS, render_report
from ksolve.rules import get_rules
from ksolve.rules.modern import differing_squares, modern_rules, probe_sets, square_contents
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import Prover
from ksolve.solver import SOLVED, solve

SEED = 16001
PIECES = (chess.ROOK, chess.QUEEN, chess.BISHOP, chess.KNIGHT)


def random_belief(rng: random.Random, max_size: int = 6) -> tuple[str, list[str], BeliefState] | None:
    """White's king and one or two men; Black's king hidden on two to four
    squares near one where White mates at once, sometimes a black man hidden
    on two or three squares."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 4)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    for square in squares[1:rng.choice([2, 3])]:
        board.set_piece_at(square, chess.Piece(rng.choice(PIECES), chess.WHITE))
    board.set_piece_at(squares[3], chess.Piece(chess.KING, chess.BLACK))
    if not board.is_valid() or not _mates_at_once(board):
        return None
    board.remove_piece_at(squares[3])
    empty = [s for s in chess.SQUARES if board.piece_at(s) is None]
    near = [s for s in empty if s != squares[3] and chess.square_distance(s, squares[3]) <= 2]
    king = [squares[3], *rng.sample(near, min(len(near), rng.choice([1, 2, 3])))]
    hidden = ["k:" + ",".join(chess.square_name(s) for s in king)]
    if rng.random() < 0.3:
        kind = rng.choice("pnb")
        spots = [s for s in empty if s not in king and 8 <= s < 56]
        hidden.append(f"{kind}:" + ",".join(chess.square_name(s) for s in rng.sample(spots, rng.choice([2, 3]))))
    try:
        belief = BeliefState.from_hidden(board.fen(), hidden)
    except ValueError:
        return None
    return (board.fen(), hidden, belief) if 2 <= len(belief) <= max_size else None


def _mates_at_once(board: chess.Board) -> bool:
    """Whether White has a mate in one in ``board``."""
    for move in list(board.legal_moves):
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def beliefs(count: int, seed: int = SEED, max_size: int = 6) -> list[tuple[str, list[str], BeliefState]]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        case = random_belief(rng, max_size)
        if case is not None:
            found.append(case)
    return found


def _partition(codes: np.ndarray, columns: list[int]) -> np.ndarray:
    return np.unique(codes[:, columns], axis=0, return_inverse=True)[1].ravel()


def _refines(a: np.ndarray, b: np.ndarray) -> bool:
    return len({(x, y) for x, y in zip(a.tolist(), b.tolist())}) == len(set(a.tolist()))


@pytest.mark.parametrize("k", [1, 2, 3])
def test_generated_probe_sets_dominate_every_subset(k: int) -> None:
    """Every set of at most k squares (of all 64, not only the differing ones)
    splits the belief no finer than one of the generated sets; no generated
    set is dominated by another; squares where every position agrees are never probed."""
    checked = 0
    for _, _, belief in beliefs(30, SEED + k, max_size=12):
        generated = probe_sets(belief.positions, k)
        differing = differing_squares(belief.positions)
        squares = list(chess.SQUARES)
        codes = square_contents(belief.positions, squares)
        made = [_partition(codes, list(chess.scan_forward(mask))) for mask in generated]
        assert generated and all(mask & ~differing == 0 and 0 < chess.popcount(mask) <= k for mask in generated)
        for i, a in enumerate(made):
            assert not any(j != i and _refines(b, a) for j, b in enumerate(made)), "a generated set is dominated"
        varying = list(chess.scan_forward(differing)) + [squares[0]]  # and one square where all agree
        for size in range(1, k + 1):
            for subset in combinations(varying, size):
                partition = _partition(codes, list(subset))
                assert any(_refines(m, partition) for m in made), (belief, subset)
                checked += 1
    assert checked > 100


def random_problems(count: int, seed: int) -> list[tuple[str, list[str], BeliefState, int, int]]:
    """(fen, hidden, belief, k, moves) cases small enough for the brute force over all probe sets."""
    rng = random.Random(seed)
    return [(fen, hidden, belief, rng.choice([1, 2, 3]), 1) if rng.random() < 0.4 else
            (fen, hidden, belief, rng.choice([1, 1, 2]), 2) for fen, hidden, belief in beliefs(count, seed, max_size=4)]


def _epds(belief: BeliefState) -> frozenset[str]:
    return frozenset(position_to_board(row).epd() for row in belief.positions)


@pytest.mark.slow
def test_prover_and_pns_agree_with_bruteforce_over_all_probe_sets() -> None:
    """ksolve's search with pruned probes decides as a brute force trying
    every subset of the 64 squares; and the probes matter in some cases."""
    outcomes, helped = {True: 0, False: 0}, 0
    references: dict[int, ProbesBruteForce] = {}
    for fen, hidden, belief, k, moves in random_problems(24, SEED):
        reference = references.setdefault(k, ProbesBruteForce(k))
        expected = reference.wins(_epds(belief), moves)
        assert Prover(modern_rules(k)).wins(belief, moves) == expected, (fen, hidden, k, moves)
        assert ProofNumberSearch(Prover(modern_rules(k)), exact_moves=0).wins(belief, moves) == expected
        outcomes[expected] += 1
        helped += expected and not BruteForce("berkeley").wins(_epds(belief), moves)
    assert outcomes[True] >= 3 and outcomes[False] >= 3 and helped >= 2, (outcomes, helped)


def test_a_probe_wins_where_berkeley_needs_five_moves() -> None:
    """King and rook against a king on a8, b8 or c8: one square probed mates in 2."""
    belief = BeliefState.from_hidden("8/8/2K5/8/8/8/8/3R4 w - - 0 1", ["k:a8,b8,c8"])
    assert Prover(get_rules("berkeley")).solve(belief, 4) is None
    assert Prover(modern_rules(1)).solve(belief, 4) == 2
    assert ProbesBruteForce(1).wins(_epds(belief), 2)


MODERN = ('stipulation = "#2"\nrules = "modern"\n{extra}[position]\nfen = "8/8/2K5/8/8/8/8/3R4 w - - 0 1"\n'
          'hidden = ["k:a8,b8,c8"]\n')


@pytest.mark.parametrize("extra, field, reason", [
    ("probes = 0\n", "probes", "a probe names 1 to 7 squares, not 0"),
    ("probes = 8\n", "probes", "a probe names 1 to 7 squares, not 8"),
    ('probes = "3"\n', "probes", "must be the number of squares per probe, 1 to 7, got '3'"),
    ("probes = true\n", "probes", "must be the number of squares per probe, 1 to 7, got True"),
    ('[[condition]]\nmove = "a8b8"\n', "condition",
     "[[condition]] together with probes (rules = 'modern') is not supported"),
])
def test_bad_probes_field_is_one_line(extra: str, field: str, reason: str) -> None:
    with pytest.raises(ProblemError) as error:
        load_problem_text(MODERN.format(extra=extra), "m.toml")
    assert str(error.value) == f"m.toml: {field}: {reason}"


def test_probes_only_with_the_modern_rule_set() -> None:
    text = MODERN.format(extra="probes = 2\n").replace('"modern"', '"berkeley"')
    with pytest.raises(ProblemError, match=r"^m.toml: probes: only the modern rule set has probes, not berkeley$"):
        load_problem_text(text, "m.toml")


def test_problem_probes_field_sets_the_count() -> None:
    assert load_problem_text(MODERN.format(extra=""), "m.toml").rules.probes == 7
    problem = load_problem_text(MODERN.format(extra="probes = 3\n"), "m.toml")
    assert problem.rules.probes == 3 and problem.rules.name == "modern" and "3 squares" in problem.rules.title


def test_modern_01_solved_reported_and_certificate_checked() -> None:
    """The problem of problems/: no mate in 2 under Berkeley, mate in 2 with probes;
    the probe in the text report; the certificate replayed by the checker, and a
    certificate whose probe names too many squares or misses an answer refused."""
    problem = load_problem(Path(__file__).resolve().parent.parent / "problems" / "modern-01.toml")
    assert solve(problem, rules="berkeley").status != SOLVED
    solution = solve(problem)
    assert solution.status == SOLVED and solution.moves == problem.moves and solution.key.startswith("probe ")
    text = render_report("text", problem, solution)
    assert "1.probe " in text and "black king" in text
    assert all("probe" in render_report(name, problem, solution) for name in REPORT_FORMATS)
    cert = certificate(problem, solution)
    result = check_certificate_text(problem.text, cert, "modern-01.toml")
    assert result.verified, result.reason
    node = cert["initial"][0][1]
    assert "probe" in node
    cut = {**node, "answers": node["answers"][1:]}
    result = check_certificate_text(problem.text, {**cert, "initial": [[cert["initial"][0][0], cut]]}, "m.toml")
    assert not result.verified and "probe" in result.reason
    wide = {**node, "probe": sorted(set(node["probe"]) | {"h1", "h2", "h3"})[:problem.rules.probes + 1]}
    result = check_certificate_text(problem.text, {**cert, "initial": [[cert["initial"][0][0], wide]]}, "m.toml")
    assert not result.verified and "squares" in result.reason


def test_checker_refuses_a_second_probe_and_probes_under_berkeley() -> None:
    """One probe a turn, at its start; no probe under a rule set without them."""
    problem = load_problem(Path(__file__).resolve().parent.parent / "problems" / "modern-01.toml")
    cert = certificate(problem, solve(problem))
    observation, node = cert["initial"][0]
    twice = {"probe": ["a1"], "answers": [[{"a1": None}, node]]}
    result = check_certificate_text(problem.text, {**cert, "initial": [[observation, twice]]}, "m.toml")
    assert not result.verified and "a probe after this turn's probe" in result.reason
    with pytest.raises(CertificateError, match="the berkeley rule set has no probes"):
        check_certificate_text(problem.text.replace('"modern"', '"berkeley"').replace("probes = 1\n", ""),
                               {**cert, "rules": "berkeley"}, "m.toml")


def test_verify_tries_the_probe_sets_first() -> None:
    """A turn that can learn something begins with a probe: verify's first
    choices are the probe sets, the key a probe and the tries the others."""
    import ksolve
    from ksolve.solver import key_wins, solve

    problem = ksolve.load_problem("problems/modern-01.toml")
    report = ksolve.verify(problem)
    assert report.verdict == "sound" and [key.move for key in report.keys] == ["probe f1"]
    assert sorted(attempt.move for attempt in report.tries) == ["probe e2", "probe h2"]
    assert solve(problem, tree=False).key == "probe f1"
    assert key_wins(problem, "probe f1") and not key_wins(problem, "probe e2")
    assert not key_wins(problem, "probe f1,e2")  # more squares than the problem's one probe
