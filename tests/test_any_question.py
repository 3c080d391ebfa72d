"""When "Any?" may be asked, one model everywhere (issue 42).

The rule: once a turn, at any point before the turn's legal move, after
refused attempts too (``ksolve.rules.base``).  Checked here:

- the rule set's turn states, the game referee, the play session and the
  certificate checker against the ``kriegspiel`` package, over random turns
  with refused attempts, under every rule set that has the question;
- the search against the brute-force solver (``bruteforce.py``, python-chess
  only), which tries every order of attempts and the question the rules
  allow: the keys ``ksolve verify`` finds on every bundled #1/#2 problem with
  "Any?" and on random #1/#2 problems;
- the last move in particular: a refused attempt, then "Any?", wins there
  (anderson-21's second key, 1.Bb7).

Keys are counted as ``ksolve verify`` counts them: the first attempts that
win within the stipulation, and "Any?" asked first only where no attempt does
(a question is no move; asking it first in a problem a move solves is no cook).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from pathlib import Path

import chess
import pytest
from kriegspiel.move import KriegspielMove, MainAnnouncement as MA, QuestionAnnouncement as QA

from bruteforce import ASK, MATE, OTHER_END, BruteForce
from ksolve.board import move_from_uci, position_from_board, position_to_board
from ksolve.board.layout import encode_move
from ksolve.checker import referee as checker
from ksolve.checker.problem import read_problem
from ksolve.errors import InputError
from ksolve.play.session import GameSession
from ksolve.problem import load_problem, load_problem_text
from ksolve.rules import get_rules
from ksolve.rules.base import ASK as ASK_CHOICE, FRESH
from ksolve.rules.referee import Referee
from ksolve.search.prover import Prover
from ksolve.verification import verify
from test_referee_vs_package import PACKAGE_NAMES, package_game, start_boards

PROBLEMS = Path(__file__).resolve().parent.parent / "problems"
ANY_RULES = ("english", "berkeley-any")


def _problem_rules(path: Path) -> tuple[str, int]:
    problem = load_problem(path)
    return problem.rules.name, problem.moves


def _bundled_any_problems(max_moves: int = 2) -> list[str]:
    """The bundled problems whose rules have "Any?", stipulated in at most ``max_moves``."""
    names = []
    for path in sorted(PROBLEMS.rglob("*.toml")):
        text = path.read_text()
        if not any(f'rules = "{name}"' in text for name in ANY_RULES):
            continue
        rules, moves = _problem_rules(path)
        if rules in ANY_RULES and moves <= max_moves:
            names.append(str(path.relative_to(PROBLEMS)))
    return names


def reference_keys(solver: BruteForce, belief: frozenset[str], moves: int) -> set[str]:
    """The brute force's keys as ``ksolve verify`` counts them (see the module's docstring)."""
    winning = solver.keys(belief, moves)
    attempts = winning - {ASK}
    return attempts or winning


def _ksolve_keys(problem) -> set[str]:
    report = verify(problem, duals=False)
    assert report.verdict != "unknown", report.reason
    return {key.move for key in report.keys}


# --- the rule against the kriegspiel package -------------------------------------------
def _random_action(game, board: chess.Board, rng: random.Random) -> KriegspielMove:
    """"Any?" often (after refused attempts too), else a pseudo-legal move of
    the true board, refused or not, or now and then a pawn-capture attempt."""
    r = rng.random()
    if r < 0.25:
        return KriegspielMove(QA.ASK_ANY)
    if r < 0.45 and game.possible_to_ask:
        return rng.choice(sorted(game.possible_to_ask))
    moves = list(board.pseudo_legal_moves)
    return KriegspielMove(QA.COMMON, rng.choice(moves)) if moves else KriegspielMove(QA.ASK_ANY)


@pytest.mark.parametrize("name", ANY_RULES)
def test_any_may_be_asked_exactly_when_the_kriegspiel_package_allows_it(name: str) -> None:
    """At every step of random games: whether "Any?" may be asked, and whether
    the next attempt must be a pawn capture, by the rule set's turn states (the
    search's model), the game referee, the play session and the checker, all
    equal to the package's."""
    rules = get_rules(name)
    rng = random.Random(f"any-{name}")
    seen = Counter()
    for board in start_boards(seed=sum(map(ord, name)))[:300]:
        game = package_game(PACKAGE_NAMES[name], board)
        referee = Referee(rules, position_from_board(board))
        session = GameSession(name, board.fen())
        state, asked, obliged, refused_before = FRESH, False, False, False
        for _ in range(60):
            if game.game_over or session.over:
                break
            theirs = KriegspielMove(QA.ASK_ANY) in game.possible_to_ask
            context = (name, game._board.fen(), state, asked)
            assert rules.can_ask(state) == theirs, context
            assert referee.can_ask() == theirs and session.can_ask() == theirs, context
            assert checker.may_ask(name, asked) == theirs, context
            assert rules.must_capture(state) == game.must_use_pawns == referee.must_use_pawns == obliged, context
            seen[f"may ask {theirs}" + (" after a refusal" if refused_before else "")] += 1
            action = _random_action(game, game._board, rng)
            answer = game.ask_for(action)
            if action.question_type == QA.ASK_ANY:
                if answer.main_announcement in (MA.HAS_ANY, MA.NO_ANY):
                    yes = answer.main_announcement == MA.HAS_ANY
                    assert referee.ask_any().kind == session.ask_any().kind == ("any-yes" if yes else "any-no")
                    state, asked, obliged = rules.state_after_any(yes), True, yes
                    seen["asked after a refusal" if refused_before else "asked first"] += 1
                continue
            move = action.chess_move
            ours = referee.attempt(encode_move(move.from_square, move.to_square, (move.promotion or 1) - 1))
            session.attempt(move.uci())
            if answer.main_announcement == MA.ILLEGAL_MOVE:
                assert ours.kind == "illegal", context
                state = rules.state_after_refusal(state)
                obliged = checker.obliged_after_refusal(name, obliged)
                refused_before = True
            elif answer.move_done:
                state, asked, obliged, refused_before = FRESH, False, False, False
    assert seen["asked after a refusal"] > 100 and seen["asked first"] > 100, seen
    assert seen["may ask False"] > 100 and seen["may ask True after a refusal"] > 100, seen


