"""ksolve's prover against the brute-force reference (``bruteforce.py``) on
seeded random small problems (n <= 3) across rule sets, plus hand-written cases.

Each problem is a visible FEN plus hidden-unit specs built with
``BeliefState.from_hidden``; the brute force builds its own initial belief
from the same specs and must find the same positions.  Besides the verdicts
(``Prover.wins``, ``Prover.solve``), the observation model is compared
directly: how each attempt and Black's replies split a belief.

Run with ``-s`` to see the counts and the runtime.
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from dataclasses import dataclass

import chess
import pytest

from bruteforce import FRESH, MATE, OTHER_END, BruteForce, belief_from_hidden
from ksolve.belief import BeliefState, is_refusal
from ksolve.board import move_from_uci, position_to_board
from ksolve.rules import codes, get_rules
from ksolve.search.prover import Prover

SEED = 20240611
PROBLEMS = 400
MAX_BELIEF = 12
RULES_WEIGHTS = {"berkeley": 50, "wild16": 14, "cincinnati": 12, "rand": 12, "orthodox": 12}
MOVES_WEIGHTS = {1: 40, 2: 45, 3: 15}


@dataclass(frozen=True)
class Problem:
    fen: str
    hidden: tuple[str, ...]
    rules: str
    moves: int

    def __str__(self) -> str:
        return f"{self.rules} #{self.moves} {self.fen} {list(self.hidden)}"


def _near(square: int, distance: int) -> list[int]:
    return [s for s in chess.SQUARES if 0 < chess.square_distance(s, square) <= distance]


def _square_names(squares: list[int]) -> str:
    return ",".join(chess.square_name(s) for s in squares)


def _random_problem(rng: random.Random) -> tuple[str, list[str]]:
    """A visible FEN and hidden specs biased toward near-mate: black king on or
    near an edge, white king two squares away, white heavy pieces nearby; now
    and then castling rights, en passant or promotion chances."""
    board = chess.Board(None)
    hidden = []
    castling = rng.random() < 0.08
    if castling:  # White king on e1 with one or two rooks and the castling rights
        white_king = chess.E1
        black_king = rng.choice([s for s in chess.SQUARES if chess.square_rank(s) <= 2
                                 and chess.square_distance(s, chess.E1) >= 2])
        rooks = rng.choice([[chess.H1], [chess.A1], [chess.A1, chess.H1]])
        for rook in rooks:
            board.set_piece_at(rook, chess.Piece(chess.ROOK, chess.WHITE))
        board.castling_rights = sum(chess.BB_SQUARES[rook] for rook in rooks)
    else:
        edge = [s for s in chess.SQUARES if chess.square_file(s) in (0, 7) or chess.square_rank(s) in (0, 7)]
        black_king = rng.choice(edge) if rng.random() < 0.9 else rng.choice(chess.SQUARES)
        white_king = rng.choice([s for s in _near(black_king, 2) if chess.square_distance(s, black_king) == 2]
                                if rng.random() < 0.9 else chess.SQUARES)
        if white_king == black_king:
            raise ValueError("kings clash")
    board.set_piece_at(white_king, chess.Piece(chess.KING, chess.WHITE))
    if rng.random() < 0.4:  # the black king hidden among 2-3 neighbouring squares
        squares = [black_king] + rng.sample([s for s in _near(black_king, 1) if s != white_king],
                                            rng.randint(1, 2))
        hidden.append("k:" + _square_names(squares))
    else:
        board.set_piece_at(black_king, chess.Piece(chess.KING, chess.BLACK))

    def empty(region: list[int]) -> list[int]:
        return [s for s in region if not board.piece_at(s) and s != black_king]

    if rng.random() < 0.15:  # en passant chances: a pawn beside an enemy pawn's double step
        file = rng.randint(1, 6)
        white_rank, black_rank = rng.choice([(4, 6), (1, 3)])
        board.set_piece_at(chess.square(file, white_rank), chess.Piece(chess.PAWN, chess.WHITE))
        squares = empty([chess.square(file - 1, black_rank), chess.square(file + 1, black_rank)])
        hidden.append("p:" + _square_names(squares))
    for _ in range(rng.randint(1, 3 - castling)):
        symbol = rng.choices("QRBNP", weights=[4, 4, 1, 1, 1.5])[0]
        region = _near(black_king, 4) if rng.random() < 0.8 else list(chess.SQUARES)
        if symbol == "P":
            region = [s for s in region if 1 <= chess.square_rank(s) <= 6]
            if rng.random() < 0.3:
                region = chess.SquareSet(chess.BB_RANK_7)
        board.set_piece_at(rng.choice(empty(list(region))), chess.Piece.from_symbol(symbol))
    for _ in range(rng.choices([0, 1, 2], weights=[3, 4, 2])[0]):
        symbol = rng.choices("pnbrq", weights=[3, 2, 2, 2, 0.5])[0]
        region = [s for s in _near(black_king, 3) if symbol != "p" or 1 <= chess.square_rank(s) <= 6]
        if rng.random() < 0.3:
            board.set_piece_at(rng.choice(empty(region)), chess.Piece.from_symbol(symbol))
        else:
            squares = rng.sample(empty(region), rng.randint(2, 4))
            hidden.append(symbol + ":" + _square_names(squares))
    board.turn = chess.WHITE
    return board.fen(), hidden


@functools.lru_cache(maxsize=None)
def generate_problems(count: int = PROBLEMS, seed: int = SEED) -> list[tuple[Problem, BeliefState]]:
    rng = random.Random(seed)
    problems = []
    while len(problems) < count:
        try:
            fen, hidden = _random_problem(rng)
        except (ValueError, IndexError):
            continue
        rules = rng.choices(list(RULES_WEIGHTS), weights=list(RULES_WEIGHTS.values()))[0]
        moves = rng.choices(list(MOVES_WEIGHTS), weights=list(MOVES_WEIGHTS.values()))[0]
        try:
            belief = BeliefState.from_hidden(fen, hidden)
        except ValueError:
            continue
        if len(belief) > (4 if moves == 3 else MAX_BELIEF):
            continue
        if moves == 3 and max(position_to_board(row).legal_moves.count() for row in belief.positions) > 35:
            continue  # keep the brute force's three-movers cheap
        problems.append((Problem(fen, tuple(hidden), rules, moves), belief))
    return problems


def _epds(belief: BeliefState) -> frozenset[str]:
    return frozenset(position_to_board(row).epd() for row in belief.positions)


def _reference_belief(problem: Problem, belief: BeliefState) -> frozenset[str]:
    """The brute force's own initial belief, which must equal ksolve's."""
    reference = belief_from_hidden(problem.fen, list(problem.hidden))
    assert _epds(belief) == reference, f"initial beliefs differ: {problem}"
    return reference


@pytest.mark.slow
def test_random_problems_agree_with_bruteforce() -> None:
    """For each problem: brute-force fewest moves (<= n) against a fresh
    ``Prover.wins`` (the stated check), a fresh ``Prover.solve`` and ``wins``
    of one prover per rule set shared by all problems (its table reused)."""
    started = time.perf_counter()
    problems = generate_problems()
    assert len(problems) >= 200
    shared = {name: Prover(get_rules(name)) for name in RULES_WEIGHTS}
    outcomes = {True: 0, False: 0}
    breakdown: Counter[tuple[str, int, bool]] = Counter()
    failures = []
    for index, (problem, belief) in enumerate(problems):
        fewest = BruteForce(problem.rules).solve(_reference_belief(problem, belief), problem.moves)
        expected = fewest is not None
        outcomes[expected] += 1
        breakdown[problem.rules, problem.moves, expected] += 1
        got = Prover(get_rules(problem.rules)).wins(belief, problem.moves)
        got_fewest = Prover(get_rules(problem.rules)).solve(belief, problem.moves)
        got_shared = shared[problem.rules].wins(belief, problem.moves)
        if (got, got_fewest, got_shared) != (expected, fewest, expected):
            failures.append(f"#{index} {problem}: brute force wins {expected} (fewest {fewest}); "
                            f"ksolve wins {got}, solve {got_fewest}, shared-table wins {got_shared}")
    elapsed = time.perf_counter() - started
    print(f"\n{len(problems)} problems, {outcomes[True]} won / {outcomes[False]} not, {elapsed:.1f} s")
    for (rules, moves, won), count in sorted(breakdown.items()):
        print(f"  {rules:10} #{moves} {'won' if won else 'not':3} {count}")
    assert not failures, "\n".join(failures)
    assert outcomes[True] >= 30 and outcomes[False] >= 30, outcomes


PARTITION_PROBLEMS = PROBLEMS
"""How many of the random problems also get their observation partitions compared."""


def _normalised(classes) -> tuple[frozenset, frozenset, frozenset, frozenset]:
    """(refused, mated, other game ends, partition of the games going on) from
    ``[(kind, EPDs)]`` with kind "No", MATE, OTHER_END or None.  Game-ending
    classes are merged: the semantics does not look inside them."""
    found = {"No": set(), MATE: set(), OTHER_END: set()}
    going_on = set()
    for kind, members in classes:
        if kind is None:
            going_on.add(frozenset(members))
        else:
            found[kind] |= members
    return frozenset(found["No"]), frozenset(found[MATE]), frozenset(found[OTHER_END]), frozenset(going_on)


def _ksolve_classes(classes, success: int = codes.END_CHECKMATE) -> tuple[list, dict]:
    """ksolve's ``[(key, BeliefState)]`` as ``[(kind, EPDs)]``, and the going-on beliefs by EPDs."""
    result, beliefs = [], {}
    for key, part in classes:
        epds = _epds(part)
        end = codes.end_of(int(key[0]))
        kind = "No" if is_refusal(key) else MATE if end == success else OTHER_END if end else None
        result.append((kind, epds))
        if kind is None:
            beliefs[epds] = part
    return result, beliefs


