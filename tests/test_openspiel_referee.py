"""Differential test of ksolve's Wild 16 referee against OpenSpiel's
``kriegspiel`` game (an independent C++ referee of the ICC rules): seeded
random games where every attempt is drawn from OpenSpiel's legal actions for
the side to move, made in both games (``pyspiel`` and
``ksolve.play.session.GameSession("wild16")``), and both referees must agree at
every step on: whether the attempt is refused; the capture square and
pawn/piece; the check announcements; the pawn tries told to the side now to
move; the side to move; the end of the game (checkmate, stalemate,
insufficient material, threefold repetition, the 50-move rule); and the set
of attempts the side to move may make.

Half of the games start from the standard position, half from scattered
positions (``positions.random_placements``: checks, pins, en passant,
castling and promotions come sooner).  OpenSpiel's player 0 is Black and
player 1 White.

OpenSpiel's game is loaded with ``threefold_repetition`` on (as ksolve's
games: same men, side to move, castling rights and an en-passant square only
when an enemy pawn stands beside it, in both) and ``50_move_rule`` off (see
5. below).

Where the two differ by rule (open_spiel 2.0.2; source read at commit 112b777
of google-deepmind/open_spiel), the comparison is restricted exactly so:

1. Checks are never announced by OpenSpiel 2.0.2.  ``GetCheckType`` in
   ``games/kriegspiel/kriegspiel.cc`` is called on the board after the move
   and looks for pseudo-legal moves *of the side to move* (the checked side)
   onto *its own* king's square, which never exist.  Whether this OpenSpiel
   announces checks is probed once (1.e4 f5 2.Qh5+); if it does, its checks
   are compared with ksolve's directly; if not, OpenSpiel's must be none and
   ksolve's are compared with the classification that ``GetCheckType`` and
   ``IsLongDiagonal`` (``games/chess/chess_board.cc``) define: a knight gives
   "Knight", a man on the king's file "File", on its rank "Rank", otherwise
   the a1-h8 direction is the long diagonal when the king stands in the
   a1-d4 or e5-h8 quarter of the board, the a8-h1 direction elsewhere.
   A move that ends the game (checkmate; a check that leaves insufficient
   material) ksolve announces with the end alone, no check direction (as
   the ``kriegspiel`` package does, ``tests/test_referee_vs_package.py``),
   where OpenSpiel's message would carry the directions: there only
   ksolve's silence on directions is checked.
2. En passant: OpenSpiel announces no capture at all (``GetUmpireMessage``
   takes the captured man from the arrival square, which is empty); ksolve
   announces "Pawn at <the passed pawn's square> captured".
3. Pawn tries: OpenSpiel counts every legal pawn capture once per promotion
   piece (``GenerateLegalPawnCaptures`` yields four moves for a capture onto
   the last rank), ksolve once per capture; so OpenSpiel's count must be
   ksolve's plus 3 for each legal capturing promotion.
4. Checkmate and stalemate are not announced by OpenSpiel:
   ``KriegspielState::MaybeFinalReturns`` ends the game when the side to
   move has no attempt left (``cached_legal_actions_``, the pseudo-legal
   "breach" attempts not yet refused), not when he has no legal move.  After
   ksolve's checkmate or stalemate the test makes OpenSpiel's side to move
   try every attempt left (each must be "Illegal move"), and then OpenSpiel's
   game must be over with the mated side lost, or drawn.  OpenSpiel judges
   insufficient material first, so a stalemate with insufficient material
   (ksolve: stalemate) ends OpenSpiel's game at once, drawn.
5. The 50-move rule: OpenSpiel's ``MaybeFinalReturns`` draws when
   ``IrreversibleMoveCounter() >= 50``, and that counter counts plies, so its
   game ends after 25 moves of each side (its ``chess`` game uses 100 plies);
   ksolve's games after 50 moves (100 plies).  OpenSpiel's rule is turned
   off; at ksolve's 50-move draw, OpenSpiel's FEN must show 100 plies.
6. What counts as an attempt: OpenSpiel offers every diagonal pawn step onto
   a square the mover's own men do not hold, at every turn
   (``GeneratePseudoLegalMoves`` with ``kBreachEnemyPieces``); ksolve's Wild
   16 offers them only when the side to move has at least one pawn try
   (with none, ksolve answers such an attempt "Illegal move" too but it is
   not one of its askable attempts).  So OpenSpiel's attempts must be
   ksolve's askable ones, plus, when there is no legal pawn capture, those
   pawn steps not yet refused.  Both forbid trying a refused attempt again.
7. Who hears a refusal: OpenSpiel's "Illegal move." is in both players'
   observations (``kriegspiel.h``: tests need it), ksolve's Wild 16 tells it
   to the mover only; only the mover's answer is compared.
8. Outcomes: OpenSpiel's game ends give only the returns (win or draw), so
   ksolve's kinds of draw (insufficient material, stalemate, repetition) are
   compared through the cases above.  Its insufficient material
   (``ChessBoard::HasSufficientMaterial``) is python-chess's, which ksolve's
   Wild 16 applies.

Every attempt is one of OpenSpiel's legal actions, drawn uniformly, or (one
time in five, ``PAWN_STEP_SHARE``) among its diagonal pawn steps, so that pawn
captures, en passant and capturing promotions come up often.  A game that
has not ended after ``MAX_PLIES`` moves is stopped.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import chess
import pytest

pyspiel = pytest.importorskip("pyspiel")

from ksolve.play.session import GameSession, PlayError  # noqa: E402
from ksolve.rules import codes  # noqa: E402
from positions import random_placements  # noqa: E402

QUICK_GAMES = 100
SLOW_GAMES = 1000
MAX_PLIES = 300
"""Moves (executed attempts) after which a game is stopped."""
PAWN_STEP_SHARE = 0.2
"""How often the attempt is drawn from the diagonal pawn steps alone (captures, en passant, promotions)."""
PARAMETERS = {"threefold_repetition": True, "50_move_rule": False}
MESSAGE = re.compile(r"(?:(Pawn|Piece) at ([a-h][1-8]) captured, )?"
                     r"((?:(?:File|Rank|Long-diagonal|Short-diagonal|Knight) check, )*)"
                     r"(white|black)'s move(?:, (\d+) pawn tr(?:y|ies))?\.")
CHECK_WORDS = {"File": "file", "Rank": "rank", "Long-diagonal": "long diagonal",
               "Short-diagonal": "short diagonal", "Knight": "knight"}


def player(color: chess.Color) -> int:
    """OpenSpiel's player of a colour (0 is Black)."""
    return 1 if color == chess.WHITE else 0


