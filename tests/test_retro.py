"""Positions no game reaches (``ksolve.retro``): against a slow counter written
here by brute force over the men, against games actually played, against
textbook cases, and the checker's own reading of the rule
(``ksolve.checker.reachable``) on the same sets."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import numpy as np
import pytest
from click.testing import CliRunner

from ksolve.belief import BeliefState
from ksolve.board.convert import position_from_board
from ksolve.checker.problem import parse_problem
from ksolve.checker.reachable import reachable as checker_reachable
from ksolve.cli import main
from ksolve.problem import ProblemError, load_problem_text
from ksolve.retro import REACHABLE, reason_codes, unreachable_reason
from tests.test_errors import one_error_line
from tests.positions import START, random_game_positions

# --- a slow independent counter --------------------------------------------------------------------------------

FIRST_ARMY = {chess.QUEEN: 1, chess.ROOK: 2, chess.KNIGHT: 2}
BISHOP_HOMES = {chess.WHITE: (chess.C1, chess.F1), chess.BLACK: (chess.C8, chess.F8)}
BLOCKERS = {chess.C1: (chess.B2, chess.D2), chess.F1: (chess.E2, chess.G2),
            chess.C8: (chess.B7, chess.D7), chess.F8: (chess.E7, chess.G7)}


def slow_promotions(board: chess.Board, side: chess.Color) -> int:
    """The fewest promoted men: every way of calling each man original (into a
    free place of the first army) or promoted, the cheapest."""
    men = [(board.piece_type_at(square), square) for square in chess.scan_forward(board.occupied_co[side])
           if board.piece_type_at(square) not in (chess.PAWN, chess.KING)]
    places = [lambda piece, square, kind=kind: piece == kind for kind, count in FIRST_ARMY.items()
              for _ in range(count)]
    for home in BISHOP_HOMES[side]:
        shut_in = all(board.piece_at(s) == chess.Piece(chess.PAWN, side) for s in BLOCKERS[home])
        shade = chess.BB_DARK_SQUARES if chess.BB_SQUARES[home] & chess.BB_DARK_SQUARES else chess.BB_LIGHT_SQUARES
        places.append(lambda piece, square, home=home, shut_in=shut_in, shade=shade: piece == chess.BISHOP and (
            square == home if shut_in else bool(chess.BB_SQUARES[square] & shade)))

    def search(index: int, free: frozenset[int]) -> int:
        if index == len(men):
            return 0
        best = 1 + search(index + 1, free)  # promoted
        for number in free:
            if places[number](*men[index]):
                best = min(best, search(index + 1, free - {number}))
        return best

    return search(0, frozenset(range(len(places))))


def slow_captures(board: chess.Board, side: chess.Color) -> float:
    """The fewest pawn captures: every assignment of the pawns to distinct start
    files (a file per step forward at most), the cheapest."""
    pawns = list(board.pieces(chess.PAWN, side))

    def search(index: int, used: set[int]) -> float:
        if index == len(pawns):
            return 0
        square = pawns[index]
        forward = chess.square_rank(square) - 1 if side == chess.WHITE else 6 - chess.square_rank(square)
        best = float("inf")
        for start in range(8):
            if start not in used and abs(start - chess.square_file(square)) <= forward:
                best = min(best, abs(start - chess.square_file(square)) + search(index + 1, used | {start}))
        return best

    return search(0, set())


def slow_reachable(board: chess.Board) -> bool:
    return all(slow_promotions(board, side) <= 8 - len(board.pieces(chess.PAWN, side))
               and slow_captures(board, side) <= 16 - chess.popcount(board.occupied_co[not side])
               for side in chess.COLORS)


def dense_positions(count: int, seed: int):
    """Positions crowded with pawns and extra pieces, where the counts bite."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        board = chess.Board(None)
        for side in chess.COLORS:
            pieces = [chess.KING] + [chess.PAWN] * rng.randint(3, 8) + \
                [rng.choice([chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT]) for _ in range(rng.randint(2, 8))]
            home_rank = 1 if side == chess.WHITE else 6
            for piece in pieces[:16]:
                if piece == chess.PAWN and rng.random() < 0.4:  # often an unmoved pawn: shut-in bishops
                    squares = [chess.square(f, home_rank) for f in range(8)]
                elif piece == chess.BISHOP and rng.random() < 0.3:
                    squares = list(BISHOP_HOMES[side])
                else:
                    squares = list(range(8, 56)) if piece == chess.PAWN else list(range(64))
                free = [s for s in squares if board.piece_at(s) is None]
                if free:
                    board.set_piece_at(rng.choice(free), chess.Piece(piece, side))
        if board.is_valid():
            made += 1
            yield board