def _brute_classes(brute: BruteForce, belief: frozenset[str], move: chess.Move | None) -> list:
    """The brute force's classes after White's attempt ``move``, or (None) after
    every Black reply, where any game end (Black mating too) is OTHER_END."""
    grouped: dict[tuple, set[str]] = {}
    result = []
    for epd in belief:
        outcomes = brute.outcomes(epd)
        if move is not None and move not in outcomes:
            result.append(("No", {epd}))
            continue
        for heard, after in outcomes.values() if move is None else [outcomes[move]]:
            if heard == (MATE,) and move is not None:
                result.append((MATE, {after}))
            elif heard in ((MATE,), (OTHER_END,)):
                result.append((OTHER_END, {after}))
            else:
                grouped.setdefault(heard, set()).add(after)
    return result + [(None, members) for members in grouped.values()]


@pytest.mark.slow
def test_observation_partitions_agree_with_bruteforce() -> None:
    """A sharper check of the observation model than the verdicts: for every
    attempt in each problem's initial belief, the classes of the referee's
    answers (refused, mated, other game end, and the partition of the rest),
    and for two of the going-on classes the partition of Black's replies."""
    rng = random.Random(SEED + 1)
    checked = 0
    for index, (problem, belief) in enumerate(generate_problems()[:PARTITION_PROBLEMS]):
        brute = BruteForce(problem.rules)
        rules = get_rules(problem.rules)
        reference = _reference_belief(problem, belief)
        for move in sorted({m for epd in reference for m in brute.outcomes(epd)}, key=chess.Move.uci):
            ksolve_classes, beliefs = _ksolve_classes(belief.attempt(rules, move_from_uci(move.uci())))
            expected = _normalised(_brute_classes(brute, reference, move))
            assert _normalised(ksolve_classes) == expected, f"#{index} {problem}: attempt {move}"
            for members in rng.sample(sorted(expected[3], key=sorted), min(2, len(expected[3]))):
                replies, _ = _ksolve_classes(beliefs[members].replies(rules))
                replies = [(OTHER_END if kind == MATE else kind, epds) for kind, epds in replies]
                assert _normalised(replies) == _normalised(_brute_classes(brute, members, None)), (
                    f"#{index} {problem}: Black's replies after {move}")
                checked += 1
    print(f"\n{checked} reply partitions compared")


