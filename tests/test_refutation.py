"""Refutation and verdict certificates (``docs/certificate.md``): "no mate in n", a try's
refutation and a whole verdict (sound, cooked, short, no solution) written by ksolve and
checked by the independent checker, which enumerates White's choices itself; against the
python-chess brute force on random small problems; tampered certificates all rejected."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

import ksolve
from bruteforce import BruteForce, belief_from_hidden
from test_lone_king import _random_lone_king
from ksolve.checker import check_certificate
from ksolve.checker.refutation import check_refutation_text
from ksolve.checker.schema import CertificateError
from ksolve.cli import main
from ksolve.problem import load_problem_text
from ksolve.refutations import NothingToRefute, RefutationTooLarge, refutation
from ksolve.verdict_certificates import verdict_certificate

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ("foster-1996", "anderson-01", "anderson-05", "anderson-21", "fog-01", "loustau-1988-a")


def problem_text(fen: str, hidden: list[str], rules: str, moves: int) -> str:
    return (f'stipulation = "#{moves}"\nrules = "{rules}"\n[position]\nfen = "{fen}"\n'
            + (f"hidden = {json.dumps(hidden)}\n" if hidden else ""))


@pytest.fixture(scope="module")
def verdicts() -> dict:
    found = {}
    for name in PROBLEMS:
        path = ROOT / "problems" / f"{name}.toml"
        problem = ksolve.load_problem(path)
        report = ksolve.verify(problem, duals=False, jobs=1)
        found[name] = (path, problem, report, verdict_certificate(problem, report))
    return found


@pytest.mark.parametrize("name", PROBLEMS)
def test_a_bundled_problems_whole_verdict_is_checked(verdicts, name: str) -> None:
    """The checker draws ksolve's verdict from the parts it checked itself."""
    path, _, report, written = verdicts[name]
    assert not written.left_out
    result = check_certificate(path, written.data)
    assert result.verified, result.format()
    assert result.claim.startswith(f"{report.verdict}: key")
    assert sorted(key.move for key in report.keys) == sorted(json.loads(json.dumps(
        [s["nodes"][s["initial"][0][1]]["attempt"] for s in written.data["strategies"]])))
    firsts = {refutation["first"] for refutation in written.data["refutations"] if "first" in refutation}
    assert len(firsts) == report.tries_total


def test_no_solution_and_a_short_solution_are_verdicts_too(tmp_path) -> None:
    """K+R against the king on a8 (Rh8 mates): as a #2 the problem has short solutions (Rh8
    mates in 1; every key needing 2 shown to need them, no mate in 1 beginning with it); with
    the king on c6 as a #1 it has no solution (one refutation of every first move).  A
    verdict is about the stipulated moves."""
    for fen, moves, verdict in (("k7/8/1K6/8/8/8/8/7R w - - 0 1", 2, "short solution"),
                                ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 1, "no solution")):
        path = tmp_path / f"p{moves}.toml"
        path.write_text(problem_text(fen, [], "berkeley", moves))
        problem = ksolve.load_problem(path)
        report = ksolve.verify(problem, duals=False, jobs=1)
        assert report.verdict == verdict
        written = verdict_certificate(problem, report)
        result = check_certificate(path, written.data)
        assert result.verified and result.claim.startswith(verdict), result.format()
        path.write_text(problem_text(fen, [], "berkeley", moves + 1))
        assert "stipulates" in check_certificate(path, written.data).reason


@pytest.mark.parametrize("seed", range(12))
def test_refutations_agree_with_the_brute_force(seed: int) -> None:
    """K and a piece against a king hidden on an edge (wins and losses both common): where
    the brute force finds no win within n, the refutation is written and checks; where it
    finds one, there is nothing to refute."""
    rng = random.Random(seed)
    found = None
    while found is None:
        found = _random_lone_king(rng)
    fen, hidden = found
    brute = BruteForce("berkeley")
    for moves in (1, 2):
        text = problem_text(fen, hidden, "berkeley", moves)
        problem = load_problem_text(text, "x.toml")
        if brute.wins(belief_from_hidden(fen, hidden), moves):
            with pytest.raises(NothingToRefute):
                refutation(problem, moves)
        else:
            result = check_refutation_text(text, refutation(problem, moves), "x.toml")
            assert result.verified, (fen, hidden, moves, result.format())


