"""Certificate format version 2 (``docs/certificate.md``): every distinct node once,
referred to by index.  The bundled problems' strategies written both ways check alike;
a DAG is much smaller where a strategy meets the same turns on many lines; tampered
DAGs (a cycle, a backward or dangling reference, a node of the wrong kind, an unused
node, a changed move in a shared node, a dropped branch) are all rejected."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ksolve
from ksolve.checker.schema import CertificateError
from ksolve.cli import main

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ("foster-1996", "rotenberg-1976", "anderson-11", "fog-01", "dawson-fcr3190", "composed/kq-darkbishop-4a")


@pytest.fixture(scope="module")
def solved() -> dict:
    found = {}
    for name in PROBLEMS:
        problem = ksolve.load_problem(ROOT / "problems" / f"{name}.toml")
        found[name] = (problem, ksolve.solve(problem, jobs=1))
    return found


@pytest.mark.parametrize("name", PROBLEMS)
def test_both_formats_check_alike(solved, name: str) -> None:
    problem, solution = solved[name]
    tree, dag = ksolve.certificate(problem, solution), ksolve.certificate(problem, solution, dag=True)
    assert dag["version"] == 2 and tree["version"] == 1
    assert all(isinstance(number, int) for _, number in dag["initial"])
    checked_tree, checked_dag = ksolve.check(problem, tree), ksolve.check(problem, dag)
    assert checked_tree.verified and checked_dag.verified, (checked_tree.format(), checked_dag.format())
    assert checked_dag.nodes <= checked_tree.nodes
    assert len(json.dumps(dag)) <= len(json.dumps(tree)) * 1.2


def test_a_strategy_meeting_turns_again_is_written_once(tmp_path) -> None:
    """K+R against the king in the 3x3 corner (mate in 21): the tree certificate is some
    fifty times the DAG, which the checker replays node by node once."""
    import chess

    from ksolve.endgame.certify import problem_text
    from ksolve.endgame.sweep import SweepSpec, solver_for

    corner = sum(1 << chess.square(f, r) for f in range(3) for r in range(5, 8))
    path = tmp_path / "rook.toml"
    path.write_text(problem_text(solver_for(SweepSpec("KRK", "berkeley")), (chess.A1, chess.H1), 21, corner))
    result = CliRunner().invoke(main, ["solve", str(path), "--at-most", "--certificate", str(tmp_path / "c.json"),
                                       "--certificate-format", "dag"])
    assert result.exit_code == 0, result.output
    certificate = json.loads((tmp_path / "c.json").read_text())
    assert certificate["version"] == 2 and len(certificate["nodes"]) < 20_000
    checked = CliRunner().invoke(main, ["check", str(path), str(tmp_path / "c.json")])
    assert checked.exit_code == 0 and "verified: mate in 21" in checked.output, checked.output


def _rejected(problem, certificate, words: str) -> None:
    try:
        result = ksolve.check(problem, certificate)
    except CertificateError as error:
        assert words in str(error), str(error)
        return
    assert not result.verified and words in result.format(), result.format()


def test_tampered_dags_are_rejected(solved) -> None:
    problem, solution = solved["rotenberg-1976"]
    good = ksolve.certificate(problem, solution, dag=True)
    nodes = good["nodes"]
    whites = [i for i, node in enumerate(nodes) if "attempt" in node]
    blacks = [i for i, node in enumerate(nodes) if "replies" in node]
    with_no = next(i for i in whites if "no" in nodes[i])
    assert ksolve.check(problem, good).verified

    def tampered(change) -> dict:
        certificate = copy.deepcopy(good)
        change(certificate["nodes"], certificate)
        return certificate

    cases = [
        (lambda n, c: n[with_no].update(no=with_no), "not after node"),                    # a cycle onto itself
        (lambda n, c: n[blacks[-1]]["replies"][0].__setitem__(1, 0), "not after node"),     # back to the root
        (lambda n, c: n[with_no].update(no=len(n)), "must be the index of a node"),         # dangling
        (lambda n, c: n[with_no].update(no=True), "must be the index of a node"),
        (lambda n, c: n.append({"attempt": "a2a3"}), "no node refers to it"),               # unused
        (lambda n, c: n[with_no].update(no=blacks[-1]) if blacks[-1] > with_no else n[with_no].update(no="x"),
         "node"),                                                                         # a Black node as White's
        (lambda n, c: c.update(nodes=[]), "nodes: must be a non-empty list"),
        (lambda n, c: c.update(version=3), "version"),
        (lambda n, c: n[with_no].pop("no"), "no node refers to it"),                         # a dropped branch
        (lambda n, c: n[whites[-1]].update(attempt="a1a2"), ""),                            # a changed move
    ]
    for change, words in cases:
        _rejected(problem, tampered(change), words)


def test_every_changed_attempt_of_a_dag_is_caught(solved) -> None:
    """Each White node's attempt replaced by another legal-looking move: never verified."""
    problem, solution = solved["foster-1996"]
    good = ksolve.certificate(problem, solution, dag=True)
    caught = 0
    for index, node in enumerate(good["nodes"]):
        if "attempt" not in node:
            continue
        for other in ("a1a8", "h1h2", "e1e2"):
            if other == node["attempt"]:
                continue
            certificate = copy.deepcopy(good)
            certificate["nodes"][index]["attempt"] = other
            try:
                assert not ksolve.check(problem, certificate).verified
            except CertificateError:
                pass
            caught += 1
    assert caught >= 20


def test_a_turn_holding_a_refuted_turns_positions_shares_its_answers_and_a_wrong_keep_is_caught() -> None:
    """Dominance in refutations: a White turn whose positions include those of a turn
    already refuted (same moves left and turn state) is written as that turn's answers with
    ``keep`` naming its positions, which makes anderson-21's verdict smaller; the checker
    verifies it, and rejects each such node keeping a position that does not reach it."""
    from ksolve.verdict_certificates import verdict_certificate

    path = ROOT / "problems" / "anderson-21.toml"
    problem = ksolve.load_problem(path)
    report = ksolve.verify(problem, jobs=1)
    shared = verdict_certificate(problem, report)
    plain = verdict_certificate(problem, report, dominance=False)

    def nodes(written) -> int:
        return sum(len(part.get("nodes", [])) for part in written.data["refutations"])

    kept = [(index, number) for index, part in enumerate(shared.data["refutations"])
            for number, node in enumerate(part.get("nodes", [])) if "keep" in node]
    assert kept and nodes(shared) < nodes(plain)
    assert ksolve.check(path, shared.data).verified and ksolve.check(path, plain.data).verified
    for index, number in kept:
        tampered = copy.deepcopy(shared.data)
        tampered["refutations"][index]["nodes"][number]["keep"].append("8/8/8/8/8/8/8/k6K w - -")
        result = ksolve.check(path, tampered)
        assert not result.verified and "does not reach here" in result.format(), (index, number)