def umpire(state, mover: int) -> tuple | None:
    """OpenSpiel's last umpire message as the mover observes it: None for
    "Illegal move.", else (capture square or None, captured a pawn or None,
    check words, side to move, pawn tries)."""
    text = state.observation_string(mover).split("\n", 1)[1]
    if text == "Illegal move.":
        return None
    match = MESSAGE.fullmatch(text)
    assert match, f"unreadable OpenSpiel message {text!r}"
    kind, square, checks, to_move, tries = match.groups()
    checks = frozenset(CHECK_WORDS[word.removesuffix(" check")] for word in checks.split(", ") if word)
    return (None if square is None else chess.parse_square(square), None if kind is None else kind == "Pawn",
            checks, chess.WHITE if to_move == "white" else chess.BLACK, int(tries or 0))


def named(square: int | None) -> str | None:
    return None if square is None else chess.square_name(square)


def find_action(state, uci: str) -> int:
    return next(a for a in state.legal_actions() if state.action_to_string(state.current_player(), a) == uci)


def _announces_checks() -> bool:
    """Whether this OpenSpiel announces checks (1.e4 f5 2.Qh5+; see the docstring, 1.)."""
    state = pyspiel.load_game("kriegspiel", PARAMETERS).new_initial_state()
    for uci in ("e2e4", "f7f5", "d1h5"):
        state.apply_action(find_action(state, uci))
    return bool(umpire(state, 0)[2])


ANNOUNCES_CHECKS = _announces_checks()


def source_check_words(board: chess.Board) -> frozenset[str]:
    """The check directions of the side to move by OpenSpiel's definitions (docstring, 1.)."""
    king = board.king(board.turn)
    kx, ky = chess.square_file(king), chess.square_rank(king)
    words = set()
    for checker in board.checkers():
        x, y = chess.square_file(checker), chess.square_rank(checker)
        if board.piece_type_at(checker) == chess.KNIGHT:
            words.add("knight")
        elif x == kx:
            words.add("file")
        elif y == ky:
            words.add("rank")
        else:
            main_direction = (x - kx) == (y - ky)
            main_is_long = (kx < 4) == (ky < 4)
            words.add("long diagonal" if main_direction == main_is_long else "short diagonal")
    return frozenset(words)


def pawn_steps(board: chess.Board) -> set[str]:
    """The mover's diagonal pawn steps onto squares his men do not hold (four promotions on the last rank)."""
    steps = set()
    for square in board.pieces(chess.PAWN, board.turn):
        for target in chess.SquareSet(chess.BB_PAWN_ATTACKS[board.turn][square] & ~board.occupied_co[board.turn]):
            if chess.square_rank(target) in (0, 7):
                steps.update(chess.Move(square, target, p).uci() for p in (chess.QUEEN, chess.ROOK, chess.BISHOP,
                                                                             chess.KNIGHT))
            else:
                steps.add(chess.Move(square, target).uci())
    return steps