class _NoRefusals(BruteForce):
    """The brute force with the "No" branch forbidden: only attempts legal in
    every member (to show that a hand-written case needs the "No" branch)."""

    def attempt_wins(self, belief: frozenset[str], move: chess.Move, n: int, state: str = FRESH) -> bool:
        legal_everywhere = all(move in self.legal_and_mating(epd)[0] for epd in belief)
        return legal_everywhere and super().attempt_wins(belief, move, n, state)


ROTENBERG = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
HAND_WRITTEN = [
    # (fen, hidden, rules, n, wins, wins without the "No" branch)
    pytest.param("k7/8/1K6/8/8/8/8/7R w - - 0 1", [], "berkeley", 1, True, True, id="Rh8#"),
    pytest.param("k7/8/2K5/8/8/8/8/7R w - - 0 1", [], "berkeley", 1, False, False, id="Kb6-first"),
    pytest.param("k7/8/2K5/8/8/8/8/7R w - - 0 1", [], "wild16", 2, True, True, id="Kb6-Rh8#"),
    # Pawn on a5 or b5: 1.Ra8 is mate if it is on b5; "No" says a5, then 1.Rb8#.
    pytest.param("7k/8/6K1/8/8/8/1R6/R7 w - - 0 1", ["p:a5,b5"], "berkeley", 1, True, False,
                 id="No-then-Rb8#"),
    pytest.param("7k/8/6K1/8/8/8/8/R7 w - - 0 1", ["p:a5,b5"], "berkeley", 1, False, False,
                 id="No-but-no-second-rook"),
    # Rotenberg 1976: the "No" to 1.Rg2 leaves the bishop on b2, d2 or f2, where 1.N(x)f2#.
    pytest.param(ROTENBERG, ["b:b2,d2,f2"], "berkeley", 1, True, True, id="Rotenberg-No-branch"),
    pytest.param(ROTENBERG, ["b:dark"], "berkeley", 1, False, False, id="Rotenberg-#1"),
    pytest.param(ROTENBERG, ["b:dark"], "berkeley", 2, False, False, id="Rotenberg-#2"),
]


