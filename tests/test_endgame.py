"""Endgame tables (ksolve.endgame): the metaposition search against today's
single-problem solver, the brute force and itself without sharing; the sweep
in process and on Dask, interrupted and resumed; certificates replayed by the
checker; the table file, the heat maps and the command line.

Fast checks use the king on a few squares (a restricted region: the king
then moves anywhere) or a few placements; the whole KQK table and the full
50-placement comparison are marked slow."""

from __future__ import annotations

import random
import re
import zlib
from pathlib import Path
from xml.etree import ElementTree

import chess
import pytest
from bruteforce import BruteForce, belief_from_hidden
from click.testing import CliRunner

import ksolve
from ksolve.cli import main
from ksolve.endgame import core
from ksolve.endgame.certify import certified_row, refuted_row
from ksolve.endgame.configs import ConfigSpace
from ksolve.endgame.material import MaterialError, parse_material
from ksolve.endgame.solver import EndgameSolver
from ksolve.endgame.sweep import SweepSpec, solver_for, sweep
from ksolve.endgame.symmetry import INVERSE, SQUARE_MAP, map_move
from ksolve.endgame.table import EndgameRow, EndgameTable, read_table
from ksolve.report.endgame import heat_map_svg, heat_maps, report_html, without_svg

DEEP = Path(__file__).parent.parent / "benchmarks" / "deep"


@pytest.fixture(autouse=True, scope="module")
def _tables_released_after_the_module():
    """The process's solvers hold their tables (up to gigabytes for KBNK); the worker
    running this module goes on with other tests, some weighing memory budgets against
    its resident size."""
    yield
    import gc

    from ksolve.endgame import sweep as sweep_module

    sweep_module._SOLVERS.clear()
    gc.collect()


def solver(material: str, rules: str) -> EndgameSolver:
    """The process's solver (built once per material and rule set, as the sweep's)."""
    return solver_for(SweepSpec(material, rules))


def region(squares: str) -> int:
    return sum(1 << chess.parse_square(name) for name in squares.split(","))


def problem_text(material: str, rules: str, squares: tuple[int, ...], kings: int, moves: int) -> str:
    fen = parse_material(material).fen(squares)
    hidden = ",".join(chess.square_name(s) for s in chess.scan_forward(kings))
    mark = "xk" if rules == "fog-of-war" else "#"
    return (f'stipulation = "{mark}{moves}"\nrules = "{rules}"\n[position]\nfen = "{fen}"\n'
            f'hidden = ["k:{hidden}"]\n')


def today(material: str, rules: str, squares: tuple[int, ...], kings: int, moves: int) -> int | None:
    """Today's single-problem solve (``ksolve.solve``: the prover, proof numbers, the
    analysis's first classes): the shortest win within ``moves``, or None."""
    problem = ksolve.load_problem_text(problem_text(material, rules, squares, kings, moves))
    solution = ksolve.solve(problem, tree=False, jobs=1)
    return solution.moves if solution.status == "solved" else None


# --- materials, symmetries, placements ---------------------------------------------------
def test_materials_are_read_and_bad_ones_named() -> None:
    assert parse_material("kbnk").white == "KBN"
    assert parse_material("KNBK").white == "KBN"
    assert parse_material("KPQK").white == "KQP"
    for bad, words in (("KXK", "pawns"), ("KQKR", "king alone"), ("KQRBK", "at most 2"), ("KK", "White needs"),
                       ("Q", "king first")):
        with pytest.raises(MaterialError, match=words):
            parse_material(bad)


def test_symmetries_form_the_group_of_the_square() -> None:
    for g in range(8):
        assert sorted(SQUARE_MAP[g].tolist()) == list(range(64))
        assert (SQUARE_MAP[INVERSE[g]][SQUARE_MAP[g]] == range(64)).all()
        move = chess.E2 | chess.G6 << 6
        assert map_move(int(INVERSE[g]), map_move(g, move)) == move


def test_placements_up_to_symmetry_are_counted_by_burnside() -> None:
    """KQ: 64 x 63 placements; the symmetries fixing one fix both men on a diagonal (2 x 56):
    (4032 + 112) / 8 = 518.  Two rooks: (64 * 63 * 62 / 2 + fixed points) / 8."""
    space = ConfigSpace(parse_material("KRRK"))
    assert space.count("KR") == 518 and space.count("K") == 10
    assert space.count("KRR") == _fixed_points() // 8
    for number in range(space.count("KRR")):
        squares = space.squares(number)
        for g in range(8):
            image = tuple(int(SQUARE_MAP[g][s]) for s in squares)
            assert space.locate("KRR", image)[0] == number
        if number > 200:
            break