def pawn_captures(board: chess.Board) -> tuple[int, int]:
    """The legal pawn captures of the side to move: (count, how many of them promote)."""
    captures = [m for m in board.legal_moves if board.piece_type_at(m.from_square) == chess.PAWN
                and chess.square_file(m.from_square) != chess.square_file(m.to_square)
                and m.promotion in (None, chess.QUEEN)]
    return len(captures), sum(m.promotion is not None for m in captures)


def start_fen(seed: int) -> str | None:
    """The start of game ``seed``: the standard position for even seeds, a scattered one for odd seeds."""
    if seed % 2 == 0:
        return None
    for board in random_placements(40, seed):
        if board.is_insufficient_material() or not any(board.legal_moves):
            continue
        try:
            GameSession("wild16", board.fen())
        except PlayError:
            continue
        return board.fen()
    raise AssertionError(f"seed {seed}: no start position")


class Mismatch(AssertionError):
    pass


def play_game(seed: int, stats: Counter) -> None:
    """One random game; ``Mismatch`` naming the seed, the start, the attempts and the difference."""
    rng = random.Random(f"openspiel-{seed}")
    fen = start_fen(seed)
    game = GameSession("wild16", fen)
    state = pyspiel.load_game("kriegspiel", dict(PARAMETERS, **({"fen": fen} if fen else {}))).new_initial_state()
    history: list[str] = []

    def check(condition: bool, what: str, theirs: object, ours: object) -> None:
        if not condition:
            raise Mismatch(f"seed {seed}, start {fen or 'standard'}, attempts {' '.join(history) or '-'}: "
                           f"{what}: OpenSpiel {theirs!r}, ksolve {ours!r}")

    board = chess.Board(fen or chess.STARTING_FEN)
    tries = pawn_captures(board)[0]  # the side to move's pawn tries (after a move: the count both told)
    refused: set[str] = set()
    plies = 0
    while plies < MAX_PLIES:
        if game.over:  # compare_end compared the end
            return
        check(not state.is_terminal(), "game over", True, False)
        mover = state.current_player()
        check(mover == player(board.turn), "side to move", mover, board.turn)
        theirs_attempts = {state.action_to_string(mover, a): a for a in state.legal_actions()}
        ours_attempts = set(game.askable())
        extra = pawn_steps(board) - refused if tries == 0 else set()  # docstring, 6.
        stats["turns with pawn steps only OpenSpiel offers"] += bool(extra)
        check(set(theirs_attempts) == ours_attempts | extra,
              "attempts (OpenSpiel minus ksolve, ksolve minus OpenSpiel)",
              sorted(set(theirs_attempts) - ours_attempts - extra), sorted(ours_attempts - set(theirs_attempts)))
        steps = sorted(pawn_steps(board) & set(theirs_attempts))
        uci = rng.choice(steps if steps and rng.random() < PAWN_STEP_SHARE else sorted(theirs_attempts))
        state.apply_action(theirs_attempts[uci])
        answer = game.attempt(uci)
        theirs = umpire(state, mover)
        check((theirs is None) == (answer.kind == "illegal"), f"refusal of {uci}",
              "Illegal move" if theirs is None else "executed", answer.words)
        stats["attempts"] += 1
        if theirs is None:
            history.append(f"({uci})")
            refused.add(uci)
            stats["refused"] += 1
            continue
        history.append(uci)
        refused = set()
        plies += 1
        stats["moves"] += 1
        before = board.copy(stack=False)
        board.push_uci(uci)
        check(str(state).split()[:2] == board.fen().split()[:2], "true position", str(state), board.fen())
        tries = compare_move(before, board, chess.Move.from_uci(uci), game, state, theirs, check, stats)
    stats["stopped"] += 1