def _random_pawn_problem(rng: random.Random) -> tuple[str, list[str]]:
    """White's king, rook and a pawn against a king seen on the edge and a hidden pawn
    that the white pawn may or may not capture ("Any?" has both answers)."""
    while True:
        board = chess.Board(None)
        pawn = chess.square(rng.randrange(1, 7), rng.randrange(2, 5))
        king, rook = rng.sample([s for s in range(32) if s != pawn], 2)
        black = chess.square(rng.randrange(8), 7)
        board.set_piece_at(pawn, chess.Piece(chess.PAWN, chess.WHITE))
        board.set_piece_at(king, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(rook, chess.Piece(chess.ROOK, chess.WHITE))
        board.set_piece_at(black, chess.Piece(chess.KING, chess.BLACK))
        ahead = [pawn + 7, pawn + 9, pawn + 8 + rng.choice([-16, 16])]
        squares = sorted({s for s in ahead if 0 <= s < 56 and board.piece_at(s) is None
                          and abs(chess.square_file(s) - chess.square_file(pawn)) <= 1})
        fen = board.fen().split()[0] + " w - - 0 1"
        hidden = ["p:" + ",".join(chess.square_name(s) for s in squares)]
        try:
            if squares and len(ksolve.load_problem_text(problem_text(fen, hidden, "english", 2), "x.toml").belief()) > 1:
                return fen, hidden
        except ValueError:
            continue


@pytest.mark.parametrize("seed, rules", [(seed, rules) for seed in range(6) for rules in ("english", "berkeley-any")])
def test_refutations_with_any_agree_with_the_brute_force(seed: int, rules: str) -> None:
    """With a pawn capture that may or may not be there: "Any?" and the pawn tries it obliges."""
    rng = random.Random(100 + seed)
    fen, hidden = _random_pawn_problem(rng)
    brute = BruteForce(rules)
    for moves in (1, 2):
        text = problem_text(fen, hidden, rules, moves)
        problem = load_problem_text(text, "x.toml")
        if brute.wins(belief_from_hidden(fen, hidden), moves):
            with pytest.raises(NothingToRefute):
                refutation(problem, moves)
        else:
            certificate = refutation(problem, moves)
            result = check_refutation_text(text, certificate, "x.toml")
            assert result.verified, (fen, hidden, rules, moves, result.format())


def test_a_refutation_past_its_node_limit_is_not_written() -> None:
    problem = ksolve.load_problem(ROOT / "problems" / "ciancarini-intro-7.1.toml")
    with pytest.raises(RefutationTooLarge, match="more than 50 nodes"):
        refutation(problem, 2, max_nodes=50)


# --- tampering --------------------------------------------------------------------------------
def _white_nodes(node: dict, path: tuple = ()) -> list[tuple]:
    """The paths (key sequences) of every White node of a refutation tree."""
    found = [path]
    for index, (_, answer, child) in enumerate(node.get("attempts", [])):
        if isinstance(child, dict):
            if answer == "No":
                found += _white_nodes(child, path + ("attempts", index, 2))
            elif isinstance(child["reply"][1], dict):
                found += _white_nodes(child["reply"][1], path + ("attempts", index, 2, "reply", 1))
    if "any" in node:
        found += _white_nodes(node["any"][1], path + ("any", 1))
    return found


def _at(root: dict, path: tuple):
    for step in path:
        root = root[step]
    return root


def _mutations(certificate: dict, rng: random.Random, count: int) -> list[tuple[str, dict]]:
    """Changes each of which makes the claim unproven: an attempt dropped, "lost" where the
    game goes on, a chosen answer replaced by one the referee does not give or by mate, an
    attempt that is no choice of White's, a position kept that does not reach there."""
    nodes = _white_nodes(certificate["initial"][1])
    out = []
    while len(out) < count:
        changed = copy.deepcopy(certificate)
        path = rng.choice(nodes)
        node = _at(changed["initial"][1], path)
        attempts = node.get("attempts", [])
        kind = rng.randrange(5)
        if kind == 0 and attempts:
            dropped = attempts.pop(rng.randrange(len(attempts)))
            out.append((f"{dropped[0]} dropped at {path}", changed))
        elif kind == 1 and any(isinstance(entry[2], dict) and entry[1] != "No" for entry in attempts):
            entry = rng.choice([entry for entry in attempts if isinstance(entry[2], dict) and entry[1] != "No"])
            entry[2] = "lost"
            out.append((f"lost after {entry[0]} at {path}", changed))
        elif kind == 2 and any(entry[1] != "No" for entry in attempts):
            entry = rng.choice([entry for entry in attempts if entry[1] != "No"])
            entry[1] = rng.choice([{"end": "checkmate"}, {"capture": "h8", "captured": "piece"}, {"checks": ["knight"]}])
            out.append((f"{entry[0]} answered {entry[1]} at {path}", changed))
        elif kind == 3:
            node.setdefault("attempts", []).append(["a1h8", {}, "lost"])
            out.append((f"a1h8 answered at {path}", changed))
        elif kind == 4:
            node["keep"] = ["8/8/8/8/8/8/8/k6K w - -"]
            out.append((f"a position kept at {path} that does not reach it", changed))
    return out


@pytest.mark.parametrize("name", ["foster-1996", "anderson-21", "fog-01"])
def test_tampered_refutations_are_all_rejected(verdicts, name: str) -> None:
    """Twenty-five changes per problem to its refutations written as trees (75 in all),
    none accepted."""
    path, problem, report, written = verdicts[name]
    rng = random.Random(name)
    tries = [r["first"] for r in written.data["refutations"] if "first" in r]
    refutations = [refutation(problem, report.moves - 1, dag=False)]
    refutations += [refutation(problem, None, first, dag=False) for first in rng.sample(tries, 4)]
    accepted = []
    for tree in refutations:
        assert check_certificate(path, tree).verified
        for what, changed in _mutations(tree, rng, 5):
            try:
                result = check_certificate(path, changed)
            except CertificateError:
                continue
            if result.verified:
                accepted.append(what)
    assert not accepted


def test_tampered_dags_are_rejected(verdicts) -> None:
    """A refutation DAG with a reference back (a cycle), a dangling one, a node no one refers
    to, a Black node where a White one is due, or a shared node's attempt dropped."""
    path, _, _, written = verdicts["foster-1996"]
    dag = next(r for r in written.data["refutations"] if any("reply" in node for node in r["nodes"]))
    assert dag["version"] == 2 and check_certificate(path, dag).verified
    shared = [i for i, node in enumerate(dag["nodes"]) if node.get("attempts")]
    white, black = shared[-1], next(i for i, node in enumerate(dag["nodes"]) if "reply" in node)

    def changed(change) -> dict:
        copied = copy.deepcopy(dag)
        change(copied)
        return copied

    def points_back(c):
        c["nodes"][black]["reply"][1] = 0

    def dangles(c):
        c["nodes"][black]["reply"][1] = len(c["nodes"])

    def unused(c):
        c["nodes"].append({"attempts": []})

    def wrong_kind(c):
        c["nodes"][0]["attempts"].append(["a1h8", "No", black])

    def shared_attempt_dropped(c):
        c["nodes"][white]["attempts"].pop()

    for change, message in ((points_back, "not after node"), (dangles, "must be the index of a node"),
                            (unused, "no node refers to it"), (wrong_kind, "is referred to as a")):
        with pytest.raises(CertificateError, match=message):
            check_certificate(path, changed(change))
    assert not check_certificate(path, changed(shared_attempt_dropped)).verified


def test_a_false_claim_is_not_certified(verdicts) -> None:
    """A key's refutation cannot be made: the key's refutation built from a try's by naming
    the key first, the try's answers kept, is rejected; so are the claim stretched by a move
    and a verdict bundle missing a part or stating another verdict."""
    path, _, report, written = verdicts["foster-1996"]
    key = report.keys[0].move
    a_try = next(r for r in written.data["refutations"] if "first" in r)
    as_key = {**copy.deepcopy(a_try), "first": key}
    assert not check_certificate(path, as_key).verified
    no_mate_in_one = next(r for r in written.data["refutations"] if "first" not in r)
    assert check_certificate(path, no_mate_in_one).verified
    assert not check_certificate(path, {**copy.deepcopy(no_mate_in_one), "moves": 2}).verified
    bundle = copy.deepcopy(written.data)
    bundle["refutations"] = [r for r in bundle["refutations"] if r.get("first") != a_try["first"]]
    result = check_certificate(path, bundle)
    assert not result.verified and "neither a key nor refuted" in result.reason and a_try["first"] in result.reason
    no_shorter = {**written.data, "refutations": [r for r in written.data["refutations"] if "first" in r]}
    assert "no refutation shows that a8a4 needs 2 moves" in check_certificate(path, no_shorter).reason
    assert "the parts prove sound" in check_certificate(path, {**written.data, "verdict": "cooked"}).reason
    assert not check_certificate(path, {**written.data, "strategies": []}).verified


@pytest.mark.parametrize("change, message", [
    (lambda c: c.update(version=3), "version: this checker reads refutation versions 1 and 2"),
    (lambda c: c.update(goal="king-capture"), "goal: 'king-capture' is not the goal of the berkeley rule set"),
    (lambda c: c.update(first="z9"), "first: 'z9' is not a UCI move"),
    (lambda c: c.update(moves=0), "moves: must be a whole number of at least 1"),
    (lambda c: c["initial"][1].update(keep=[]), "initial[1].keep: must be a non-empty list of EPD strings"),
    (lambda c: c["initial"][1]["attempts"].append(c["initial"][1]["attempts"][0]), "is listed twice"),
    (lambda c: c["initial"][1]["attempts"][0].__setitem__(1, 7), "must be \"No\" or an observation object"),
])
def test_a_malformed_refutation_is_refused_naming_the_field(verdicts, change, message: str) -> None:
    path, problem, _, _ = verdicts["foster-1996"]
    changed = refutation(problem, 1, dag=False)
    change(changed)
    with pytest.raises(CertificateError, match=re.escape(message)):
        check_certificate(path, changed)


# --- the command line ---------------------------------------------------------------------------
def test_verify_writes_the_verdicts_certificate_and_check_reads_it(tmp_path) -> None:
    out = tmp_path / "verdict.json"
    runner = CliRunner()
    verified = runner.invoke(main, ["verify", "problems/anderson-01.toml", "--no-duals", "--certificate", str(out)])
    assert verified.exit_code == 0, verified.output
    assert f"certificate written to {out} (1 strategy, 30 refutations)" in verified.output
    checked = runner.invoke(main, ["check", "problems/anderson-01.toml", str(out)])
    assert checked.exit_code == 0, checked.output
    assert checked.output.startswith("verified: sound: key b1a1 (mate in 2), 29 other first moves refuted, "
                                     "no mate in 1 under english")
    bundle = json.loads(out.read_text())
    bundle["refutations"].pop()
    out.write_text(json.dumps(bundle))
    refused = runner.invoke(main, ["check", "problems/anderson-01.toml", str(out)])
    assert refused.exit_code == 1 and refused.output.startswith("not verified: every part checks, but")


def test_past_the_time_limit_the_parts_left_are_named(verdicts) -> None:
    """The certificate keeps what was written; the part the limit cut and those after it
    are named, and the checker says what stays unproven."""
    from ksolve.search.run import Limits

    path, problem, report, _ = verdicts["anderson-01"]
    written = verdict_certificate(problem, report, limits=Limits(seconds=0))
    assert written.left_out == ["the strategy of b1a1 and the 30 parts after it: time limit 0 s reached"]
    result = check_certificate(path, written.data)
    assert not result.verified and "neither a key nor refuted" in result.reason