def played_positions(count: int, seed: int):
    """Positions of random games from the start: a game reaches each."""
    for number, board in enumerate(random_game_positions([START], games=count // 60 + 1, seed=seed)):
        if number == count:
            return
        yield board


# --- the differential tests ------------------------------------------------------------------------------------

def test_two_thousand_positions_against_the_slow_counter() -> None:
    boards = list(dense_positions(1500, seed=54)) + list(played_positions(500, seed=54))
    rows = np.stack([position_from_board(board, validate=False) for board in boards])
    codes, _ = reason_codes(rows)
    expected = [slow_reachable(board) for board in boards]
    assert [code == REACHABLE for code in codes] == expected
    assert [unreachable_reason(board) is None for board in boards] == expected
    assert [checker_reachable(board) for board in boards] == expected
    assert 300 < expected.count(False) < 1700, "the sample must hold both kinds"


def test_every_position_of_played_games_is_reachable() -> None:
    boards = list(random_game_positions([START], games=60, seed=7, max_plies=300))
    rows = np.stack([position_from_board(board, validate=False) for board in boards])
    assert len(boards) > 5000 and reason_codes(rows)[1] == 0


# Final positions of famous games, each replayed here move by move: a game reaches them.
GAMES = {
    "Morphy-Duke of Brunswick, Paris 1858": "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 "
                                           "Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#",
    "Anderssen-Kieseritzky, London 1851": "e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 "
                                          "Rg1 cxb5 h4 Qg6 h5 Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6 Bxg1 e5 Qxa1+ "
                                          "Ke2 Na6 Nxg7+ Kd8 Qf6+ Nxf6 Be7#",
    "Anderssen-Dufresne, Berlin 1852": "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5 d4 exd4 O-O d3 Qb3 Qf6 e5 Qg6 Re1 Nge7 Ba3 "
                                       "b5 Qxb5 Rb8 Qa4 Bb6 Nbd2 Bb7 Ne4 Qf5 Bxd3 Qh5 Nf6+ gxf6 exf6 Rg8 Rad1 Qxf3 "
                                       "Rxe7+ Nxe7 Qxd7+ Kxd7 Bf5+ Ke8 Bd7+ Kf8 Bxe7#",
    "a promoted second queen": "a4 h5 a5 h4 a6 h3 axb7 hxg2 bxa8=Q gxh1=Q",
    "promoted knights and bishops": "a4 h5 a5 h4 a6 h3 axb7 hxg2 bxa8=N gxh1=B",
    "tripled pawns": "e4 d5 exd5 c6 dxc6 Nf6 cxb7 e5 d4 Bd6 c4 O-O c5 Re8 cxd6 Qxd6",
}
KNOWN_LEGAL = [START, "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
               "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # a black knight gone
               "4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1",  # c1's bishop at home behind b2 and d2
               ]


def _final(moves: str) -> chess.Board:
    board = chess.Board()
    for move in moves.split():
        board.push_san(move)
    return board


KNOWN_ILLEGAL = {
    # promotions against missing pawns
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBQR w KQkq - 0 1": "a second white queen",
    "rnbqkbnr/pppppppp/8/8/8/4R3/PPPPPPPP/RNBQKB1R w KQkq - 0 1": "a third white rook",
    "rnbqkbnr/pppppppp/8/8/8/4N3/PPPPPPPP/RNBQKBNR w KQkq - 0 1": "a third white knight",
    "rnbqkbnr/pppppppp/8/8/8/4B3/PPPPPPPP/RN1QKBNR w KQkq - 0 1": "a white dark-squared bishop on e3",
    "4k3/8/p4pp1/1p1pp2p/2p5/2bN4/R7/b4K2 w - - 0 1": "a second black dark-squared bishop",
    # shut-in bishops
    "4k3/8/8/8/3B4/8/1P1P4/4K3 w - - 0 1": None,  # a promotion is possible: seven white pawns missing
    "4k3/8/8/8/3B4/8/PPPPPPPP/4K3 w - - 0 1": "the c1 bishop is shut in by the pawns on b2 and d2",
    "4k3/1p1p4/8/4b3/8/8/8/4K3 w - - 0 1": None,
    "4k3/pppppp1p/8/4b3/8/8/8/4K3 w - - 0 1": None,  # g7 has moved: f8's bishop came out
    "4k3/ppppppp1/7p/4b3/8/8/8/4K3 w - - 0 1": "the f8 bishop is shut in by the pawns on e7 and g7",
    # pawn captures against missing men
    "rnbqkbnr/pppppppp/8/8/8/P7/P7/4K3 w - - 0 1": "need at least 1 capture",
    "rnbqkbnr/pppppppp/8/8/8/8/PP6/PK6 w - - 0 1": None,  # a pawn on a1 is another rule (the first rank)
    "rnbqkb1r/pppppppp/8/8/8/P7/P7/P3K3 w kq - 0 1": "cannot each have come from a file of its own",
    "4k3/pppppppp/8/8/8/PP6/PP6/4K3 w - - 0 1": "cannot each have come",  # a2, b2 unmoved: a3 has no file left
    "4k3/pppppppp/8/8/8/1P6/PP6/4K3 w - - 0 1": None,  # b3 from c2: one capture of seven men missing
    "rnbqkb2/pppppppp/8/P7/P7/P7/8/4K3 w q - 0 1": "need at least 3 captures (a file step each), and only 2 black",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1": None,
    "4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1": "a second white queen (b1) needs a promotion, and no white pawn",
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_positions_games_reach_are_reachable(name: str) -> None:
    board = _final(GAMES[name])
    assert unreachable_reason(board) is None and checker_reachable(board) and slow_reachable(board)


@pytest.mark.parametrize("fen", KNOWN_LEGAL)
def test_known_legal_positions_are_reachable(fen: str) -> None:
    board = chess.Board(fen)
    assert unreachable_reason(board) is None and checker_reachable(board)


@pytest.mark.parametrize("fen", sorted(KNOWN_ILLEGAL))
def test_textbook_cases(fen: str) -> None:
    board = chess.Board(fen)
    words = KNOWN_ILLEGAL[fen]
    reason = unreachable_reason(board)
    if fen.split()[0].endswith("PK6"):
        return  # the back-rank pawn is legality.py's, not retro's
    if words is None:
        assert reason is None and checker_reachable(board)
    else:
        assert reason is not None and words in reason and not checker_reachable(board)
    assert (reason is None) == slow_reachable(board)


# --- every command sees the same set ---------------------------------------------------------------------------

BISHOPS_PROBLEM = """stipulation = "#2"
rules = "berkeley"
{positions}
[position]
fen = "8/8/p4pp1/1p1pp2p/2p5/3N4/R7/b4K1k w - - 0 1"
hidden = ["b:dark"]
"""
EIGHT_PAWNS = "4k3/8/p4pp1/1p1pp2p/2p5/3N4/R7/b4K2 w - - 0 1"


def test_a_problem_whose_every_placement_is_unreachable_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bishops.toml"
    path.write_text(BISHOPS_PROBLEM.format(positions=""))
    line = one_error_line(f"solve {path}")
    assert ("position.hidden: no placement of the hidden units is reachable in a game: a second black "
            "dark-squared bishop") in line and line.endswith("no black pawn is missing")


def test_positions_all_keeps_every_legal_placement(tmp_path: Path) -> None:
    path = tmp_path / "bishops.toml"
    path.write_text(BISHOPS_PROBLEM.format(positions='positions = "all"'))
    result = CliRunner().invoke(main, ["solve", str(path)])
    assert result.exit_code == 1, result.output  # proved: no solution
    assert "#2, rules berkeley, 29 positions" in result.output and "No solution" in result.output
    with pytest.raises(ProblemError, match="positions: must be one of 'reachable', 'all'"):
        load_problem_text(BISHOPS_PROBLEM.format(positions='positions = "some"'))


def test_the_belief_command_leaves_out_the_second_dark_bishop() -> None:
    runner = CliRunner()
    anywhere = runner.invoke(main, ["belief", "--fen", EIGHT_PAWNS, "--hidden", "b:any"])
    light = runner.invoke(main, ["belief", "--fen", EIGHT_PAWNS, "--hidden", "b:light"])
    every = runner.invoke(main, ["belief", "--fen", EIGHT_PAWNS, "--hidden", "b:any", "--positions", "all"])
    assert anywhere.output.startswith("Belief: 22 positions") and light.output.startswith("Belief: 22 positions")
    assert "Left out: 29 placements no game reaches: a second black dark-squared bishop" in anywhere.output
    assert "Left out" not in light.output
    assert every.output.startswith("Belief: 51 positions") and "Left out" not in every.output


def test_a_visible_position_no_game_reaches_is_refused_before_any_placement() -> None:
    line = one_error_line('belief --fen "4k3/8/8/8/3B4/8/PPPPPPPP/4K3 w - - 0 1" --hidden q:any')
    assert "--fen: no game reaches it: a white dark-squared bishop on d4 (the c1 bishop is shut in" in line


HIDDEN_SETS = [
    ("4k3/pppp1ppp/4p3/8/8/8/8/2b1K3 w - - 0 1", ["b:any"]),  # c8 shut in, a second dark bishop
    ("rnbqkbnr/pppppp2/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ["p:any", "p?:any"]),
    ("4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", ["q:any", "r|n:rank-8"]),
    ("r3k3/1ppppppp/8/8/8/8/8/4K3 w - - 0 1", ["p:a-file+b-file", "b:dark"]),
]


@pytest.mark.parametrize("fen, hidden", HIDDEN_SETS)
def test_the_checker_counts_the_same_positions(fen: str, hidden: list[str]) -> None:
    for positions, reachable in (("", True), ('positions = "all"', False)):
        text = (f'stipulation = "#1"\nrules = "berkeley"\n{positions}\n[position]\nfen = "{fen}"\n'
                f'hidden = {hidden!r}\n'.replace("'", '"'))
        engine = BeliefState.from_hidden(fen, hidden, reachable=reachable)
        assert len(parse_problem(text).boards) == len(engine) == len(load_problem_text(text).belief())
        if reachable:
            assert engine.left_out.total == len(BeliefState.from_hidden(fen, hidden, reachable=False)) - len(engine)
    assert BeliefState.from_hidden(fen, hidden).left_out.total > 0 or fen.startswith("4k3/8")


ROOK_MATE = """id = "rd8"
stipulation = "#1"
rules = "berkeley"
positions = "{positions}"
[position]
fen = "7k/5ppp/ppp1p3/3R4/3p4/8/7b/K7 w - - 0 1"
hidden = ["b:f8,b1"]
"""


def test_a_key_refuted_only_by_a_placement_no_game_reaches(tmp_path: Path) -> None:
    """1.Rd8# unless a second dark-squared bishop stands on f8: the certificate
    of the reachable belief checks, and fails where the checker counts f8 too."""
    reachable, every, certificate = tmp_path / "reachable.toml", tmp_path / "all.toml", tmp_path / "rd8.json"
    reachable.write_text(ROOK_MATE.format(positions="reachable"))
    every.write_text(ROOK_MATE.format(positions="all"))
    runner = CliRunner()
    solved = runner.invoke(main, ["solve", str(reachable), "--certificate", str(certificate)])
    assert solved.exit_code == 0 and "Key 1.Rd8#!" in solved.output
    assert "Left out: 1 placement no game reaches: a second black dark-squared bishop (f8)" in solved.output
    assert runner.invoke(main, ["solve", str(every)]).exit_code == 1  # no solution: f8 interposes
    checked = runner.invoke(main, ["check", str(reachable), str(certificate)])
    assert checked.exit_code == 0 and "from all 1 initial positions" in checked.output
    refuted = runner.invoke(main, ["check", str(every), str(certificate)])
    assert refuted.exit_code == 1 and "the checker enumerates 2" in refuted.output


def test_compose_refuses_material_no_game_reaches_and_places_only_reachable_men() -> None:
    line = one_error_line('compose --material "KQQ+PPPPPPPP v K" --moves 2 -o out')
    assert "--material: 'KQQ+PPPPPPPP v K': no game reaches it: 1 promotion needed" in line
    from ksolve.compose.material import parse_material, random_placement

    material = parse_material("KBB+PPPPPPPP v KPPPPPPPP")  # the bishops on two colours, the pawns each on a file
    boards = [chess.Board(random_placement(material, random.Random(seed))) for seed in range(40)]
    assert all(unreachable_reason(board) is None and slow_reachable(board) for board in boards)


def test_play_refuses_a_start_no_game_reaches() -> None:
    line = one_error_line('play --fen "4k3/8/8/8/3B4/8/PPPPPPPP/4K3 w - - 0 1"')
    assert line.startswith("ksolve: error: --fen: no game reaches it: a white dark-squared bishop on d4")
