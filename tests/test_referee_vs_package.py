"""Differential test of the six Kriegspiel referees against the ``kriegspiel``
package: seeded random games, random attempts (legal, illegal on the true
board, impossible on the mover's own board, "Any?"), identical answers at
every step.

Known, documented difference (DOMAIN.md wins): under Berkeley and
Berkeley+Any only bare kings or king + one minor piece against a king is a
draw for lack of material; the package applies python-chess's broader rule
(e.g. K+B v K+B with bishops on one colour).  Such a game is checked against
DOMAIN.md's rule at that step and then stopped.
"""

from __future__ import annotations

import random
from collections import Counter

import chess
import pytest
from kriegspiel.game import KriegspielGame
from kriegspiel.move import KriegspielMove, MainAnnouncement as MA, QuestionAnnouncement as QA
from kriegspiel.move import SpecialCaseAnnouncement as SCA

from ksolve.board import position_from_board
from ksolve.board.layout import encode_move
from ksolve.rules import codes, get_rules
from ksolve.rules.referee import Referee
from positions import random_placements

GAMES_PER_RULE_SET = 1000
MAX_PLIES = 30
PACKAGE_NAMES = {"berkeley": "berkeley", "berkeley-any": "berkeley_any", "english": "english",
                 "cincinnati": "cincinnati", "rand": "rand", "wild16": "wild16"}
KINDS = {MA.IMPOSSIBLE_TO_ASK: "impossible", MA.NONSENSE: "nonsense", MA.ILLEGAL_MOVE: "illegal",
         MA.REGULAR_MOVE: "move", MA.CAPTURE_DONE: "move", MA.HAS_ANY: "any-yes", MA.NO_ANY: "any-no"}
CHECKS = {SCA.CHECK_RANK: "rank", SCA.CHECK_FILE: "file", SCA.CHECK_LONG_DIAGONAL: "long diagonal",
          SCA.CHECK_SHORT_DIAGONAL: "short diagonal", SCA.CHECK_KNIGHT: "knight"}
ENDS = {SCA.CHECKMATE_WHITE_WINS: codes.END_CHECKMATE, SCA.CHECKMATE_BLACK_WINS: codes.END_CHECKMATE,
        SCA.DRAW_STALEMATE: codes.END_STALEMATE, SCA.STALEMATE_WHITE_WINS: codes.END_STALEMATE,
        SCA.STALEMATE_BLACK_WINS: codes.END_STALEMATE, SCA.DRAW_INSUFFICIENT: codes.END_INSUFFICIENT,
        SCA.DRAW_TOOMANYREVERSIBLEMOVES: codes.END_MOVE_LIMIT}


def package_game(ruleset: str, board: chess.Board) -> KriegspielGame:
    """A package game from any position (the package has no FEN entry point)."""
    game = KriegspielGame(ruleset=ruleset)
    game._board = board.copy(stack=False)
    game._game_over = False
    game._must_use_pawns = False
    game._generate_possible_to_ask_list()
    return game


def package_announcement(answer) -> tuple:
    """The package's answer to an executed move, in ksolve's terms."""
    special = answer.special_announcement
    if special == SCA.CHECK_DOUBLE:
        checks = frozenset({CHECKS[answer.check_1], CHECKS[answer.check_2]})
    else:
        checks = frozenset({CHECKS[special]}) if special in CHECKS else frozenset()
    info = None
    if answer.next_turn_pawn_tries is not None:
        info = answer.next_turn_pawn_tries
    elif answer.next_turn_has_pawn_capture is not None:
        info = int(answer.next_turn_has_pawn_capture)
    elif answer.next_turn_pawn_try_squares is not None:
        info = frozenset(answer.next_turn_pawn_try_squares)
    kind = answer.captured_piece_announcement
    return (answer.capture_at_square, None if kind is None else kind.name == "PAWN",
            bool(answer.en_passant_announced), checks, ENDS.get(special, codes.END_NONE),
            bool(answer.promotion_announced), info)