# --- the search against the brute force -------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", _bundled_any_problems())
def test_bundled_problems_with_any_have_the_brute_force_keys(name: str) -> None:
    problem = load_problem(PROBLEMS / name)
    boards = read_problem(PROBLEMS / name).boards
    belief = frozenset(board.epd() for board in boards)
    expected = reference_keys(BruteForce(problem.rules.name), belief, problem.moves)
    assert _ksolve_keys(problem) == expected, name


def test_the_last_move_asks_after_a_refused_attempt() -> None:
    """anderson-21 after 1.Bb7 and Black's silent replies (7 positions, #1):
    no attempt nor "Any?" asked at once mates in every position, but 1.Qd1
    does where it is legal and, where it is refused, "Any?" tells 1.exd4 from
    1.Qxc2 (issue 42's reproduction)."""
    anderson = load_problem(PROBLEMS / "anderson-21.toml")
    rules = anderson.rules
    (after,) = [part for key, part in anderson.belief().attempt(rules, move_from_uci("h1b7"))]
    silent = [part for key, part in after.replies(rules) if not rules.move_marks(key)[0]
              and not rules.move_marks(key)[1]]
    (belief,) = [part for part in silent if len(part) == 7]
    prover = Prover(rules)
    assert prover.wins(belief, 1)
    assert prover.attempt_wins(belief, move_from_uci("a4d1"), 1)
    assert not prover.attempt_wins(belief, ASK_CHOICE, 1)
    reference = BruteForce("english")
    epds = frozenset(position_to_board(row).epd() for row in belief.positions)
    assert reference.wins(epds, 1) and "a4d1" in reference.keys(epds, 1) and ASK not in reference.keys(epds, 1)



RANDOM_PROBLEMS = 200
DERIVED = 150
"""Of the random problems, those taken from inside the bundled ones (the rest are placed at random)."""
RANDOM_SEED = 4242
MAX_BELIEF = 12


def _near(square: int, distance: int) -> list[int]:
    return [s for s in chess.SQUARES if 0 < chess.square_distance(s, square) <= distance]