def test_pawn_placements_keep_the_mirror_of_the_files_and_lead_to_their_promotions() -> None:
    """K+P: the pawn on the second to the seventh rank, 64 x 48 - 48 placements, none left
    in place by the mirror of the files: 1,512; a placement and its mirror image are one,
    its other images (a rank reflection sends the pawn backwards) are not placements of it."""
    space = ConfigSpace(parse_material("KPK"))
    assert space.count("KP") == 1512
    assert {space.material_of(space.offset(white)).name for white in ("KQ", "KR", "KB", "KN", "K")} == {
        "KQK", "KRK", "KBK", "KNK", "KK"}
    number, g = space.locate("KP", (chess.H1, chess.G2))
    assert g == 1 and space.squares(number) == (chess.A1, chess.B2)
    with pytest.raises(ValueError):
        space.locate("KP", (chess.A1, chess.B8))


def _fixed_points() -> int:
    """Placements of a king and two rooks (unordered) left in place by each symmetry, summed
    over the eight (the identity's are all of them)."""
    total = 0
    for g in range(8):
        row = SQUARE_MAP[g]
        for king in range(64):
            if row[king] != king:
                continue
            for a in range(64):
                for b in range(a + 1, 64):
                    if king in (a, b):
                        continue
                    if {int(row[a]), int(row[b])} == {a, b}:
                        total += 1
    return total


@pytest.mark.parametrize("material,longest", [("KQK", 10), ("KRK", 16)])
def test_full_information_distances_reach_the_orthodox_tablebase_maxima(material: str, longest: int) -> None:
    """The tables' bound (White sees the king) is orthodox distance to mate: its longest,
    White to move, is the published tablebase maximum (KQK 10, KRK 16)."""
    tables = solver(material, "berkeley")
    start, count = tables.space.offset(material[:-1]), tables.space.count(material[:-1])
    distances = tables.tables.distance[start:start + count]
    assert int(distances[distances < 255].max()) == longest


# --- the search against today's solver, the brute force and itself -------------------
@pytest.mark.parametrize("name,moves", [("kq-k-2x2", 8), ("kq-k-3x3", 9), ("kq-k-4x4", 11)])
def test_corner_members_agree_with_todays_single_problem_solves(name: str, moves: int) -> None:
    """benchmarks/deep/kq-k-RxR.toml: Ka1 Qh1, the king hidden in the RxR corner at a8
    (the README's table: 8, 9, 11); today's solver and the tables agree."""
    problem = ksolve.load_problem(DEEP / f"{name}.toml")
    kings = 0
    for _, square in problem.belief().hidden_squares():
        kings |= square
    assert today("KQK", "berkeley", (chess.A1, chess.H1), kings, moves) == moves
    assert solver("KQK", "berkeley").shortest_from((chess.A1, chess.H1), kings, 20).moves == moves