def ksolve_announcement(rules, code: int, extra: int) -> tuple:
    """ksolve's announcement code in the same terms as ``package_announcement``."""
    info = None
    if code & codes.PAWN_INFO:
        info = frozenset(chess.scan_forward(extra)) if rules.pawn_info == 3 else codes.pawn_try_count(code)
    square = codes.capture_square(code)
    pawn = None if square is None or not rules.capture_kind else bool(code & codes.CAPTURED_PAWN)
    return (square, pawn, bool(code & codes.EN_PASSANT), frozenset(codes.check_words(code)),
            codes.end_of(code), bool(code & codes.PROMOTION), info)


def random_attempt(game: KriegspielGame, rng: random.Random) -> KriegspielMove:
    r = rng.random()
    if r < 0.08:
        return KriegspielMove(QA.ASK_ANY)
    if r < 0.5 and game.possible_to_ask:
        return rng.choice(sorted(game.possible_to_ask))
    board = game._board
    if r < 0.85 and board.pseudo_legal_moves.count():
        return KriegspielMove(QA.COMMON, rng.choice(list(board.pseudo_legal_moves)))
    return KriegspielMove(QA.COMMON, chess.Move(rng.randrange(64), rng.randrange(64),
                                                promotion=rng.choice([None, None, chess.QUEEN, chess.KNIGHT])))


def start_boards(seed: int) -> list[chess.Board]:
    """Half the games from the start position, half from scattered positions."""
    placements = [b for b in random_placements(GAMES_PER_RULE_SET, seed)
                  if not b.is_game_over() and b.legal_moves.count()]
    return [chess.Board() if i % 2 == 0 else placements[i % len(placements)]
            for i in range(GAMES_PER_RULE_SET)]


def bare_material(board: chess.Board) -> bool:
    """DOMAIN.md's Berkeley draw: bare kings, or king and one minor piece against a king."""
    men = chess.popcount(board.occupied)
    return men == 2 or (men == 3 and bool(board.knights | board.bishops))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PACKAGE_NAMES))
def test_referee_matches_kriegspiel_package(name: str) -> None:
    rules = get_rules(name)
    rng = random.Random(f"referee-{name}")
    stats = Counter()
    for board in start_boards(seed=sum(map(ord, name))):
        game = package_game(PACKAGE_NAMES[name], board)
        referee = Referee(rules, position_from_board(board))
        plies = 0
        for _ in range(400):
            if game.game_over or plies >= MAX_PLIES:
                break
            attempt = random_attempt(game, rng)
            before = game._board.copy(stack=False)
            theirs = game.ask_for(attempt)
            if attempt.question_type == QA.ASK_ANY:
                ours = referee.ask_any()
            else:
                move = attempt.chess_move
                ours = referee.attempt(encode_move(move.from_square, move.to_square, (move.promotion or 1) - 1))
            context = (name, before.fen(), str(attempt))
            stats[ours.kind] += 1
            if (name in ("berkeley", "berkeley-any") and theirs.special_announcement == SCA.DRAW_INSUFFICIENT
                    and ours.kind == "move" and codes.end_of(ours.code) != codes.END_INSUFFICIENT):
                after = before.copy(stack=False)
                after.push(attempt.chess_move)
                assert not bare_material(after), context
                stats["known difference: insufficient material"] += 1
                break
            assert ours.kind == KINDS[theirs.main_announcement], context
            if ours.kind == "move":
                plies += 1
                assert ksolve_announcement(rules, ours.code, ours.extra) == package_announcement(theirs), context
                assert referee.game_over == game.game_over, context
                stats[f"end {codes.end_of(ours.code)}"] += 1
                stats["check"] += bool(ours.code & codes.CHECK_MASK)
                stats["capture"] += codes.capture_square(ours.code) is not None
    # The games must exercise refusals, impossible attempts, checks, captures and game ends.
    assert stats["move"] > 10_000 and stats["illegal"] > 1_000, stats
    assert stats["check"] > 300 and stats["capture"] > 1_000, stats
    assert stats[f"end {codes.END_CHECKMATE}"] + stats[f"end {codes.END_STALEMATE}"] > 5, stats
    if rules.any_question:
        assert stats["any-yes"] > 50 and stats["any-no"] > 50, stats