def _random_placement(rng: random.Random) -> tuple[str, list[str]]:
    """A visible FEN and a hidden black man that may stand where a white pawn
    captures: a black king on or near the top edge, a white king two squares
    away, one to three pieces near him."""
    board = chess.Board(None)
    black_king = chess.square(rng.randrange(8), rng.choice([7, 7, 6]))
    board.set_piece_at(black_king, chess.Piece(chess.KING, chess.BLACK))

    def empty(region) -> list[int]:
        return [s for s in region if not board.piece_at(s)]

    white_king = rng.choice(empty(s for s in _near(black_king, 2) if chess.square_distance(s, black_king) == 2))
    board.set_piece_at(white_king, chess.Piece(chess.KING, chess.WHITE))
    for _ in range(rng.randint(1, 3)):
        symbol = rng.choices("QRBN", weights=[3, 4, 2, 2])[0]
        board.set_piece_at(rng.choice(empty(_near(black_king, 4))), chess.Piece.from_symbol(symbol))
    pawn = rng.choice(empty(s for s in _near(black_king, 4) if 1 <= chess.square_rank(s) <= 5))
    board.set_piece_at(pawn, chess.Piece(chess.PAWN, chess.WHITE))
    targets = empty(chess.SquareSet(chess.BB_PAWN_ATTACKS[chess.WHITE][pawn]))
    others = [s for s in empty(_near(black_king, 3)) if 1 <= chess.square_rank(s) <= 6 and s not in targets]
    squares = [rng.choice(targets)] + rng.sample(others, rng.randint(1, 3))
    symbol = rng.choices("pnbrq", weights=[2, 3, 3, 3, 1])[0]
    board.turn = chess.WHITE
    return board.fen(), [symbol + ":" + ",".join(chess.square_name(s) for s in squares)]


def _any_sources() -> list[tuple[str, int, frozenset[str], set[str]]]:
    """The bundled #2 and #3 problems with "Any?": (rules, moves, initial EPDs,
    brute-force keys of the #2s, none for the #3s)."""
    sources = []
    for name in _bundled_any_problems(max_moves=3):
        problem = read_problem(PROBLEMS / name)
        belief = frozenset(board.epd() for board in problem.boards)
        if problem.moves >= 2 and len(belief) <= 40:
            keys = BruteForce(problem.rules).keys(belief, 2) if problem.moves == 2 else set()
            sources.append((problem.rules, problem.moves, belief, keys))
    return sources


def _derived_belief(rng: random.Random, sources) -> tuple[list[str], int] | None:
    """A turn from inside a bundled problem: after a first attempt (its key more
    often than not) and one class of Black's replies, with a move fewer."""
    rules, moves, belief, keys = rng.choice(sources)
    solver = BruteForce(rules)
    attempts = sorted({move for epd in belief for move in solver.outcomes(epd)}, key=chess.Move.uci)
    winning = [move for move in attempts if move.uci() in keys]
    move = rng.choice(winning) if winning and rng.random() < 0.6 else rng.choice(attempts)
    answers: dict = defaultdict(set)
    for epd in belief:
        if move in solver.outcomes(epd):
            heard, after = solver.outcomes(epd)[move]
            if heard not in ((MATE,), (OTHER_END,)):
                answers[heard].add(after)
    if not answers:
        return None
    replies: dict = defaultdict(set)
    for epd in answers[rng.choice(sorted(answers, key=str))]:
        for heard, after in solver.outcomes(epd).values():
            if heard in ((MATE,), (OTHER_END,)):
                return None
            replies[heard].add(after)
    return sorted(replies[rng.choice(sorted(replies, key=str))]), moves - 1


def random_any_problems(count: int = RANDOM_PROBLEMS, seed: int = RANDOM_SEED) -> list[tuple[str, str, int]]:
    """``count`` random #1/#2 problems (TOML text, rule set, moves) with "Any?" and
    small beliefs: ``DERIVED`` of them turns from inside the bundled problems
    (where the question is used), as ``positions`` problems, the rest placed at random."""
    rng = random.Random(seed)
    sources = _any_sources()
    problems: list[tuple[str, str, int]] = []
    while len(problems) < count:
        rules = rng.choice(ANY_RULES)
        if len(problems) < DERIVED:
            derived = _derived_belief(rng, sources)
            if derived is None or not 1 <= len(derived[0]) <= MAX_BELIEF:
                continue
            epds, moves = derived
            position = "positions = [" + ", ".join(f'"{epd} 0 1"' for epd in epds) + "]"
        else:
            try:
                fen, hidden = _random_placement(rng)
            except (ValueError, IndexError):  # no square left where one was wanted
                continue
            moves = rng.choice([1, 2])
            position = f'fen = "{fen}"\nhidden = [' + ", ".join(f'"{unit}"' for unit in hidden) + "]"
        text = f'stipulation = "#{moves}"\nrules = "{rules}"\n[position]\n{position}\n'
        try:
            size = len(load_problem_text(text).belief())
        except InputError:  # no legal placement, or a position the loader refuses
            continue
        if 1 <= size <= MAX_BELIEF:
            problems.append((text, rules, moves))
    return problems