def _random_instances(material: str, count: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """Placements with the king on 1 to 4 squares of one corner's 3x3 box (near enough
    for short wins, and for no win within a few moves)."""
    rng = random.Random(seed)
    letters = parse_material(material).white
    out = []
    while len(out) < count:
        squares = tuple(rng.sample(range(64), len(letters)))
        board = chess.Board(None)
        for letter, square in zip(letters, squares):
            board.set_piece_at(square, chess.Piece.from_symbol(letter))
        corner = rng.choice([(0, 0), (5, 0), (0, 5), (5, 5)])
        box = [chess.square(corner[0] + f, corner[1] + r) for f in range(3) for r in range(3)]
        legal = [s for s in box if board.piece_at(s) is None and not board.is_attacked_by(chess.WHITE, s)]
        if legal:
            chosen = rng.sample(legal, rng.randint(1, min(4, len(legal))))
            out.append((squares, sum(1 << s for s in chosen)))
    return out


@pytest.mark.parametrize("material,rules,count,moves", [
    ("KQK", "berkeley", 12, 5), ("KQK", "wild16", 6, 5), ("KRK", "berkeley", 10, 5),
    ("KQK", "fog-of-war", 8, 4)])
def test_random_small_beliefs_agree_with_todays_solver(material: str, rules: str, count: int, moves: int) -> None:
    """The shortest win within a few moves (or none) of random placements, the king on a
    few squares: the tables' search equals ``ksolve.solve`` on the same problem."""
    tables = solver(material, rules)
    for squares, kings in _random_instances(material, count, seed=zlib.crc32(f"{material}{rules}".encode())):
        ours = tables.shortest_from(squares, kings, moves)
        assert ours.moves == today(material, rules, squares, kings, moves), (squares, chess.SquareSet(kings))


def _pawn_instances(count: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """K+P: the pawn on the fifth to seventh rank, White's king within two squares of it,
    the black king on 1 to 3 legal squares of the 3x3 box in front of the pawn (short
    wins through a promotion, and none where the king may take the pawn or block it)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pawn = rng.randrange(chess.A5, chess.H7 + 1)
        near = [s for s in chess.SQUARES if s != pawn and chess.square_distance(s, pawn) <= 2]
        king = rng.choice(near)
        board = chess.Board(None)
        board.set_piece_at(king, chess.Piece.from_symbol("K"))
        board.set_piece_at(pawn, chess.Piece.from_symbol("P"))
        file, rank = chess.square_file(pawn), chess.square_rank(pawn)
        box = [chess.square(f, r) for f in range(max(0, file - 1), min(7, file + 1) + 1)
               for r in range(rank + 1, min(7, rank + 3) + 1)]
        legal = [s for s in box if board.piece_at(s) is None and not board.is_attacked_by(chess.WHITE, s)
                 and chess.square_distance(s, king) > 1]
        if legal:
            chosen = rng.sample(legal, rng.randint(1, min(3, len(legal))))
            out.append(((king, pawn), sum(1 << s for s in chosen)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["berkeley", "wild16", "english"])
def test_pawn_endings_agree_with_todays_solver(rules: str) -> None:
    """K+P against the king on a few squares in front of the pawn: the shortest win within
    5 moves (promotions into the queen's and rook's tables included) equals ``ksolve.solve``'s
    (the prover's) on the same problem, under each rule set the table is built for."""
    tables = solver("KPK", rules)
    found = []
    seed = zlib.crc32(b"KPK")  # the same beliefs under each rule set
    for squares, kings in _pawn_instances(3, seed) + _short_instances("KPK", 4, seed, 5, rules):
        ours = tables.shortest_from(squares, kings, 5)
        assert ours.moves == today("KPK", rules, squares, kings, 5), (squares, chess.SquareSet(kings))
        found.append(ours.moves)
    assert len(set(found)) > 1  # not all alike


@pytest.mark.slow
def test_pawn_endings_agree_with_the_brute_force() -> None:
    """python-chess alone (tests/bruteforce.py): K+P wins within 3, a promotion among them."""
    brute = BruteForce("berkeley")
    tables = solver("KPK", "berkeley")
    found = []
    for squares, kings in _pawn_instances(3, seed=11) + _short_instances("KPK", 5, 11, 3):
        fen = parse_material("KPK").fen(squares)
        belief = belief_from_hidden(fen, ["k:" + ",".join(chess.square_name(s) for s in chess.scan_forward(kings))])
        ours = tables.shortest_from(squares, kings, 3).moves
        assert ours == brute.solve(belief, 3), (squares, chess.SquareSet(kings))
        found.append(ours)
    assert None in found and any(found)


def test_tiny_beliefs_agree_with_the_brute_force() -> None:
    """python-chess alone (tests/bruteforce.py, the checker's referee): wins within 3."""
    brute = BruteForce("berkeley")
    tables = solver("KQK", "berkeley")
    for squares, kings in _random_instances("KQK", 8, seed=7):
        fen = parse_material("KQK").fen(squares)
        belief = belief_from_hidden(fen, ["k:" + ",".join(chess.square_name(s) for s in chess.scan_forward(kings))])
        assert tables.shortest_from(squares, kings, 3).moves == brute.solve(belief, 3), (squares, kings)


def test_a_lone_rook_the_king_may_take_is_no_sure_win_at_any_length() -> None:
    """Ka1 Rd3, the king anywhere: the rook cannot reach a square next to its king in one
    move, nor the king come next to it, and wherever it goes the black king may stand
    beside it: "none" at any length, which today's solver confirms within 4 moves."""
    result = solver("KRK", "berkeley").shortest_from((chess.A1, chess.D3), chess.BB_ALL, 40)
    assert result.moves is None and result.never
    assert today("KRK", "berkeley", (chess.A1, chess.D3), chess.BB_ALL, 4) is None


def _short_instances(material: str, count: int, seed: int, moves: int,
                     rules: str = "berkeley") -> list[tuple[tuple[int, ...], int]]:
    """Placements with the king on 1 to 3 squares from each of which White, seeing the
    king, mates within ``moves`` (the tables' full-information distance): beliefs where
    a sure mate within ``moves`` may or may not exist (a pawn stands on the sixth or
    seventh rank)."""
    rng = random.Random(seed)
    tables = solver(material, rules)
    letters = tables.material.white
    out = []
    while len(out) < count:
        squares = tuple(rng.sample(range(64), len(letters)))
        if any(letter == "P" and not chess.A6 <= square <= chess.H7 for letter, square in zip(letters, squares)):
            continue
        near = []
        for square in range(64):
            number, kings, _ = tables.canonical(letters, squares, 1 << square)
            if kings & int(tables.tables.full[number]) and tables.lower_bound(number, kings) <= moves:
                near.append(square)
        if near:
            out.append((squares, sum(1 << s for s in rng.sample(near, min(len(near), rng.randint(1, 3))))))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("material", ["KBNK", "KBBK"])
def test_minor_piece_mates_agree_with_todays_solver(material: str) -> None:
    """KBNK and KBBK (tables of up to 31,332 placements): the shortest mate within 4 of
    beliefs of 1 to 3 squares, each one a mate within 4 seen, equals ``ksolve.solve``'s."""
    tables = solver(material, "berkeley")
    found = []
    for squares, kings in _short_instances(material, 6, seed=zlib.crc32(material.encode()), moves=4):
        ours = tables.shortest_from(squares, kings, 4)
        assert ours.moves == today(material, "berkeley", squares, kings, 4), (squares, chess.SquareSet(kings))
        found.append(ours.moves)
    assert len(set(found)) > 1  # not all alike


def _exposed_at_once(material: str, squares: tuple[int, ...]) -> bool:
    """python-chess alone: whatever White tries first, the black king may stand (from
    total ignorance) where that attempt is legal and then takes a White man or is
    stalemated, a draw: White has no sure win at any length."""
    board = chess.Board(None)
    for letter, square in zip(parse_material(material).white, squares):
        board.set_piece_at(square, chess.Piece.from_symbol(letter))
    kings = [s for s in chess.SQUARES if board.piece_at(s) is None and not board.is_attacked_by(chess.WHITE, s)]
    for move in board.pseudo_legal_moves:
        for king in kings:
            after = board.copy()
            after.set_piece_at(king, chess.Piece.from_symbol("k"))
            if move not in after.legal_moves:
                continue
            after.push(move)
            if after.is_stalemate() or any(after.is_capture(reply) for reply in after.legal_moves):
                break
        else:
            return False
    return True


@pytest.mark.slow
def test_krk_has_no_sure_win_exactly_where_every_first_move_loses_the_rook_or_stalemates() -> None:
    """All 518 KRK placements: the tables find White lost at any length (within 17
    moves the search reaches every capture) exactly where python-chess finds every first
    attempt answered by a king that takes the rook or is stalemated (Kc1 Rc4: Rc2
    stalemates a king on a1) -- 203 placements; KQK has none (the queen guards her
    neighbours: a king move never loses her)."""
    tables = solver("KRK", "berkeley").fresh(table_bytes=16 << 20)
    lost = {p.squares for p in tables.placements() if tables.start_wins(p.number, 17) == core.LOST}
    assert lost == {p.squares for p in tables.placements() if _exposed_at_once("KRK", p.squares)}
    assert len(lost) == 203
    queen = solver("KQK", "berkeley")
    assert not any(_exposed_at_once("KQK", p.squares) for p in queen.placements()[::7])


@pytest.mark.slow
def test_minor_pieces_exposed_at_once_are_never_won() -> None:
    """A sample of KBNK and KBBK placements python-chess finds lost at once: the tables
    say "none" (lost at any length) for each."""
    for material in ("KBNK", "KBBK"):
        tables = solver(material, "berkeley")
        exposed = [p for p in tables.placements()[::97] if _exposed_at_once(material, p.squares)]
        assert len(exposed) >= 20
        for placement in exposed:
            found = tables.shortest(placement, 60)
            assert found.moves is None and found.never, (material, placement)


def _fog_men_kept_safe(king: int, queen: int, kings: int, moves: int) -> bool:
    """python-chess's attack tables alone, Fog of War with K+Q against a king White has
    not seen, which may stand on any square of the mask ``kings``: whether White can move
    ``moves`` times keeping both men out of the king's reach, whatever it does (every
    man sees the squares it attacks, White's view after his move splits the belief, and a
    king that stands where White sees it is taken at once)."""
    return _safe(king, queen, kings, moves, {})


def _safe(king: int, queen: int, kings: int, moves: int, seen_before: dict) -> bool:
    key = (king, queen, kings, moves)
    if key in seen_before:
        return seen_before[key]
    men = chess.BB_SQUARES[king] | chess.BB_SQUARES[queen]
    unseen = kings & ~(chess.BB_KING_ATTACKS[king] | _queen_attacks(queen, men)) & ~men
    answer = not unseen or moves == 0
    if not answer:
        reach = _next_to(unseen)
        steps = [(to, queen) for to in chess.SquareSet(chess.BB_KING_ATTACKS[king] & ~chess.BB_SQUARES[queen])]
        steps += [(king, to) for to in chess.SquareSet(_queen_attacks(queen, men) & ~chess.BB_SQUARES[king])]
        for new_king, new_queen in steps:
            guarded = bool(chess.BB_KING_ATTACKS[new_king] & chess.BB_SQUARES[new_queen])
            if reach & chess.BB_SQUARES[new_king] or (reach & chess.BB_SQUARES[new_queen] and not guarded):
                continue  # a possible king takes a man
            new_men = chess.BB_SQUARES[new_king] | chess.BB_SQUARES[new_queen]
            view = chess.BB_KING_ATTACKS[new_king] | _queen_attacks(new_queen, new_men)
            classes = [chess.BB_SQUARES[square] for square in chess.SquareSet(unseen & view)]
            classes += [unseen & ~view] if unseen & ~view else []
            if all(_safe(new_king, new_queen, _next_to(c) & ~new_men, moves - 1, seen_before) for c in classes):
                answer = True
                break
    seen_before[key] = answer
    return answer


def _queen_attacks(square: int, occupied: int) -> int:
    return int(chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
               | chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
               | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])


def _next_to(squares: int) -> int:
    around = 0
    for square in chess.SquareSet(squares):
        around |= chess.BB_KING_ATTACKS[square]
    return around


def test_fog_of_war_kqk_has_no_sure_win_exactly_where_white_cannot_keep_his_men_three_moves() -> None:
    """The committed KQK Fog-of-War table against python-chess alone: its 20 ``none``
    rows are exactly the placements from which White cannot move three times without
    leaving the queen or his king where a king he has not seen may take it (Ka1 Qh6: not
    once); from each of the other 498 he can, and the table finds a sure capture."""
    rows = read_table(Path(__file__).resolve().parent.parent / "benchmarks" / "endgame" / "kqk-fog-of-war.tsv").rows
    assert len(rows) == 518
    kept = {}
    for row in rows:
        king, queen = (chess.parse_square(name[1:]) for name in row.placement.split())
        everywhere = chess.BB_ALL & ~(chess.BB_SQUARES[king] | chess.BB_SQUARES[queen])
        kept[row.placement] = _fog_men_kept_safe(king, queen, everywhere, 3)
    none = {row.placement for row in rows if row.never}
    assert len(none) == 20 and "Ka1 Qh6" in none
    assert none == {placement for placement, safe in kept.items() if not safe}


def _fresh(material: str, rules: str) -> EndgameSolver:
    """A solver of the same tables with an empty workspace (nothing shared)."""
    return solver(material, rules).fresh(table_bytes=16 << 20)


def test_sharing_gives_the_numbers_of_independent_proofs_on_a_sample() -> None:
    """Twelve KQK placements, each decided at depth 14 by the shared workspace (after
    all the placements before it) and by a fresh one: the same verdicts."""
    shared = solver("KQK", "berkeley")
    sample = shared.placements()[::43]
    for placement in shared.placements()[:60]:
        shared.start_wins(placement.number, 13)
    for placement in sample:
        fresh = _fresh("KQK", "berkeley")
        assert fresh.start_wins(placement.number, 14) == shared.start_wins(placement.number, 14), placement


@pytest.mark.slow
def test_sharing_gives_the_shortest_wins_of_independent_proofs_on_50_placements() -> None:
    """The issue's sample: 50 KQK placements, shortest win from total ignorance by the
    sweep (one table for all 518) and by a fresh solver each: equal."""
    table = ksolve.endgame("KQK", max_moves=30)
    rows = {row.placement: row.moves for row in table.rows}
    tables = solver("KQK", "berkeley")
    for placement in tables.placements()[::10][:50]:
        fresh = _fresh("KQK", "berkeley")
        assert fresh.shortest(fresh.placement(placement.squares), 30).moves == \
            rows[tables.material.describe(placement.squares)]


def test_the_table_budget_never_changes_an_answer() -> None:
    """A transposition table of 4,096 entries (shedding all the time) gives the same
    shortest wins as a large one."""
    big = solver("KQK", "berkeley")
    small = big.fresh(table_bytes=4096 * core.ENTRY_BYTES)
    corner = region("a8,b8,c8,a7,b7,c7,a6,b6,c6,d8,d7,d6")
    for squares in ((chess.A1, chess.H1), (chess.D4, chess.E6), (chess.B2, chess.C3)):
        assert small.shortest_from(squares, corner, 20).moves == big.shortest_from(squares, corner, 20).moves


def test_a_search_out_of_budget_says_so_and_goes_on_where_it_stopped() -> None:
    tables = _fresh("KQK", "berkeley")
    placement = tables.placement((chess.A1, chess.H1))
    full = int(tables.tables.full[placement.number])
    assert tables.wins(placement.number, full, 16, budget=50) == core.UNKNOWN
    steps = 1
    while tables.wins(placement.number, full, 16, budget=5000) == core.UNKNOWN:
        steps += 1
    assert steps > 1 and tables.wins(placement.number, full, 16) == core.WIN


# --- certificates ----------------------------------------------------------------------
@pytest.mark.parametrize("material,rules,squares,kings", [
    ("KQK", "berkeley", (chess.A1, chess.H1), "a8,b8,a7,b7,c8,c7,a6,b6,c6"),
    ("KRK", "berkeley", (chess.B3, chess.C2), "a1,a2,b1"),
    ("KQK", "wild16", (chess.E4, chess.D5), "g7,h8,h7"),
    ("KQK", "fog-of-war", (chess.C3, chess.D4), "h8,g8,h7,a8,e5")])
def test_certified_rows_replay_in_the_checker(material: str, rules: str, squares: tuple[int, ...],
                                              kings: str) -> None:
    tables = solver(material, rules)
    result = tables.shortest_from(squares, region(kings), 20)
    assert result.moves is not None
    text, proof = certified_row(tables, squares, result.moves, region(kings))
    checked = ksolve.check(ksolve.load_problem_text(text, proof["problem"]), proof)
    assert checked.verified, checked.format()
    assert result.moves == today(material, rules, squares, region(kings), result.moves)


@pytest.mark.slow
def test_a_row_from_total_ignorance_replays_in_the_checker() -> None:
    """Ka1 Qh1 against a king anywhere (benchmarks/deep/kq-k-8x8.toml): 16 moves."""
    tables = solver("KQK", "berkeley")
    text, proof = certified_row(tables, (chess.A1, chess.H1), 16)
    assert proof["positions"] == 40
    assert ksolve.check(ksolve.load_problem_text(text, proof["problem"]), proof).verified


def test_certified_rows_are_dags_with_each_turn_once_and_a_changed_turn_is_refused() -> None:
    import json

    tables = solver("KQK", "berkeley")
    text, proof = certified_row(tables, (chess.A1, chess.H1), 9, region("a8,b8,a7,b7,c8,c7,a6,b6,c6"))
    assert proof["version"] == 2
    written = [json.dumps(node, sort_keys=True) for node in proof["nodes"]]
    assert len(written) == len(set(written)) > 9
    problem = ksolve.load_problem_text(text, proof["problem"])
    assert ksolve.check(problem, proof).verified
    first = next(i for i, node in enumerate(proof["nodes"]) if "attempt" in node)
    tampered = json.loads(json.dumps(proof))
    tampered["nodes"][first]["attempt"] = "h1h2" if proof["nodes"][first]["attempt"] != "h1h2" else "h1h3"
    assert not ksolve.check(problem, tampered).verified


def test_a_row_cannot_be_certified_below_its_shortest_win() -> None:
    tables = solver("KQK", "berkeley")
    with pytest.raises(ValueError, match="no win within 7"):
        certified_row(tables, (chess.A1, chess.H1), 7, region("a8,b8,a7,b7"))


def test_a_row_none_is_certified_by_a_refutation_the_checker_finds_good_at_any_length() -> None:
    """KRK, Ka1 Rd3: the king may stand next to the rook, which only the rook's moves save, and
    wherever it goes the king may be next to it again; every line ends with the rook taken."""
    tables = solver("KRK", "berkeley")
    text, refutation = refuted_row(tables, (chess.A1, chess.D3), 60)
    assert refutation["format"] == "ksolve-refutation" and refutation["positions"] == 45
    problem = ksolve.load_problem_text(text, refutation["problem"])
    checked = ksolve.check(problem, refutation)
    assert checked.verified and checked.at_any_length, checked.format()
    assert checked.format().startswith("verified: no mate at any length under berkeley (45 initial positions")
    import json

    lost = next(i for i, node in enumerate(refutation["nodes"]) if node.get("reply", [None, None])[1] == "lost")
    tampered = json.loads(json.dumps(refutation))
    tampered["nodes"][lost]["reply"][0] = {}  # a silent reply instead of the capture
    assert not ksolve.check(problem, tampered).verified


def test_a_refutation_that_needs_the_move_limit_is_no_claim_at_any_length() -> None:
    """Ka1 Qh1 against a king on a8/b8/a7/b7 is won in 8, not in 3: the refutation of 3
    ends lines where White's moves are spent, so it says no more than "no mate in 3"."""
    tables = solver("KQK", "berkeley")
    text, refutation = refuted_row(tables, (chess.A1, chess.H1), 3, region("a8,b8,a7,b7"))
    checked = ksolve.check(ksolve.load_problem_text(text, refutation["problem"]), refutation)
    assert checked.verified and not checked.at_any_length, checked.format()
    assert checked.claim == "no mate in 3" and len(refutation["nodes"]) > 100
    with pytest.raises(ksolve.refutations.NothingToRefute):
        refuted_row(tables, (chess.A1, chess.H1), 8, region("a8,b8,a7,b7"))


# --- the sweep -----------------------------------------------------------------------------
def test_a_sweep_writes_resumable_rows_and_reads_them_back(tmp_path) -> None:
    out = tmp_path / "kqk.tsv"
    spec = SweepSpec("KQK", "berkeley", max_moves=14)
    whole = sweep(spec, out, placements_limit=40)
    assert whole.complete and read_table(out).rows == whole.rows
    assert {row.result for row in whole.rows} <= {"13", "14", "none within 14"}
    stopped = tmp_path / "stopped.tsv"
    calls = []

    def interrupt(state) -> None:
        calls.append(state)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep(spec, stopped, placements_limit=40, progress=interrupt)
    kept = read_table(stopped)
    assert not kept.complete and (tmp_path / "stopped.tsv.runs.jsonl").exists()
    resumed = sweep(spec, stopped, placements_limit=40)
    assert [(row.placement, row.result) for row in resumed.rows] == [(row.placement, row.result) for row in whole.rows]
    assert read_table(stopped).rows == resumed.rows


def test_a_deeper_sweep_searches_the_rows_beyond_the_old_depth_again(tmp_path) -> None:
    out = tmp_path / "kqk.tsv"
    sweep(SweepSpec("KQK", "berkeley", max_moves=13), out, placements_limit=16)
    assert any(row.result == "none within 13" for row in read_table(out).rows)
    deeper = sweep(SweepSpec("KQK", "berkeley", max_moves=16), out, placements_limit=16)
    assert all(row.result != "none within 13" for row in deeper.rows)
    assert read_table(out).max_moves == 16


@pytest.mark.slow
def test_the_dask_sweep_equals_the_sweep_in_process(tmp_path) -> None:
    spec = SweepSpec("KQK", "berkeley", max_moves=15)
    alone = sweep(spec, tmp_path / "alone.tsv", placements_limit=64)
    cluster = sweep(spec, tmp_path / "cluster.tsv", placements_limit=64, jobs=2)
    assert alone.rows and [(r.placement, r.result) for r in alone.rows] == \
        [(r.placement, r.result) for r in cluster.rows]


@pytest.mark.slow
def test_the_whole_kqk_table_and_its_maximum() -> None:
    """All 518 placements under Berkeley; the same table under Wild 16 (a lone king
    hears nothing the two rule sets tell apart: no pawn tries, captures end the game)."""
    berkeley = ksolve.endgame("KQK", max_moves=30)
    assert berkeley.complete and berkeley.maximum == 18 and len(berkeley.reaching_maximum()) == 28
    wild = ksolve.endgame("KQK", rules="wild16", max_moves=30)
    assert [(r.placement, r.result) for r in wild.rows] == [(r.placement, r.result) for r in berkeley.rows]


# --- the table file, the pictures, the command line -------------------------------------------
def _write(path: Path, body: str) -> Path:
    path.write_text("# ksolve endgame table\n# material\tKQK\n# rules\tberkeley\n# max-moves\t20\n"
                    "placement\tbelief\tshortest\tnodes\tseconds\n" + body, encoding="utf-8")
    return path


def test_a_table_file_is_read_back_and_bad_ones_are_named(tmp_path) -> None:
    good = _write(tmp_path / "a.tsv", "Ka1 Qh1\t40\t16\t5\t0.1\nKa1 Qd3\t45\tnone\t1\t0\n"
                                      "Kb1 Qh1\t39\tnone within 20\t9\t0.5\nKc1 Qh1\t39\t1")
    table = read_table(good)  # the last line torn by a crash: left out
    assert [row.result for row in table.rows] == ["16", "none", "none within 20"]
    assert table.maximum == 16 and table.reaching_maximum()[0].squares == (chess.A1, chess.H1)
    for body, words in (("Ka1 Qh1\t40\tsixteen\t5\t0.1\n", "line 6: cannot read"),
                        ("Kz9 Qh1\t40\t16\t5\t0.1\n", "line 6: cannot read"),
                        ("Ka1 Qh1\t40\t16\n\n", "line 6: expected 5"),
                        ("Ka1 Rd3\t45\tnone\t1\t0\n", "line 6: 'Ka1 Rd3' is not a placement of KQK")):
        with pytest.raises(ksolve.InputError, match=words):
            read_table(_write(tmp_path / "bad.tsv", body))
    (tmp_path / "no.tsv").write_text("hello\n")
    with pytest.raises(ksolve.InputError, match="not an endgame table"):
        read_table(tmp_path / "no.tsv")


def test_heat_maps_spread_each_row_over_its_images() -> None:
    table = EndgameTable("KQK", "berkeley", 20, [EndgameRow("Ka1 Qh1", 40, 16, 15, False, 1, 0.1),
                                                 EndgameRow("Kb2 Qc3", 40, 14, 13, False, 1, 0.1),
                                                 EndgameRow("Ka1 Qb3", 40, None, 20, False, 1, 0.1)])
    king, queen = heat_maps(table)
    assert king.worst[chess.H8] == 16 and king.worst[chess.G7] == 14 and king.worst[chess.A1] == 16
    assert king.without[chess.A1] == 2 and queen.without[chess.C2] == 1  # Ka1 Qb3's images Qb3, Qc2
    assert king.mean[chess.A1] == 16 and king.placements[chess.A1] == 4  # Qh1, Qa8, Qb3, Qc2
    ElementTree.fromstring(heat_map_svg(king))
    ElementTree.fromstring(heat_map_svg(queen, mean=True))
    ElementTree.fromstring(without_svg(queen))
    assert "Ka1 Qh1" in report_html(table)


def test_the_command_line_builds_resumes_and_shows_a_table(tmp_path) -> None:
    runner = CliRunner()
    out = tmp_path / "krk.tsv"
    result = runner.invoke(main, ["endgame", "KQK", "--max-moves", "13", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "none within 13: 515" in result.output and "13: 3" in result.output
    shown = runner.invoke(main, ["endgame", "--show", str(out), "--report", str(tmp_path / "r.html"),
                                 "--svg", str(tmp_path / "svg")])
    assert shown.exit_code == 0 and "maximum: 13 moves, reached by 3 placement(s)" in shown.output
    assert "worst shortest win by the White king's square" in shown.output
    assert len(list((tmp_path / "svg").glob("*.svg"))) == 6 and (tmp_path / "r.html").exists()  # worst, mean, without


def test_the_command_line_certifies_the_maxima_and_the_rows_none(tmp_path) -> None:
    table = tmp_path / "krk.tsv"
    table.write_text("# ksolve endgame table\n# material\tKRK\n# rules\tberkeley\n# max-moves\t60\n"
                     "placement\tbelief\tshortest\tnodes\tseconds\n"
                     "Ka1 Rd3\t45\tnone\t2\t0.0\nKa1 Re3\t45\tnone\t2\t0.0\nKb3 Rc2\t45\tnone within 60\t9\t0.1\n",
                     encoding="utf-8")
    folder = tmp_path / "certified"
    result = CliRunner().invoke(main, ["endgame", "--show", str(table), "--certify", str(folder)])
    assert result.exit_code == 0, result.output
    assert "certificates: 2 of 2 verified by the checker (the 0 maxima, then the rows 'none'" in result.output
    assert result.output.count("verified: no mate at any length under berkeley") == 2
    assert len(list(folder.glob("*.cert.json"))) == 2  # "none within 60" has nothing to certify
    stopped = CliRunner().invoke(main, ["endgame", "--show", str(table), "--certify", str(tmp_path / "s"),
                                        "--timeout", "0.001"])
    assert stopped.exit_code == 3, stopped.output
    left = re.search(r"stopped at --timeout: (\d) rows not certified", stopped.output)
    assert left and 1 <= int(left.group(1)) <= 2  # the clock is read between rows
    assert len(list((tmp_path / "s").glob("*.cert.json"))) == 2 - int(left.group(1))


@pytest.mark.parametrize("args,words", [
    (["endgame", "KXK"], "MATERIAL: material 'KXK': White has the king and queens"),
    (["endgame"], "MATERIAL: missing"),
    (["endgame", "KQK", "--rules", "modern"], "--rules: modern has probes"),
    (["endgame", "KQK", "--rules", "nonsense"], "--rules: unknown rule set 'nonsense'"),
    (["endgame", "KQK", "--max-moves", "0"], "--max-moves: 0 is not in the range"),
    (["endgame", "--show", "missing.tsv"], "missing.tsv: cannot read"),
])
def test_bad_input_is_one_error_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1].startswith("ksolve: error: " + words)


def test_a_table_of_another_material_is_not_resumed(tmp_path) -> None:
    out = _write(tmp_path / "kqk.tsv", "")
    result = CliRunner().invoke(main, ["endgame", "KRK", "-o", str(out)])
    assert result.exit_code == 2 and "a table of KQK under berkeley, not of KRK under berkeley" in result.output


def test_the_api_reads_what_the_command_wrote(tmp_path) -> None:
    out = tmp_path / "t.tsv"
    table = ksolve.endgame("KQK", output=out, max_moves=12)
    assert ksolve.read_endgame(out).rows == table.rows and table.maximum is None


def test_general_position_leaves_out_the_squares_next_to_an_unguarded_man() -> None:
    """Ka1 Rh8: the king may not start on g7 in general position (next to the rook no
    White man guards); Kb1 Rb2: the rook is guarded, every legal square stays."""
    tables = solver("KRK", "berkeley")
    far = tables.placement((chess.A1, chess.H8)).number
    assert tables.start_squares(far, "anywhere") & ~tables.start_squares(far, "general") == region("g7")
    near = tables.placement((chess.B1, chess.B2)).number
    assert tables.start_squares(near, "general") == tables.start_squares(near, "anywhere")
    table = sweep(SweepSpec("KRK", "berkeley", max_moves=40, start="general"), placements_limit=12)
    assert table.start == "general" and "general position" in table.describe()
    general = {row.placement: row.result for row in table.rows}
    anywhere = {row.placement: row.result for row in sweep(SweepSpec("KRK", "berkeley", max_moves=40),
                                                           placements_limit=12).rows}
    for name, result in general.items():  # fewer squares: never a longer win
        if anywhere[name].isdigit():
            assert result.isdigit() and int(result) <= int(anywhere[name])


def test_a_general_position_sweep_gives_the_shortest_wins_of_independent_proofs() -> None:
    """The sweep remembers each placement's win from *its start* (general position:
    fewer squares than all legal ones) and reuses it only inside those squares: its
    rows equal fresh solves of the same starts."""
    table = sweep(SweepSpec("KRK", "berkeley", max_moves=40, start="general"), placements_limit=48)
    tables = solver("KRK", "berkeley")
    rows = [row for row in table.rows if row.moves is not None][::8]
    assert len(rows) >= 3
    for row in rows:
        number = tables.placement(row.squares).number
        fresh = _fresh("KRK", "berkeley")
        assert fresh.shortest_from(row.squares, tables.start_squares(number, "general"), 40).moves == row.moves
