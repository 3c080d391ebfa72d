"""The metaposition engine behind the belief searches (``ksolve.search.lone_king``):
White's turns against a lone king are decided by the endgame tables' search, and
give what the belief prover alone gives and what the python-chess brute force gives."""

from __future__ import annotations

import random

import chess
import pytest

import ksolve
from bruteforce import BruteForce, belief_from_hidden
from ksolve.belief import BeliefState
from ksolve.rules import get_rules
from ksolve.rules.base import ASKED
from ksolve.search.lone_king import LoneKingEngine
from ksolve.search.pns import ProofNumberSearch
from ksolve.search.prover import Prover
from ksolve.search.run import Limits

PIECES = "QRBN"
RULES = ("berkeley", "wild16", "english", "fog-of-war", "cincinnati")


def _random_lone_king(rng: random.Random) -> tuple[str, list[str]] | None:
    """A random position of White's king and one piece against a king hidden on one to
    three squares of an edge, White's king two squares away (wins within three moves
    are common then, and so are losses), in a random one of the board's eight frames;
    None when no king square is legal."""
    file = rng.randrange(8)
    kings = [chess.square(f, 7) for f in range(max(0, file - 1), min(8, file + 2)) if rng.random() < 0.7]
    king = chess.square(min(7, max(0, file + rng.randint(-1, 1))), 5)
    piece = rng.choice([square for square in range(48) if square != king])
    frame = rng.randrange(8)

    def seen(square: int) -> int:
        if frame & 1:
            square ^= 7
        if frame & 2:
            square = chess.square_mirror(square)
        if frame & 4:
            square = chess.square(chess.square_rank(square), chess.square_file(square))
        return square

    board = chess.Board(None)
    board.set_piece_at(seen(king), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(seen(piece), chess.Piece.from_symbol(rng.choice(PIECES)))
    squares = [seen(square) for square in kings or [chess.square(file, 7)] if seen(square) not in (seen(king), seen(piece))]
    if not squares:
        return None
    fen = board.fen().split()[0] + " w - - 0 1"
    hidden = ["k:" + ",".join(chess.square_name(square) for square in squares)]
    try:
        return (fen, hidden) if len(BeliefState.from_hidden(fen, hidden)) else None
    except ValueError:
        return None


def _cases(count: int, seed: int) -> list[tuple[str, list[str], str]]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        found = _random_lone_king(rng)
        if found is not None:
            cases.append((*found, rng.choice(RULES)))
    return cases


@pytest.mark.parametrize("fen, hidden, rules", _cases(40, 47))
def test_the_engine_agrees_with_the_belief_prover(fen: str, hidden: list[str], rules: str) -> None:
    """Within 1 to 3 moves, with the engine and without it (the belief prover alone)."""
    belief = BeliefState.from_hidden(fen, hidden, get_rules(rules).fog)
    with_engine, alone = Prover(get_rules(rules)), Prover(get_rules(rules))
    alone.lone_king = None
    assert with_engine.lone_king.turn(belief, 3) is not None
    for moves in (1, 2, 3):
        assert with_engine.wins(belief, moves) == alone.wins(belief, moves), (moves, fen, hidden, rules)
    assert with_engine.lone_king.turns > 0


@pytest.mark.parametrize("fen, hidden, rules", _cases(16, 2026))
def test_the_engine_agrees_with_the_brute_force(fen: str, hidden: list[str], rules: str) -> None:
    """Within 1 and 2 moves, against the python-chess brute force (no shared code)."""
    rules = "berkeley" if rules == "fog-of-war" else rules  # the brute force's rule sets
    prover = Prover(get_rules(rules))
    belief = BeliefState.from_hidden(fen, hidden)
    brute = BruteForce(rules)
    reference = belief_from_hidden(fen, hidden)
    for moves in (1, 2):
        assert prover.wins(belief, moves) == brute.wins(reference, moves), (moves, fen, hidden, rules)


def test_the_engine_takes_only_turns_it_answers_as_the_prover() -> None:
    """Not with a pawn, a castling right, a black man besides the king, a turn after
    "Any?", probes, stated conditions on Black's play or orthodox chess; yes with the king on one square."""
    engine = LoneKingEngine(get_rules("berkeley"))
    for fen, hidden in (("8/8/8/8/8/8/P7/K6R w - - 0 1", ["k:a8,b8"]),
                        ("8/8/8/8/8/8/8/4K2R w K - 0 1", ["k:a8,b8"]),
                        ("8/8/8/8/8/8/8/K6R w - - 0 1", ["k:a8,b8", "n:e5"]),
                        ("8/8/8/8/8/8/8/K5RR w - - 0 1", ["k:a8,b8"])):  # two pieces: no tables built here
        assert engine.turn(BeliefState.from_hidden(fen, hidden), 3) is None, fen
    belief = BeliefState.from_hidden("8/8/8/8/8/8/8/K6R w - - 0 1", ["k:a8,b8"])
    assert engine.turn(belief, 3) is not None and engine.turn(belief, 3, ASKED) is None
    assert LoneKingEngine(get_rules("modern")).turn(belief, 3) is None
    assert LoneKingEngine(get_rules("orthodox")).turn(belief, 3) is None
    seen = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
    assert engine.turn(seen, 1) is not None and Prover(get_rules("berkeley")).wins(seen, 1)


def test_a_problem_reaching_a_lone_king_is_finished_by_the_engine(monkeypatch) -> None:
    """K+Q against a king and a hidden dark-squared bishop (composed/kq-darkbishop-4a):
    once the bishop is taken the engine decides the turns; the verdict stays the prover's
    (``tests/fixtures/verdicts.json`` holds the rest of it)."""
    from make_verdict_fixtures import ROOT

    decided = []
    original = LoneKingEngine.decide

    def counted(self, turn, moves, run):
        decided.append(turn.material)
        return original(self, turn, moves, run)

    monkeypatch.setattr(LoneKingEngine, "decide", counted)
    problem = ksolve.load_problem(ROOT / "problems" / "composed" / "kq-darkbishop-4a.toml")
    verification = ksolve.verify(problem)
    assert verification.verdict == "sound" and [key.move for key in verification.keys] == ["d8d1"]
    assert decided and set(decided) == {"KQK"}


def test_k_and_r_against_the_king_in_the_corner_as_a_problem_file(tmp_path) -> None:
    """The 3x3 corner a6-c8 with Ka1, Rh1: mate in 21 at the fewest, found by ``ksolve.solve``
    (in seconds: the prover alone did not decide it in minutes), its certificate replayed."""
    from ksolve.endgame.certify import problem_text
    from ksolve.endgame.sweep import SweepSpec, solver_for

    corner = sum(1 << chess.square(f, r) for f in range(3) for r in range(5, 8))
    text = problem_text(solver_for(SweepSpec("KRK", "berkeley")), (chess.A1, chess.H1), 30, corner)
    problem = ksolve.load_problem_text(text, "rook.toml")
    solution = ksolve.solve(problem, limits=Limits(seconds=300), jobs=1)
    assert solution.status == "solved" and solution.moves == 21
    certificate = ksolve.certificate(problem, solution)
    assert ksolve.check(problem, certificate).verified


def test_the_engine_keeps_the_run_limits() -> None:
    """A node limit stops the engine's search between its steps (``SearchAborted``)."""
    from ksolve.search.run import SearchAborted

    prover = Prover(get_rules("berkeley"), Limits(nodes=30_000))
    belief = BeliefState.from_hidden("8/8/8/8/8/8/8/K6R w - - 0 1", ["k:any"])
    with pytest.raises(SearchAborted, match="node limit"):
        ProofNumberSearch(prover).wins(belief, 30)
    assert prover.stats.nodes >= 30_000