@pytest.mark.slow
def test_random_problems_with_any_have_the_brute_force_keys() -> None:
    """200 random #1/#2 problems under English and Berkeley+Any: ``ksolve verify``'s
    keys equal the brute force's, and enough of them have keys, have none, and
    need the question (their keys differ under Berkeley, which has none) for
    the comparison to mean something."""
    failures, counts = [], Counter()
    for text, rules, moves in random_any_problems():
        problem = load_problem_text(text)
        belief = frozenset(position_to_board(row).epd() for row in problem.belief().positions)
        expected = reference_keys(BruteForce(rules), belief, moves)
        got = _ksolve_keys(problem)
        counts["with keys" if expected else "no key"] += 1
        counts["the question matters"] += expected != reference_keys(BruteForce("berkeley"), belief, moves)
        if got != expected:
            failures.append(f"{text!r}: brute force {sorted(expected)}, ksolve {sorted(got)}")
    assert not failures, "\n".join(failures)
    assert counts["with keys"] >= 40 and counts["no key"] >= 40 and counts["the question matters"] >= 5, counts


def _turns_after_the_keys() -> list[tuple[str, str, frozenset[str]]]:
    """Every #1 turn inside the bundled #2 problems with "Any?": after each
    brute-force key and each class of Black's replies (name, rules, EPDs)."""
    turns = []
    for name in _bundled_any_problems():
        problem = read_problem(PROBLEMS / name)
        if problem.moves != 2:
            continue
        solver = BruteForce(problem.rules)
        belief = frozenset(board.epd() for board in problem.boards)
        for key in sorted(solver.keys(belief, 2) - {ASK}):
            move = chess.Move.from_uci(key)
            answers: dict = defaultdict(set)
            for epd in belief:
                if move in solver.outcomes(epd):
                    heard, after = solver.outcomes(epd)[move]
                    answers[heard].add(after)
            for heard, members in answers.items():
                if heard == (MATE,):
                    continue
                replies: dict = defaultdict(set)
                for epd in members:
                    for reply_heard, after in solver.outcomes(epd).values():
                        replies[reply_heard].add(after)
                turns.extend((f"{name} 1.{key}", problem.rules, frozenset(part)) for part in replies.values())
    return turns


@pytest.mark.slow
def test_every_last_move_after_a_bundled_key_is_won_as_the_brute_force_says() -> None:
    """The last move where the bundled problems use the question most: each
    turn after a key (a positions problem of its own, #1) is won by ksolve
    exactly when the brute force wins it, with the same first attempts."""
    turns = _turns_after_the_keys()
    failures, counts = [], Counter()
    for label, rules, belief in turns:
        fens = ", ".join(f'"{epd} 0 1"' for epd in sorted(belief))
        problem = load_problem_text(f'stipulation = "#1"\nrules = "{rules}"\n[position]\npositions = [{fens}]\n')
        solver = BruteForce(rules)
        expected = solver.wins(belief, 1)
        counts["won" if expected else "not won"] += 1
        counts["asked after a refusal"] += expected and not (solver.keys(belief, 1) & {ASK}) and not any(
            solver.choice_wins(belief, choice, 1, "asked") for choice in solver.choices(belief, "asked"))
        if Prover(problem.rules).wins(problem.belief(), 1) != expected:
            failures.append(f"{label}: {len(belief)} positions, brute force {'wins' if expected else 'does not win'}")
    assert not failures, "\n".join(failures)
    assert counts["won"] >= 50 and counts["asked after a refusal"] >= 1, counts