def compare_move(before: chess.Board, after: chess.Board, move: chess.Move, game: GameSession, state,
                 theirs: tuple, check, stats: Counter) -> int:
    """The announcements of an executed move, and the game's end; the pawn tries told."""
    code = game.turns[-1].code
    square, pawn, checks, to_move, tries = theirs
    ours_square = codes.capture_square(code)
    ours_pawn = None if ours_square is None else bool(code & codes.CAPTURED_PAWN)
    if before.is_en_passant(move):  # docstring, 2.
        passed = move.to_square + (-8 if before.turn == chess.WHITE else 8)
        check(square is None and (ours_square, ours_pawn) == (passed, True), "en passant capture",
              (named(square), pawn), (named(ours_square), ours_pawn))
        stats["en passant"] += 1
    else:
        check((square, pawn) == (ours_square, ours_pawn), "capture (square, pawn)", (named(square), pawn),
              (named(ours_square), ours_pawn))
        stats["captures"] += square is not None
    ours_checks = frozenset(codes.check_words(code))
    if codes.end_of(code) != codes.END_NONE:  # docstring, 1.: the end replaces the check in ksolve
        check(not ours_checks, "checks at the end of the game", sorted(source_check_words(after)),
              sorted(ours_checks))
    elif ANNOUNCES_CHECKS:
        check(checks == ours_checks, "checks", sorted(checks), sorted(ours_checks))
    else:  # docstring, 1.
        check(not checks, "checks (this OpenSpiel announces none)", sorted(checks), sorted(ours_checks))
        check(source_check_words(after) == ours_checks, "checks by OpenSpiel's definitions",
              sorted(source_check_words(after)), sorted(ours_checks))
    stats["checks"] += bool(ours_checks)
    stats["checks OpenSpiel did not announce"] += bool(ours_checks) and not checks
    stats["double checks"] += len(ours_checks) == 2
    check(to_move == game.to_move, "side to move", to_move, game.to_move)
    seventh = chess.BB_RANK_7 if after.turn == chess.WHITE else chess.BB_RANK_2
    promoting = pawn_captures(after)[1] if after.pieces_mask(chess.PAWN, after.turn) & seventh else 0
    ours_tries = codes.pawn_try_count(code) or 0
    check(tries == ours_tries + 3 * promoting, "pawn tries (OpenSpiel, ksolve + 3 per capturing promotion)",
          tries, (ours_tries, promoting))  # docstring, 3.
    stats["pawn tries"] += ours_tries > 0
    stats["capturing promotions told"] += promoting > 0
    stats["promotions"] += move.promotion is not None
    stats["castlings"] += before.is_castling(move)
    compare_end(after, game, state, check, stats)
    return ours_tries


def compare_end(after: chess.Board, game: GameSession, state, check, stats: Counter) -> None:
    """The end of the game (docstring, 4., 5. and 8.) after a move."""
    end = codes.end_of(game.turns[-1].code)
    over = state.is_terminal()
    if end == codes.END_STALEMATE and over:
        check(after.is_insufficient_material(), "stalemate ended at once", over, game.termination)
        stats["stalemate with insufficient material"] += 1
    elif end in (codes.END_CHECKMATE, codes.END_STALEMATE):
        mover = state.current_player()
        while not state.is_terminal():
            action = state.legal_actions()[0]
            uci = state.action_to_string(mover, action)
            state.apply_action(action)
            check(umpire(state, mover) is None, f"{uci} after {game.termination}", "executed", "no legal move")
            stats["attempts left tried"] += 1
        expected = [0.0, 0.0]
        if end == codes.END_CHECKMATE:
            expected[player(after.turn)], expected[player(not after.turn)] = -1.0, 1.0
        check(state.returns() == expected, "returns after every attempt was refused", state.returns(),
              game.termination)
        stats[game.termination] += 1
        return
    elif game.termination == "draw by the 50-move rule":
        clock = int(str(state).split()[4])
        check(not over and clock == 100, "50-move rule (over, halfmove clock)", (over, clock), game.termination)
        stats[game.termination] += 1
        return
    check(over == game.over, "game over", over, game.termination or "not over")
    if over:
        check(state.returns() == [0.0, 0.0], "returns", state.returns(), game.termination)
        stats[game.termination] += 1


def run(seeds: range) -> Counter:
    stats: Counter = Counter()
    for seed in seeds:
        play_game(seed, stats)
    return stats


def test_referee_matches_openspiel_quick() -> None:
    stats = run(range(QUICK_GAMES))
    assert stats["moves"] > 5_000 and stats["refused"] > 1_000, stats
    assert stats["captures"] > 500 and stats["checks"] > 200 and stats["pawn tries"] > 300, stats


@pytest.mark.slow
def test_referee_matches_openspiel() -> None:
    stats = run(range(QUICK_GAMES, QUICK_GAMES + SLOW_GAMES))
    # The games must reach every kind of announcement and of game end.
    assert stats["moves"] > 150_000 and stats["refused"] > 100_000, stats
    assert stats["captures"] > 10_000 and stats["checks"] > 8_000 and stats["double checks"] > 10, stats
    assert stats["en passant"] > 20 and stats["capturing promotions told"] > 300 and stats["castlings"] > 15, stats
    assert stats["Checkmate"] > 60 and stats["Stalemate"] > 30, stats
    assert stats["Draw (insufficient material)"] > 200 and stats["draw by the 50-move rule"] > 40, stats
    assert stats["draw by threefold repetition"] > 5, stats