@pytest.mark.parametrize("fen, hidden, rules, moves, expected, without_no", HAND_WRITTEN)
def test_hand_written(fen: str, hidden: list[str], rules: str, moves: int, expected: bool,
                      without_no: bool) -> None:
    problem = Problem(fen, tuple(hidden), rules, moves)
    belief = BeliefState.from_hidden(fen, hidden)
    reference = _reference_belief(problem, belief)
    assert BruteForce(rules).wins(reference, moves) == expected
    assert _NoRefusals(rules).wins(reference, moves) == without_no
    assert Prover(get_rules(rules)).wins(belief, moves) == expected


def certify_solved(tmp_path, problems: list[Problem]) -> int:
    """Write each random problem as a file, ``solve`` it, and have the
    independent checker replay every won strategy's certificate; returns how
    many were checked."""
    import json

    from ksolve.certificates import certificate
    from ksolve.checker import check_certificate
    from ksolve.problem import load_problem
    from ksolve.solver import SOLVED, solve

    checked = 0
    for index, problem in enumerate(problems):
        path = tmp_path / f"p{index}.toml"
        path.write_text(f'stipulation = "#{problem.moves}"\nrules = "{problem.rules}"\n[position]\n'
                        f'fen = "{problem.fen}"\nhidden = {json.dumps(list(problem.hidden))}\n')
        loaded = load_problem(path)
        result = solve(loaded)
        if result.status != SOLVED:
            continue
        verdict = check_certificate(path, json.loads(json.dumps(certificate(loaded, result))))
        assert verdict.verified, f"#{index} {problem}: {verdict.format()}"
        checked += 1
    return checked


def test_won_random_problems_have_certificates_the_checker_verifies(tmp_path) -> None:
    """Every random problem the prover wins: its strategy, written as a
    certificate, is replayed by the independent checker (``ksolve.checker``)."""
    checked = certify_solved(tmp_path, [problem for problem, _ in generate_problems()])
    print(f"\n{checked} certificates verified")
    assert checked >= 80
